/* Single multiply chains, 256-bit AVX (see chain_mul_scalar.c). */
#include <immintrin.h>

#include "probes/hsum.h"
#include "probes/probe.h"

static double mul_f64(long iters, double seed)
{
	volatile double vx = RL_MUL_CHAIN_X;
	__m256d x = _mm256_set1_pd(vx), xi = _mm256_set1_pd(1.0 / vx);
	__m256d a = _mm256_set1_pd(seed);
	for (long i = 0; i < iters; i++)
		a = _mm256_mul_pd(_mm256_mul_pd(a, x), xi);
	return hsum256d(a);
}

static double mul_f32(long iters, double seed)
{
	volatile float vx = (float)RL_MUL_CHAIN_X;
	__m256 x = _mm256_set1_ps(vx), xi = _mm256_set1_ps(1.0f / vx);
	__m256 a = _mm256_set1_ps((float)seed);
	for (long i = 0; i < iters; i++)
		a = _mm256_mul_ps(_mm256_mul_ps(a, x), xi);
	return hsum256f(a);
}

rl_chain_fn rl_chain_mul_avx2(int f32);
rl_chain_fn rl_chain_mul_avx2(int f32)
{
	return f32 ? mul_f32 : mul_f64;
}
