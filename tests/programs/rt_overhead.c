/*
 * Cost of one RL_REGION_BEGIN/END pair: `rt_overhead [pairs]` prints the
 * median over 31 batches, in ns per pair. Run it with and without
 * RLPROF_OUT and with each backend (scripts/bench-runtime does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rlprof.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
	if (pairs <= 0)
		pairs = 20000;
	double per[31];
	for (int b = 0; b < 31; b++) {
		double t0 = now_ns();
		for (long i = 0; i < pairs; i++) {
			RL_REGION_BEGIN("overhead");
			RL_REGION_END("overhead");
		}
		per[b] = (now_ns() - t0) / (double)pairs;
	}
	qsort(per, 31, sizeof *per, cmp);
	printf("%.1f\n", per[15]);
	return 0;
}
