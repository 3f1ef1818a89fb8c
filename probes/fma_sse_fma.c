/* 128-bit FMA chain kernels ("sse-fma": VFMADD on xmm registers;
 * compiled with -mfma, see build.mk); called only when CPUID says the
 * CPU and the OS support FMA. */
#include <immintrin.h>

#include "probes/hsum.h"
#include "probes/probe.h"

#define CH_FN sse_fma_f64
#define CH_VT __m128d
#define CH_ET double
#define CH_SET1(v) _mm_set1_pd(v)
#define CH_STEP(a) _mm_fmadd_pd(a, x, y)
#define CH_HSUM hsum128d
#include "probes/chains_template.h"

#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN sse_fma_f32
#define CH_VT __m128
#define CH_ET float
#define CH_SET1(v) _mm_set1_ps(v)
#define CH_STEP(a) _mm_fmadd_ps(a, x, y)
#define CH_HSUM hsum128f
#include "probes/chains_template.h"

rl_chain_fn rl_chain_sse_fma(int f32, unsigned chains);
rl_chain_fn rl_chain_sse_fma(int f32, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	return (f32 ? sse_fma_f32_table : sse_fma_f64_table)[chains - 1];
}
