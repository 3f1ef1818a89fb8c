/* Doubles in ascending order and their median (sorted_doubles.h). */
#include <stdlib.h>

#include "common/sorted_doubles.h"

static int ascending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void rl_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof *v, ascending);
}

double rl_median_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
