/* SPDX-License-Identifier: MIT */
/*
 * STREAM-style Copy through libc's memcpy, a fill through memset, and the
 * same copy as a plain loop, for the simulated PMU's byte counts
 * (tests/counters/sim/test_sim_memcpy.c): regions memcpy, memset, copy_loop on arrays
 * of N doubles (default 512 Ki = 4 MiB each), each after reading 8 MiB of
 * other data. glibc's memcpy/memset use
 * rep movsb/stosb for such sizes unless told otherwise; the simulator
 * turns those off, and the bytes must not change.
 *
 * usage: sim_memcpy [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rlprof.h"

#define BARRIER() __asm__ volatile("" ::: "memory")

__attribute__((noinline)) static void copy_loop(double *dst, const double *src,
						size_t n)
{
	for (size_t i = 0; i < n; i++) {
		dst[i] = src[i];
		BARRIER(); /* no memcpy idiom, no vectorisation */
	}
}

/* read 8 MiB of other data: the arrays' lines leave the (small, simulated)
 * caches, clean lines take their place */
static double evict(void)
{
	static double junk[1 << 20];
	double s = 0;
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i += 8)
		s += junk[i];
	return s;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 512 * 1024;
	double *a, *b, *c;
	if (n == 0 || posix_memalign((void **)&a, 64, n * sizeof *a) ||
	    posix_memalign((void **)&b, 64, n * sizeof *b) ||
	    posix_memalign((void **)&c, 64, n * sizeof *c)) {
		fprintf(stderr, "sim_memcpy: usage: sim_memcpy [N > 0]\n");
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = (double)i, b[i] = 1.0, c[i] = 2.0;
	double bytes = (double)(n * sizeof *a), s = evict();
	RL_REGION_BEGIN("memcpy");
	memcpy(b, a, n * sizeof *a);
	RL_REGION_END("memcpy");
	RL_REGION_EXPECT("memcpy", 0, 2 * bytes);
	s += evict();
	RL_REGION_BEGIN("memset");
	memset(c, 0, n * sizeof *c);
	RL_REGION_END("memset");
	RL_REGION_EXPECT("memset", 0, bytes);
	s += evict();
	RL_REGION_BEGIN("copy_loop");
	copy_loop(c, a, n);
	RL_REGION_END("copy_loop");
	RL_REGION_EXPECT("copy_loop", 0, 2 * bytes);
	printf("%g %g %g\n", b[n - 1], c[n / 2], s);
	return 0;
}
