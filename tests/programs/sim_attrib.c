/* SPDX-License-Identifier: MIT */
/*
 * Write-backs charged to their cause, and the runtime not counted (the
 * simulated PMU, --sim-bounds cause). Run with a small simulated geometry
 * (16K:4,64K:8,256K:8).
 *
 * usage: sim_attrib MODE
 *   resident  a 128 KiB vector (L3-resident) updated by 1000 calls of
 *             region "update", after region "init" wrote it first
 *   triad     region "triad": a[i] = b[i] + 3 c[i] over 2 MiB arrays
 *   flat      region "outer": 32 triads over 256 KiB chunks of 2 MiB
 *             arrays, then 32 in-place updates of a 32 KiB vector
 *   nested    the same, each chunk and update in an inner region "step"
 *   empty     region "outer" around 1000 empty regions "inner"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rlprof.h"

#define RESIDENT_N 16384 /* 128 KiB */
#define STREAM_N 262144  /* 2 MiB per array */
#define CHUNKS 32
#define SMALL_N 4096     /* 32 KiB */

static double *alloc(size_t n, double v)
{
	double *p = malloc(n * sizeof *p);
	if (!p) {
		perror("malloc");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		p[i] = v;
	return p;
}

static void triad(double *a, const double *b, const double *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + 3.0 * c[i];
	__asm__ volatile("" ::: "memory");
}

static void update(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = 0.5 * v[i] + 1.0;
	__asm__ volatile("" ::: "memory");
}

static void run_resident(void)
{
	double *v = malloc(RESIDENT_N * sizeof *v); /* first written in init */
	if (!v)
		return;
	RL_REGION_BEGIN("init");
	for (size_t i = 0; i < RESIDENT_N; i++)
		v[i] = (double)i;
	__asm__ volatile("" ::: "memory");
	RL_REGION_END("init");
	for (int r = 0; r < 1000; r++) {
		RL_REGION_BEGIN("update");
		update(v, RESIDENT_N);
		RL_REGION_END("update");
	}
	printf("%g\n", v[7]);
	free(v);
}

static void run_triad(void)
{
	double *a = alloc(STREAM_N, 0.0), *b = alloc(STREAM_N, 1.0);
	double *c = alloc(STREAM_N, 2.0);
	RL_REGION_BEGIN("triad");
	triad(a, b, c, STREAM_N);
	RL_REGION_END("triad");
	printf("%g\n", a[5]);
	free(a), free(b), free(c);
}

static void run_outer(int nested)
{
	double *a = alloc(STREAM_N, 0.0), *b = alloc(STREAM_N, 1.0);
	double *c = alloc(STREAM_N, 2.0), *v = alloc(SMALL_N, 1.0);
	const size_t chunk = STREAM_N / CHUNKS;
	RL_REGION_BEGIN("outer");
	for (int k = 0; k < CHUNKS; k++) {
		if (nested)
			RL_REGION_BEGIN("step");
		triad(a + k * chunk, b + k * chunk, c + k * chunk, chunk);
		if (nested)
			RL_REGION_END("step");
	}
	for (int k = 0; k < CHUNKS; k++) {
		if (nested)
			RL_REGION_BEGIN("step");
		update(v, SMALL_N);
		if (nested)
			RL_REGION_END("step");
	}
	RL_REGION_END("outer");
	printf("%g %g\n", a[9], v[3]);
	free(a), free(b), free(c), free(v);
}

static void run_empty(void)
{
	RL_REGION_BEGIN("outer");
	for (int k = 0; k < 1000; k++) {
		RL_REGION_BEGIN("inner");
		RL_REGION_END("inner");
	}
	RL_REGION_END("outer");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "resident") == 0)
		run_resident();
	else if (strcmp(mode, "triad") == 0)
		run_triad();
	else if (strcmp(mode, "flat") == 0)
		run_outer(0);
	else if (strcmp(mode, "nested") == 0)
		run_outer(1);
	else if (strcmp(mode, "empty") == 0)
		run_empty();
	else {
		fprintf(stderr, "usage: sim_attrib resident|triad|flat|nested|empty\n");
		return 2;
	}
	return 0;
}
