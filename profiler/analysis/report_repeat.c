/*
 * rlprof run --repeat N (report.h): the times of the timing runs besides
 * the profiling run (DIR/repeat/K), each read and reduced to summed rows
 * as the report itself is (the longest thread's time), read before the
 * report is built; then per summed row the fastest, the median and the
 * spread over all N runs, and the median as the row's time, from which
 * its rates, its place under the roofs and its diagnosis follow.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/name_index.h"
#include "common/sorted_doubles.h"
#include "analysis/analysis.h"
#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "results/run_results.h"
#include "common/rl_error.h"

#define MAX_RUNS 100

/* The column of a region name, a new one (its name copied, its times
 * NAN in every run) when not seen before; -1 out of memory. */
static long column_of(struct rl_repeat_runs *rr, const char *name)
{
	size_t k;
	char *own;
	double *t;

	if (rl_name_index_get(&rr->ix, name, &k))
		return (long)k;
	if (rr->n_regions == rr->cap) {
		size_t cap = rr->cap ? 2 * rr->cap : 64;
		char **names = realloc(rr->names, cap * sizeof *names);
		if (!names)
			return -1;
		rr->names = names;
		if (!(t = realloc(rr->times, cap * rr->n_runs * sizeof *t)))
			return -1;
		rr->times = t;
		rr->cap = cap;
	}
	if (!(own = strdup(name)))
		return -1;
	k = rr->n_regions;
	if (rl_name_index_put(&rr->ix, own, k)) {
		free(own);
		return -1;
	}
	rr->names[rr->n_regions++] = own;
	for (size_t j = 0; j < rr->n_runs; j++)
		rr->times[k * rr->n_runs + j] = NAN;
	return (long)k;
}

/* The summed rows' times of one timing run into run j. A run that cannot
 * be read is left out (its times NAN). */
static int one_run(struct rl_repeat_runs *rr, const char *dir, size_t j)
{
	struct rl_run_results res;
	struct rl_report r;
	char err[512];
	int rc = 0;

	if (rl_results_load_dir(dir, &res, err, sizeof err) != 0)
		return 0;
	if (rl_report_build(&res, NULL, &r, err, sizeof err) == 0) {
		for (size_t i = 0; i < r.n_summed && !rc; i++) {
			struct rl_region_row buf;
			const struct rl_region_row *row =
				rl_report_row(&r, i, &buf);
			long k;
			if (!row->region)
				continue;
			if ((k = column_of(rr, row->region)) < 0)
				rc = RL_ENOMEM;
			else
				rr->times[(size_t)k * rr->n_runs + j] =
					row->time_s;
		}
		rl_report_release(&r);
	}
	rl_run_results_release(&res);
	return rc;
}

int rl_repeat_runs_read(struct rl_repeat_runs *rr, const char *out_dir)
{
	char dir[4096];
	struct stat st;
	unsigned ks[MAX_RUNS];

	memset(rr, 0, sizeof *rr);
	for (unsigned k = 2; k <= MAX_RUNS; k++) {
		snprintf(dir, sizeof dir, "%s/repeat/%u/raw", out_dir, k);
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			ks[rr->n_runs++] = k;
	}
	for (size_t j = 0; j < rr->n_runs; j++) {
		snprintf(dir, sizeof dir, "%s/repeat/%u", out_dir, ks[j]);
		if (one_run(rr, dir, j)) {
			rl_repeat_runs_release(rr);
			return RL_ENOMEM;
		}
	}
	return 0;
}

void rl_repeat_runs_release(struct rl_repeat_runs *rr)
{
	rl_name_index_release(&rr->ix);
	for (size_t k = 0; k < rr->n_regions; k++)
		free(rr->names[k]);
	free(rr->names);
	free(rr->times);
	memset(rr, 0, sizeof *rr);
}

int rl_report_repeat_open(struct rl_report *rep,
			  const struct rl_repeat_runs *rr, size_t n_summed)
{
	if (!rr || !rr->n_runs || !n_summed)
		return 0;
	rep->repeat_times = malloc(n_summed * (rr->n_runs + 1) *
				   sizeof *rep->repeat_times);
	return rep->repeat_times ? 0 : RL_ENOMEM;
}

void rl_row_repeat(const struct rl_report *rep,
		   const struct rl_repeat_runs *rr, size_t k,
		   struct rl_region_row *row)
{
	double v[MAX_RUNS + 1], *keep, t = row->time_s;
	const double *runs = NULL;
	size_t col, m = 0;

	if (!rr || !rr->n_runs || !rep->repeat_times)
		return;
	if (row->region && rl_name_index_get(&rr->ix, row->region, &col))
		runs = rr->times + col * rr->n_runs;
	/* each row's runs in order, kept for the tests of diff and check
	 * (shift_test.h): the profiling run's time, then the others' */
	keep = rep->repeat_times + k * (rr->n_runs + 1);
	for (size_t j = 0; j <= rr->n_runs; j++) {
		double x = j == 0 ? t : runs ? runs[j - 1] : NAN;
		keep[j] = rl_known(x) && x > 0 ? x : NAN;
		if (!isnan(keep[j]))
			v[m++] = x;
	}
	if (m < 2)
		return;
	row->repeat_times_s = keep;
	row->repeat_n_times = (unsigned)(rr->n_runs + 1);
	rl_sort_doubles(v, m);
	row->repeat_runs = (unsigned)m;
	row->time_min_s = v[0];
	row->time_median_s = rl_median_sorted(v, m);
	row->time_spread_pct = (v[m - 1] - v[0]) / v[0] * 100;
	/* the figure a user reads is the runs' median, its interval around
	 * it (row_interval.c): the build takes the rates from this time */
	row->time_s = row->time_median_s;
}
