/* Loops named through the DWARF's function instances; C++ demangled;
 * the loops that would share a name numbered. */
#include "inspect/loop_names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/demangle.h"
#include "common/rl_error.h"

#define MAX_FRAMES 32

/* Address a seen from the instance at depth d (frames outermost first):
 * its own line, or the call that inlined the code it is in. */
static int line_in(struct rl_dwarf_lines *dw, uint64_t a,
		   const struct rl_dwarf_frame *f, int n, int d,
		   const char **file, int *line)
{
	if (n > d + 1 && f[d + 1].call_file && f[d + 1].call_line > 0) {
		*file = f[d + 1].call_file;
		*line = f[d + 1].call_line;
		return 1;
	}
	return rl_dwarf_line(dw, a, file, line);
}

static int system_file(const char *path)
{
	return path && strncmp(path, "/usr/", 5) == 0;
}

/* A directive line: C's "#pragma" or Fortran's "!$omp"/"!$acc"
 * (any case), spaces before it allowed. */
static int directive(const char *t)
{
	while (*t == ' ' || *t == '\t')
		t++;
	return strncmp(t, "#pragma", 7) == 0 ||
	       (t[0] == '!' && t[1] == '$' &&
		(strncasecmp(t + 2, "omp", 3) == 0 ||
		 strncasecmp(t + 2, "acc", 3) == 0));
}

/* A loop statement starts the line: for, while or do (any case). */
static int loop_statement(const char *t)
{
	static const char *const words[] = {"for", "while", "do"};
	while (*t == ' ' || *t == '\t')
		t++;
	for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
		size_t n = strlen(words[k]);
		if (strncasecmp(t, words[k], n) == 0 &&
		    (t[n] == ' ' || t[n] == '\t' || t[n] == '(' ||
		     t[n] == '\n' || t[n] == '\r' || t[n] == '\0'))
			return 1;
	}
	return 0;
}

int rl_loop_statement_line(const char *file, int line, int last)
{
	char text[512];
	FILE *f;
	int n = 0, at = line, in_directive = 0;

	if (!file || line <= 0 || !(f = fopen(file, "r")))
		return line;
	while (fgets(text, sizeof text, f)) {
		size_t len = strlen(text);
		if (len == sizeof text - 1 && text[len - 1] != '\n') {
			/* a line longer than the buffer: skip its rest */
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		n++;
		if (n < line)
			continue;
		if (n == line) {
			if (!directive(text))
				break;
			in_directive = 1;
			continue;
		}
		if (n > last)
			break;
		if (loop_statement(text)) {
			at = n;
			break;
		}
	}
	fclose(f);
	return in_directive ? at : line;
}

void rl_loop_where(struct rl_dwarf_lines *dw, uint64_t head,
		   const uint64_t *latch, size_t n, struct rl_loop_where *out)
{
	struct rl_dwarf_frame fh[MAX_FRAMES], fl[MAX_FRAMES];
	const char *hf, *f;
	int nh, common, d, hl, l;

	memset(out, 0, sizeof *out);
	nh = rl_dwarf_frames(dw, head, fh, MAX_FRAMES);
	if (nh > MAX_FRAMES)
		nh = MAX_FRAMES;
	common = nh;
	for (size_t k = 0; k < n && common > 0; k++) {
		int nl = rl_dwarf_frames(dw, latch[k], fl, MAX_FRAMES), c = 0;
		if (nl > MAX_FRAMES)
			nl = MAX_FRAMES;
		while (c < common && c < nl && fl[c].id == fh[c].id)
			c++;
		common = c;
	}
	d = common - 1; /* -1: no instance holds it all (or no DWARF) */
	if (d < 0) {
		if (!rl_dwarf_line(dw, head, &hf, &hl))
			return;
	} else if (!line_in(dw, head, fh, nh, d, &hf, &hl)) {
		return;
	}
	out->file = hf;
	for (size_t k = 0; k < n; k++) {
		int nl = d < 0 ? 0 : rl_dwarf_frames(dw, latch[k], fl, MAX_FRAMES);
		if (nl > MAX_FRAMES)
			nl = MAX_FRAMES;
		if ((d < 0 ? rl_dwarf_line(dw, latch[k], &f, &l)
			   : line_in(dw, latch[k], fl, nl, d, &f, &l)) &&
		    strcmp(f, hf) == 0 && (out->line == 0 || l < out->line))
			out->line = l;
	}
	if (out->line == 0)
		out->line = hl;
	out->line = rl_loop_statement_line(out->file, out->line,
					   out->line + 4);
	/* the instance's call sites, innermost first, up to the symbol's
	 * function */
	if (d > 0)
		out->scope = fh[d].name;
	for (int k = d; k > 0 && out->n_inl < RL_LOOP_MAX_INLINE; k--) {
		out->inl[out->n_inl].func = fh[k].name;
		out->inl[out->n_inl].call_file = fh[k].call_file;
		out->inl[out->n_inl].call_line = fh[k].call_line;
		out->n_inl++;
	}
	/* a library's loop: at the program's call site that holds it */
	for (size_t k = 0; system_file(out->file) && k < out->n_inl; k++)
		if (out->inl[k].call_file && out->inl[k].call_line > 0 &&
		    !system_file(out->inl[k].call_file)) {
			out->file = out->inl[k].call_file;
			out->line = out->inl[k].call_line;
			out->library = 1;
			break;
		}
}

static char *readable(const char *name)
{
	char *d = rl_demangle(name);
	return d ? d : strdup(name ? name : "?");
}

void rl_loop_name_free(struct rl_loop *v)
{
	free(v->func);
	free(v->file);
	free(v->scope);
	for (size_t k = 0; k < v->n_inl; k++) {
		free(v->inl[k].func);
		free(v->inl[k].call_file);
	}
	free(v->inl);
	v->func = v->file = v->scope = NULL;
	v->inl = NULL;
	v->n_inl = 0;
}

int rl_loop_name_set(struct rl_loop *v, const char *symbol,
		     const struct rl_loop_where *w)
{
	v->line = w->line;
	v->library = w->library;
	if (!(v->func = readable(symbol)) ||
	    (w->file && !(v->file = strdup(w->file))) ||
	    !(v->scope = w->scope ? readable(w->scope) : strdup(v->func)))
		goto nomem;
	if (w->n_inl && !(v->inl = calloc(w->n_inl, sizeof *v->inl)))
		goto nomem;
	for (size_t k = 0; k < w->n_inl; k++) {
		v->n_inl++;
		if (!(v->inl[k].func = readable(w->inl[k].func)) ||
		    (w->inl[k].call_file &&
		     !(v->inl[k].call_file = strdup(w->inl[k].call_file))))
			goto nomem;
		v->inl[k].call_line = w->inl[k].call_line;
	}
	return 0;
nomem:
	rl_loop_name_free(v);
	return RL_ENOMEM;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path;
}

/* The name without its number. */
static void plain_name(const struct rl_loop *p, char *buf, size_t len)
{
	char fn[256];

	if (!p->file || !p->line) {
		snprintf(buf, len, "%s+0x%" PRIx64, p->func,
			 p->head - p->func_addr);
		return;
	}
	rl_demangle_short(p->scope ? p->scope : p->func, fn, sizeof fn);
	if (p->library)
		snprintf(buf, len, "%s:%d (a loop of %s)", base(p->file),
			 p->line, fn);
	else if (p->n_inl && p->inl[0].call_file && p->inl[0].call_line)
		snprintf(buf, len, "%s:%d (%s, inlined at %s:%d)", base(p->file),
			 p->line, fn, base(p->inl[0].call_file),
			 p->inl[0].call_line);
	else
		snprintf(buf, len, "%s:%d (%s)", base(p->file), p->line, fn);
}

void rl_loop_label(const struct rl_loops *l, size_t i, char *buf, size_t len)
{
	const struct rl_loop *p = &l->v[i];

	if (p->file && p->line && p->nth)
		snprintf(buf, len, "%s:%d #%d", base(p->file), p->line, p->nth);
	else if (p->file && p->line)
		snprintf(buf, len, "%s:%d", base(p->file), p->line);
	else
		snprintf(buf, len, "%s+0x%" PRIx64, p->func,
			 p->head - p->func_addr);
}

void rl_loop_name(const struct rl_loops *l, size_t i, char *buf, size_t len)
{
	const struct rl_loop *p = &l->v[i];
	char fn[256], at[300];

	if (!p->file || !p->line) {
		rl_loop_label(l, i, buf, len);
		return;
	}
	rl_demangle_short(p->scope ? p->scope : p->func, fn, sizeof fn);
	if (p->library) {
		memmove(fn + 10, fn, strlen(fn) + 1 < sizeof fn - 10
				       ? strlen(fn) + 1 : sizeof fn - 10);
		memcpy(fn, "a loop of ", 10);
		fn[sizeof fn - 1] = '\0';
		at[0] = '\0';
	} else if (p->n_inl && p->inl[0].call_file && p->inl[0].call_line)
		snprintf(at, sizeof at, ", inlined at %s:%d",
			 base(p->inl[0].call_file), p->inl[0].call_line);
	else
		at[0] = '\0';
	if (p->nth)
		snprintf(buf, len, "%s:%d #%d (%s%s)", base(p->file), p->line,
			 p->nth, fn, at);
	else
		snprintf(buf, len, "%s:%d (%s%s)", base(p->file), p->line, fn,
			 at);
}

struct keyed {
	char *name;
	size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return (x->i > y->i) - (x->i < y->i);
}

int rl_loop_names_number(struct rl_loops *l)
{
	struct keyed *k;
	char buf[1024];
	int rc = 0;

	if (!l->n)
		return 0;
	if (!(k = calloc(l->n, sizeof *k)))
		return RL_ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		l->v[i].nth = 0;
		plain_name(&l->v[i], buf, sizeof buf);
		k[i].i = i;
		if (!(k[i].name = strdup(buf))) {
			rc = RL_ENOMEM;
			goto out;
		}
	}
	/* same name: numbered in header address order (preorder keeps the
	 * functions by address, a function's loops by header address
	 * within a nest) */
	qsort(k, l->n, sizeof *k, cmp_keyed);
	for (size_t a = 0, b; a < l->n; a = b) {
		for (b = a + 1; b < l->n && strcmp(k[a].name, k[b].name) == 0; b++)
			;
		if (b - a < 2)
			continue;
		for (size_t m = a; m < b; m++) {
			int nth = 1;
			for (size_t o = a; o < b; o++)
				nth += l->v[k[o].i].head < l->v[k[m].i].head;
			l->v[k[m].i].nth = nth;
		}
	}
out:
	for (size_t i = 0; i < l->n; i++)
		free(k[i].name);
	free(k);
	return rc;
}
