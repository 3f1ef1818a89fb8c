/*
 * Chain kernels: included by an ISA file (fma_<isa>.c) once per variant,
 * with these defined before each inclusion:
 *   CH_FN        name prefix of the variant (e.g. avx512_fma_f64)
 *   CH_VT, CH_ET vector and element type
 *   CH_SET1(v)   broadcast an element
 *   CH_STEP(a)   one chain step: a*x + y (FMA or mul+add) or a + y
 *   CH_HSUM(v)   sum of the lanes, as double
 * It defines static double CH_FN##_kN(long iters, double seed) for
 * N = 1..32 and the table CH_FN##_table[32] of them. Each kernel keeps K
 * accumulators in named variables (registers where the ISA has enough),
 * touches no memory in its loop and returns the sum of the accumulators
 * so the work cannot be dropped. Accumulator k starts at seed + k.
 */
#include "probe.h"

#ifndef RL_CHAIN_X
#define RL_CHAIN_X 0.999999
#define RL_CHAIN_Y 1e-6
#define CH_CAT2(a, b) a##b
#define CH_CAT(a, b) CH_CAT2(a, b)
#define CH_NAMES(X)                                                           \
	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)   \
	X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)     \
	X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define CH_NAMES1(X)                                                          \
	X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)  \
	X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24)     \
	X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
#define CH_DECL(i) CH_VT a##i = CH_SET1((CH_ET)(seed + i));
#define CH_DO(i)                                                              \
	if (K > i)                                                            \
		a##i = CH_STEP(a##i);
#define CH_ADDUP(i)                                                           \
	if (K > i)                                                            \
		s += CH_HSUM(a##i);
#define CH_INST(k)                                                            \
	static double CH_CAT(CH_FN, _k##k)(long iters, double seed)           \
	{                                                                     \
		return CH_CAT(CH_FN, _body)(k, iters, seed);                  \
	}
#define CH_REF(k) CH_CAT(CH_FN, _k##k),
#endif

static inline __attribute__((always_inline)) double
CH_CAT(CH_FN, _body)(const int K, long iters, double seed)
{
	const CH_VT x = CH_SET1((CH_ET)RL_CHAIN_X);
	const CH_VT y = CH_SET1((CH_ET)RL_CHAIN_Y);
	(void)x;
	CH_NAMES(CH_DECL)
	for (long it = 0; it < iters; it++) {
		CH_NAMES(CH_DO)
	}
	double s = 0;
	CH_NAMES(CH_ADDUP)
	return s;
}

CH_NAMES1(CH_INST)

static const rl_chain_fn CH_CAT(CH_FN, _table)[RL_FMA_MAX_CHAINS] = {
	CH_NAMES1(CH_REF)
};
