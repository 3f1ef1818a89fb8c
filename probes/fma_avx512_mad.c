/* 512-bit multiply-then-add chain kernels ("avx512": the ceiling of
 * AVX-512 code without FMA; compiled with -mavx512f, see build.mk; the
 * multiply and the add stay separate: -std=c11 contracts nothing). */
#include <immintrin.h>

#include "probes/probe.h"

#define CH_FN avx512_mad_f64
#define CH_VT __m512d
#define CH_ET double
#define CH_SET1(v) _mm512_set1_pd(v)
#define CH_STEP(a) _mm512_add_pd(_mm512_mul_pd(a, x), y)
#define CH_HSUM(v) ((double)_mm512_reduce_add_pd(v))
#include "probes/chains_template.h"

#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN avx512_mad_f32
#define CH_VT __m512
#define CH_ET float
#define CH_SET1(v) _mm512_set1_ps(v)
#define CH_STEP(a) _mm512_add_ps(_mm512_mul_ps(a, x), y)
#define CH_HSUM(v) ((double)_mm512_reduce_add_ps(v))
#include "probes/chains_template.h"

rl_chain_fn rl_chain_avx512_mad(int f32, unsigned chains);
rl_chain_fn rl_chain_avx512_mad(int f32, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	return (f32 ? avx512_mad_f32_table : avx512_mad_f64_table)[chains - 1];
}
