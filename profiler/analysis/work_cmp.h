/*
 * The counted work of one region in two reports, compared exactly
 * (rlprof check --baseline, rlprof compare under -b sim). The simulator
 * counts every flop and simulates every access, so the same program on
 * the same input counts the same work on every run: any difference is a
 * change of the program or its input, never noise, and is reported
 * whatever the times do.
 */
#ifndef RL_WORK_CMP_H
#define RL_WORK_CMP_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/report_file.h"

#define RL_WORK_FIGURES 7 /* f64, f32 or all flops; bytes at 4 levels */

struct rl_work_diff {
	const char *what; /* "f64 flops", "L1 bytes", ... (static) */
	double a, b;      /* NAN where that side has none */
	double change_pct; /* (b - a) / a x 100, NAN when a is 0 or NAN */
};

/* True when both rows were counted by the simulator (the only counts
 * exact enough to compare exactly). */
int rl_work_comparable(const struct rl_report_region *a,
		       const struct rl_report_region *b);

/* The figures of a and b that differ, into out (RL_WORK_FIGURES at
 * most); their count. A figure one side has and the other lacks differs
 * unless the one it has is 0. Flops always; bytes only when bytes is
 * true: the simulator runs a program's threads one at a time in an
 * order that changes from run to run, and they share its simulated
 * caches, so a program of several threads moves other bytes each run
 * (a two-thread test program: L1 bytes 8300 then 11176 in one region)
 * while its flops stay exact. */
size_t rl_work_compare(const struct rl_report_region *a,
		       const struct rl_report_region *b, bool bytes,
		       struct rl_work_diff *out);

/* One line's worth: "f64 flops +1.00% (2e+06 -> 2.02e+06)". */
void rl_work_diff_format(char *buf, size_t len, const struct rl_work_diff *d);

#endif
