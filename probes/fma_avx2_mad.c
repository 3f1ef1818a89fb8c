/* 256-bit multiply-then-add chain kernels ("avx2": the ceiling of AVX2
 * code built without FMA; compiled with -mavx2 and without -mfma, see
 * build.mk, so nothing can be contracted into an FMA). */
#include <immintrin.h>

#include "probes/hsum.h"
#include "probes/probe.h"

#define CH_FN avx2_mad_f64
#define CH_VT __m256d
#define CH_ET double
#define CH_SET1(v) _mm256_set1_pd(v)
#define CH_STEP(a) _mm256_add_pd(_mm256_mul_pd(a, x), y)
#define CH_HSUM hsum256d
#include "probes/chains_template.h"

#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN avx2_mad_f32
#define CH_VT __m256
#define CH_ET float
#define CH_SET1(v) _mm256_set1_ps(v)
#define CH_STEP(a) _mm256_add_ps(_mm256_mul_ps(a, x), y)
#define CH_HSUM hsum256f
#include "probes/chains_template.h"

rl_chain_fn rl_chain_avx2_mad(int f32, unsigned chains);
rl_chain_fn rl_chain_avx2_mad(int f32, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	return (f32 ? avx2_mad_f32_table : avx2_mad_f64_table)[chains - 1];
}
