/* SPDX-License-Identifier: MIT */
/*
 * One source, two builds (tests/build.mk): dot-native with AVX-512 (the
 * simulator stops at its first EVEX instruction) and dot-portable with
 * -march=x86-64-v3 (the simulator runs it). Both do the same flops: a dot
 * product of N elements is 2N, declared with RL_REGION_EXPECT.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "rlprof.h"

#define N 4096

static double x[N], y[N];

static double dot(void)
{
#ifdef __AVX512F__
	__m512d acc = _mm512_setzero_pd();
	for (int i = 0; i < N; i += 8)
		acc = _mm512_add_pd(acc, _mm512_mul_pd(_mm512_loadu_pd(x + i),
						       _mm512_loadu_pd(y + i)));
	return _mm512_reduce_add_pd(acc);
#else
	double s = 0;
	for (int i = 0; i < N; i++)
		s += x[i] * y[i];
	return s;
#endif
}

int main(void)
{
	double s;

	for (int i = 0; i < N; i++) {
		x[i] = 1.0 / (i + 1);
		y[i] = i;
	}
	RL_REGION_BEGIN("setup");
	s = x[1] * 3.0;
	RL_REGION_END("setup");
	RL_REGION_BEGIN("dot");
	s += dot();
	RL_REGION_END("dot");
	RL_REGION_EXPECT("dot", 2.0 * N, 16.0 * N);
	printf("%.6f\n", s);
	return 0;
}
