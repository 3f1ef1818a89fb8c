/*
 * rlprof compare's table: one row per region of the old program (its
 * medians on both sides, the change and its bounds, the verdict, or
 * "gone"), then one per region only in the new one ("new"), and the line
 * that says how many runs and at what confidence. Formats only: the
 * comparisons come from analysis/compare.h, the runs from cli.
 */
#ifndef RL_RENDER_COMPARE_H
#define RL_RENDER_COMPARE_H

#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/report_file.h"

/* The runs behind the table: each side's, each bound's confidence, and
 * the look they were taken at (of looks; 1 of 1 without more runs). */
struct rl_compare_runs {
	size_t n_old, n_new;
	double confidence;
	unsigned look, looks;
};

/* old and new: each side's first run (the regions listed); tc[i]: the
 * comparison of old's region i. */
void rl_render_compare_table(FILE *out, const struct rl_report_file *old,
			     const struct rl_report_file *new,
			     const struct rl_time_cmp *tc,
			     const struct rl_compare_runs *runs);

#endif
