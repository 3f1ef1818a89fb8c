/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: FMA on the host's own FMA unit.
 *
 * VEX 3.19 turns each lane of an x86 FMA into MAddF64/MAddF32, which its
 * amd64 back end computes with a generic software helper (tens of times
 * slower than a multiply and an add). rs_fmair.c replaces each such op
 * whose rounding mode is the constant round-to-nearest (the mode VEX
 * gives every SSE/AVX FMA) by a call to the helpers below (a lane alone:
 * a clean helper; the lanes of one instruction: rs_fma_batch, on the
 * guest state, rs_fma_buf and its slots), which this file, compiled with
 * -mfma, computes with hardware vfmadd: the same correctly rounded result
 * (IEEE 754 fusedMultiplyAdd), bit for bit.
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
#include "rs.h"

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

/* The lanes of one FMA instruction, batched (rs_fmair.c): operands at
 * +0 (a), +32 (b), +64 (c), results at +96; lane k of f64 at 8k, of f32
 * at 4k. */
UChar rs_fma_buf[96 + 32 * (RS_FMA_SLOTS + 1)] __attribute__((aligned(32)));

/* Where field v of a batch's desc points (rs.h); j: 0-2 an operand, 3
 * the result. */
static UChar *batch_place(const UChar *gs, UWord v, Int j)
{
	if (v >= RS_FMA_GS_MIN)
		return (UChar *)gs + v;
	return rs_fma_buf + (v || j == 3 ? 96 + 32 * v : 32 * (UWord)j);
}

/* The lanes one by one, scalar: the operands were stored lane by lane,
 * and an 8- or 4-byte load of each forwards from its store where one
 * vector load of all lanes would wait for the stores to retire (a chain
 * of dependent FMAs, as in Horner's rule, ran 2x slower so). */
#define RS_FMA_LANES(insn, mov, T, n)                                       \
	for (UInt k = 0; k < (n); k++) {                                     \
		__asm__ __volatile__(mov " %1, %%xmm0\n\t"                   \
				     mov " %3, %%xmm2\n\t"                   \
				     insn " %2, %%xmm0, %%xmm2\n\t"          \
				     mov " %%xmm2, %0"                       \
				     : "=m"(((T *)r)[k])                     \
				     : "m"(((const T *)op[0])[k]),           \
				       "m"(((const T *)op[1])[k]),           \
				       "m"(((const T *)op[2])[k])            \
				     : "xmm0", "xmm2");                      \
	}

#define RS_FMA_KINDS(sfx, mov, T, n)                                        \
	switch (kind) {                                                      \
	case 0: RS_FMA_LANES("vfmadd231" sfx, mov, T, n); break;             \
	case 1: RS_FMA_LANES("vfmsub231" sfx, mov, T, n); break;             \
	case 2: RS_FMA_LANES("vfnmadd231" sfx, mov, T, n); break;            \
	default: RS_FMA_LANES("vfnmsub231" sfx, mov, T, n); break;           \
	}

/* All operands and the result in guest registers (written and read by
 * VEX's code 16 bytes at a time) or slots: one vector FMA, each moved as
 * 16-byte halves so that its loads forward from those stores; vzeroupper
 * before going back to VEX's SSE code. */
#define RS_FMA_VEC256(insn)                                                 \
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
			     : : "r"(r), "r"(op[0]), "r"(op[1]), "r"(op[2])   \
			     : "xmm0", "xmm1", "xmm2", "memory")
#define RS_FMA_VEC128(insn)                                                 \
	__asm__ __volatile__("vmovups (%1), %%xmm0\n\t"                       \
			     "vmovups (%2), %%xmm1\n\t"                       \
			     "vmovups (%3), %%xmm2\n\t"                       \
			     insn " %%xmm1, %%xmm0, %%xmm2\n\t"               \
			     "vmovups %%xmm2, (%0)"                           \
			     : : "r"(r), "r"(op[0]), "r"(op[1]), "r"(op[2])   \
			     : "xmm0", "xmm1", "xmm2", "memory")
#define RS_FMA_VEC_KINDS(VEC, sfx)                                          \
	switch (kind) {                                                      \
	case 0: VEC("vfmadd231" sfx); break;                                 \
	case 1: VEC("vfmsub231" sfx); break;                                 \
	case 2: VEC("vfnmadd231" sfx); break;                                \
	default: VEC("vfnmsub231" sfx); break;                               \
	}

void rs_fma_batch(const UChar *gs, UWord desc)
{
	UInt n = desc & 15, kind = (desc >> 8) & 3, f32 = (desc >> 4) & 1;
	const UChar *op[3];
	UWord dst = (desc >> 52) & 0xfff;
	UChar *r = batch_place(gs, dst, 3);
	Bool regs = dst != 0; /* no operand stored lane by lane */
	for (Int j = 0; j < 3; j++) {
		UWord v = (desc >> (16 + 12 * j)) & 0xfff;
		op[j] = batch_place(gs, v, j);
		regs = regs && v != 0;
	}
	if (regs) {
		UInt bytes = n << (f32 ? 2 : 3);
		if (bytes == 32) {
			if (f32)
				RS_FMA_VEC_KINDS(RS_FMA_VEC256, "ps")
			else
				RS_FMA_VEC_KINDS(RS_FMA_VEC256, "pd")
			return;
		}
		if (bytes == 16) {
			if (f32)
				RS_FMA_VEC_KINDS(RS_FMA_VEC128, "ps")
			else
				RS_FMA_VEC_KINDS(RS_FMA_VEC128, "pd")
			return;
		}
	}
	if (f32) {
		if (n > 8)
			n = 8;
		RS_FMA_KINDS("ss", "vmovss", UInt, n);
	} else {
		if (n > 4)
			n = 4;
		RS_FMA_KINDS("sd", "vmovsd", ULong, n);
	}
}
