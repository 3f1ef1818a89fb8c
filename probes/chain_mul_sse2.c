/* Single multiply chains, 128-bit SSE2 (see chain_mul_scalar.c). */
#include <emmintrin.h>

#include "probes/hsum.h"
#include "probes/probe.h"

static double mul_f64(long iters, double seed)
{
	volatile double vx = RL_MUL_CHAIN_X;
	__m128d x = _mm_set1_pd(vx), xi = _mm_set1_pd(1.0 / vx);
	__m128d a = _mm_set1_pd(seed);
	for (long i = 0; i < iters; i++)
		a = _mm_mul_pd(_mm_mul_pd(a, x), xi);
	return hsum128d(a);
}

static double mul_f32(long iters, double seed)
{
	volatile float vx = (float)RL_MUL_CHAIN_X;
	__m128 x = _mm_set1_ps(vx), xi = _mm_set1_ps(1.0f / vx);
	__m128 a = _mm_set1_ps((float)seed);
	for (long i = 0; i < iters; i++)
		a = _mm_mul_ps(_mm_mul_ps(a, x), xi);
	return hsum128f(a);
}

rl_chain_fn rl_chain_mul_sse2(int f32);
rl_chain_fn rl_chain_mul_sse2(int f32)
{
	return f32 ? mul_f32 : mul_f64;
}
