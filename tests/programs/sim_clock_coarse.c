/* SPDX-License-Identifier: MIT */
/*
 * Work that follows the clock, in units too long for the times to show it
 * (test_native_timing.c): each of the 2 calls of 'until_clock' repeats a
 * unit of about 2 ms natively until 30 ms have passed, so the native run
 * does some 15 units a call; under the simulator one unit outlasts the
 * limit or nearly, so the region's time there is not near its native
 * time (as LIKWID's jacobi-2D-5pt at 1000^2: 1.7x) and only its clock
 * reads tell the two runs apart: 16 a call natively, 2 or 3 simulated.
 * 'timed_fixed' reads the clock 5 times a call around fixed work: the
 * same reads in both runs, not flagged.
 *
 * usage: sim_clock_coarse
 */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include "rlprof.h"

#define N 4096
#define UNIT_SWEEPS 400 /* about 2 ms natively */

static double x[N];
static volatile double sink;

static double now_s(void)
{
	struct timeval t;
	gettimeofday(&t, NULL);
	return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

static double unit(double a)
{
	double s = 0;
	for (int r = 0; r < UNIT_SWEEPS; r++)
		for (size_t i = 0; i < N; i++)
			s += a * x[i];
	return s;
}

int main(void)
{
	double s = 0, t[5];
	for (size_t i = 0; i < N; i++)
		x[i] = (double)i * 0.5;
	for (int call = 0; call < 2; call++) {
		RL_REGION_BEGIN("until_clock");
		double t0 = now_s();
		do
			s += unit(1.0001);
		while (now_s() - t0 < 0.03);
		RL_REGION_END("until_clock");
		RL_REGION_BEGIN("timed_fixed");
		for (int k = 0; k < 5; k++) {
			t[k] = now_s();
			s += unit(0.9999) / 8;
		}
		RL_REGION_END("timed_fixed");
		s += t[4] - t[0];
	}
	sink = s;
	printf("done\n");
	return 0;
}
