/* SPDX-License-Identifier: MIT */
/*
 * Regions whose flops are known exactly, by precision and width, for the
 * simulated PMU (tests/counters/sim/test_sim.c). Each region is named after the counter
 * that must hold its flops; RL_REGION_EXPECT declares them. AVX2/FMA by
 * target attributes (the tests build without -march); an asm barrier in
 * every loop keeps the compiler from vectorising or if-converting it.
 *
 * usage: sim_flops [N]   (N a multiple of 8, default 1024)
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

#include "rlprof.h"

#define BARRIER() __asm__ volatile("" ::: "memory")
/* keep v in a register as it is: no reordering of its computation */
#define PIN(v) __asm__ volatile("" : "+x"(v))
#define AVX __attribute__((target("avx2,fma"), noinline))

static double *x, *y;
static float *xf, *yf;
static volatile double sink;

AVX static void fma_f64_256(size_t n)
{
	__m256d a = _mm256_set1_pd(1.0001), acc = _mm256_setzero_pd();
	for (size_t i = 0; i < n; i += 4) {
		acc = _mm256_fmadd_pd(a, _mm256_loadu_pd(x + i), acc);
		BARRIER();
	}
	_mm256_storeu_pd(y, acc);
}

AVX static void fma_f64_128(size_t n)
{
	__m128d a = _mm_set1_pd(1.0001), acc = _mm_setzero_pd();
	for (size_t i = 0; i < n; i += 2) {
		acc = _mm_fmadd_pd(a, _mm_loadu_pd(x + i), acc);
		BARRIER();
	}
	_mm_storeu_pd(y, acc);
}

AVX static void fma_f64_scalar(size_t n)
{
	__m128d a = _mm_set1_pd(1.0001), acc = _mm_setzero_pd();
	for (size_t i = 0; i < n; i++) {
		acc = _mm_fmadd_sd(a, _mm_load_sd(x + i), acc);
		BARRIER();
	}
	_mm_storeu_pd(y, acc);
}

AVX static void fma_f32_256(size_t n)
{
	__m256 a = _mm256_set1_ps(1.0001f), acc = _mm256_setzero_ps();
	for (size_t i = 0; i < n; i += 8) {
		acc = _mm256_fmadd_ps(a, _mm256_loadu_ps(xf + i), acc);
		BARRIER();
	}
	_mm256_storeu_ps(yf, acc);
}

AVX static void fma_f32_128(size_t n)
{
	__m128 a = _mm_set1_ps(1.0001f), acc = _mm_setzero_ps();
	for (size_t i = 0; i < n; i += 4) {
		acc = _mm_fmadd_ps(a, _mm_loadu_ps(xf + i), acc);
		BARRIER();
	}
	_mm_storeu_ps(yf, acc);
}

AVX static void fma_f32_scalar(size_t n)
{
	__m128 a = _mm_set1_ps(1.0001f), acc = _mm_setzero_ps();
	for (size_t i = 0; i < n; i++) {
		acc = _mm_fmadd_ss(a, _mm_load_ss(xf + i), acc);
		BARRIER();
	}
	_mm_storeu_ps(yf, acc);
}

/* vaddsubpd: 4 flops (add 2 lanes, sub 2), not 8 */
AVX static void addsub_f64_256(size_t n)
{
	__m256d acc = _mm256_setzero_pd();
	for (size_t i = 0; i < n; i += 4) {
		acc = _mm256_addsub_pd(acc, _mm256_loadu_pd(x + i));
		BARRIER();
	}
	_mm256_storeu_pd(y, acc);
}

AVX static void div_f64_256(size_t n)
{
	__m256d acc = _mm256_set1_pd(1.0);
	for (size_t i = 0; i < n; i += 4) {
		acc = _mm256_div_pd(acc, _mm256_loadu_pd(x + i));
		BARRIER();
	}
	_mm256_storeu_pd(y, acc);
}

AVX static void sqrt_f64_128(size_t n)
{
	for (size_t i = 0; i < n; i += 2) {
		_mm_storeu_pd(y + i, _mm_sqrt_pd(_mm_loadu_pd(x + i)));
		BARRIER();
	}
}

AVX static void div_f32_scalar(size_t n)
{
	__m128 acc = _mm_set1_ps(1.0f);
	for (size_t i = 0; i < n; i++) {
		acc = _mm_div_ss(acc, _mm_load_ss(xf + i));
		PIN(acc);
		BARRIER();
	}
	_mm_storeu_ps(yf, acc);
}

/* masked load/store (vmaskmovpd) around one vaddpd: 4 flops a step */
AVX static void maskmov_f64_256(size_t n)
{
	__m256i m = _mm256_set_epi64x(-1, 0, -1, -1);
	__m256d one = _mm256_set1_pd(1.0);
	for (size_t i = 0; i < n; i += 4) {
		__m256d v = _mm256_maskload_pd(x + i, m);
		_mm256_maskstore_pd(y + i, m, _mm256_add_pd(v, one));
		BARRIER();
	}
}

/* gather (vgatherdpd) then vmulpd: 4 flops a step */
AVX static void gather_f64_256(size_t n)
{
	__m128i idx = _mm_set_epi32(6, 4, 2, 0);
	__m256d acc = _mm256_set1_pd(1.0);
	for (size_t i = 0; i + 8 <= n; i += 8) {
		acc = _mm256_mul_pd(acc, _mm256_i32gather_pd(x + i, idx, 8));
		BARRIER();
	}
	_mm256_storeu_pd(y, acc);
}

/* f32 -> f64 conversions and moves only: 0 flops */
AVX static void convert_none(size_t n)
{
	for (size_t i = 0; i < n; i += 4) {
		_mm256_storeu_pd(y + i, _mm256_cvtps_pd(_mm_loadu_ps(xf + i)));
		BARRIER();
	}
}

/* data-dependent branches, scalar: 2 flops taken, 1 not taken */
__attribute__((noinline)) static double branchy(size_t n, size_t *taken)
{
	double s = 0;
	size_t t = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] > 0.5) {
			s += x[i] * 3.0;
			t++;
			BARRIER();
		} else {
			s -= 1.0;
			BARRIER();
		}
	}
	*taken = t;
	return s;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1024, taken = 0;
	n = (n + 7) / 8 * 8;
	x = malloc(n * sizeof *x);
	y = malloc(n * sizeof *y);
	xf = malloc(n * sizeof *xf);
	yf = malloc(n * sizeof *yf);
	if (!x || !y || !xf || !yf)
		return 1;
	srand(7);
	for (size_t i = 0; i < n; i++) {
		x[i] = 0.25 + (double)rand() / RAND_MAX;
		xf[i] = (float)x[i];
	}
	double d = (double)n;
#define RUN(name, call, flops)                                               \
	do {                                                                 \
		RL_REGION_BEGIN(name);                                       \
		call;                                                        \
		RL_REGION_END(name);                                         \
		RL_REGION_EXPECT(name, flops, 0);                            \
	} while (0)
	RUN("flops_f64_256 fma", fma_f64_256(n), 2 * d);
	RUN("flops_f64_128 fma", fma_f64_128(n), 2 * d);
	RUN("flops_f64_scalar fma", fma_f64_scalar(n), 2 * d);
	RUN("flops_f32_256 fma", fma_f32_256(n), 2 * d);
	RUN("flops_f32_128 fma", fma_f32_128(n), 2 * d);
	RUN("flops_f32_scalar fma", fma_f32_scalar(n), 2 * d);
	RUN("flops_f64_256 addsub", addsub_f64_256(n), d);
	RUN("flops_f64_256 div", div_f64_256(n), d);
	RUN("flops_f64_128 sqrt", sqrt_f64_128(n), d);
	RUN("flops_f32_scalar div", div_f32_scalar(n), d);
	RUN("flops_f64_256 maskmov", maskmov_f64_256(n), d);
	RUN("flops_f64_256 gather", gather_f64_256(n), d / 2);
	RUN("none convert", convert_none(n), 0);
	RL_REGION_BEGIN("flops_f64_scalar branchy");
	sink = branchy(n, &taken);
	RL_REGION_END("flops_f64_scalar branchy");
	RL_REGION_EXPECT("flops_f64_scalar branchy", (double)(n + taken), 0);
	printf("taken %zu of %zu\n", taken, n);
	return 0;
}
