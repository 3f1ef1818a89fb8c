/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the FMA lanes of a superblock rewritten to run on the host's
 * FMA unit (the helpers of rs_fma.c).
 *
 * VEX writes an x86 FMA lane as (rm the constant round-to-nearest; copies
 * t2 = t1 may sit between)
 *   vfmadd  t = MAddF(rm, a, b, c)
 *   vfmsub  n = NegF(c); t = MAddF(rm, a, b, n)
 *   vfnmadd n = NegF(c); m = MAddF(rm, a, b, n); t = NegF(m)
 *   vfnmsub m = MAddF(rm, a, b, c); t = NegF(m)
 * The plan, made once per block, finds each lane's operands and kind (a
 * NegF of a lane's only use is taken into the lane, so that signed zeros
 * and NaN signs are those of the x86 instruction, not of negating the
 * rounded result). The lanes of one guest instruction (2 or 4 f64, 4 or 8
 * f32, one kind) become one batch: their operands put in a buffer in
 * VEX's shadow guest state, one call of the helper for the kind and form
 * (rs_fma_fns), the results read back, all at the instruction's
 * last MAddF, provided no lane result is used before. An operand whose
 * lanes are GETs of one guest register, unchanged until the batch, is
 * not stored: the helper reads it in the guest state (declared to VEX).
 * Results go straight into their guest register when each lane's PUT is
 * there to drop (read back with a GET for other uses), else into a slot
 * of the block's own, where a later batch reads them as an operand.
 * Other lanes become one clean call each (rs_fmadd64 ...). A MAddF under
 * any other rounding mode keeps VEX's own op. The lanes are emitted by
 * rs_fmaemit.c (rs_fma_rewrite), as the plan says.
 */
#include "counters/sim/rs.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"

#include "counters/sim/rs_fmair.h"

static void use_expr(struct rs_fma_plan *p, const IRExpr *e, Int at)
{
	if (!e)
		return;
	switch (e->tag) {
	case Iex_RdTmp: {
		IRTemp t = e->Iex.RdTmp.tmp;
		if (t < (IRTemp)p->ntmp) {
			if (p->uses[t]++ == 0)
				p->first_use[t] = at;
			else if (p->uses[t] == 2)
				p->second_use[t] = at;
			p->last_use[t] = at;
		}
		break;
	}
	case Iex_GetI: use_expr(p, e->Iex.GetI.ix, at); break;
	case Iex_Qop:
		use_expr(p, e->Iex.Qop.details->arg1, at);
		use_expr(p, e->Iex.Qop.details->arg2, at);
		use_expr(p, e->Iex.Qop.details->arg3, at);
		use_expr(p, e->Iex.Qop.details->arg4, at);
		break;
	case Iex_Triop:
		use_expr(p, e->Iex.Triop.details->arg1, at);
		use_expr(p, e->Iex.Triop.details->arg2, at);
		use_expr(p, e->Iex.Triop.details->arg3, at);
		break;
	case Iex_Binop:
		use_expr(p, e->Iex.Binop.arg1, at);
		use_expr(p, e->Iex.Binop.arg2, at);
		break;
	case Iex_Unop: use_expr(p, e->Iex.Unop.arg, at); break;
	case Iex_Load: use_expr(p, e->Iex.Load.addr, at); break;
	case Iex_ITE:
		use_expr(p, e->Iex.ITE.cond, at);
		use_expr(p, e->Iex.ITE.iftrue, at);
		use_expr(p, e->Iex.ITE.iffalse, at);
		break;
	case Iex_CCall:
		for (Int k = 0; e->Iex.CCall.args[k]; k++)
			use_expr(p, e->Iex.CCall.args[k], at);
		break;
	default:
		break;
	}
}

static void use_stmt(struct rs_fma_plan *p, const IRStmt *st, Int at)
{
	switch (st->tag) {
	case Ist_AbiHint:
		use_expr(p, st->Ist.AbiHint.base, at);
		use_expr(p, st->Ist.AbiHint.nia, at);
		break;
	case Ist_Put: use_expr(p, st->Ist.Put.data, at); break;
	case Ist_PutI:
		use_expr(p, st->Ist.PutI.details->ix, at);
		use_expr(p, st->Ist.PutI.details->data, at);
		break;
	case Ist_WrTmp: use_expr(p, st->Ist.WrTmp.data, at); break;
	case Ist_Store:
		use_expr(p, st->Ist.Store.addr, at);
		use_expr(p, st->Ist.Store.data, at);
		break;
	case Ist_StoreG:
		use_expr(p, st->Ist.StoreG.details->addr, at);
		use_expr(p, st->Ist.StoreG.details->data, at);
		use_expr(p, st->Ist.StoreG.details->guard, at);
		break;
	case Ist_LoadG:
		use_expr(p, st->Ist.LoadG.details->addr, at);
		use_expr(p, st->Ist.LoadG.details->alt, at);
		use_expr(p, st->Ist.LoadG.details->guard, at);
		break;
	case Ist_CAS:
		use_expr(p, st->Ist.CAS.details->addr, at);
		use_expr(p, st->Ist.CAS.details->expdHi, at);
		use_expr(p, st->Ist.CAS.details->expdLo, at);
		use_expr(p, st->Ist.CAS.details->dataHi, at);
		use_expr(p, st->Ist.CAS.details->dataLo, at);
		break;
	case Ist_LLSC:
		use_expr(p, st->Ist.LLSC.addr, at);
		use_expr(p, st->Ist.LLSC.storedata, at);
		break;
	case Ist_Dirty: {
		const IRDirty *d = st->Ist.Dirty.details;
		use_expr(p, d->guard, at);
		use_expr(p, d->mAddr, at);
		for (Int k = 0; d->args[k]; k++)
			if (!is_IRExpr_VECRET_or_GSPTR(d->args[k]))
				use_expr(p, d->args[k], at);
		break;
	}
	case Ist_Exit: use_expr(p, st->Ist.Exit.guard, at); break;
	default:
		break;
	}
}

IRTemp rs_fma_tmp_of(const IRExpr *e)
{
	return e && e->tag == Iex_RdTmp ? e->Iex.RdTmp.tmp : IRTemp_INVALID;
}

/* Can the PUTs of lanes [from, to) that come before statement i move
 * past it? Not when it reads or writes their guest bytes, reads guest
 * state in other ways or leaves the block. Loads and stores may stay
 * between: VEX's default precise-exception policy only needs SP, IP and
 * BP up to date at memory accesses, not the vector registers. */
static Bool put_may_pass(const struct rs_fma_plan *p, Int from, Int to, Int i)
{
	const IRStmt *st = p->in->stmts[i];
	Int off, size;
	switch (st->tag) {
	case Ist_WrTmp:
		if (st->Ist.WrTmp.data->tag == Iex_GetI)
			return False;
		if (st->Ist.WrTmp.data->tag != Iex_Get)
			return True;
		off = st->Ist.WrTmp.data->Iex.Get.offset;
		size = sizeofIRType(st->Ist.WrTmp.data->Iex.Get.ty);
		break;
	case Ist_Put:
		off = st->Ist.Put.offset;
		size = sizeofIRType(typeOfIRExpr(p->in->tyenv, st->Ist.Put.data));
		break;
	case Ist_Store: case Ist_StoreG: case Ist_LoadG: case Ist_NoOp:
		return True;
	default:
		return False;
	}
	for (Int k = from; k < to; k++) {
		const struct lane *l = &p->lane[k];
		if (l->put_at < 0 || l->put_at >= i)
			continue;
		const IRStmt *u = p->in->stmts[l->put_at];
		Int uo = u->Ist.Put.offset;
		Int us = sizeofIRType(l->f64 ? Ity_F64 : Ity_F32);
		if (off < uo + us && uo < off + size)
			return False;
	}
	return True;
}

/* Operand j (0 a, 1 b, 2 c) of the n lanes from `from`, batched at
 * statement last: when lane k's is GET(off + k * lane size), a guest
 * register read in place by the helper, off; else 0 (stored to
 * the buffer). In place only when nothing between the first of these
 * GETs and the batch writes those guest bytes, but the lanes' own PUTs,
 * which move after the batch, and the dropped PUTs of an earlier batch's
 * results that its helper wrote there (as a chain of FMAs on one
 * register leaves them). */
static UWord operand_in_place(const struct rs_fma_plan *p, Int from, Int n,
			      Int j, Int last)
{
	Int sz = p->lane[from].f64 ? 8 : 4, off = -1, first = last;
	for (Int k = 0; k < n; k++) {
		IRTemp t = rs_fma_tmp_of(p->lane[from + k].arg[j]);
		if (t == IRTemp_INVALID || t >= (IRTemp)p->ntmp ||
		    p->get_off[t] < 0)
			return 0;
		if (k == 0)
			off = p->get_off[t];
		else if (p->get_off[t] != off + k * sz)
			return 0;
		if (p->get_at[t] < first)
			first = p->get_at[t];
	}
	if (off < RS_FMA_GS_MIN || off + n * sz >= RS_FMA_GS_MAX)
		return 0;
	for (Int i = first + 1; i < last; i++) {
		const IRStmt *st = p->in->stmts[i];
		Bool own = False;
		if (st->tag == Ist_PutI || st->tag == Ist_Dirty)
			return 0;
		if (st->tag != Ist_Put)
			continue;
		for (Int k = 0; k < n; k++)
			if (p->lane[from + k].put_at == i)
				own = True;
		Int o = st->Ist.Put.offset;
		/* the dropped PUT of an earlier batch's result that its helper
		 * wrote there itself: nothing new is written */
		IRTemp u = rs_fma_tmp_of(st->Ist.Put.data);
		if (p->action[i] == A_DROP && u != IRTemp_INVALID &&
		    u < (IRTemp)p->ntmp && p->get_off[u] == o)
			continue;
		Int size = sizeofIRType(typeOfIRExpr(p->in->tyenv,
						     st->Ist.Put.data));
		if (!own && o < off + n * sz && off < o + size)
			return 0;
	}
	return (UWord)off;
}

/* The results of the n lanes from `from`, batched at statement last:
 * when lane k goes to the guest state by one PUT(off + k * lane size),
 * wherever it is, and nothing between the batch and the last of these
 * PUTs reads or writes those guest bytes (or leaves the block), the
 * helper writes them in the guest state and the PUTs go: off; else 0.
 * A result used in other ways too is read back from there. */
static UWord output_in_place(const struct rs_fma_plan *p, Int from, Int n,
			     Int last)
{
	Int sz = p->lane[from].f64 ? 8 : 4, off = -1, end = last;
	for (Int k = 0; k < n; k++) {
		const struct lane *l = &p->lane[from + k];
		Int at = p->put_use[l->out];
		if (at < 0)
			return 0;
		const IRStmt *u = p->in->stmts[at];
		if (k == 0)
			off = u->Ist.Put.offset;
		else if (u->Ist.Put.offset != off + k * sz)
			return 0;
		if (at > end)
			end = at;
	}
	if (off < RS_FMA_GS_MIN || off + n * sz >= RS_FMA_GS_MAX)
		return 0;
	for (Int i = last + 1; i < end; i++) {
		const IRStmt *st = p->in->stmts[i];
		Int o, size;
		Bool own = False;
		if (st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Get) {
			o = st->Ist.WrTmp.data->Iex.Get.offset;
			size = sizeofIRType(st->Ist.WrTmp.data->Iex.Get.ty);
		} else if (st->tag == Ist_Put) {
			o = st->Ist.Put.offset;
			size = sizeofIRType(typeOfIRExpr(p->in->tyenv,
							 st->Ist.Put.data));
			for (Int k = 0; k < n; k++)
				if (p->put_use[p->lane[from + k].out] == i)
					own = True;
		} else if (st->tag == Ist_WrTmp &&
			   st->Ist.WrTmp.data->tag == Iex_GetI) {
			return 0;
		} else if (st->tag == Ist_WrTmp || st->tag == Ist_Store ||
			   st->tag == Ist_StoreG || st->tag == Ist_LoadG ||
			   st->tag == Ist_NoOp) {
			continue;
		} else {
			return 0; /* PutI, Dirty, Exit, ... */
		}
		if (!own && o < off + n * sz && off < o + size)
			return 0;
	}
	return (UWord)off;
}

/* Operand j of the n lanes from `from`, batched at statement last: when
 * lane k's is loaded from the address of lane 0's + k * lane size (one
 * memory operand), with no store between the first of these loads and
 * the batch, True: emit_batch loads it again as one vector and puts it
 * in the buffer at once, so that the helper's vector loads forward from
 * that put (a faulting address has faulted at the lanes' own loads). */
static Bool operand_in_memory(const struct rs_fma_plan *p, Int from, Int n,
			      Int j, Int last)
{
	Int sz = p->lane[from].f64 ? 8 : 4, first = last;
	IRTemp base = IRTemp_INVALID;
	Long off = 0;
	for (Int k = 0; k < n; k++) {
		IRTemp t = rs_fma_tmp_of(p->lane[from + k].arg[j]);
		if (t == IRTemp_INVALID || t >= (IRTemp)p->ntmp ||
		    p->load_at[t] < 0 || p->add_base[t] == IRTemp_INVALID)
			return False;
		if (k == 0)
			base = p->add_base[t], off = p->add_off[t];
		else if (p->add_base[t] != base ||
			 p->add_off[t] != off + (Long)k * sz)
			return False;
		if (p->load_at[t] < first)
			first = p->load_at[t];
	}
	for (Int i = first + 1; i < last; i++)
		switch (p->in->stmts[i]->tag) {
		case Ist_Store: case Ist_StoreG: case Ist_CAS: case Ist_LLSC:
		case Ist_Dirty: case Ist_MBE:
			return False;
		default:
			break;
		}
	return True;
}

/* Operand j of the n lanes from `from`: when lane k's is lane k of one
 * earlier batch's result kept in a slot, that slot; else 0. */
static UWord operand_in_slot(const struct rs_fma_plan *p, Int from, Int n,
			     Int j)
{
	UWord slot = 0;
	for (Int k = 0; k < n; k++) {
		IRTemp t = rs_fma_tmp_of(p->lane[from + k].arg[j]);
		if (t == IRTemp_INVALID || t >= (IRTemp)p->ntmp ||
		    !p->slot_of[t] || p->slot_lane[t] != k ||
		    (k > 0 && p->slot_of[t] != slot))
			return 0;
		slot = p->slot_of[t];
	}
	return slot;
}

/* The results of the lanes from `from`, batched at statement last, kept
 * in a slot where a later batch may read them: one whose last reader
 * comes no later than this batch (which reads its operands before it
 * writes), or none (0). A batch reads a slot at its last lane, after its
 * lanes' uses of the results, and instructions do not interleave, so the
 * results' last uses bound their readers. */
static UWord take_slot(struct rs_fma_plan *p, Int from, Int last)
{
	for (Int s = 1; s <= RS_FMA_SLOTS; s++) {
		if (p->slot_busy[s] > last)
			continue;
		p->slot_busy[s] = last;
		for (Int k = from; k < p->nlane; k++) {
			IRTemp t = p->lane[k].out;
			p->slot_of[t] = (UChar)s;
			p->slot_lane[t] = (UChar)(k - from);
			if (p->last_use[t] > p->slot_busy[s])
				p->slot_busy[s] = p->last_use[t];
		}
		return (UWord)s;
	}
	return 0;
}

/* Lanes [from, nlane) are one guest instruction's: batch or single. */
static void close_insn(struct rs_fma_plan *p, Int from)
{
	Int n = p->nlane - from, last = -1;
	Bool ok = n >= 2;
	for (Int k = from; k < p->nlane; k++) {
		struct lane *l = &p->lane[k];
		if (l->f64 != p->lane[from].f64 || l->kind != p->lane[from].kind)
			ok = False;
		if (l->madd_at > last)
			last = l->madd_at;
	}
	if (ok)
		ok = p->lane[from].f64 ? (n == 2 || n == 4) : (n == 4 || n == 8);
	/* a result used before the batch: only as the data of a PUT (VEX
	 * writes each lane to the guest register at once), which moves after
	 * the batch when nothing between reads the guest state; its other
	 * uses (a later FMA's operand) come after the batch */
	Int span = last;
	for (Int k = from; ok && k < p->nlane; k++) {
		struct lane *l = &p->lane[k];
		const IRStmt *u;
		l->put_at = -1;
		if (!p->uses[l->out] || p->first_use[l->out] > last)
			continue;
		u = p->in->stmts[p->first_use[l->out]];
		if (u->tag != Ist_Put || rs_fma_tmp_of(u->Ist.Put.data) != l->out ||
		    (p->uses[l->out] > 1 && p->second_use[l->out] <= last))
			ok = False;
		l->put_at = p->first_use[l->out];
		if (l->put_at < span)
			span = l->put_at;
	}
	for (Int i = span + 1; ok && i < last; i++)
		if (!put_may_pass(p, from, p->nlane, i))
			ok = False;
	for (Int k = from; k < p->nlane; k++) {
		struct lane *l = &p->lane[k];
		Int at = l->neg_at >= 0 ? l->neg_at : l->madd_at;
		p->action[l->madd_at] = A_DROP;
		if (l->neg_at >= 0)
			p->action[l->neg_at] = A_DROP;
		if (l->copy_at >= 0)
			p->action[l->copy_at] = A_DROP;
		if (!ok) {
			p->action[at] = A_SINGLE;
			p->lane_of_st[at] = k;
		} else if (l->put_at >= 0) {
			p->action[l->put_at] = A_DROP;
		}
	}
	if (ok) {
		p->action[last] = A_BATCH;
		p->lane_of_st[last] = from;
		p->batch_n[last] = n;
		for (Int j = 0; j < 3; j++) {
			UWord src = operand_in_place(p, from, n, j, last);
			if (!src)
				src = operand_in_slot(p, from, n, j);
			if (!src && operand_in_memory(p, from, n, j, last))
				p->batch_gs[last] |= MEM_RUN(j);
			p->batch_gs[last] |= src << (12 * j);
		}
		UWord dst = output_in_place(p, from, n, last);
		Int sz = p->lane[from].f64 ? 8 : 4;
		for (Int k = from; dst && k < p->nlane; k++) {
			IRTemp t = p->lane[k].out;
			p->action[p->put_use[t]] = A_DROP;
			/* read back after the batch: a later batch may read
			 * it in place */
			p->get_off[t] = (Int)dst + (k - from) * sz;
			p->get_at[t] = last;
		}
		if (!dst)
			dst = take_slot(p, from, last);
		p->batch_gs[last] |= dst << 36;
	}
}

static Bool is_rn_madd(const IRExpr *e)
{
	if (e->tag != Iex_Qop)
		return False;
	const IRQop *q = e->Iex.Qop.details;
	return (q->op == Iop_MAddF64 || q->op == Iop_MAddF32) &&
	       q->arg1->tag == Iex_Const && q->arg1->Iex.Const.con->tag == Ico_U32 &&
	       q->arg1->Iex.Const.con->Ico.U32 == Irrm_NEAREST;
}

/* t = e at statement i: an address base temp + constant, or a lane
 * load from one (struct rs_fma_plan: load_at, add_base, add_off). */
static void note_address(struct rs_fma_plan *p, IRTemp t, const IRExpr *e,
			 Int i)
{
	IRTemp a;
	if (e->tag == Iex_Binop && e->Iex.Binop.op == Iop_Add64 &&
	    e->Iex.Binop.arg2->tag == Iex_Const &&
	    e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64 &&
	    (a = rs_fma_tmp_of(e->Iex.Binop.arg1)) != IRTemp_INVALID) {
		p->add_base[t] = a;
		p->add_off[t] = (Long)e->Iex.Binop.arg2->Iex.Const.con->Ico.U64;
		return;
	}
	if (e->tag != Iex_Load || e->Iex.Load.end != Iend_LE ||
	    (e->Iex.Load.ty != Ity_F64 && e->Iex.Load.ty != Ity_F32) ||
	    (a = rs_fma_tmp_of(e->Iex.Load.addr)) == IRTemp_INVALID ||
	    a >= (IRTemp)p->ntmp)
		return;
	p->load_at[t] = i;
	if (p->add_base[a] != IRTemp_INVALID) {
		p->add_base[t] = p->add_base[a];
		p->add_off[t] = p->add_off[a];
	} else {
		p->add_base[t] = a;
		p->add_off[t] = 0;
	}
}

struct rs_fma_plan *rs_fma_plan_new(const IRSB *in)
{
	struct rs_fma_plan *p;
	Int insn_from = 0, nmadd = 0;
	if (!rs_fma_native)
		return NULL;
	for (Int i = 0; i < in->stmts_used; i++) {
		const IRStmt *st = in->stmts[i];
		if (st->tag == Ist_WrTmp && is_rn_madd(st->Ist.WrTmp.data))
			nmadd++;
	}
	if (nmadd == 0)
		return NULL;
	p = VG_(calloc)("rlprofsim.fma", 1, sizeof *p);
	p->in = in;
	p->nst = in->stmts_used;
	p->ntmp = in->tyenv->types_used;
	p->action = VG_(calloc)("rlprofsim.fma", p->nst + 1, 1);
	p->lane_of_st = VG_(calloc)("rlprofsim.fma", p->nst + 1, sizeof(Int));
	p->batch_n = VG_(calloc)("rlprofsim.fma", p->nst + 1, sizeof(Int));
	p->lane = VG_(calloc)("rlprofsim.fma", nmadd, sizeof *p->lane);
	p->uses = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->first_use = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->second_use = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->last_use = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->neg_of = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(IRExpr *));
	p->lane_of = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->get_off = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->get_at = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->put_use = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->load_at = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Int));
	p->add_base = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(IRTemp));
	p->add_off = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, sizeof(Long));
	p->slot_of = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, 1);
	p->slot_lane = VG_(calloc)("rlprofsim.fma", p->ntmp + 1, 1);
	p->batch_gs = VG_(calloc)("rlprofsim.fma", p->nst + 1, sizeof(UWord));
	for (Int t = 0; t < p->ntmp; t++) {
		p->lane_of[t] = p->get_off[t] = p->put_use[t] = -1;
		p->load_at[t] = -1;
		p->add_base[t] = IRTemp_INVALID;
	}
	for (Int k = 0; k <= RS_FMA_SLOTS; k++)
		p->slot_busy[k] = -1;
	for (Int i = 0; i < in->stmts_used; i++) {
		const IRStmt *st = in->stmts[i];
		const IRExpr *e;
		IRTemp pt = st->tag == Ist_Put ? rs_fma_tmp_of(st->Ist.Put.data)
					       : IRTemp_INVALID;
		if (pt != IRTemp_INVALID && pt < (IRTemp)p->ntmp)
			p->put_use[pt] = p->put_use[pt] == -1 ? i : -2;
		if (st->tag != Ist_WrTmp || st->Ist.WrTmp.tmp >= (IRTemp)p->ntmp)
			continue;
		e = st->Ist.WrTmp.data;
		note_address(p, st->Ist.WrTmp.tmp, e, i);
		if (e->tag == Iex_Get &&
		    (e->Iex.Get.ty == Ity_F64 || e->Iex.Get.ty == Ity_F32)) {
			p->get_off[st->Ist.WrTmp.tmp] = e->Iex.Get.offset;
			p->get_at[st->Ist.WrTmp.tmp] = i;
		}
	}
	for (Int i = 0; i < in->stmts_used; i++)
		use_stmt(p, in->stmts[i], i);
	use_expr(p, in->next, in->stmts_used);

	for (Int i = 0; i < in->stmts_used; i++) {
		const IRStmt *st = in->stmts[i];
		if (st->tag == Ist_IMark || st->tag == Ist_Exit) {
			close_insn(p, insn_from);
			insn_from = p->nlane;
			continue;
		}
		if (st->tag != Ist_WrTmp)
			continue;
		IRTemp t = st->Ist.WrTmp.tmp;
		const IRExpr *e = st->Ist.WrTmp.data;
		if (t >= (IRTemp)p->ntmp)
			continue;
		if (e->tag == Iex_RdTmp) { /* a copy (not yet propagated) */
			IRTemp s = e->Iex.RdTmp.tmp;
			if (s >= (IRTemp)p->ntmp)
				continue;
			p->neg_of[t] = p->neg_of[s];
			Int k = p->lane_of[s];
			if (k >= insn_from && p->uses[s] == 1 &&
			    p->lane[k].copy_at < 0 && p->lane[k].neg_at < 0) {
				p->lane_of[t] = k;
				p->lane[k].copy_at = i;
				p->lane[k].out = t;
			}
			continue;
		}
		if (e->tag == Iex_Unop && (e->Iex.Unop.op == Iop_NegF64 ||
					   e->Iex.Unop.op == Iop_NegF32)) {
			IRTemp s = rs_fma_tmp_of(e->Iex.Unop.arg);
			p->neg_of[t] = e->Iex.Unop.arg;
			if (s == IRTemp_INVALID || s >= (IRTemp)p->ntmp)
				continue;
			Int k = p->lane_of[s];
			if (k >= insn_from && p->uses[s] == 1 &&
			    p->lane[k].neg_at < 0) {
				struct lane *l = &p->lane[k];
				l->neg_at = i;
				l->out = t;
				l->kind = l->kind == 0 ? 3 : 2;
				p->lane_of[t] = -1;
				p->neg_of[t] = NULL; /* its operand is gone */
			}
			continue;
		}
		if (!is_rn_madd(e))
			continue;
		const IRQop *q = e->Iex.Qop.details;
		struct lane *l = &p->lane[p->nlane];
		l->arg[0] = q->arg2;
		l->arg[1] = q->arg3;
		l->arg[2] = q->arg4;
		l->kind = 0;
		IRTemp c = rs_fma_tmp_of(q->arg4);
		if (c != IRTemp_INVALID && c < (IRTemp)p->ntmp && p->neg_of[c]) {
			l->arg[2] = p->neg_of[c];
			l->kind = 1;
		}
		l->out = l->madd = t;
		l->madd_at = i;
		l->neg_at = l->copy_at = -1;
		l->f64 = q->op == Iop_MAddF64;
		p->lane_of[t] = p->nlane++;
	}
	close_insn(p, insn_from);
	return p;
}

void rs_fma_plan_free(struct rs_fma_plan *p)
{
	if (!p)
		return;
	VG_(free)(p->action);
	VG_(free)(p->lane_of_st);
	VG_(free)(p->batch_n);
	VG_(free)(p->lane);
	VG_(free)(p->uses);
	VG_(free)(p->first_use);
	VG_(free)(p->second_use);
	VG_(free)(p->last_use);
	VG_(free)(p->load_at);
	VG_(free)(p->add_base);
	VG_(free)(p->add_off);
	VG_(free)(p->neg_of);
	VG_(free)(p->lane_of);
	VG_(free)(p->get_off);
	VG_(free)(p->get_at);
	VG_(free)(p->put_use);
	VG_(free)(p->slot_of);
	VG_(free)(p->slot_lane);
	VG_(free)(p->batch_gs);
	VG_(free)(p);
}
