/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: FMA on the host's own FMA unit.
 *
 * VEX 3.19 turns each lane of an x86 FMA into MAddF64/MAddF32, which its
 * amd64 back end computes with a generic software helper (tens of times
 * slower than a multiply and an add). rs_fmair.c replaces each such op
 * whose rounding mode is the constant round-to-nearest (the mode VEX
 * gives every SSE/AVX FMA) by a call to the helpers below (a lane alone:
 * a clean helper; the lanes of one instruction: rs_fma_fns, on the
 * guest state and the buffer and slots in its shadow), which this file,
 * compiled with -mfma, computes with hardware vfmadd: the same correctly
 * rounded result (IEEE 754 fusedMultiplyAdd), bit for bit.
 * VEX writes vfmsub as MAdd(a, b, Neg c), vfnmadd as Neg(MAdd(a, b,
 * Neg c)) and vfnmsub as Neg(MAdd(a, b, c)): rs_fmair.c recognises
 * these and calls the matching instruction, so that signed zeros and NaN
 * signs come out as natively (negating after the rounding does not).
 * Valgrind's host code runs with MXCSR at its default (round to nearest,
 * no FTZ/DAZ), as the generic helper assumes too.
 *
 * rs_fma_init() checks CPUID for FMA and for the OS saving the AVX state;
 * without them the original ops stay.
 */
#include "counters/sim/rs.h"

Bool rs_fma_native = False;

static void cpuid(UInt leaf, UInt sub, UInt *a, UInt *b, UInt *c, UInt *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}

void rs_fma_init(void)
{
	UInt a, b, c, d, lo, hi;
	cpuid(0, 0, &a, &b, &c, &d);
	if (a < 1)
		return;
	cpuid(1, 0, &a, &b, &c, &d);
	/* ECX bit 12 FMA, bit 27 OSXSAVE, bit 28 AVX */
	if (!(c & (1u << 12)) || !(c & (1u << 27)) || !(c & (1u << 28)))
		return;
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	if ((lo & 6u) != 6u) /* XMM and YMM state enabled by the OS */
		return;
	rs_fma_native = True;
}

/* One hardware FMA instruction per helper (231 form: c = +-(a*b) +- c),
 * the operands as bits. */
#define RS_FMA_HELPER(name, insn, T, U)                                      \
	ULong name(ULong ua, ULong ub, ULong uc)                             \
	{                                                                    \
		union { U u; T f; } a = {(U)ua}, b = {(U)ub}, c = {(U)uc};   \
		__asm__(insn " %[b], %[a], %[c]"                             \
			: [c] "+x"(c.f)                                      \
			: [a] "x"(a.f), [b] "x"(b.f));                       \
		return (ULong)c.u;                                           \
	}
RS_FMA_HELPER(rs_fmadd64, "vfmadd231sd", double, ULong)
RS_FMA_HELPER(rs_fmsub64, "vfmsub231sd", double, ULong)
RS_FMA_HELPER(rs_fnmadd64, "vfnmadd231sd", double, ULong)
RS_FMA_HELPER(rs_fnmsub64, "vfnmsub231sd", double, ULong)
RS_FMA_HELPER(rs_fmadd32, "vfmadd231ss", float, UInt)
RS_FMA_HELPER(rs_fmsub32, "vfmsub231ss", float, UInt)
RS_FMA_HELPER(rs_fnmadd32, "vfnmadd231ss", float, UInt)
RS_FMA_HELPER(rs_fnmsub32, "vfnmsub231ss", float, UInt)

/* The lanes one by one, scalar, unrolled: an operand stored lane by lane
 * forwards to an 8- or 4-byte load of each where one vector load of all
 * lanes would wait for the stores to retire (a chain of dependent FMAs,
 * as in Horner's rule, ran 2x slower so). Lane: c = a*b + c (231 form),
 * at byte o of r, a, b, c (%0-%3) in xmm x, y. */
#define RS_LANE(insn, mov, o, x, y)                                         \
	mov " " o "(%1), %%xmm" x "\n\t"                                     \
	mov " " o "(%3), %%xmm" y "\n\t"                                     \
	insn " " o "(%2), %%xmm" x ", %%xmm" y "\n\t"                        \
	mov " %%xmm" y ", " o "(%0)\n\t"
#define RS_LANES_ASM(lanes)                                                 \
	__asm__ __volatile__(lanes : : "r"(r), "r"(a), "r"(b), "r"(c)        \
			     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", \
			       "xmm6", "xmm7", "memory")
#define RS_SD2(i) RS_LANES_ASM(RS_LANE(i "sd", "vmovsd", "0", "0", "1")     \
			       RS_LANE(i "sd", "vmovsd", "8", "2", "3"))
#define RS_SD4(i) RS_LANES_ASM(RS_LANE(i "sd", "vmovsd", "0", "0", "1")     \
			       RS_LANE(i "sd", "vmovsd", "8", "2", "3")     \
			       RS_LANE(i "sd", "vmovsd", "16", "4", "5")    \
			       RS_LANE(i "sd", "vmovsd", "24", "6", "7"))
#define RS_SS4(i) RS_LANES_ASM(RS_LANE(i "ss", "vmovss", "0", "0", "1")     \
			       RS_LANE(i "ss", "vmovss", "4", "2", "3")     \
			       RS_LANE(i "ss", "vmovss", "8", "4", "5")     \
			       RS_LANE(i "ss", "vmovss", "12", "6", "7"))
#define RS_SS8(i) RS_LANES_ASM(RS_LANE(i "ss", "vmovss", "0", "0", "1")     \
			       RS_LANE(i "ss", "vmovss", "4", "2", "3")     \
			       RS_LANE(i "ss", "vmovss", "8", "4", "5")     \
			       RS_LANE(i "ss", "vmovss", "12", "6", "7")    \
			       RS_LANE(i "ss", "vmovss", "16", "0", "1")    \
			       RS_LANE(i "ss", "vmovss", "20", "2", "3")    \
			       RS_LANE(i "ss", "vmovss", "24", "4", "5")    \
			       RS_LANE(i "ss", "vmovss", "28", "6", "7"))

/* All operands and the result in guest registers (written and read by
 * VEX's code 16 bytes at a time) or slots: one vector FMA, each moved as
 * 16-byte halves so that its loads forward from those stores; vzeroupper
 * before going back to VEX's SSE code. */
#define RS_VEC256(insn)                                                     \
	__asm__ __volatile__("vmovups (%1), %%xmm0\n\t"                       \
			     "vinsertf128 $1, 16(%1), %%ymm0, %%ymm0\n\t"     \
			     "vmovups (%2), %%xmm1\n\t"                       \
			     "vinsertf128 $1, 16(%2), %%ymm1, %%ymm1\n\t"     \
			     "vmovups (%3), %%xmm2\n\t"                       \
			     "vinsertf128 $1, 16(%3), %%ymm2, %%ymm2\n\t"     \
			     insn " %%ymm1, %%ymm0, %%ymm2\n\t"               \
			     "vmovups %%xmm2, (%0)\n\t"                       \
			     "vextractf128 $1, %%ymm2, 16(%0)\n\t"            \
			     "vzeroupper"                                     \
			     : : "r"(r), "r"(a), "r"(b), "r"(c)               \
			     : "xmm0", "xmm1", "xmm2", "memory")
#define RS_VEC128(insn)                                                     \
	__asm__ __volatile__("vmovups (%1), %%xmm0\n\t"                       \
			     "vmovups (%2), %%xmm1\n\t"                       \
			     "vmovups (%3), %%xmm2\n\t"                       \
			     insn " %%xmm1, %%xmm0, %%xmm2\n\t"               \
			     "vmovups %%xmm2, (%0)"                           \
			     : : "r"(r), "r"(a), "r"(b), "r"(c)               \
			     : "xmm0", "xmm1", "xmm2", "memory")

/* The lanes of one instruction, one helper per kind and form, chosen by
 * rs_fmair.c (rs.h): the places of a, b, c and the result from offs, in
 * the guest state (or its shadow) at gs. */
#define RS_FMA_FN(name, body)                                               \
	static void name(UChar *gs, UWord offs)                              \
	{                                                                    \
		const UChar *a = gs + (offs & 0xfff);                        \
		const UChar *b = gs + ((offs >> 12) & 0xfff);                \
		const UChar *c = gs + ((offs >> 24) & 0xfff);                \
		UChar *r = gs + (offs >> 36);                                \
		body;                                                        \
	}
#define RS_FMA_KIND(k, insn)                                                \
	RS_FMA_FN(k##_sd2, RS_SD2(insn))                                     \
	RS_FMA_FN(k##_sd4, RS_SD4(insn))                                     \
	RS_FMA_FN(k##_ss4, RS_SS4(insn))                                     \
	RS_FMA_FN(k##_ss8, RS_SS8(insn))                                     \
	RS_FMA_FN(k##_v128pd, RS_VEC128(insn "pd"))                          \
	RS_FMA_FN(k##_v256pd, RS_VEC256(insn "pd"))                          \
	RS_FMA_FN(k##_v128ps, RS_VEC128(insn "ps"))                          \
	RS_FMA_FN(k##_v256ps, RS_VEC256(insn "ps"))
RS_FMA_KIND(fmadd, "vfmadd231")
RS_FMA_KIND(fmsub, "vfmsub231")
RS_FMA_KIND(fnmadd, "vfnmadd231")
RS_FMA_KIND(fnmsub, "vfnmsub231")

#define RS_FMA_ROW(k)                                                       \
	{k##_sd2, k##_sd4, k##_ss4, k##_ss8,                                 \
	 k##_v128pd, k##_v256pd, k##_v128ps, k##_v256ps}
const rs_fma_fn rs_fma_fns[4][8] = {RS_FMA_ROW(fmadd), RS_FMA_ROW(fmsub),
				    RS_FMA_ROW(fnmadd), RS_FMA_ROW(fnmsub)};
