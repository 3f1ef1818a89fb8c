/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the FMA lanes of a superblock emitted as its plan
 * (rs_fmair.c) says: a lane on its own as one clean call (rs_fmadd64
 * ...), the lanes of one instruction as one call of rs_fma_fns' helper
 * for their kind and form, with their operands and results placed in the
 * buffer, a slot or a guest register (rs.h).
 */
#include "counters/sim/rs_fmair.h"
#include "pub_tool_machine.h"

static IRExpr *emit(IRSB *out, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, ty);
	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/* one lane, one clean call: the operands as bits */
static void emit_single(IRSB *out, const struct lane *l)
{
	static const HChar *const n64[] = {"rs_fmadd64", "rs_fmsub64",
					   "rs_fnmadd64", "rs_fnmsub64"};
	static const HChar *const n32[] = {"rs_fmadd32", "rs_fmsub32",
					   "rs_fnmadd32", "rs_fnmsub32"};
	void *const f64s[] = {rs_fmadd64, rs_fmsub64, rs_fnmadd64, rs_fnmsub64};
	void *const f32s[] = {rs_fmadd32, rs_fmsub32, rs_fnmadd32, rs_fnmsub32};
	IRExpr *b[3], *r;
	for (Int k = 0; k < 3; k++)
		b[k] = l->f64 ? emit(out, Ity_I64,
				     IRExpr_Unop(Iop_ReinterpF64asI64, l->arg[k]))
			      : emit(out, Ity_I64, IRExpr_Unop(Iop_32Uto64,
				     emit(out, Ity_I32, IRExpr_Unop(
					     Iop_ReinterpF32asI32, l->arg[k]))));
	IRCallee *cee = mkIRCallee(0, l->f64 ? n64[l->kind] : n32[l->kind],
				   VG_(fnptr_to_fnentry)(l->f64 ? f64s[l->kind]
								: f32s[l->kind]));
	r = emit(out, Ity_I64, IRExpr_CCall(cee, Ity_I64,
					    mkIRExprVec_3(b[0], b[1], b[2])));
	addStmtToIRSB(out, IRStmt_WrTmp(l->out, l->f64
		? IRExpr_Unop(Iop_ReinterpI64asF64, r)
		: IRExpr_Unop(Iop_ReinterpI32asF32,
			      emit(out, Ity_I32, IRExpr_Unop(Iop_64to32, r)))));
}

/* Field j (0 a, 1 b, 2 c, 3 the result) of a batch: 0 the buffer, a slot
 * number, or a guest register's offset. */
static UWord batch_field(UWord gs, Int j)
{
	return (gs >> (12 * j)) & 0xfff;
}

/* Where field j of a batch is (rs.h): its offset in the guest state or
 * the shadow after it. */
static Int batch_place(UWord gs, Int j)
{
	UWord v = batch_field(gs, j);
	if (v >= RS_FMA_GS_MIN)
		return (Int)v;
	return v ? RS_FMA_SLOT((Int)v) : RS_FMA_BUF + 32 * j;
}

/* n lanes of one instruction, one call of the helper for their kind and
 * form; gs: where a, b, c and the result are (12 bits each: 0 the
 * buffer, a slot, or a guest register's offset): an operand in the
 * buffer is put there lane by lane first; a result in the buffer or a
 * slot is read into the lanes' temps, one in a guest register read back
 * where the block uses it in other ways than its (dropped) PUT. Every
 * place is declared to VEX as guest state read or written. */
static void emit_batch(IRSB *out, const struct rs_fma_plan *p,
		       const struct lane *l, Int n, UWord gs)
{
	Int sz = l->f64 ? 8 : 4, form, place[4];
	Bool vec = True;
	IRType ty = l->f64 ? Ity_F64 : Ity_F32;
	IRType vty = n * sz == 32 ? Ity_V256 : Ity_V128;
	for (Int j = 0; j < 4; j++) {
		place[j] = batch_place(gs, j);
		if (!batch_field(gs, j) && !(j < 3 && (gs & MEM_RUN(j))))
			vec = False; /* stored lane by lane */
	}
	for (Int j = 0; j < 3; j++) {
		if (batch_field(gs, j))
			continue; /* in a guest register or a slot */
		if (gs & MEM_RUN(j)) {
			const IRStmt *ld = p->in->stmts[
				p->load_at[rs_fma_tmp_of(l[0].arg[j])]];
			IRExpr *v = emit(out, vty, IRExpr_Load(Iend_LE, vty,
				deepCopyIRExpr(ld->Ist.WrTmp.data->Iex.Load.addr)));
			addStmtToIRSB(out, IRStmt_Put(place[j], v));
			continue;
		}
		for (Int k = 0; k < n; k++)
			addStmtToIRSB(out, IRStmt_Put(place[j] + sz * k,
						      l[k].arg[j]));
	}
	form = (l->f64 ? 0 : 2) + (n == (l->f64 ? 4 : 8)) + (vec ? 4 : 0);
	IRDirty *di = unsafeIRDirty_0_N(
		0, "rs_fma_lanes",
		VG_(fnptr_to_fnentry)(rs_fma_fns[l->kind][form]),
		mkIRExprVec_2(IRExpr_GSPTR(),
			      mkIRExpr_HWord((HWord)place[0] |
					     (HWord)place[1] << 12 |
					     (HWord)place[2] << 24 |
					     (HWord)place[3] << 36)));
	for (Int j = 0; j < 4; j++) {
		di->fxState[j].fx = j == 3 ? Ifx_Write : Ifx_Read;
		di->fxState[j].offset = place[j];
		di->fxState[j].size = (UShort)(n * sz);
		di->fxState[j].nRepeats = 0;
		di->fxState[j].repeatLen = 0;
	}
	di->nFxState = 4;
	addStmtToIRSB(out, IRStmt_Dirty(di));
	Bool in_reg = batch_field(gs, 3) >= RS_FMA_GS_MIN;
	/* in a guest register: only a result used in other ways too is read
	 * back (its PUT is gone); elsewhere every result is */
	for (Int k = 0; k < n; k++)
		if (!in_reg || p->uses[l[k].out] > 1)
			addStmtToIRSB(out, IRStmt_WrTmp(l[k].out,
				IRExpr_Get(place[3] + sz * k, ty)));
	if (in_reg)
		return;
	for (Int k = 0; k < n; k++)
		if (l[k].put_at >= 0)
			addStmtToIRSB(out, p->in->stmts[l[k].put_at]);
}

Bool rs_fma_rewrite(struct rs_fma_plan *p, IRSB *out, Int i)
{
	if (!p || i < 0 || i >= p->nst)
		return False;
	switch (p->action[i]) {
	case A_DROP:
		return True;
	case A_SINGLE:
		emit_single(out, &p->lane[p->lane_of_st[i]]);
		return True;
	case A_BATCH:
		emit_batch(out, p, &p->lane[p->lane_of_st[i]], p->batch_n[i],
			   p->batch_gs[i]);
		return True;
	default:
		return False;
	}
}
