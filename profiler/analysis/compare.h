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
	const char *verdict; /* "slower", "faster", "same", "unsure" (not
				enough evidence), "new", "gone", "-" (time
				not comparable) */
	double lo_pct, hi_pct; /* the time change's interval
				  (rl_compare_time), NAN untested */
};

struct rl_diff {
	struct rl_diff_row *rows; /* A's regions in order, then B's new ones */
	size_t n_rows;
	double threshold_pct;
	size_t n_worse, n_better; /* regions slower / faster */
};

/* The time of one region in two reports, tested (shift_test.h). With
 * rlprof run --repeat on a side, its runs' times are its sample (without,
 * its one time). change_pct is the Hodges-Lehmann estimate of the change
 * of time, (B / A - 1) x 100, lo_pct and hi_pct its bounds at 95%
 * confidence each. A region is slower when even lo_pct exceeds the
 * threshold, faster when even hi_pct is below minus the threshold; it is
 * unsure (not enough evidence) when neither and hi_pct exceeds the
 * threshold: the runs can rule out neither a change beyond it nor its
 * absence. With one run a side there is no test (tested false): the
 * change is taken at face value against the threshold, as before
 * repeats existed, and lo_pct, hi_pct are NAN. */
struct rl_time_cmp {
	double a_s, b_s;       /* each side's median time (or its one) */
	double change_pct;     /* NAN when either time is unknown */
	double lo_pct, hi_pct; /* -100 and INFINITY: runs too few */
	size_t n_a, n_b;       /* the runs of each side */
	bool tested;
	enum rl_change verdict;
	bool unsure;
	double confidence;     /* each bound's (tested only) */
};
void rl_compare_time(const struct rl_report_region *a,
		     const struct rl_report_region *b, double threshold_pct,
		     struct rl_time_cmp *out);

/* The same test on two sets of times (rlprof compare). */
void rl_compare_times(const double *a, size_t n_a, const double *b,
		      size_t n_b, double threshold_pct,
		      struct rl_time_cmp *out);
/* The same with each one-sided bound at confidence (shift_test.h). */
void rl_compare_times_at(const double *a, size_t n_a, const double *b,
			 size_t n_b, double threshold_pct, double confidence,
			 struct rl_time_cmp *out);

/* (b - a) / a x 100; NAN when either is unknown or a is 0. */
double rl_rel_change_pct(double a, double b);

int rl_diff_build(const struct rl_report_file *a,
		  const struct rl_report_file *b, double threshold_pct,
		  struct rl_diff *out, char *err, size_t errlen);
void rl_diff_release(struct rl_diff *d);

#endif
