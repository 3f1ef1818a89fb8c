/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the flops of a guest instruction as its IR is read
 * (rs_flops.c), for the instrumentation of a superblock
 * (rs_instrument.c). Private to those two.
 */
#ifndef RS_FLOPS_H
#define RS_FLOPS_H

#include "counters/sim/rs.h"

/* Flops of the guest instruction being read. */
struct insn_acc {
	struct rs_insn d;
	ULong op_flops[2][3];  /* [prec][width] from K_OP, Subs apart */
	ULong sub_flops[2][3];
	UInt fma_lanes[2];
};

/* Pending counts of the block, by slot: flops, FMA flops and register
 * <-> L1 bytes. */
#define RS_NPEND RS_NSLOTS

/* The instruction's flops added to pend (by precision and width, FMA
 * flops apart), and its counts cleared. */
void rs_insn_finish(struct insn_acc *a, ULong pend[RS_NPEND]);
/* The flops of e's own op (not its arguments') into a. */
void rs_count_expr(struct insn_acc *a, const IRExpr *e);

#endif
