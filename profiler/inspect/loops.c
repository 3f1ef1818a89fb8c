/* The loops of a program's code: control-flow graphs decoded with Zydis,
 * dominators, back edges, natural loops nested as a tree; names from
 * libdw's line table. */
#include "inspect/loops.h"

#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef RL_HAVE_ZYDIS
#include <Zydis/Zydis.h>
#endif

#include "inspect/dwarf_lines.h"
#include "inspect/elf_code_isa.h"
#include "inspect/loop_chains.h"
#include "inspect/loop_names.h"
#include "inspect/elf_file.h"
#include "common/rl_error.h"

void rl_loops_release(struct rl_loops *l)
{
	for (size_t i = 0; i < l->n; i++)
		rl_loop_name_free(&l->v[i]);
	free(l->v);
	free(l->span);
	memset(l, 0, sizeof *l);
}

int rl_loops_write_spans(const struct rl_loops *l, const char *object,
			 FILE *f)
{
	fprintf(f, "rlprof-loops 1\nobject %s\n", object);
	for (size_t i = 0; i < l->n_span; i++)
		fprintf(f, "span %" PRIx64 " %" PRIx64 " %u\n", l->span[i].lo,
			l->span[i].hi, l->span[i].loop);
	return ferror(f) ? -EIO : 0;
}

#ifndef RL_HAVE_ZYDIS

int rl_loops_available(void)
{
	return 0;
}

int rl_loops_find(const char *path, struct rl_loops *out, char *err,
		  size_t errlen)
{
	memset(out, 0, sizeof *out);
	return rl_code_no_decoder("find the loops of", path, err, errlen);
}

#else

int rl_loops_available(void)
{
	return 1;
}

/* ---- growable arrays ---- */

static int grow(void **p, size_t *cap, size_t need, size_t size)
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

/* ---- one function ---- */

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

static int decode(struct reader *r, const struct func *fn)
{
	ZydisDecodedInstruction in;
	uint64_t off = 0;

	r->n_ins = 0;
	while (off < fn->size) {
		struct insn *i;
		if (grow((void **)&r->ins, &r->cap_ins, r->n_ins + 1,
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

static int build_blocks(struct reader *r)
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
		if (grow((void **)&r->bl, &r->cap_bl, r->n_bl + 1,
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
static long number_blocks(struct reader *r)
{
	size_t nb = r->n_bl, sp = 0, n = 0;
	int *next;

	if (grow((void **)&r->order, &r->cap_order, nb, sizeof(int)) < 0 ||
	    grow((void **)&r->stack, &r->cap_stack, 2 * nb, sizeof(int)) < 0 ||
	    grow((void **)&r->npred, &r->cap_npred, nb, sizeof(int)) < 0)
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
static int list_preds(struct reader *r)
{
	size_t nb = r->n_bl, total = 0;

	if (grow((void **)&r->pred_at, &r->cap_pred_at, nb + 1, sizeof(int)) < 0 ||
	    grow((void **)&r->preds, &r->cap_preds, 2 * nb + 1, sizeof(int)) < 0)
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
static void dominators(struct reader *r, size_t n)
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

static int dominates(const struct reader *r, int a, int b)
{
	while (b != a) {
		int d = r->bl[b].idom;
		if (d == b || d < 0)
			return 0;
		b = d;
	}
	return 1;
}

/* The loop's place in the source (inspect/loop_names.h). */
static void name_loop(struct reader *r, struct floop *lp, const int *latch,
		      size_t n_latch)
{
	uint64_t at[64];
	size_t n = 0;

	for (size_t k = 0; k < n_latch && n < 64; k++) {
		const struct block *b = &r->bl[latch[k]];
		at[n++] = r->ins[b->first + b->n - 1].addr;
	}
	rl_loop_where(r->dw, r->ins[r->bl[lp->head].first].addr, at, n,
		      &lp->where);
}

/* An outermost loop of a function the compiler outlined for an OpenMP
 * construct (GCC's main._omp_fn.0, Clang's .omp_outlined.): its code
 * carries the body's lines only; the statement's line is on the calls
 * that share the iterations out (omp_get_num_threads, GOMP_loop_*_start)
 * before it. The last call before the header, in the loop's file, on
 * an earlier line names it. */
static void omp_statement(struct reader *r, const struct func *fn,
			  struct floop *lp)
{
	uint64_t head = r->ins[r->bl[lp->head].first].addr;
	const char *f;
	int l;

	if ((!strstr(fn->name, "._omp_fn.") && !strstr(fn->name, "omp_outlined")) ||
	    !lp->where.file || lp->where.scope)
		return;
	for (size_t k = r->n_ins; k-- > 0;) {
		if (r->ins[k].addr >= head || !r->ins[k].call)
			continue;
		if (rl_dwarf_line(r->dw, r->ins[k].addr, &f, &l) &&
		    strcmp(f, lp->where.file) == 0 && l < lp->where.line)
			lp->where.line = rl_loop_statement_line(
				lp->where.file, l, lp->where.line);
		return;
	}
}

/* The floating-point chains of the loop's body (inspect/loop_chains.h). */
static void chain_loop(struct reader *r, const struct func *fn,
		       struct floop *lp)
{
	uint64_t (*range)[2] = malloc(lp->n_blocks * sizeof *range);
	size_t n = 0;

	memset(&lp->chains, 0, sizeof lp->chains);
	if (!range)
		return;
	for (size_t b = 0; b < r->n_bl; b++)
		if (lp->in[b]) {
			const struct block *x = &r->bl[b];
			const struct insn *last = &r->ins[x->first + x->n - 1];
			range[n][0] = r->ins[x->first].addr;
			range[n++][1] = last->addr + last->len;
		}
	rl_loop_chains_find(&r->dec, fn->code, fn->addr, fn->size,
			    (const uint64_t (*)[2])range, n, &lp->chains);
	free(range);
}

static int add_span(struct reader *r, uint64_t lo, uint64_t hi, unsigned id)
{
	struct rl_loops *o = r->out;
	if (lo >= hi)
		return 0;
	if (o->n_span && o->span[o->n_span - 1].hi == lo &&
	    o->span[o->n_span - 1].loop == id) {
		o->span[o->n_span - 1].hi = hi;
		return 0;
	}
	if (grow((void **)&o->span, &r->cap_span, o->n_span + 1,
		 sizeof *o->span) < 0)
		return RL_ENOMEM;
	o->span[o->n_span++] = (struct rl_loop_span){lo, hi, id};
	return 0;
}

/* Append loop k of the function and its children (in header address
 * order) to out, in preorder. */
static int emit_tree(struct reader *r, const struct func *fn,
		     struct floop *lp, size_t nl, int k, int parent, int depth)
{
	struct rl_loops *o = r->out;
	struct rl_loop *v;

	if (grow((void **)&o->v, &r->cap_v, o->n + 1, sizeof *o->v) < 0)
		return RL_ENOMEM;
	v = &o->v[o->n];
	memset(v, 0, sizeof *v);
	lp[k].out = o->n;
	v->head = r->ins[r->bl[lp[k].head].first].addr;
	v->parent = parent;
	v->depth = depth;
	v->func_addr = fn->addr;
	v->n_blocks = lp[k].n_blocks;
	v->n_insns = lp[k].n_insns;
	v->chains = lp[k].chains;
	if (rl_loop_name_set(v, fn->name, &lp[k].where) < 0)
		return RL_ENOMEM;
	o->n++;
	if (parent >= 0)
		o->v[parent].n_children++;
	/* loops are sorted by header address: children in that order */
	for (size_t c = 0; c < nl; c++)
		if (lp[c].parent == k) {
			int rc = emit_tree(r, fn, lp, nl, (int)c,
					   (int)lp[k].out, depth + 1);
			if (rc < 0)
				return rc;
		}
	return 0;
}

static int cmp_head(const void *a, const void *b)
{
	const struct floop *x = a, *y = b;
	return (x->head > y->head) - (x->head < y->head);
}

static int function_loops(struct reader *r, const struct func *fn)
{
	struct floop *lp = NULL;
	size_t nl = 0, cap = 0, nb;
	int *latch = NULL, *work = NULL, rc = 0;
	long n;

	if ((rc = decode(r, fn)) < 0 || !r->n_ins)
		return rc;
	if ((rc = build_blocks(r)) < 0)
		return rc;
	nb = r->n_bl;
	if ((n = number_blocks(r)) < 0 || (rc = list_preds(r)) < 0)
		return n < 0 ? (int)n : rc;
	dominators(r, (size_t)n);
	if (!(latch = malloc(nb * sizeof *latch)) ||
	    !(work = malloc(nb * sizeof *work))) {
		rc = RL_ENOMEM;
		goto out;
	}
	/* each block that is the target of a back edge heads a loop */
	for (size_t h = 0; h < nb; h++) {
		size_t n_latch = 0, sp = 0;
		struct floop *l;
		if (r->bl[h].rpo < 0)
			continue;
		for (int p = 0; p < r->npred[h]; p++) {
			int q = r->preds[r->pred_at[h] + p];
			if (dominates(r, (int)h, q))
				latch[n_latch++] = q;
		}
		if (!n_latch)
			continue;
		if (grow((void **)&lp, &cap, nl + 1, sizeof *lp) < 0 ||
		    !(lp[nl].in = calloc(nb, 1))) {
			rc = RL_ENOMEM;
			goto out;
		}
		l = &lp[nl++];
		l->head = (int)h;
		l->in[h] = 1;
		for (size_t k = 0; k < n_latch; k++)
			if (!l->in[latch[k]]) {
				l->in[latch[k]] = 1;
				work[sp++] = latch[k];
			}
		while (sp) {
			int b = work[--sp];
			for (int p = 0; p < r->npred[b]; p++) {
				int q = r->preds[r->pred_at[b] + p];
				if (!l->in[q]) {
					l->in[q] = 1;
					work[sp++] = q;
				}
			}
		}
		l->n_blocks = l->n_insns = 0;
		for (size_t b = 0; b < nb; b++)
			if (l->in[b]) {
				l->n_blocks++;
				l->n_insns += r->bl[b].n;
			}
		name_loop(r, l, latch, n_latch);
		chain_loop(r, fn, l);
	}
	if (nl)
		qsort(lp, nl, sizeof *lp, cmp_head);
	/* the parent: the smallest other loop holding the header; the
	 * innermost loop of a block: the smallest holding it */
	for (size_t k = 0; k < nl; k++) {
		lp[k].parent = -1;
		for (size_t j = 0; j < nl; j++)
			if (j != k && lp[j].in[lp[k].head] &&
			    lp[j].n_blocks > lp[k].n_blocks &&
			    (lp[k].parent < 0 ||
			     lp[j].n_blocks < lp[lp[k].parent].n_blocks))
				lp[k].parent = (int)j;
	}
	for (size_t k = 0; k < nl; k++)
		if (lp[k].parent < 0)
			omp_statement(r, fn, &lp[k]);
	for (size_t b = 0; b < nb; b++)
		for (size_t k = 0; k < nl; k++)
			if (lp[k].in[b] &&
			    (r->bl[b].inner < 0 ||
			     lp[k].n_blocks < lp[r->bl[b].inner].n_blocks))
				r->bl[b].inner = (int)k;
	for (size_t k = 0; k < nl; k++)
		if (lp[k].parent < 0 &&
		    (rc = emit_tree(r, fn, lp, nl, (int)k, -1, 0)) < 0)
			goto out;
	/* spans: every block by its innermost loop, the rest of the
	 * function (undecoded bytes) in none */
	for (size_t b = 0; b < nb && rc == 0; b++) {
		const struct block *x = &r->bl[b];
		const struct insn *last = &r->ins[x->first + x->n - 1];
		rc = add_span(r, r->ins[x->first].addr, last->addr + last->len,
			      x->inner < 0 ? 0 : (unsigned)lp[x->inner].out + 1);
	}
	if (rc == 0) {
		const struct insn *last = &r->ins[r->n_ins - 1];
		rc = add_span(r, last->addr + last->len, fn->addr + fn->size, 0);
	}
out:
	for (size_t k = 0; k < nl; k++)
		free(lp[k].in);
	free(lp);
	free(latch);
	free(work);
	return rc;
}

/* ---- the file ---- */

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;
	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return (x->size < y->size) - (x->size > y->size);
}

/* The functions of the symbol table (.symtab, else .dynsym) with their
 * code, sorted by address, one per address (the largest), none
 * overlapping the one before. */
static int list_functions(Elf *elf, struct func **out, size_t *n_out)
{
	Elf_Scn *symscn = NULL;
	GElf_Shdr symsh;
	struct func *fn = NULL;
	size_t n = 0, cap = 0, shnum;

	*out = NULL;
	*n_out = 0;
	if (!rl_elf_symbols(elf, &symscn, &symsh) ||
	    elf_getshdrnum(elf, &shnum) != 0)
		return 0;
	Elf_Data *syms = elf_getdata(symscn, NULL);
	size_t nsym = syms && symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
	for (size_t k = 0; k < nsym; k++) {
		GElf_Sym s;
		GElf_Shdr cs;
		Elf_Scn *code;
		Elf_Data *d;
		const char *name;
		if (!gelf_getsym(syms, (int)k, &s) ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_size == 0 ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx >= shnum ||
		    !(code = elf_getscn(elf, s.st_shndx)) ||
		    !gelf_getshdr(code, &cs) || cs.sh_type != SHT_PROGBITS ||
		    !(cs.sh_flags & SHF_EXECINSTR) || s.st_value < cs.sh_addr ||
		    s.st_value - cs.sh_addr > cs.sh_size ||
		    s.st_size > cs.sh_size - (s.st_value - cs.sh_addr) ||
		    !(d = elf_getdata(code, NULL)) || !d->d_buf ||
		    d->d_size < cs.sh_size ||
		    !(name = elf_strptr(elf, symsh.sh_link, s.st_name)))
			continue;
		if (grow((void **)&fn, &cap, n + 1, sizeof *fn) < 0) {
			free(fn);
			return RL_ENOMEM;
		}
		fn[n].name = name;
		fn[n].addr = s.st_value;
		fn[n].size = s.st_size;
		fn[n].code = (const unsigned char *)d->d_buf +
			     (s.st_value - cs.sh_addr);
		n++;
	}
	if (n)
		qsort(fn, n, sizeof *fn, cmp_func);
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (!m || fn[k].addr >= fn[m - 1].addr + fn[m - 1].size)
			fn[m++] = fn[k];
	*out = fn;
	*n_out = m;
	return 0;
}

int rl_loops_find(const char *path, struct rl_loops *out, char *err,
		  size_t errlen)
{
	struct reader r;
	struct func *fn = NULL;
	size_t nf = 0;
	GElf_Ehdr eh;
	Elf *elf;
	int fd, rc;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	r.out = out;
	if ((rc = rl_elf_file_open(path, &fd, &elf, err, errlen)) < 0)
		return rc;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64) {
		rc = rl_fail(err, errlen, RL_EFORMAT,
			     "'%s' is not an x86-64 ELF file", path);
		goto done;
	}
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&r.dec, ZYDIS_MACHINE_MODE_LONG_64,
					   ZYDIS_STACK_WIDTH_64))) {
		rc = rl_fail(err, errlen, RL_ENOTSUP,
			     "the x86 decoder (Zydis) would not start");
		goto done;
	}
	if ((rc = rl_dwarf_lines_open(elf, &r.dw)) < 0 ||
	    (rc = list_functions(elf, &fn, &nf)) < 0)
		goto nomem;
	out->have_lines = r.dw != NULL;
	out->have_symbols = nf > 0;
	for (size_t k = 0; k < nf; k++) {
		if ((rc = function_loops(&r, &fn[k])) < 0)
			goto nomem;
		out->n_funcs++;
	}
	if (rl_loop_names_number(out) < 0)
		goto nomem;
	goto done;
nomem:
	rc = rl_fail(err, errlen, RL_ENOMEM,
		     "out of memory reading the loops of '%s'", path);
	rl_loops_release(out);
done:
	free(fn);
	free(r.ins);
	free(r.bl);
	free(r.order);
	free(r.stack);
	free(r.preds);
	free(r.npred);
	free(r.pred_at);
	rl_dwarf_lines_close(r.dw);
	rl_elf_file_close(fd, elf);
	return rc;
}

#endif
