/*
 * The control-flow graph of one function's machine code (loop_cfg.c),
 * private to inspect/loops.c: its instructions decoded with Zydis, basic
 * blocks, reverse postorder, predecessors and immediate dominators. Only
 * with RL_HAVE_ZYDIS.
 */
#ifndef RL_LOOP_CFG_H
#define RL_LOOP_CFG_H

#ifdef RL_HAVE_ZYDIS

#include <stddef.h>
#include <stdint.h>

#include <Zydis/Zydis.h>

#include "inspect/dwarf_lines.h"
#include "inspect/loop_chains.h"
#include "inspect/loop_names.h"
#include "inspect/loops.h"

enum { I_NEXT, I_COND, I_JUMP, I_END };

struct insn {
	uint64_t addr;
	uint64_t target; /* I_COND, I_JUMP with a known target */
	uint8_t len, kind, leader, has_target, call;
};

struct block {
	size_t first, n;  /* instructions */
	int succ[2];      /* block indexes, -1: none */
	int idom;         /* -1: unreachable */
	int rpo;          /* its number in reverse postorder */
	int inner;        /* innermost loop (function-local), -1 */
};

struct floop {
	int head;          /* block */
	unsigned char *in; /* body membership per block */
	size_t n_blocks, n_insns;
	int parent;        /* function-local */
	struct rl_loop_where where;
	struct rl_loop_chains chains;
	size_t out;        /* its index in rl_loops.v */
};

struct func {
	const char *name;
	uint64_t addr, size;
	const unsigned char *code; /* size bytes */
};

/* Everything the reader of one file keeps between functions. */
struct reader {
	ZydisDecoder dec;
	struct rl_dwarf_lines *dw;
	struct insn *ins;
	size_t n_ins, cap_ins;
	struct block *bl;
	size_t n_bl, cap_bl;
	int *order, *stack, *preds, *npred, *pred_at;
	size_t cap_order, cap_stack, cap_preds, cap_npred, cap_pred_at;
	struct rl_loops *out;
	size_t cap_v, cap_span;
};

/* *p grown (doubling) to hold need items of size; 0 or RL_ENOMEM. */
int rl_cfg_grow(void **p, size_t *cap, size_t need, size_t size);
/* fn's instructions into r->ins; 0 or a negative RL_E* code. */
int rl_cfg_decode(struct reader *r, const struct func *fn);
/* Basic blocks of r->ins into r->bl; 0 or RL_ENOMEM. */
int rl_cfg_build_blocks(struct reader *r);
/* Reverse postorder from the entry (each block's rpo, r->order): the
 * number of reachable blocks, or RL_ENOMEM. */
long rl_cfg_number_blocks(struct reader *r);
/* Predecessor lists of the reachable blocks; 0 or RL_ENOMEM. */
int rl_cfg_list_preds(struct reader *r);
/* Immediate dominators of the n reachable blocks (each block's idom). */
void rl_cfg_dominators(struct reader *r, size_t n);
/* Block a dominates block b. */
int rl_cfg_dominates(const struct reader *r, int a, int b);

#endif
#endif
