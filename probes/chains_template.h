/*
 * Chain kernels: included by an ISA file (fma_<isa>.c) once per variant,
 * with these defined before each inclusion:
 *   CH_FN        name prefix of the variant (e.g. avx512_fma_f64)
 *   CH_VT, CH_ET vector and element type
 *   CH_SET1(v)   broadcast an element
 *   CH_STEP(a)   one chain step: a*x + y (FMA or mul+add) or a + y
 *   CH_HSUM(v)   sum of the lanes, as double
 * It defines static double CH_FN##_kN(long iters, double seed) for
 * N = 1..32 (each spelled out with exactly N chains by the CH_REP_N
 * macros) and the table CH_FN##_table[32] of them. Each kernel keeps K
 * accumulators in named variables (registers where the ISA has enough),
 * touches no memory in its loop and returns the sum of the accumulators
 * so the work cannot be dropped. Accumulator k starts at seed + k.
 */
#include "probes/probe.h"

#ifndef RL_CHAIN_X
#define RL_CHAIN_X 0.999999
#define RL_CHAIN_Y 1e-6
#define CH_CAT2(a, b) a##b
#define CH_CAT(a, b) CH_CAT2(a, b)
/* CH_REP_n(X): X(0) .. X(n-1), so kernel n has exactly n chains */
#define CH_REP_1(X) X(0)
#define CH_REP_2(X) CH_REP_1(X) X(1)
#define CH_REP_3(X) CH_REP_2(X) X(2)
#define CH_REP_4(X) CH_REP_3(X) X(3)
#define CH_REP_5(X) CH_REP_4(X) X(4)
#define CH_REP_6(X) CH_REP_5(X) X(5)
#define CH_REP_7(X) CH_REP_6(X) X(6)
#define CH_REP_8(X) CH_REP_7(X) X(7)
#define CH_REP_9(X) CH_REP_8(X) X(8)
#define CH_REP_10(X) CH_REP_9(X) X(9)
#define CH_REP_11(X) CH_REP_10(X) X(10)
#define CH_REP_12(X) CH_REP_11(X) X(11)
#define CH_REP_13(X) CH_REP_12(X) X(12)
#define CH_REP_14(X) CH_REP_13(X) X(13)
#define CH_REP_15(X) CH_REP_14(X) X(14)
#define CH_REP_16(X) CH_REP_15(X) X(15)
#define CH_REP_17(X) CH_REP_16(X) X(16)
#define CH_REP_18(X) CH_REP_17(X) X(17)
#define CH_REP_19(X) CH_REP_18(X) X(18)
#define CH_REP_20(X) CH_REP_19(X) X(19)
#define CH_REP_21(X) CH_REP_20(X) X(20)
#define CH_REP_22(X) CH_REP_21(X) X(21)
#define CH_REP_23(X) CH_REP_22(X) X(22)
#define CH_REP_24(X) CH_REP_23(X) X(23)
#define CH_REP_25(X) CH_REP_24(X) X(24)
#define CH_REP_26(X) CH_REP_25(X) X(25)
#define CH_REP_27(X) CH_REP_26(X) X(26)
#define CH_REP_28(X) CH_REP_27(X) X(27)
#define CH_REP_29(X) CH_REP_28(X) X(28)
#define CH_REP_30(X) CH_REP_29(X) X(29)
#define CH_REP_31(X) CH_REP_30(X) X(30)
#define CH_REP_32(X) CH_REP_31(X) X(31)
#define CH_NAMES1(X)                                                          \
	X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)  \
	X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24)     \
	X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
#define CH_DECL(i) CH_VT a##i = CH_SET1((CH_ET)(seed + i));
#define CH_DO(i) a##i = CH_STEP(a##i);
#define CH_ADDUP(i) s += CH_HSUM(a##i);
#define CH_INST(k)                                                            \
	static double CH_CAT(CH_FN, _k##k)(long iters, double seed)           \
	{                                                                     \
		const CH_VT x = CH_SET1((CH_ET)RL_CHAIN_X);                   \
		const CH_VT y = CH_SET1((CH_ET)RL_CHAIN_Y);                   \
		(void)x;                                                      \
		CH_REP_##k(CH_DECL)                                           \
		for (long it = 0; it < iters; it++) {                         \
			CH_REP_##k(CH_DO)                                     \
		}                                                             \
		double s = 0;                                                 \
		CH_REP_##k(CH_ADDUP)                                          \
		return s;                                                     \
	}
#define CH_REF(k) CH_CAT(CH_FN, _k##k),
#endif

CH_NAMES1(CH_INST)

static const rl_chain_fn CH_CAT(CH_FN, _table)[RL_FMA_MAX_CHAINS] = {
	CH_NAMES1(CH_REF)
};
