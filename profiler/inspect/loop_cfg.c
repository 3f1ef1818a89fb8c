/* The control-flow graph of one function's machine code
 * (inspect/loop_cfg.h). */
#include "inspect/loop_cfg.h"

#ifdef RL_HAVE_ZYDIS

#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"

int rl_cfg_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;
	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(q = realloc(*p, n * size)))
		return RL_ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

int rl_cfg_decode(struct reader *r, const struct func *fn)
{
	ZydisDecodedInstruction in;
	uint64_t off = 0;

	r->n_ins = 0;
	while (off < fn->size) {
		struct insn *i;
		if (rl_cfg_grow((void **)&r->ins, &r->cap_ins, r->n_ins + 1,
			 sizeof *r->ins) < 0)
			return RL_ENOMEM;
		i = &r->ins[r->n_ins];
		memset(i, 0, sizeof *i);
		i->addr = fn->addr + off;
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(
			    &r->dec, NULL, fn->code + off, fn->size - off,
			    &in))) {
			/* data or padding: the function's code ends here */
			break;
		}
		i->len = in.length;
		switch (in.meta.category) {
		case ZYDIS_CATEGORY_COND_BR:
			i->kind = I_COND;
			break;
		case ZYDIS_CATEGORY_UNCOND_BR:
			i->kind = I_JUMP;
			break;
		case ZYDIS_CATEGORY_RET:
		case ZYDIS_CATEGORY_INTERRUPT:
			i->kind = I_END;
			break;
		default:
			i->kind = in.mnemonic == ZYDIS_MNEMONIC_UD2 ||
						  in.mnemonic == ZYDIS_MNEMONIC_HLT
					  ? I_END
					  : I_NEXT;
			break;
		}
		i->call = in.meta.category == ZYDIS_CATEGORY_CALL;
		if ((i->kind == I_COND || i->kind == I_JUMP) &&
		    in.raw.imm[0].is_relative) {
			i->target = i->addr + in.length +
				    (uint64_t)in.raw.imm[0].value.s;
			i->has_target = 1;
		}
		off += in.length;
		r->n_ins++;
	}
	return 0;
}

/* The instruction at addr, or -1. */
static long insn_at(const struct reader *r, uint64_t addr)
{
	size_t lo = 0, hi = r->n_ins;
	while (lo < hi) {
		size_t m = (lo + hi) / 2;
		if (r->ins[m].addr < addr)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < r->n_ins && r->ins[lo].addr == addr ? (long)lo : -1;
}

static long block_of(const struct reader *r, long insn)
{
	size_t lo = 0, hi = r->n_bl;
	while (hi - lo > 1) {
		size_t m = (lo + hi) / 2;
		if (r->bl[m].first <= (size_t)insn)
			lo = m;
		else
			hi = m;
	}
	return (long)lo;
}

int rl_cfg_build_blocks(struct reader *r)
{
	size_t k;
	long t;

	if (!r->n_ins)
		return 0;
	r->ins[0].leader = 1;
	for (k = 0; k < r->n_ins; k++) {
		struct insn *i = &r->ins[k];
		if (i->kind == I_NEXT)
			continue;
		if (k + 1 < r->n_ins)
			r->ins[k + 1].leader = 1;
		if (i->has_target && (t = insn_at(r, i->target)) >= 0)
			r->ins[t].leader = 1;
	}
	r->n_bl = 0;
	for (k = 0; k < r->n_ins; k++) {
		if (!r->ins[k].leader)
			continue;
		if (rl_cfg_grow((void **)&r->bl, &r->cap_bl, r->n_bl + 1,
			 sizeof *r->bl) < 0)
			return RL_ENOMEM;
		memset(&r->bl[r->n_bl], 0, sizeof *r->bl);
		r->bl[r->n_bl].first = k;
		if (r->n_bl)
			r->bl[r->n_bl - 1].n = k - r->bl[r->n_bl - 1].first;
		r->n_bl++;
	}
	r->bl[r->n_bl - 1].n = r->n_ins - r->bl[r->n_bl - 1].first;
	for (k = 0; k < r->n_bl; k++) {
		struct block *b = &r->bl[k];
		const struct insn *last = &r->ins[b->first + b->n - 1];
		int n = 0;
		b->succ[0] = b->succ[1] = -1;
		b->idom = -1;
		b->inner = -1;
		if (last->has_target && (t = insn_at(r, last->target)) >= 0)
			b->succ[n++] = (int)block_of(r, t);
		if ((last->kind == I_NEXT || last->kind == I_COND) &&
		    k + 1 < r->n_bl)
			b->succ[n++] = (int)k + 1;
	}
	return 0;
}

/* Reverse postorder from the entry (an iterative depth-first search);
 * r->order[0..n) the blocks in it, bl[].rpo their numbers, -1 for the
 * unreachable. Returns n or RL_ENOMEM. */
long rl_cfg_number_blocks(struct reader *r)
{
	size_t nb = r->n_bl, sp = 0, n = 0;
	int *next;

	if (rl_cfg_grow((void **)&r->order, &r->cap_order, nb, sizeof(int)) < 0 ||
	    rl_cfg_grow((void **)&r->stack, &r->cap_stack, 2 * nb, sizeof(int)) < 0 ||
	    rl_cfg_grow((void **)&r->npred, &r->cap_npred, nb, sizeof(int)) < 0)
		return RL_ENOMEM;
	next = r->npred; /* scratch: the next successor to visit */
	for (size_t k = 0; k < nb; k++) {
		r->bl[k].rpo = -2; /* unvisited */
		next[k] = 0;
	}
	r->stack[sp++] = 0;
	r->bl[0].rpo = -1;
	while (sp) {
		int b = r->stack[sp - 1];
		if (next[b] < 2) {
			int s = r->bl[b].succ[next[b]++];
			if (s >= 0 && r->bl[s].rpo == -2) {
				r->bl[s].rpo = -1;
				r->stack[sp++] = s;
			}
			continue;
		}
		sp--;
		r->order[n++] = b; /* postorder */
	}
	for (size_t k = 0; k < n / 2; k++) {
		int x = r->order[k];
		r->order[k] = r->order[n - 1 - k];
		r->order[n - 1 - k] = x;
	}
	for (size_t k = 0; k < nb; k++)
		if (r->bl[k].rpo == -2)
			r->bl[k].rpo = -1;
	for (size_t k = 0; k < n; k++)
		r->bl[r->order[k]].rpo = (int)k;
	return (long)n;
}

/* Predecessor lists of the reachable blocks: preds[pred_at[b] ..
 * pred_at[b] + npred[b]). */
int rl_cfg_list_preds(struct reader *r)
{
	size_t nb = r->n_bl, total = 0;

	if (rl_cfg_grow((void **)&r->pred_at, &r->cap_pred_at, nb + 1, sizeof(int)) < 0 ||
	    rl_cfg_grow((void **)&r->preds, &r->cap_preds, 2 * nb + 1, sizeof(int)) < 0)
		return RL_ENOMEM;
	if (nb)
		memset(r->npred, 0, nb * sizeof(int));
	for (size_t b = 0; b < nb; b++)
		for (int k = 0; k < 2; k++)
			if (r->bl[b].rpo >= 0 && r->bl[b].succ[k] >= 0)
				r->npred[r->bl[b].succ[k]]++;
	for (size_t b = 0; b < nb; b++) {
		r->pred_at[b] = (int)total;
		total += (size_t)r->npred[b];
		r->npred[b] = 0;
	}
	for (size_t b = 0; b < nb; b++)
		for (int k = 0; k < 2; k++) {
			int s = r->bl[b].succ[k];
			if (r->bl[b].rpo >= 0 && s >= 0)
				r->preds[r->pred_at[s] + r->npred[s]++] = (int)b;
		}
	return 0;
}

/* Immediate dominators (Cooper, Harvey and Kennedy's iteration over the
 * reverse postorder). */
void rl_cfg_dominators(struct reader *r, size_t n)
{
	int changed = 1;

	r->bl[r->order[0]].idom = r->order[0];
	while (changed) {
		changed = 0;
		for (size_t k = 1; k < n; k++) {
			int b = r->order[k], nd = -1;
			for (int p = 0; p < r->npred[b]; p++) {
				int q = r->preds[r->pred_at[b] + p];
				if (r->bl[q].idom < 0)
					continue;
				if (nd < 0) {
					nd = q;
					continue;
				}
				int x = q, y = nd;
				while (x != y) {
					while (r->bl[x].rpo > r->bl[y].rpo)
						x = r->bl[x].idom;
					while (r->bl[y].rpo > r->bl[x].rpo)
						y = r->bl[y].idom;
				}
				nd = x;
			}
			if (nd >= 0 && r->bl[b].idom != nd) {
				r->bl[b].idom = nd;
				changed = 1;
			}
		}
	}
}

int rl_cfg_dominates(const struct reader *r, int a, int b)
{
	while (b != a) {
		int d = r->bl[b].idom;
		if (d == b || d < 0)
			return 0;
		b = d;
	}
	return 1;
}


#endif
