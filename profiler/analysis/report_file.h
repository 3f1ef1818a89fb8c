/*
 * A saved report (DIR/report.json, format "rlprof-report") read back: the
 * summed row of each region with the figures `rlprof diff` and `rlprof
 * check` compare. What the run reported is compared, on the roofs it was
 * placed under, so a baseline copied from another job needs no machine
 * model here. A figure the report left null stays NAN.
 *
 * Ownership: rl_report_file_load() fills a caller-allocated struct and
 * allocates every string and the regions array; rl_report_file_release()
 * frees them and leaves a zeroed struct.
 */
#ifndef RL_REPORT_FILE_H
#define RL_REPORT_FILE_H

#include <stdbool.h>
#include <stddef.h>

struct rl_report_region {
	char *region;
	double calls;
	double time_s;
	double gflops;       /* counted flops / time */
	double ai;           /* counted flops / DRAM bytes */
	double roof_pct;     /* attained / binding roof x 100 */
	double gflops_expected;
	char *bound_roof;    /* NULL when none */
	char *bound;         /* "memory", "compute" or NULL */
	char *basis;         /* "counted", "declared" or NULL */
	char *diagnosis;     /* the analysis's advice (why there is no %
				of roof, where there is none), or NULL */
	/* rlprof run --repeat N: the N timing runs' region times (NAN and
	 * runs 0 without); times_s each run's time in run order (NULL when
	 * the report has none: without --repeat, or written by an rlprof
	 * before they were kept), n_times of them */
	double runs, time_min_s, time_median_s, spread_pct;
	double *times_s;
	size_t n_times;
	/* the counted work (NAN where the report has none): flops by
	 * precision and bytes per level boundary (L1, L2, L3, DRAM) */
	double flops, flops_f64, flops_f32;
	double level_bytes[4];
	bool simulated; /* counted by the simulator (exact, repeatable) */
	/* its per-thread rows: how many, and the first one's thread id */
	size_t n_thread_rows;
	double first_tid;
};

#include "common/name_index.h"

struct rl_report_file {
	char *path;          /* the report.json read */
	int version;
	char *backend;       /* NULL when the report says none */
	bool has_machine;    /* the report was placed under a machine model */
	struct rl_report_region *regions;
	size_t n_regions;
	struct rl_name_index by_name; /* region name -> its first index:
					 diff and check find each region in
					 constant time (a scan per region
					 took 33 s at 10^5) */
};

/* Reads DIR/report.json (or the file itself when path names a regular
 * file). RL_ENOENT when absent, RL_EFORMAT when not a report,
 * RL_EVERSION when written by a newer rlprof. */
int rl_report_file_load(const char *path, struct rl_report_file *out,
			char *err, size_t errlen);
void rl_report_file_release(struct rl_report_file *f);

/* Two reports read at once, b in a second thread (diff and check read a
 * pair: at 10^5 regions each load is most of the command's time). On
 * failure *failed is 0 when a failed (else 1), err holds its message and
 * neither is left loaded. */
int rl_report_file_load_two(const char *path_a, struct rl_report_file *a,
			    const char *path_b, struct rl_report_file *b,
			    int *failed, char *err, size_t errlen);

/* True when every region of f ran on one and the same thread (a
 * program that ran no other thread inside a region). */
bool rl_report_file_one_thread(const struct rl_report_file *f);

/* The region named name, or NULL. */
const struct rl_report_region *
rl_report_file_find(const struct rl_report_file *f, const char *name);

#endif
