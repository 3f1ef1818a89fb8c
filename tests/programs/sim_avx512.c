/* SPDX-License-Identifier: MIT */
/*
 * A region that completes, then one that executes an AVX-512 (EVEX)
 * instruction: Valgrind 3.19 cannot run it (SIGILL). rlprof must say why
 * and keep the completed region. On a CPU without AVX-512 the program
 * dies of SIGILL natively too, which is what the test wants.
 */
#include <immintrin.h>
#include <stdio.h>

#include "rlprof.h"

static volatile double in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static double out[8];

__attribute__((target("avx512f"), noinline)) static void evex(void)
{
	__m512d v = _mm512_loadu_pd((const double *)in);
	_mm512_storeu_pd(out, _mm512_add_pd(v, v));
}

int main(void)
{
	double s = 0;
	RL_REGION_BEGIN("before");
	for (int i = 0; i < 8; i++)
		s += in[i] * 2.0;
	RL_REGION_END("before");
	printf("%g\n", s);
	fflush(stdout);

	RL_REGION_BEGIN("evex");
	evex();
	RL_REGION_END("evex");
	printf("%g\n", out[7]);
	return 0;
}
