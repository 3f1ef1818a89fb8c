/* SPDX-License-Identifier: MIT */
/*
 * Kernels for scripts/bench-sim that rlprof-kernels does not have, built
 * by the script with -O3 -march=x86-64-v3 (AVX2 and FMA, as HPC code
 * built for a portable target):
 *   gemm_v3      C += alpha A B, PolyBench's i-k-j loop order (the j loop
 *                vectorised with FMA), N x N doubles
 *   copy_memcpy  STREAM Copy through libc's memcpy, N doubles
 *   scale_v3     STREAM Scale on the same arrays
 * Prints "NAME best MS ms" per kernel: the best of R repetitions, timed
 * in CPU time (CLOCK_PROCESS_CPUTIME_ID: under the simulator, the
 * simulator's own CPU time; the other guests of a shared VM count less).
 *
 * usage: bench-sim-kernels GEMM_N STREAM_N R
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((noinline)) static void gemm(size_t n, double alpha,
					   const double *a, const double *b,
					   double *c)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			double t = alpha * a[i * n + k];
			for (size_t j = 0; j < n; j++)
				c[i * n + j] += t * b[k * n + j];
		}
}

__attribute__((noinline)) static void scale(double *b, const double *c,
					    size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = 3.0 * c[i];
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: bench-sim-kernels GEMM_N STREAM_N R\n");
		return 2;
	}
	size_t gn = strtoul(argv[1], NULL, 10), sn = strtoul(argv[2], NULL, 10);
	int reps = atoi(argv[3]);
	double *a = malloc(gn * gn * sizeof *a), *b = malloc(gn * gn * sizeof *b);
	double *c = malloc(gn * gn * sizeof *c);
	double *x = malloc(sn * sizeof *x), *y = malloc(sn * sizeof *y);
	if (!a || !b || !c || !x || !y || reps < 1) {
		fprintf(stderr, "bench-sim-kernels: out of memory or R < 1\n");
		return 1;
	}
	for (size_t i = 0; i < gn * gn; i++)
		a[i] = 1.0 / (double)(i + 1), b[i] = (double)(i % 7), c[i] = 0;
	for (size_t i = 0; i < sn; i++)
		x[i] = (double)i, y[i] = 0;
	double best[3] = {1e300, 1e300, 1e300};
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		gemm(gn, 1.5, a, b, c);
		double t1 = now();
		memcpy(y, x, sn * sizeof *x);
		double t2 = now();
		scale(x, y, sn);
		double t3 = now();
		double dt[3] = {t1 - t0, t2 - t1, t3 - t2};
		for (int k = 0; k < 3; k++)
			if (dt[k] < best[k])
				best[k] = dt[k];
	}
	printf("gemm_v3 best %.3f ms\ncopy_memcpy best %.3f ms\n"
	       "scale_v3 best %.3f ms\n",
	       best[0] * 1e3, best[1] * 1e3, best[2] * 1e3);
	printf("check %g %g\n", c[gn * gn / 2], x[sn / 2]);
	return 0;
}
