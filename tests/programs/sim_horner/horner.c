/* SPDX-License-Identifier: MIT */
/*
 * Scalar FMA chains for the simulated PMU (tests/counters/sim/test_sim_fma.c):
 * built -O3 -march=x86-64-v3 (tests/build.mk), so that libm's fma() and
 * a*b+c under -ffp-contract=fast are single vfmadd*sd/ss instructions,
 * each one lane, each result the next one's operand (Horner's rule).
 *
 *   horner_f64: y[i] = p(x[i]), degree D, fma() per step:
 *               2 D flops per element, all FMA, f64 scalar
 *   horner_f32: the same with fmaf()
 *   horner_contract: acc = acc * x + c contracted by the compiler
 * The loops over i are kept scalar (built -fno-tree-vectorize
 * -fno-tree-slp-vectorize, which gcc and clang both take): each FMA is
 * one scalar instruction. RL_REGION_EXPECT declares each region's flops.
 * Prints a hash of the results' bits, so that the test compares them with
 * a native run.
 *
 * usage: sim_horner-v3 [N]   (N elements, default 1000)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rlprof.h>

#define D 16

__attribute__((noinline)) static void
horner_f64(const double *x, double *y, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double acc = 0.5;
		for (int d = 0; d < D; d++)
			acc = fma(acc, x[i], 0.25 + d);
		y[i] = acc;
	}
}

__attribute__((noinline)) static void
horner_f32(const float *x, float *y, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		float acc = 0.5f;
		for (int d = 0; d < D; d++)
			acc = fmaf(acc, x[i], 0.25f + (float)d);
		y[i] = acc;
	}
}

__attribute__((noinline)) static void
horner_contract(const double *x, double *y, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double acc = 0.5;
		for (int d = 0; d < D; d++)
			acc = acc * x[i] + (0.25 + d);
		y[i] = acc;
	}
}

/* the bits of the results, summed as integers (no flop) */
static unsigned long long hash64(const double *y, size_t n)
{
	unsigned long long h = 0, b;
	for (size_t i = 0; i < n; i++) {
		memcpy(&b, &y[i], sizeof b);
		h = h * 1000003 + b;
	}
	return h;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
	float *xf = malloc(n * sizeof *xf), *yf = malloc(n * sizeof *yf);
	unsigned long long h64, h32 = 0, hc;

	if (!x || !y || !xf || !yf)
		return 1;
	for (size_t i = 0; i < n; i++) {
		x[i] = 0.001 * (double)(i % 997) - 0.5;
		xf[i] = (float)x[i];
	}
	RL_REGION_BEGIN("horner_f64");
	horner_f64(x, y, n);
	RL_REGION_END("horner_f64");
	RL_REGION_EXPECT("horner_f64", 2.0 * D * (double)n, 0);
	RL_REGION_BEGIN("horner_f32");
	horner_f32(xf, yf, n);
	RL_REGION_END("horner_f32");
	RL_REGION_EXPECT("horner_f32", 2.0 * D * (double)n, 0);
	RL_REGION_BEGIN("horner_contract");
	h64 = hash64(y, n);
	horner_contract(x, y, n);
	RL_REGION_END("horner_contract");
	RL_REGION_EXPECT("horner_contract", 2.0 * D * (double)n, 0);
	hc = hash64(y, n);
	for (size_t i = 0; i < n; i++) {
		unsigned int b;
		memcpy(&b, &yf[i], sizeof b);
		h32 = h32 * 1000003 + b;
	}
	printf("horner_f64 %llx\nhorner_f32 %llx\nhorner_contract %llx\n",
	       h64, h32, hc);
	free(x);
	free(y);
	free(xf);
	free(yf);
	return 0;
}
