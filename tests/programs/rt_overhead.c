/*
 * Cost of one RL_REGION_BEGIN/END pair: `rt_overhead [pairs]` prints the
 * median over 31 batches, in ns per pair. Run it with and without
 * RLPROF_OUT and with each backend (scripts/bench-runtime does).
 * `rt_overhead once N` does N pairs of one region in one go and prints
 * the CPU seconds they took.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rlprof.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "once") == 0) {
		/* CPU time: on a shared machine, wall time mostly measures
		 * the other programs */
		long n = strtol(argv[2], NULL, 10);
		double t0 = cpu_ns();
		for (long i = 0; i < n; i++) {
			RL_REGION_BEGIN("once");
			RL_REGION_END("once");
		}
		printf("%.6f\n", (cpu_ns() - t0) / 1e9);
		return 0;
	}
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
