/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: instrumentation of one superblock.
 *
 * Flops are classified statically from the IR ops of each guest
 * instruction (between IMarks) and added to rs_live by three IR statements
 * (load, add, store) per counter: before every side exit (Ist_Exit) for the
 * instructions above it, and at the end of the block. So a block costs
 * nothing per flop at run time and branchy code is counted exactly.
 *
 * Which ops are flops, and how many, is rs_flops.c's (its rules).
 *
 * Memory: every load, store, guarded load/store, dirty helper access,
 * CAS and LL/SC calls a cache helper with its address and size (guarded
 * accesses under the same guard; an unguarded one only when its lines are
 * not among the two most recent of their L1 sets, see emit_mru_miss);
 * stores of a non-temporal instruction call the non-temporal helper. The
 * lane loads VEX makes of one FMA memory operand are one access (struct
 * load_run). VEX turns a gather lane into
 * LDle(ITE(mask bit, lane address, stack pointer)): a masked-off lane
 * loads from the stack; in a gather instruction a load from an ITE
 * address is counted under the ITE's condition, as a guarded one.
 */
#include "counters/sim/rs.h"
#include "counters/sim/rs_flops.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"

static IRExpr *emit_tmp(IRSB *out, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, typeOfIRExpr(out->tyenv, e));
	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

static IRExpr *emit_bin(IRSB *out, IROp op, IRExpr *a, IRExpr *b)
{
	return emit_tmp(out, IRExpr_Binop(op, a, b));
}

static IRExpr *u64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

static IRExpr *u8(UChar v)
{
	return IRExpr_Const(IRConst_U8(v));
}

/*
 * Generated code reaches the tool's variables (rs_live, rs_l1_mru,
 * rs_l1_last) from one temporary per block holding the
 * address of rs_live, loaded from tool_base_ptr where the block first
 * needs it: base + constant (+ index * 8) is one amd64 addressing mode,
 * where VEX materialises a constant 64-bit address with a movabs at every
 * use, twice for a load-add-store. A load, so that VEX's optimiser
 * cannot fold it back into constants.
 */
static ULong *const tool_base_ptr = rs_live;
static IRTemp tool_base = IRTemp_INVALID; /* of the block being built */

IRExpr *rs_tool_addr(IRSB *out, const void *p, IRExpr *index)
{
	IRExpr *a;
	if (tool_base == IRTemp_INVALID) {
		tool_base = newIRTemp(out->tyenv, Ity_I64);
		addStmtToIRSB(out, IRStmt_WrTmp(tool_base,
			IRExpr_Load(Iend_LE, Ity_I64,
				    mkIRExpr_HWord((HWord)&tool_base_ptr))));
	}
	a = IRExpr_RdTmp(tool_base);
	if (index)
		a = emit_bin(out, Iop_Add64, a, emit_bin(out, Iop_Shl64, index,
							 u8(3)));
	return emit_bin(out, Iop_Add64, a,
			u64((HWord)p - (HWord)tool_base_ptr));
}

/* Add the pending counts to rs_live: load, add, store per counter. */
static void emit_pending(IRSB *out, ULong pend[RS_NPEND])
{
	for (Int k = 0; k < RS_NPEND; k++) {
		if (!pend[k])
			continue;
		/* two address temporaries, one use each, so that VEX folds
		 * each into its instruction's addressing mode */
		IRExpr *v = emit_tmp(out, IRExpr_Load(Iend_LE, Ity_I64,
				rs_tool_addr(out, &rs_live[k], NULL)));
		v = emit_bin(out, Iop_Add64, v, u64(pend[k]));
		addStmtToIRSB(out, IRStmt_Store(Iend_LE,
				rs_tool_addr(out, &rs_live[k], NULL), v));
		pend[k] = 0;
	}
}

/* Per temporary of the block being read: when it is a gather lane's
 * address, ITE(mask bit, lane address, fallback), the mask bit; when it
 * is Add64(base temp, constant), the base and the constant (add_base
 * IRTemp_INVALID otherwise). */
struct tmp_info {
	IRExpr **lane_cond;
	IRTemp *add_base;
	Long *add_off;
	Int n;
};

static void note_tmp(struct tmp_info *ti, const struct insn_acc *a,
		     const IRStmt *st)
{
	IRTemp t = st->Ist.WrTmp.tmp;
	const IRExpr *e = st->Ist.WrTmp.data;
	if (t >= (IRTemp)ti->n)
		return;
	if (e->tag == Iex_Binop && e->Iex.Binop.op == Iop_Add64 &&
	    e->Iex.Binop.arg1->tag == Iex_RdTmp &&
	    e->Iex.Binop.arg2->tag == Iex_Const &&
	    e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U64) {
		ti->add_base[t] = e->Iex.Binop.arg1->Iex.RdTmp.tmp;
		ti->add_off[t] = (Long)e->Iex.Binop.arg2->Iex.Const.con->Ico.U64;
	}
	if (!a->d.gather)
		return;
	if (e->tag == Iex_ITE)
		ti->lane_cond[t] = e->Iex.ITE.cond;
	else if (e->tag == Iex_RdTmp && e->Iex.RdTmp.tmp < (IRTemp)ti->n)
		ti->lane_cond[t] = ti->lane_cond[e->Iex.RdTmp.tmp]; /* a copy */
}

/*
 * VEX splits the memory operand of an FMA into one load per lane,
 * LDle(Add64(t, 0)), LDle(Add64(t, 8)), ... The unguarded loads of one
 * instruction that follow each other in memory from one base are
 * simulated as one access: the same lines in the same order, one MRU
 * test instead of one per lane. When the next access of the block, in
 * this instruction or a later one, is an unguarded store of the same
 * bytes from the same address (c[j] += ...), the two are tested at once:
 * a store's test (lines among the two most recent of their sets, dirty)
 * passes only when the load's would, and on a miss the helper simulates
 * the load then the store, as two calls would. Otherwise the run is
 * emitted before any other access, and before a side exit.
 */
#define RUN_MAX 64 /* bytes: an access spans at most two lines */
struct load_run {
	IRExpr *addr; /* the first load's address; NULL: no run */
	IRTemp base;
	Long next;    /* offset from base where a next load must start */
	Int size;
	Bool sealed;  /* its instruction has ended: no more loads join */
};

enum { M_READ, M_WRITE, M_MODIFY }; /* modify: load then store */

/* Non-zero unless line is one of the two most recent lines of its L1 set
 * (dirty already, for a store): m = rs_l1_mru[line & (RS_MRU_N - 1)];
 * load: (m >> RS_ENTRY_SHIFT) ^ line; store: m ^ (line << RS_ENTRY_SHIFT
 * | 1). */
static IRExpr *emit_mru_test(IRSB *out, Int kind, IRExpr *line)
{
	IRExpr *m = emit_bin(out, Iop_And64, line, u64(RS_MRU_N - 1));
	m = emit_tmp(out, IRExpr_Load(Iend_LE, Ity_I64,
				      rs_tool_addr(out, rs_l1_mru, m)));
	if (kind == M_READ)
		return emit_bin(out, Iop_Xor64,
				emit_bin(out, Iop_Shr64, m, u8(RS_ENTRY_SHIFT)),
				line);
	return emit_bin(out, Iop_Xor64, m,
			emit_bin(out, Iop_Or64,
				 emit_bin(out, Iop_Shl64, line,
					  u8(RS_ENTRY_SHIFT)),
				 u64(1)));
}

/*
 * The guard of the call that simulates an unguarded access: false when
 * each line of the access (first = addr >> 6, and last = (addr + size -
 * 1) >> 6 when size > 1: the same line or the next) is one of the two
 * most recent lines of its L1 set, whose order alone the access changes;
 * up to RS_ONE_LINE_TEST_MAX bytes, when the access stays in its first line
 * and that line is one of them. line[] gets the lines whose rs_l1_last
 * emit_mru_last writes after the access: first and last (NULL for size
 * 1), or the last alone up to RS_ONE_LINE_TEST_MAX bytes (when it is not
 * the first, the helper has written both, in order).
 */
static IRExpr *emit_mru_miss(IRSB *out, Int kind, IRExpr *addr, Int size,
			     IRExpr *line[2])
{
	IRExpr *x;
	IRTemp g;

	line[0] = emit_bin(out, Iop_Shr64, addr, u8(RS_LINE_SHIFT));
	line[1] = NULL;
	x = emit_mru_test(out, kind, line[0]);
	if (size > 1) {
		IRExpr *end = emit_bin(out, Iop_Add64, addr, u64(size - 1));
		line[1] = emit_bin(out, Iop_Shr64, end, u8(RS_LINE_SHIFT));
		if (size <= RS_ONE_LINE_TEST_MAX) {
			x = emit_bin(out, Iop_Or64, x,
				     emit_bin(out, Iop_Xor64, line[0],
					      line[1]));
			line[0] = line[1];
			line[1] = NULL;
		} else {
			x = emit_bin(out, Iop_Or64, x,
				     emit_mru_test(out, kind, line[1]));
		}
	}
	g = newIRTemp(out->tyenv, Ity_I1);
	addStmtToIRSB(out, IRStmt_WrTmp(g, IRExpr_Binop(Iop_CmpNE64, x,
							  u64(0))));
	return IRExpr_RdTmp(g);
}

/* After an access simulated through emit_mru_miss's guard, with or
 * without the call, for its first line then its last:
 * rs_l1_last[line & rs_l1_last_mask] = line (a call has written the same
 * values). */
static void emit_mru_last(IRSB *out, IRExpr *line[2])
{
	for (Int k = 0; k < 2 && line[k]; k++) {
		IRExpr *p = emit_bin(out, Iop_And64, line[k],
				     u64(rs_l1_last_mask));
		addStmtToIRSB(out, IRStmt_Store(Iend_LE,
				rs_tool_addr(out, rs_l1_last, p), line[k]));
	}
}

/*
 * One access. Unguarded: its bytes join the block's pending L1 count and
 * a helper simulates it unless its lines are among the two most recent
 * of their L1 sets (emit_mru_miss); rs_l1_last is written after it
 * (emit_mru_last). Guarded accesses and non-temporal stores call a
 * counting helper under the guard.
 */
static void emit_access(IRSB *out, const struct insn_acc *a, Int kind,
			IRExpr *addr, Int size, IRExpr *guard,
			ULong pend[RS_NPEND])
{
	void *fn;
	const HChar *name;
	IRDirty *di;
	IRExpr *line[2] = {NULL, NULL};
	if (size <= 0)
		return;
	if (kind == M_WRITE && a->d.nt_store) {
		fn = rs_cache_write_nt, name = "rs_cache_write_nt";
	} else if (guard) {
		if (kind == M_READ)
			fn = rs_cache_read, name = "rs_cache_read";
		else
			fn = rs_cache_write, name = "rs_cache_write";
	} else {
		if (kind != M_WRITE)
			pend[RS_L1_R] += (ULong)size;
		if (kind != M_READ)
			pend[RS_L1_W] += (ULong)size;
		if (kind == M_READ)
			fn = rs_cache_read_slow, name = "rs_cache_read_slow";
		else if (kind == M_WRITE)
			fn = rs_cache_write_slow, name = "rs_cache_write_slow";
		else
			fn = rs_cache_modify_slow, name = "rs_cache_modify_slow";
		guard = emit_mru_miss(out, kind == M_READ ? M_READ : M_WRITE,
				      addr, size, line);
	}
	di = unsafeIRDirty_0_N(2, name, VG_(fnptr_to_fnentry)(fn),
			       mkIRExprVec_2(addr, mkIRExpr_HWord(size)));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
	if (line[0])
		emit_mru_last(out, line);
}

static void run_flush(IRSB *out, const struct insn_acc *a,
		      struct load_run *r, ULong pend[RS_NPEND])
{
	if (r->addr)
		emit_access(out, a, M_READ, r->addr, r->size, NULL, pend);
	r->addr = NULL;
}

/* One access of the instruction being read: an unguarded load joins or
 * starts a run (struct load_run); anything else ends the run first. */
static void emit_mem(IRSB *out, const struct insn_acc *a, Int kind,
		     IRExpr *addr, Int size, IRExpr *guard,
		     ULong pend[RS_NPEND], const struct tmp_info *ti,
		     struct load_run *r)
{
	IRTemp base;
	Long off = 0;

	if ((kind == M_WRITE && a->d.nt_store) || guard ||
	    addr->tag != Iex_RdTmp || size <= 0 || size > RUN_MAX) {
		run_flush(out, a, r, pend);
		emit_access(out, a, kind, addr, size, guard, pend);
		return;
	}
	base = addr->Iex.RdTmp.tmp;
	if (base < (IRTemp)ti->n && ti->add_base[base] != IRTemp_INVALID) {
		off = ti->add_off[base];
		base = ti->add_base[base];
	}
	if (kind == M_WRITE) {
		if (r->addr && r->base == base && r->size == size &&
		    r->next - r->size == off) {
			emit_access(out, a, M_MODIFY, r->addr, size, NULL, pend);
			r->addr = NULL;
			return;
		}
		run_flush(out, a, r, pend);
		emit_access(out, a, kind, addr, size, guard, pend);
		return;
	}
	if (r->addr && !r->sealed && r->base == base && r->next == off &&
	    r->size + size <= RUN_MAX) {
		r->next += size;
		r->size += size;
		return;
	}
	run_flush(out, a, r, pend);
	r->addr = addr;
	r->base = base;
	r->next = off + size;
	r->size = size;
	r->sealed = False;
}

/* Charge loop id from here on (rs_loops.c): at the block's first
 * instruction only when another loop is charged now (a load and a
 * compare), within the block always (the loop changed). */
static void emit_loop_switch(IRSB *out, Int id, Bool guarded)
{
	IRDirty *di = unsafeIRDirty_0_N(1, "rs_loop_switch",
					VG_(fnptr_to_fnentry)(rs_loop_switch),
					mkIRExprVec_1(mkIRExpr_HWord((HWord)id)));
	if (guarded) {
		IRExpr *cur = emit_tmp(out, IRExpr_Load(Iend_LE, Ity_I64,
				rs_tool_addr(out, &rs_loop_cur, NULL)));
		IRTemp g = newIRTemp(out->tyenv, Ity_I1);
		addStmtToIRSB(out, IRStmt_WrTmp(g, IRExpr_Binop(Iop_CmpNE64,
					cur, u64((ULong)id))));
		di->guard = IRExpr_RdTmp(g);
	}
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

static Int loadg_size(IRLoadGOp cvt)
{
	switch (cvt) {
	case ILGop_IdentV128: return 16;
	case ILGop_Ident64: return 8;
	case ILGop_Ident32: return 4;
	case ILGop_16Uto32: case ILGop_16Sto32: return 2;
	case ILGop_8Uto32: case ILGop_8Sto32: return 1;
	default: return 0;
	}
}


static void instrument_mem(IRSB *out, const struct insn_acc *a,
			   const IRStmt *st, ULong pend[RS_NPEND],
			   const struct tmp_info *ti, struct load_run *r)
{
	IRTypeEnv *env = out->tyenv;
	switch (st->tag) {
	case Ist_WrTmp:
		if (st->Ist.WrTmp.data->tag == Iex_Load) {
			const IRExpr *e = st->Ist.WrTmp.data;
			IRExpr *g = NULL;
			if (e->Iex.Load.addr->tag == Iex_RdTmp &&
			    e->Iex.Load.addr->Iex.RdTmp.tmp < (IRTemp)ti->n)
				g = ti->lane_cond[e->Iex.Load.addr->Iex.RdTmp.tmp];
			emit_mem(out, a, M_READ, e->Iex.Load.addr,
				 sizeofIRType(e->Iex.Load.ty), g, pend, ti, r);
		}
		break;
	case Ist_Store:
		emit_mem(out, a, M_WRITE, st->Ist.Store.addr,
			 sizeofIRType(typeOfIRExpr(env, st->Ist.Store.data)),
			 NULL, pend, ti, r);
		break;
	case Ist_StoreG: {
		const IRStoreG *sg = st->Ist.StoreG.details;
		emit_mem(out, a, M_WRITE, sg->addr,
			 sizeofIRType(typeOfIRExpr(env, sg->data)), sg->guard, pend, ti, r);
		break;
	}
	case Ist_LoadG: {
		const IRLoadG *lg = st->Ist.LoadG.details;
		emit_mem(out, a, M_READ, lg->addr, loadg_size(lg->cvt),
			 lg->guard, pend, ti, r);
		break;
	}
	case Ist_Dirty: {
		const IRDirty *d = st->Ist.Dirty.details;
		if (d->mFx == Ifx_None)
			break;
		IRExpr *g = d->guard;
		if (g && g->tag == Iex_Const)
			g = NULL; /* always true */
		if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
			emit_mem(out, a, M_READ, d->mAddr, d->mSize, g, pend, ti, r);
		if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
			emit_mem(out, a, M_WRITE, d->mAddr, d->mSize, g, pend, ti, r);
		break;
	}
	case Ist_CAS: {
		const IRCAS *cas = st->Ist.CAS.details;
		Int size = sizeofIRType(typeOfIRExpr(env, cas->dataLo));
		if (cas->dataHi)
			size *= 2;
		emit_mem(out, a, M_READ, cas->addr, size, NULL, pend, ti, r);
		emit_mem(out, a, M_WRITE, cas->addr, size, NULL, pend, ti, r);
		break;
	}
	case Ist_LLSC:
		if (st->Ist.LLSC.storedata == NULL)
			emit_mem(out, a, M_READ, st->Ist.LLSC.addr,
				 sizeofIRType(typeOfIRTemp(env,
						st->Ist.LLSC.result)), NULL, pend, ti, r);
		else
			emit_mem(out, a, M_WRITE, st->Ist.LLSC.addr,
				 sizeofIRType(typeOfIRExpr(env,
						st->Ist.LLSC.storedata)),
				 NULL, pend, ti, r);
		break;
	default:
		break;
	}
}

IRSB *rs_instrument(VgCallbackClosure *closure, IRSB *in,
		    const VexGuestLayout *layout,
		    const VexGuestExtents *vge,
		    const VexArchInfo *archinfo_host, IRType gWordTy,
		    IRType hWordTy)
{
	IRSB *out = deepCopyIRSBExceptStmts(in);
	struct insn_acc a;
	ULong pend[RS_NPEND];
	Int i = 0;
	struct tmp_info ti;
	struct load_run run = {NULL, IRTemp_INVALID, 0, 0, False};
	struct rs_fma_plan *fp;
	/* the loop charged at this point of the block: unknown until its
	 * first instruction of the program's object; one to enter after the
	 * IMark being copied */
	Int blk_loop = RS_LOOP_INHERIT, enter = RS_LOOP_INHERIT;
	Bool loops = rs_loops_on();

	(void)closure, (void)vge, (void)archinfo_host;
	(void)gWordTy, (void)hWordTy;
	ti.n = in->tyenv->types_used;
	ti.lane_cond = VG_(calloc)("rlprofsim.ti", ti.n + 1,
				   sizeof *ti.lane_cond);
	ti.add_base = VG_(malloc)("rlprofsim.ti", (ti.n + 1) *
				  sizeof *ti.add_base);
	ti.add_off = VG_(calloc)("rlprofsim.ti", ti.n + 1,
				 sizeof *ti.add_off);
	for (Int k = 0; k <= ti.n; k++)
		ti.add_base[k] = IRTemp_INVALID;
	tool_base = IRTemp_INVALID;
	fp = rs_fma_plan_new(in);
	VG_(memset)(&a, 0, sizeof a);
	VG_(memset)(pend, 0, sizeof pend);
	for (; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(out, in->stmts[i]);
	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		if (!st || st->tag == Ist_NoOp)
			continue;
		switch (st->tag) {
		case Ist_IMark:
			run.sealed = True;
			rs_insn_finish(&a, pend);
			if (loops) {
				Int id = rs_loop_of((Addr)st->Ist.IMark.addr);
				if (id != RS_LOOP_INHERIT && id != blk_loop) {
					if (blk_loop == RS_LOOP_INHERIT) {
						enter = id;
					} else {
						/* what ran so far is the
						 * previous loop's */
						run_flush(out, &a, &run, pend);
						emit_pending(out, pend);
						emit_loop_switch(out, id, False);
					}
					blk_loop = id;
				}
			}
			rs_decode((const UChar *)(Addr)st->Ist.IMark.addr,
				  st->Ist.IMark.len, &a.d);
			break;
		case Ist_WrTmp:
			rs_count_expr(&a, st->Ist.WrTmp.data);
			note_tmp(&ti, &a, st);
			instrument_mem(out, &a, st, pend, &ti, &run);
			break;
		case Ist_Exit:
			run_flush(out, &a, &run, pend);
			rs_insn_finish(&a, pend);
			emit_pending(out, pend);
			break;
		default:
			instrument_mem(out, &a, st, pend, &ti, &run);
			break;
		}
		if (rs_fma_rewrite(fp, out, i))
			continue; /* FMA lanes: rs_fmair.c */
		addStmtToIRSB(out, st);
		if (enter != RS_LOOP_INHERIT) {
			emit_loop_switch(out, enter, True);
			enter = RS_LOOP_INHERIT;
		}
	}
	run_flush(out, &a, &run, pend);
	rs_insn_finish(&a, pend);
	emit_pending(out, pend);
	if (loops && rs_loop_calls)
		rs_loops_emit_calls(out, in->jumpkind, blk_loop,
				    layout->offset_SP, gWordTy);
	VG_(free)(ti.lane_cond);
	VG_(free)(ti.add_base);
	VG_(free)(ti.add_off);
	rs_fma_plan_free(fp);
	return out;
}
