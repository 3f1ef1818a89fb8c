/*
 * rlprof run --repeat N (report.h): per region, the fastest, the median
 * and the spread of its time over the N timing runs: the profiling run's
 * (the row's own time) and those of DIR/repeat/K, each read and reduced
 * to summed rows as the report itself is (the longest thread's time).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/name_index.h"
#include "analysis/analysis.h"
#include "analysis/report.h"
#include "results/run_results.h"
#include "common/rl_error.h"

#define MAX_RUNS 100

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The summed rows' times of one timing run into t[region index]. */
static void one_run(const char *dir, const struct rl_name_index *ix,
		    double *t, size_t n)
{
	struct rl_run_results res;
	struct rl_report r;
	char err[512];

	for (size_t i = 0; i < n; i++)
		t[i] = NAN;
	if (rl_results_load_dir(dir, &res, err, sizeof err) != 0)
		return;
	if (rl_report_build(&res, NULL, &r, err, sizeof err) == 0) {
		for (size_t i = 0; i < r.n_summed; i++) {
			size_t k;
			if (r.rows[i].region &&
			    rl_name_index_get(ix, r.rows[i].region, &k) &&
			    k < n)
				t[k] = r.rows[i].time_s;
		}
		rl_report_release(&r);
	}
	rl_run_results_release(&res);
}

int rl_report_repeat(struct rl_report *rep, const char *out_dir)
{
	char dir[4096];
	struct rl_name_index ix = {0};
	unsigned ks[MAX_RUNS];
	size_t n = rep->n_summed, n_runs = 0;
	double *times, v[MAX_RUNS + 1];
	struct stat st;

	for (unsigned k = 2; k <= MAX_RUNS; k++) {
		snprintf(dir, sizeof dir, "%s/repeat/%u/raw", out_dir, k);
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			ks[n_runs++] = k;
	}
	if (!n_runs || !n)
		return 0;
	if (!(times = malloc(n_runs * n * sizeof *times)))
		return RL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (rep->rows[i].region &&
		    rl_name_index_put(&ix, rep->rows[i].region, i)) {
			rl_name_index_release(&ix);
			free(times);
			return RL_ENOMEM;
		}
	for (size_t j = 0; j < n_runs; j++) {
		snprintf(dir, sizeof dir, "%s/repeat/%u", out_dir, ks[j]);
		one_run(dir, &ix, times + j * n, n);
	}
	/* each row's runs in order, kept for the tests of diff and check
	 * (shift_test.h): the profiling run's time, then the others' */
	free(rep->repeat_times);
	if (!(rep->repeat_times = malloc(n * (n_runs + 1) *
					 sizeof *rep->repeat_times))) {
		rl_name_index_release(&ix);
		free(times);
		return RL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct rl_region_row *row = &rep->rows[i];
		double *keep = rep->repeat_times + i * (n_runs + 1);
		size_t m = 0;
		keep[0] = rl_known(row->time_s) && row->time_s > 0 ? row->time_s
								    : NAN;
		if (rl_known(row->time_s) && row->time_s > 0)
			v[m++] = row->time_s;
		for (size_t j = 0; j < n_runs; j++) {
			double x = times[j * n + i];
			keep[j + 1] = rl_known(x) && x > 0 ? x : NAN;
			if (rl_known(x) && x > 0)
				v[m++] = x;
		}
		if (m < 2)
			continue;
		row->repeat_times_s = keep;
		row->repeat_n_times = (unsigned)(n_runs + 1);
		qsort(v, m, sizeof *v, cmp_double);
		row->repeat_runs = (unsigned)m;
		row->time_min_s = v[0];
		row->time_median_s = m % 2 ? v[m / 2]
					   : (v[m / 2 - 1] + v[m / 2]) / 2;
		row->time_spread_pct = (v[m - 1] - v[0]) / v[0] * 100;
		/* the self-check again, with the region's interval: which
		 * of it and its paired roof moved (analysis_check.c) */
		if (row->check && rep->n_pair) {
			free(row->check);
			row->check = NULL;
			row->check_cause = NULL;
			if (rl_self_check(rep, row, rep->run_start_s)) {
				rl_name_index_release(&ix);
				free(times);
				return RL_ENOMEM;
			}
		}
	}
	rl_name_index_release(&ix);
	free(times);
	return 0;
}
