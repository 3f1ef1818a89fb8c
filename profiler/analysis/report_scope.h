/*
 * Regions of process scope in the report (report_scope.c): regions begun
 * on the main thread outside an OpenMP parallel region count the work of
 * every thread of the process (profiler/runtime/rt_scope.h). Per summed
 * row: how many threads ran while it was open, how many were busy on
 * average (CPU time of the process over wall time), and whether the
 * backend's counts cover every thread. The row's n_threads becomes the
 * threads that ran, and a warning names a region whose counts miss
 * threads that ran.
 */
#ifndef RL_REPORT_SCOPE_H
#define RL_REPORT_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

struct rl_report;
struct rl_run_results;

struct rl_scope_row {
	bool process;          /* some call measured in process scope */
	unsigned threads_ran;  /* most threads that ran during one call */
	double busy_threads;   /* process CPU time / wall time, NAN unknown */
	double cpu_s;          /* CPU time of every thread during the calls */
	bool all_counted;      /* every provided counter covers all threads */
	char *uncounted;       /* names of counters of the calling thread
				  only ("dram_bytes, ..."), NULL when none */
};

struct rl_report_scope {
	struct rl_scope_row *rows; /* one per summed row (n_summed) */
	size_t n_rows;
};

struct rl_name_index;
/* by_name: each region name of res -> its summed row's index (the one
 * rl_report_build made). 0 or RL_ENOMEM. */
int rl_report_scope_build(const struct rl_run_results *res,
			  struct rl_report *r,
			  const struct rl_name_index *by_name);
void rl_report_scope_free(struct rl_report_scope *s);

#endif
