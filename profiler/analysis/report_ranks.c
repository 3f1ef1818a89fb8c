/*
 * Per-rank rows and per-region aggregates over ranks (report_ranks.h).
 *
 * The per-thread rows of the report come in the order rl_report_build()
 * walks the results (processes, their threads, their regions), so the
 * row of process p, thread t, region i is found by walking the same way:
 * no lookup by pid, which two ranks on two hosts may share.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "results/results_ranks.h"
#include "common/rl_error.h"

void rl_report_ranks_free(struct rl_report_ranks *k)
{
	if (!k)
		return;
	for (long r = 0; r < k->size; r++) {
		if (k->hosts)
			free(k->hosts[r]);
		if (k->missing_why)
			free(k->missing_why[r]);
	}
	free(k->hosts);
	free(k->missing_why);
	free(k->rows);
	free(k->aggs);
	free(k);
}

static double rate(double num, double den)
{
	double q;

	if (isnan(num) || isnan(den) || den <= 0)
		return NAN;
	q = num / den;
	return isfinite(q) ? q : NAN;
}

/* The MPI rank of the process at index proc of the results, -1 unknown:
 * by index, never by pid (two ranks' processes may share one). */
static long rank_of_proc(const struct rl_run_results *res, long proc)
{
	if (proc < 0 || (size_t)proc >= res->n_procs || !res->mpi->proc_rank)
		return -1;
	return res->mpi->proc_rank[proc];
}

/* Row name is a hot loop's (rlprof run --loops): it has no calls. */
static bool is_loop(const struct rl_run_results *res, const char *name)
{
	for (size_t i = 0; name && i < res->n_loops; i++)
		if (res->loops[i].name && strcmp(res->loops[i].name, name) == 0)
			return true;
	return false;
}

static int header(const struct rl_mpi_results *m, struct rl_report_ranks *k)
{
	k->size = m->size;
	k->hosts = calloc((size_t)m->size + 1, sizeof *k->hosts);
	k->missing_why = calloc((size_t)m->size + 1, sizeof *k->missing_why);
	if (!k->hosts || !k->missing_why)
		return RL_ENOMEM;
	for (long i = 0; i < m->size; i++) {
		const struct rl_rank_info *ri = &m->ranks[i];
		if (ri->host && !(k->hosts[i] = strdup(ri->host)))
			return RL_ENOMEM;
		if (ri->why && !(k->missing_why[i] = strdup(ri->why)))
			return RL_ENOMEM;
		k->n_present += ri->present;
	}
	return 0;
}

/* rows[region * size + rank] from the per-thread rows */
static int fill_rows(const struct rl_run_results *res,
		     const struct rl_report *r, struct rl_report_ranks *k)
{
	const struct rl_mpi_results *m = res->mpi;
	size_t n = r->n_summed * (size_t)m->size;

	k->rows = calloc(n ? n : 1, sizeof *k->rows);
	if (!k->rows)
		return RL_ENOMEM;
	k->n_rows = n;
	for (size_t g = 0; g < r->n_summed; g++) {
		struct rl_region_row buf;
		const char *region = rl_report_row(r, g, &buf)->region;
		for (long q = 0; q < m->size; q++) {
			struct rl_rank_row *x = &k->rows[g * (size_t)m->size +
							 (size_t)q];
			x->region = region;
			x->rank = q;
			x->time_s = x->flops = x->dram_bytes = 0;
			x->flops_expected = x->bytes_expected = NAN;
			x->mpi_s = NAN;
		}
	}
	/* each summed row's per-thread rows (grouped under it), each into
	 * the rank of its process */
	for (size_t g = 0; g < r->n_summed; g++) {
		struct rl_region_row sr_buf;
		const struct rl_region_row *sr =
			rl_report_row(r, g, &sr_buf);
		bool loop = is_loop(res, sr->region);
		for (size_t row = sr->thread_first;
		     row < sr->thread_first + sr->thread_count; row++) {
			struct rl_region_row buf;
			const struct rl_region_row *tr =
				rl_report_row(r, row, &buf);
			long q = rank_of_proc(res, tr->proc);
			struct rl_rank_row *x;

			if (q < 0 || q >= m->size)
				continue;
			x = &k->rows[g * (size_t)m->size + (size_t)q];
			x->n_threads++;
			x->calls += tr->calls;
			x->ran |= tr->calls > 0 || loop;
			if (tr->time_s > x->time_s || isnan(tr->time_s))
				x->time_s = tr->time_s;
			if (tr->mpi_known &&
			    (isnan(x->mpi_s) || tr->mpi_s > x->mpi_s))
				x->mpi_s = tr->mpi_s;
			x->flops += tr->flops; /* NAN stays */
			x->dram_bytes += tr->dram_bytes;
			if (rl_known(tr->flops_expected))
				x->flops_expected =
					rl_known(x->flops_expected)
						? x->flops_expected +
							  tr->flops_expected
						: tr->flops_expected;
			if (rl_known(tr->bytes_expected))
				x->bytes_expected =
					rl_known(x->bytes_expected)
						? x->bytes_expected +
							  tr->bytes_expected
						: tr->bytes_expected;
		}
	}
	for (size_t i = 0; i < k->n_rows; i++) {
		struct rl_rank_row *x = &k->rows[i];
		if (x->n_threads == 0)
			x->time_s = x->flops = x->dram_bytes = NAN;
		x->gflops = rate(x->flops, x->time_s * 1e9);
		x->gbs = rate(x->dram_bytes, x->time_s * 1e9);
	}
	return 0;
}

/* The ranks' MPI time and own (non-MPI) time in region g: means, max/mean
 * and which ranks; unknown unless every rank that ran it measured it. */
static void fill_mpi(const struct rl_report *r, struct rl_report_ranks *k,
		     size_t g, struct rl_rank_agg *a)
{
	double msum = 0, wsum = 0, wmax = NAN, mmin = NAN;
	unsigned n = 0;

	(void)r;
	a->mpi_max_s = a->mpi_mean_s = a->mpi_imbalance = NAN;
	a->work_mean_s = a->work_imbalance = NAN;
	a->mpi_max_rank = a->mpi_min_rank = a->work_max_rank = -1;
	for (long q = 0; q < k->size; q++) {
		const struct rl_rank_row *x =
			&k->rows[g * (size_t)k->size + (size_t)q];
		double w;

		if (!x->ran)
			continue;
		if (isnan(x->mpi_s))
			return;
		n++;
		w = x->time_s > x->mpi_s ? x->time_s - x->mpi_s : 0;
		msum += x->mpi_s;
		wsum += w;
		if (isnan(a->mpi_max_s) || x->mpi_s > a->mpi_max_s) {
			a->mpi_max_s = x->mpi_s;
			a->mpi_max_rank = q;
		}
		if (isnan(mmin) || x->mpi_s < mmin) {
			mmin = x->mpi_s;
			a->mpi_min_rank = q;
		}
		if (isnan(wmax) || w > wmax) {
			wmax = w;
			a->work_max_rank = q;
		}
	}
	if (!n)
		return;
	a->mpi_mean_s = msum / n;
	a->mpi_imbalance = rate(a->mpi_max_s, a->mpi_mean_s);
	a->work_mean_s = wsum / n;
	a->work_imbalance = rate(wmax, a->work_mean_s);
}

static void fill_aggs(const struct rl_report *r, struct rl_report_ranks *k)
{
	for (size_t g = 0; g < r->n_summed; g++) {
		struct rl_rank_agg *a = &k->aggs[g];
		struct rl_region_row buf;
		double tsum = 0;

		a->region = rl_report_row(r, g, &buf)->region;
		a->flops_sum = a->dram_bytes_sum = 0;
		a->time_max_s = a->time_min_s = a->time_mean_s = NAN;
		a->imbalance = a->gflops = a->gbs = NAN;
		a->slowest_rank = -1;
		for (long q = 0; q < k->size; q++) {
			const struct rl_rank_row *x =
				&k->rows[g * (size_t)k->size + (size_t)q];
			if (!x->ran)
				continue;
			a->n_ranks++;
			a->calls += x->calls;
			a->flops_sum += x->flops;
			a->dram_bytes_sum += x->dram_bytes;
			tsum += x->time_s;
			if (isnan(a->time_max_s) || x->time_s > a->time_max_s) {
				a->time_max_s = x->time_s;
				a->slowest_rank = q;
			}
			if (isnan(a->time_min_s) || x->time_s < a->time_min_s)
				a->time_min_s = x->time_s;
		}
		if (a->n_ranks == 0) {
			a->flops_sum = a->dram_bytes_sum = NAN;
			continue;
		}
		fill_mpi(r, k, g, a);
		a->time_mean_s = tsum / a->n_ranks;
		a->imbalance = rate(a->time_max_s, a->time_mean_s);
		a->gflops = rate(a->flops_sum, a->time_max_s * 1e9);
		a->gbs = rate(a->dram_bytes_sum, a->time_max_s * 1e9);
	}
}

int rl_report_ranks_build(const struct rl_run_results *res,
			  struct rl_report *r)
{
	struct rl_report_ranks *k;
	int rc;

	if (!res->mpi || res->mpi->size <= 0)
		return 0;
	if (!(k = calloc(1, sizeof *k)))
		return RL_ENOMEM;
	r->ranks = k;
	if ((rc = header(res->mpi, k)) || (rc = fill_rows(res, r, k)))
		return rc;
	k->aggs = calloc(r->n_summed ? r->n_summed : 1, sizeof *k->aggs);
	if (!k->aggs)
		return RL_ENOMEM;
	k->n_aggs = r->n_summed;
	fill_aggs(r, k);
	return 0;
}
