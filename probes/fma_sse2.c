/* SSE2 chain kernels: 128-bit multiply then add (SSE2 has no FMA), and
 * the add-only chains. Compiled with -msse2 only (no -mfma, so nothing
 * is contracted into an FMA); SSE2 is part of x86-64. */
#include <emmintrin.h>

#include "probes/hsum.h"
#include "probes/probe.h"

#define CH_FN sse2_mad_f64
#define CH_VT __m128d
#define CH_ET double
#define CH_SET1(v) _mm_set1_pd(v)
#define CH_STEP(a) _mm_add_pd(_mm_mul_pd(a, x), y)
#define CH_HSUM hsum128d
#include "probes/chains_template.h"
#undef CH_FN
#define CH_FN sse2_add_f64
#undef CH_STEP
#define CH_STEP(a) _mm_add_pd(a, y)
#include "probes/chains_template.h"

#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN sse2_mad_f32
#define CH_VT __m128
#define CH_ET float
#define CH_SET1(v) _mm_set1_ps(v)
#define CH_STEP(a) _mm_add_ps(_mm_mul_ps(a, x), y)
#define CH_HSUM hsum128f
#include "probes/chains_template.h"
#undef CH_FN
#define CH_FN sse2_add_f32
#undef CH_STEP
#define CH_STEP(a) _mm_add_ps(a, y)
#include "probes/chains_template.h"

rl_chain_fn rl_chain_sse2(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_sse2(int f32, int add_only, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	if (f32)
		return (add_only ? sse2_add_f32_table
				 : sse2_mad_f32_table)[chains - 1];
	return (add_only ? sse2_add_f64_table : sse2_mad_f64_table)[chains - 1];
}
