/* AVX2+FMA chain kernels and the scalar FMA chains (compiled with -mavx2
 * -mfma, see build.mk); called only when CPUID says the CPU and the OS
 * support AVX2 and FMA. */
#include <immintrin.h>

#include "probes/hsum.h"
#include "probes/probe.h"

#define CH_FN avx2_fma_f64
#define CH_VT __m256d
#define CH_ET double
#define CH_SET1(v) _mm256_set1_pd(v)
#define CH_STEP(a) _mm256_fmadd_pd(a, x, y)
#define CH_HSUM hsum256d
#include "probes/chains_template.h"
#define LC_CHAINS 12
#include "probes/load_template.h"
#undef LC_CHAINS
#undef CH_FN
#define CH_FN avx2_add_f64
#undef CH_STEP
#define CH_STEP(a) _mm256_add_pd(a, y)
#include "probes/chains_template.h"

#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN avx2_fma_f32
#define CH_VT __m256
#define CH_ET float
#define CH_SET1(v) _mm256_set1_ps(v)
#define CH_STEP(a) _mm256_fmadd_ps(a, x, y)
#define CH_HSUM hsum256f
#include "probes/chains_template.h"
#define LC_CHAINS 12
#include "probes/load_template.h"
#undef LC_CHAINS
#undef CH_FN
#define CH_FN avx2_add_f32
#undef CH_STEP
#define CH_STEP(a) _mm256_add_ps(a, y)
#include "probes/chains_template.h"

/* Scalar FMA: vfmadd231sd/ss on one lane of an xmm register. */
#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN sfma_f64
#define CH_VT __m128d
#define CH_ET double
#define CH_SET1(v) _mm_set_sd(v)
#define CH_STEP(a) _mm_fmadd_sd(a, x, y)
#define CH_HSUM _mm_cvtsd_f64
#include "probes/chains_template.h"
#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN sfma_f32
#define CH_VT __m128
#define CH_ET float
#define CH_SET1(v) _mm_set_ss(v)
#define CH_STEP(a) _mm_fmadd_ss(a, x, y)
#define CH_HSUM(v) ((double)_mm_cvtss_f32(v))
#include "probes/chains_template.h"

rl_chain_fn rl_chain_avx2(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_avx2(int f32, int add_only, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	if (f32)
		return (add_only ? avx2_add_f32_table
				 : avx2_fma_f32_table)[chains - 1];
	return (add_only ? avx2_add_f64_table : avx2_fma_f64_table)[chains - 1];
}

rl_chain_fn rl_chain_scalar_fma(int f32, unsigned chains);
rl_chain_fn rl_chain_scalar_fma(int f32, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	return (f32 ? sfma_f32_table : sfma_f64_table)[chains - 1];
}

rl_load_kernel_fn rl_load_avx2(int f32, unsigned *chains);
rl_load_kernel_fn rl_load_avx2(int f32, unsigned *chains)
{
	*chains = 12;
	return f32 ? avx2_fma_f32_load : avx2_fma_f64_load;
}
