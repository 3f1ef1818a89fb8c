/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the plan of a superblock's FMA lanes (rs_fmair.c), shared
 * with the code that emits them (rs_fmaemit.c). Private to those two.
 */
#ifndef RS_FMAIR_H
#define RS_FMAIR_H

#include "counters/sim/rs.h"

enum { A_KEEP, A_DROP, A_SINGLE, A_BATCH };

/* in a batch's fields (batch_gs): operand j in the buffer, put there as
 * one vector loaded from memory (operand_in_memory) */
#define MEM_RUN(j) (1UL << (48 + (j)))

/* slot numbers and guest offsets share a batch's fields; the buffer and
 * the slots end where the second shadow area does */
STATIC_ASSERT(RS_FMA_SLOTS >= 8 && RS_FMA_SLOTS < RS_FMA_GS_MIN);
STATIC_ASSERT(RS_FMA_SLOT(RS_FMA_SLOTS) + 32 <= 3 * RS_FMA_BUF);

struct lane {
	IRExpr *arg[3];   /* a, b, c (c un-negated for fmsub kinds) */
	IRTemp out;       /* the temp the lane's result goes to */
	IRTemp madd;      /* the MAddF's own temp */
	Int madd_at, neg_at, copy_at; /* statement indices (-1: none) */
	Int put_at;       /* the result's only use, a PUT inside the batch's
			     span, moved after the batch (-1: none) */
	UChar kind;       /* 0 fmadd, 1 fmsub, 2 fnmadd, 3 fnmsub */
	Bool f64;
};

struct rs_fma_plan {
	const IRSB *in;
	Int nst, ntmp;
	UChar *action;    /* per statement */
	Int *lane_of_st;  /* per statement: lane (A_SINGLE) or first lane of
			     the batch (A_BATCH) */
	Int *batch_n;     /* per statement with A_BATCH: lanes */
	struct lane *lane;
	Int nlane;
	/* per temp */
	Int *uses, *first_use, *second_use, *last_use;
	IRExpr **neg_of;  /* t = NegF(x) (through copies): x */
	Int *lane_of;     /* t is lane k's MAddF result (or its only copy) */
	Int *get_off;     /* t = GET:F64/F32(offset): the offset, else -1;
			     also a batched result the helper wrote to the
			     guest state, read back (emit_batch) */
	Int *get_at;      /* ... and the statement (the batch's) */
	Int *put_use;     /* the statement of the one PUT of t (-1: none,
			     -2: several) */
	Int *load_at;     /* t = LDle:F64/F32(address): the statement, else
			     -1 */
	IRTemp *add_base; /* t = Add64(base temp, constant) ... */
	Long *add_off;    /* ... or t = LDle(base temp + constant) */
	UChar *slot_of;   /* t is lane slot_lane[t] of a batch result kept
			     in slot slot_of[t] (0: none) */
	UChar *slot_lane;
	Int slot_busy[RS_FMA_SLOTS + 1]; /* per slot: the last statement
			     that reads its result (-1: free) */
	UWord *batch_gs;  /* per statement with A_BATCH: where a, b, c and
			     the result are, 12 bits each (rs.h: 0 the
			     buffer, a slot, or a guest state offset) */
};

/* e's temp when e reads one, else IRTemp_INVALID */
IRTemp rs_fma_tmp_of(const IRExpr *e);

#endif
