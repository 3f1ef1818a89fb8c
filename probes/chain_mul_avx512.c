/* Single multiply chains, 512-bit AVX-512F (see chain_mul_scalar.c). */
#include <immintrin.h>

#include "probes/probe.h"

static double mul_f64(long iters, double seed)
{
	volatile double vx = RL_MUL_CHAIN_X;
	__m512d x = _mm512_set1_pd(vx), xi = _mm512_set1_pd(1.0 / vx);
	__m512d a = _mm512_set1_pd(seed);
	for (long i = 0; i < iters; i++)
		a = _mm512_mul_pd(_mm512_mul_pd(a, x), xi);
	return _mm512_reduce_add_pd(a);
}

static double mul_f32(long iters, double seed)
{
	volatile float vx = (float)RL_MUL_CHAIN_X;
	__m512 x = _mm512_set1_ps(vx), xi = _mm512_set1_ps(1.0f / vx);
	__m512 a = _mm512_set1_ps((float)seed);
	for (long i = 0; i < iters; i++)
		a = _mm512_mul_ps(_mm512_mul_ps(a, x), xi);
	return _mm512_reduce_add_ps(a);
}

rl_chain_fn rl_chain_mul_avx512(int f32);
rl_chain_fn rl_chain_mul_avx512(int f32)
{
	return f32 ? mul_f32 : mul_f64;
}
