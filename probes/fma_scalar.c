/* Scalar chain kernels without FMA: multiply then add, one lane (used
 * when the CPU has no FMA). Built with vectorization off (build.mk) so
 * the chains stay scalar; -std=c11 keeps a*x + y uncontracted. */
#include "probes/probe.h"

#define CH_FN smad_f64
#define CH_VT double
#define CH_ET double
#define CH_SET1(v) (v)
#define CH_STEP(a) ((a) * x + y)
#define CH_HSUM(v) ((double)(v))
#include "probes/chains_template.h"
#undef CH_FN
#undef CH_VT
#undef CH_ET
#undef CH_SET1
#define CH_FN smad_f32
#define CH_VT float
#define CH_ET float
#define CH_SET1(v) (v)
#include "probes/chains_template.h"

#undef CH_STEP
#define CH_STEP(a) ((a) + y)
#undef CH_FN
#undef CH_VT
#undef CH_ET
#define CH_FN sadd_f64
#define CH_VT double
#define CH_ET double
#include "probes/chains_template.h"
#undef CH_FN
#undef CH_VT
#undef CH_ET
#define CH_FN sadd_f32
#define CH_VT float
#define CH_ET float
#include "probes/chains_template.h"

rl_chain_fn rl_chain_scalar(int f32, int add_only, unsigned chains);
rl_chain_fn rl_chain_scalar(int f32, int add_only, unsigned chains)
{
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		return NULL;
	if (f32)
		return (add_only ? sadd_f32_table : smad_f32_table)[chains - 1];
	return (add_only ? sadd_f64_table : smad_f64_table)[chains - 1];
}
