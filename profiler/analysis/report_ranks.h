/*
 * The ranks of an MPI run in the report (report_ranks.c): per rank and
 * region one row (summed over the rank's threads and processes, time the
 * longest thread), and per region an aggregate over the ranks that ran it:
 * sums of flops and bytes, the longest, mean and shortest rank time and
 * the load imbalance max/mean. NAN where a figure is unknown.
 *
 * Built by rl_report_build() when the results carry ranks (res->mpi), freed
 * by rl_report_release(). Region names point into the report's rows.
 */
#ifndef RL_REPORT_RANKS_H
#define RL_REPORT_RANKS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct rl_report;
struct rl_run_results;

struct rl_rank_row {
	const char *region;
	long rank;
	uint64_t calls;
	unsigned n_threads;
	double time_s;          /* the rank's longest thread */
	double flops, dram_bytes;
	double flops_expected, bytes_expected;
	double gflops, gbs;
	double mpi_s;           /* time in MPI calls, the rank's longest
				   thread's; NAN not measured */
	bool ran;               /* calls > 0; a loop's row (no calls):
				   counted or sampled in the rank */
};

struct rl_rank_agg {
	const char *region;
	unsigned n_ranks;       /* ranks that ran it (rl_rank_row.ran) */
	uint64_t calls;
	double flops_sum, dram_bytes_sum;
	double time_max_s, time_mean_s, time_min_s;
	double imbalance;       /* time_max / time_mean */
	long slowest_rank;
	double gflops, gbs;     /* sums over the longest rank time */
	/* MPI calls (NAN, -1: not measured): the ranks' MPI time, its
	 * max/mean and the ranks with the most and least of it; their own
	 * (non-MPI) time, time_s - mpi_s, its mean, max/mean and longest */
	double mpi_max_s, mpi_mean_s, mpi_imbalance;
	long mpi_max_rank, mpi_min_rank;
	double work_mean_s, work_imbalance;
	long work_max_rank;
};

struct rl_report_ranks {
	long size;              /* ranks in the job */
	size_t n_present;
	char **hosts;           /* size entries, NULL unknown */
	char **missing_why;     /* size entries, NULL when present */
	struct rl_rank_row *rows;   /* by region (report order), then rank */
	size_t n_rows;
	struct rl_rank_agg *aggs;   /* one per region, report order */
	size_t n_aggs;
};

/* 0 or RL_ENOMEM; r->ranks stays NULL when res has no ranks. */
int rl_report_ranks_build(const struct rl_run_results *res,
			  struct rl_report *r);
void rl_report_ranks_free(struct rl_report_ranks *k);

#endif
