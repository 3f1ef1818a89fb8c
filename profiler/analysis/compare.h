/*
 * Two saved reports compared region by region (rlprof diff) and the CI
 * gate's checks on one report (rlprof check). Pure arithmetic on
 * report_file.h; prints nothing.
 *
 * A change is flagged only beyond the noise threshold: a relative change
 * of a figure whose magnitude is at most threshold_pct percent of the
 * first run's value is not a change. Unknown figures (NAN) are never
 * flagged and compare as unknown.
 */
#ifndef RL_COMPARE_H
#define RL_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/report_file.h"

#define RL_DIFF_DEFAULT_THRESHOLD_PCT 5.0

enum rl_change {
	RL_CHANGE_NONE = 0,   /* within the threshold, or not comparable */
	RL_CHANGE_BETTER,     /* less time / more GFLOP/s or % of roof */
	RL_CHANGE_WORSE,
};

enum rl_presence {
	RL_IN_BOTH = 0,
	RL_ONLY_A,
	RL_ONLY_B,
};

struct rl_diff_row {
	const char *region;
	enum rl_presence presence;
	const struct rl_report_region *a, *b; /* NULL when absent there */
	double time_pct, gflops_pct, ai_pct;  /* (B - A) / A x 100, NAN */
	double roof_pct_delta;                /* B - A in points, NAN */
	enum rl_change time, gflops, ai, roof;
	bool roof_changed;   /* the binding roof is another one */
	const char *verdict; /* "slower", "faster", "same", "noisy", "new",
				"gone", "-" (time not comparable) */
	double noise_pct;    /* the runs' noise (rl_compare_time), NAN */
};

struct rl_diff {
	struct rl_diff_row *rows; /* A's regions in order, then B's new ones */
	size_t n_rows;
	double threshold_pct;
	size_t n_worse, n_better; /* regions slower / faster */
};

/* The time of one region in two reports, knowing their noise. With
 * rlprof run --repeat on both sides the fastest runs are compared (on one
 * side only: its median against the other's single time); noise_pct is
 * the larger spread of the two ((slowest - fastest) / fastest x 100,
 * NAN without repeats). A region is slower (or faster) only when its
 * change is beyond the threshold plus the noise (the change less its
 * uncertainty still beyond the threshold); noisy when it is neither and
 * the noise alone exceeds the threshold or the change does (beyond the
 * threshold, within it plus the noise). */
struct rl_time_cmp {
	double a_s, b_s;     /* the times compared */
	double change_pct;   /* (b - a) / a x 100, NAN */
	double noise_pct;    /* NAN without repeats */
	enum rl_change verdict;
	bool noisy;
};
void rl_compare_time(const struct rl_report_region *a,
		     const struct rl_report_region *b, double threshold_pct,
		     struct rl_time_cmp *out);

/* (b - a) / a x 100; NAN when either is unknown or a is 0. */
double rl_rel_change_pct(double a, double b);

int rl_diff_build(const struct rl_report_file *a,
		  const struct rl_report_file *b, double threshold_pct,
		  struct rl_diff *out, char *err, size_t errlen);
void rl_diff_release(struct rl_diff *d);

#endif
