/* SPDX-License-Identifier: MIT */
/*
 * Two pthreads, each with its own region and a different, known number of
 * f64 256-bit FMA flops: thread k does (k + 1) * N * 2 flops in region
 * "t<k>". The simulated PMU must give each thread its own count.
 *
 * usage: sim_threads [N]   (N a multiple of 4, default 4096)
 */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "rlprof.h"

static size_t n;
static double out[2][4];

__attribute__((target("avx2,fma"), noinline)) static void work(int k)
{
	__m256d a = _mm256_set1_pd(1.0001), acc = _mm256_setzero_pd();
	for (size_t i = 0; i < (size_t)(k + 1) * n; i += 4) {
		acc = _mm256_fmadd_pd(a, acc, a);
		__asm__ volatile("" ::: "memory");
	}
	_mm256_storeu_pd(out[k], acc);
}

static void *thread_main(void *arg)
{
	int k = (int)(size_t)arg;
	const char *name = k ? "t1" : "t0";
	RL_REGION_BEGIN(name);
	work(k);
	RL_REGION_END(name);
	RL_REGION_EXPECT(name, 2.0 * (double)(k + 1) * (double)n, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	n = argc > 1 ? strtoul(argv[1], NULL, 0) : 4096;
	n = (n + 3) / 4 * 4;
	for (size_t k = 0; k < 2; k++)
		if (pthread_create(&t[k], NULL, thread_main, (void *)k) != 0)
			return 1;
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("%g %g\n", out[0][0], out[1][0]);
	return 0;
}
