/* SPDX-License-Identifier: MIT */
/*
 * Memory traffic the simulated PMU must see: a triad with non-temporal
 * stores (vmovntpd: 24 B per element at DRAM, no write-allocate read) and
 * a cache-resident sum (a 4 KiB array read many times: its reuse shows at
 * L1, not at DRAM), and masked gathers (a masked-off lane reads nothing:
 * "gather_half" reads 16 B per gather less than "gather_full").
 *
 * usage: sim_nt [N] [REPS]   (N elements per array, default 262144 =
 * 2 MiB; REPS passes of the resident sum, default 200)
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

#include "rlprof.h"

#define AVX __attribute__((target("avx2,fma"), noinline))

AVX static void nt_triad(double *a, const double *b, const double *c,
			 size_t n)
{
	__m256d s = _mm256_set1_pd(3.0);
	for (size_t i = 0; i < n; i += 4)
		_mm256_stream_pd(a + i, _mm256_fmadd_pd(s, _mm256_load_pd(c + i),
							_mm256_load_pd(b + i)));
	_mm_sfence();
}

AVX static double resident(const double *x, size_t n, int reps)
{
	__m256d acc = _mm256_setzero_pd();
	for (int r = 0; r < reps; r++) {
		for (size_t i = 0; i < n; i += 4)
			acc = _mm256_add_pd(acc, _mm256_load_pd(x + i));
		__asm__ volatile("" ::: "memory");
	}
	double o[4];
	_mm256_storeu_pd(o, acc);
	return o[0] + o[1] + o[2] + o[3];
}

AVX static double gather(const double *x, __m256d mask)
{
	__m128i idx = _mm_set_epi32(6, 4, 2, 0);
	__m256d acc = _mm256_setzero_pd();
	for (int i = 0; i < 1000; i++) {
		acc = _mm256_mask_i32gather_pd(acc, x, idx, mask, 8);
		__asm__ volatile("" : "+x"(acc));
	}
	double o[4];
	_mm256_storeu_pd(o, acc);
	return o[0] + o[2];
}

AVX static double gathers(const double *x)
{
	__m256d half = _mm256_castsi256_pd(_mm256_set_epi64x(0, -1, 0, -1));
	__m256d full = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
	double s;
	RL_REGION_BEGIN("gather_half");
	s = gather(x, half);
	RL_REGION_END("gather_half");
	RL_REGION_BEGIN("gather_full");
	s += gather(x, full);
	RL_REGION_END("gather_full");
	return s;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 262144;
	int reps = argc > 2 ? atoi(argv[2]) : 200;
	n = (n + 3) / 4 * 4;
	double *a = aligned_alloc(64, n * sizeof *a);
	double *b = aligned_alloc(64, n * sizeof *b);
	double *c = aligned_alloc(64, n * sizeof *c);
	if (!a || !b || !c)
		return 1;
	for (size_t i = 0; i < n; i++)
		a[i] = 0, b[i] = 1, c[i] = 2;

	RL_REGION_BEGIN("nt_triad");
	nt_triad(a, b, c, n);
	RL_REGION_END("nt_triad");
	RL_REGION_EXPECT("nt_triad", 2.0 * (double)n, 24.0 * (double)n);

	RL_REGION_BEGIN("resident");
	double s = resident(b, 512, reps); /* 4 KiB */
	RL_REGION_END("resident");
	RL_REGION_EXPECT("resident", 512.0 * reps, 4096.0);

	s += gathers(b);
	printf("%g %g\n", a[n - 1], s);
	return 0;
}
