/*
 * Times and rates in ascending order, and the median of such a list: the
 * runs of --repeat (analysis/report_repeat.c), their interval
 * (analysis/row_interval.c) and the gate's shift test
 * (analysis/shift_test.c) read their figures the same way.
 */
#ifndef RL_SORTED_DOUBLES_H
#define RL_SORTED_DOUBLES_H

#include <stddef.h>

/* v[0..n) in ascending order (no NaN in v). */
void rl_sort_doubles(double *v, size_t n);

/* The median of v[0..n), sorted ascending: the middle one, or the mean
 * of the two middle ones; n > 0. */
double rl_median_sorted(const double *v, size_t n);

#endif
