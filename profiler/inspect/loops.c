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

#include "inspect/dwarf_lines.h"
#include "inspect/elf_code_isa.h"
#include "inspect/loop_cfg.h"
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
	if (rl_cfg_grow((void **)&o->span, &r->cap_span, o->n_span + 1,
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

	if (rl_cfg_grow((void **)&o->v, &r->cap_v, o->n + 1, sizeof *o->v) < 0)
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

	if ((rc = rl_cfg_decode(r, fn)) < 0 || !r->n_ins)
		return rc;
	if ((rc = rl_cfg_build_blocks(r)) < 0)
		return rc;
	nb = r->n_bl;
	if ((n = rl_cfg_number_blocks(r)) < 0 || (rc = rl_cfg_list_preds(r)) < 0)
		return n < 0 ? (int)n : rc;
	rl_cfg_dominators(r, (size_t)n);
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
			if (rl_cfg_dominates(r, (int)h, q))
				latch[n_latch++] = q;
		}
		if (!n_latch)
			continue;
		if (rl_cfg_grow((void **)&lp, &cap, nl + 1, sizeof *lp) < 0 ||
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
		if (rl_cfg_grow((void **)&fn, &cap, n + 1, sizeof *fn) < 0) {
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
