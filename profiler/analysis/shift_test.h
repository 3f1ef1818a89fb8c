/*
 * How much slower B's runs are than A's, with a distribution-free
 * confidence interval: the test behind rlprof check --baseline, rlprof
 * diff and rlprof compare.
 *
 * The estimate is the Hodges-Lehmann estimate of the ratio of the two
 * time distributions: the median of the n_a x n_b pairwise ratios
 * b_j / a_i. Its interval is Moses' interval from the order statistics
 * of those ratios, with the exact null distribution of the Mann-Whitney
 * U statistic (the rank test the interval inverts): each bound holds with
 * the stated one-sided confidence (RL_SHIFT_CONFIDENCE, 95%), so that
 * "slower beyond PCT" and "within PCT" are each a 95% statement. Nothing
 * is assumed of the shape of the noise (a shared machine's times are
 * skewed, with outliers), only that one program's change scales its
 * times; one outlier moves the interval by one order statistic, not by
 * its size. The exact distribution assumes no ties (a timer's ns
 * resolution makes them rare; with ties the bounds are approximate).
 *
 * The runs bound the change only when there are enough of them: with n_a
 * = n_b = 5 a side, one outlier beyond the other side's runs leaves the
 * rank test short of 95% (p = 0.075), so the interval is as wide as the
 * runs and the verdict "not enough evidence"; from 6 runs a side one
 * outlier is absorbed, from 9 two. Runs whose arrangements are fewer
 * than 20 never bound it (C(n_a + n_b, n_a) < 20: 2 and 4, 1 and 18).
 */
#ifndef RL_SHIFT_TEST_H
#define RL_SHIFT_TEST_H

#include <stddef.h>

#define RL_SHIFT_CONFIDENCE 0.95 /* each one-sided bound */
#define RL_SHIFT_MAX_RUNS 100    /* a side's runs at most (rlprof run
				    --repeat's most) */

struct rl_shift {
	size_t n_a, n_b;
	double median_a, median_b; /* each side's median time */
	double ratio;  /* Hodges-Lehmann estimate of b / a */
	double lo, hi; /* its bounds; 0 and INFINITY when the runs are too
			  few to bound it at the confidence */
};

/* Fills out from the times a[0..n_a) and b[0..n_b) (seconds, > 0; other
 * values are left out). Returns 0, or -1 when a side has no usable time
 * or more than RL_SHIFT_MAX_RUNS, or out of memory (out then has NAN
 * figures). */
int rl_shift_estimate(const double *a, size_t n_a, const double *b,
		      size_t n_b, struct rl_shift *out);
/* The same with each one-sided bound at confidence (0.5 to 1) instead
 * of RL_SHIFT_CONFIDENCE: rlprof compare's looks, each at its share of
 * the error (Bonferroni). */
int rl_shift_estimate_at(const double *a, size_t n_a, const double *b,
			 size_t n_b, double confidence, struct rl_shift *out);

/* The largest k with P(U <= k) <= alpha under the null hypothesis for
 * samples of n and m (exact), or -1 when even P(U = 0) exceeds alpha or
 * out of memory. */
long rl_mann_whitney_critical(size_t n, size_t m, double alpha);

/* P(U <= u) under the null hypothesis for samples of n and m, exact
 * (NAN out of memory). */
double rl_mann_whitney_cdf(size_t n, size_t m, double u);

#endif
