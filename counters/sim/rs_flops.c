/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: which IR ops are flops and how many, summed per guest
 * instruction as rs_instrument.c reads a superblock; and the census of
 * the floating-point and vector ops seen (--sim-census).
 *
 * Rules (those of Intel's FP_ARITH_INST_RETIRED counters): add, sub, mul,
 * div, sqrt, min, max count 1 per lane, FMA 2; compares, conversions,
 * neg/abs, rounding, reciprocal estimates are not flops. VEX splits an FMA
 * into one MAddF64/MAddF32 per lane: the width is rebuilt from the number
 * of lanes in the instruction. (v)addsubp* is an Add and a Sub blended:
 * the Sub is dropped. (v)dpp* counts 2 per element. A VEX.256 instruction
 * computed in 128-bit halves counts as 256-bit.
 */
#include "counters/sim/rs.h"
#include "counters/sim/rs_flops.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"

Bool rs_census_on = False;
static ULong census[Iop_LAST - Iop_INVALID];

enum { W_S, W_128, W_256 };
enum { K_NONE, K_OP, K_FMA };

struct flop_class {
	UChar kind, prec, width, lanes, sub;
};

static struct flop_class classify(IROp op)
{
	struct flop_class c = {K_NONE, 0, 0, 0, 0};
	switch (op) {
	/* f64 packed, 128 bits */
	case Iop_Sub64Fx2: c.sub = 1; /* fall through */
	case Iop_Add64Fx2: case Iop_Mul64Fx2: case Iop_Div64Fx2:
	case Iop_Sqrt64Fx2: case Iop_Min64Fx2: case Iop_Max64Fx2:
		c.kind = K_OP, c.prec = 0, c.width = W_128, c.lanes = 2;
		break;
	case Iop_Sub64Fx4: c.sub = 1; /* fall through */
	case Iop_Add64Fx4: case Iop_Mul64Fx4: case Iop_Div64Fx4:
	case Iop_Sqrt64Fx4: case Iop_Min64Fx4: case Iop_Max64Fx4:
		c.kind = K_OP, c.prec = 0, c.width = W_256, c.lanes = 4;
		break;
	case Iop_Sub32Fx4: c.sub = 1; /* fall through */
	case Iop_Add32Fx4: case Iop_Mul32Fx4: case Iop_Div32Fx4:
	case Iop_Sqrt32Fx4: case Iop_Min32Fx4: case Iop_Max32Fx4:
		c.kind = K_OP, c.prec = 1, c.width = W_128, c.lanes = 4;
		break;
	case Iop_Sub32Fx8: c.sub = 1; /* fall through */
	case Iop_Add32Fx8: case Iop_Mul32Fx8: case Iop_Div32Fx8:
	case Iop_Sqrt32Fx8: case Iop_Min32Fx8: case Iop_Max32Fx8:
		c.kind = K_OP, c.prec = 1, c.width = W_256, c.lanes = 8;
		break;
	/* scalar: lowest lane of a vector, x87 and helpers */
	case Iop_Add64F0x2: case Iop_Sub64F0x2: case Iop_Mul64F0x2:
	case Iop_Div64F0x2: case Iop_Sqrt64F0x2: case Iop_Min64F0x2:
	case Iop_Max64F0x2: case Iop_AddF64: case Iop_SubF64:
	case Iop_MulF64: case Iop_DivF64: case Iop_SqrtF64:
	case Iop_AddF64r32: case Iop_SubF64r32: case Iop_MulF64r32:
	case Iop_DivF64r32:
		c.kind = K_OP, c.prec = 0, c.width = W_S, c.lanes = 1;
		break;
	case Iop_Add32F0x4: case Iop_Sub32F0x4: case Iop_Mul32F0x4:
	case Iop_Div32F0x4: case Iop_Sqrt32F0x4: case Iop_Min32F0x4:
	case Iop_Max32F0x4: case Iop_AddF32: case Iop_SubF32:
	case Iop_MulF32: case Iop_DivF32: case Iop_SqrtF32:
		c.kind = K_OP, c.prec = 1, c.width = W_S, c.lanes = 1;
		break;
	case Iop_MAddF64: case Iop_MSubF64: case Iop_MAddF64r32:
	case Iop_MSubF64r32:
		c.kind = K_FMA, c.prec = 0, c.lanes = 1;
		break;
	case Iop_MAddF32: case Iop_MSubF32:
		c.kind = K_FMA, c.prec = 1, c.lanes = 1;
		break;
	default:
		break;
	}
	return c;
}

void rs_insn_finish(struct insn_acc *a, ULong pend[RS_NPEND])
{
	ULong f[2][3];
	VG_(memset)(f, 0, sizeof f);
	if (a->d.dpp_flops) {
		f[a->d.dpp_prec][a->d.vex_256 ? W_256 : W_128] = a->d.dpp_flops;
	} else {
		for (Int p = 0; p < 2; p++) {
			for (Int w = 0; w < 3; w++)
				f[p][w] = a->op_flops[p][w] +
					  (a->d.addsub ? 0 : a->sub_flops[p][w]);
			UInt n = a->fma_lanes[p];
			Int w = W_S;
			if (n == (p == 0 ? 2U : 4U))
				w = W_128;
			else if (n == (p == 0 ? 4U : 8U))
				w = W_256;
			f[p][w] += 2ULL * n;
			pend[RS_FMA] += 2ULL * n;
			if (a->d.vex_256) {
				f[p][W_256] += f[p][W_128];
				f[p][W_128] = 0;
			}
		}
	}
	for (Int p = 0; p < 2; p++)
		for (Int w = 0; w < 3; w++)
			pend[p * 3 + w] += f[p][w];
	VG_(memset)(a->op_flops, 0, sizeof a->op_flops);
	VG_(memset)(a->sub_flops, 0, sizeof a->sub_flops);
	a->fma_lanes[0] = a->fma_lanes[1] = 0;
}

static void count_op(struct insn_acc *a, IROp op)
{
	struct flop_class c = classify(op);
	if (c.kind == K_OP) {
		if (c.sub)
			a->sub_flops[c.prec][c.width] += c.lanes;
		else
			a->op_flops[c.prec][c.width] += c.lanes;
	} else if (c.kind == K_FMA) {
		a->fma_lanes[c.prec]++;
	}
	if (rs_census_on && op > Iop_INVALID && op < Iop_LAST)
		census[op - Iop_INVALID]++;
}

void rs_count_expr(struct insn_acc *a, const IRExpr *e)
{
	switch (e->tag) {
	case Iex_Unop: count_op(a, e->Iex.Unop.op); break;
	case Iex_Binop: count_op(a, e->Iex.Binop.op); break;
	case Iex_Triop: count_op(a, e->Iex.Triop.details->op); break;
	case Iex_Qop: count_op(a, e->Iex.Qop.details->op); break;
	default: break;
	}
}

static Bool involves_fp(IROp op)
{
	IRType t[5];
	typeOfPrimop(op, &t[0], &t[1], &t[2], &t[3], &t[4]);
	for (Int k = 0; k < 5; k++)
		switch (t[k]) {
		case Ity_F16: case Ity_F32: case Ity_F64: case Ity_F128:
		case Ity_D32: case Ity_D64: case Ity_D128: case Ity_V128:
		case Ity_V256:
			return True;
		default:
			break;
		}
	return False;
}

/* Floating-point and vector IR ops seen in translated code (static
 * occurrences), counted as flops or not: for checking the rules. */
void rs_census_print(void)
{
	VG_(umsg)("rlprofsim census: floating-point/vector IR ops in the "
		  "translated code (static count)\n");
	for (Int k = 1; k < Iop_LAST - Iop_INVALID; k++) {
		IROp op = (IROp)(Iop_INVALID + k);
		if (!census[k] || !involves_fp(op))
			continue;
		VG_(umsg)("  %10llu  %-9s ", census[k],
			  classify(op).kind == K_NONE ? "not-flop" : "flop");
		VG_(message_flush)();
		ppIROp(op);
		VG_(printf)("\n");
		VG_(message_flush)();
	}
}
