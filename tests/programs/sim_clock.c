/* SPDX-License-Identifier: MIT */
/*
 * A region whose work follows the clock (test_native_timing.c): each of
 * the 4 calls of 'until_clock' repeats a sweep until 50 ms have passed,
 * as LIKWID's jacobi-2D-5pt repeats its sweeps until a time limit, so
 * the native timing run and the simulated counting run make the same
 * calls but not the same work. 'fixed' does the same work in both runs
 * (an ordinary region: not flagged), and so does the set-up outside the
 * regions.
 *
 * usage: sim_clock
 */
#include <stdio.h>
#include <time.h>

#include "rlprof.h"

#define N 4096

static double x[N];
static volatile double sink;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double sweep(double a)
{
	double s = 0;
	for (size_t i = 0; i < N; i++)
		s += a * x[i];
	return s;
}

int main(void)
{
	double s = 0;
	for (int r = 0; r < 400; r++) /* set-up: the same work in both runs */
		for (size_t i = 0; i < N; i++)
			x[i] = x[i] * 0.5 + (double)(i + (size_t)r);
	for (int call = 0; call < 4; call++) {
		RL_REGION_BEGIN("until_clock");
		double t0 = now_s();
		do
			s += sweep(1.0001);
		while (now_s() - t0 < 0.05);
		RL_REGION_END("until_clock");
		RL_REGION_BEGIN("fixed");
		/* 4 x 20000 sweeps: 80 ms natively at 4.19 GHz on the
		 * Xeon guest (12000 took 48 ms there, under the 50 ms a
		 * region needs to be judged) */
		for (int r = 0; r < 20000; r++)
			s += sweep(0.9999);
		RL_REGION_END("fixed");
	}
	sink = s;
	printf("done\n");
	return 0;
}
