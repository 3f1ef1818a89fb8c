/* AVX-512 chain kernels (compiled with -mavx512f -mfma, see build.mk);
 * called only when CPUID says the CPU and the OS support AVX-512F. */
#include <immintrin.h>

#include "probes/probe.h"

#define CH_HSUM_D(v) ((double)_mm512_reduce_add_pd(v))
#define CH_HSUM_F(v) ((double)_mm512_reduce_add_ps(v))

#define CH_FN avx512_fma_f64
#define CH_VT __m512d
#define CH_ET double
#define CH_SET1(v) _mm512_set1_pd(v)
#define CH_STEP(a) _mm512_fmadd_pd(a, x, y)
#define CH_HSUM CH_HSUM_D
#include "probes/chains_template.h"
#define LC_CHAINS 16
#include "probes/load_template.h"
#undef LC_CHAINS
#undef CH_FN
#define CH_FN avx512_add_f64
#undef CH_STEP
#define CH_STEP(a) _mm512_add_pd(a, y)
#include "probes/chains_template.h"

#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#undef CH_STEP
#undef CH_HSUM
#define CH_FN avx512_fma_f32
#define CH_VT __m512
#define CH_ET float
#define CH_SET1(v) _mm512_set1_ps(v)
#define CH_STEP(a) _mm512_fmadd_ps(a, x, y)
#define CH_HSUM CH_HSUM_F
#include "probes/chains_template.h"
#define LC_CHAINS 16
#include "probes/load_template.h"
#undef LC_CHAINS
#undef CH_FN
#define CH_FN avx512_add_f32
#undef CH_STEP
#define CH_STEP(a) _mm512_add_ps(a, y)
#include "probes/chains_template.h"

rl_chain_fn rl_chain_avx512(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_avx512(int f32, int add_only, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	if (f32)
		return (add_only ? avx512_add_f32_table
				 : avx512_fma_f32_table)[chains - 1];
	return (add_only ? avx512_add_f64_table
			 : avx512_fma_f64_table)[chains - 1];
}

rl_load_kernel_fn rl_load_avx512(int f32, unsigned *chains);
rl_load_kernel_fn rl_load_avx512(int f32, unsigned *chains)
{
	*chains = 16;
	return f32 ? avx512_fma_f32_load : avx512_fma_f64_load;
}
