/*
 * A results file read region by region (results_stream.h): at 10^6
 * regions x 2 threads, jansson's tree of the whole 100 MB file was about
 * 1.1 GB at once. The file is parsed with each thread's "regions" array
 * left empty (a thin copy whose lines and columns are the file's), and the
 * regions are then decoded one at a time from the text.
 */
#include <stdlib.h>
#include <string.h>

#include "common/json_scan.h"
#include "common/rl_error.h"
#include "common/term_text.h"
#include "results/results_json.h"
#include "results/results_stream.h"

/* Whether t[k .. kend) is the JSON string "word" (written plainly). */
static int key_is(const char *t, size_t k, size_t kend, const char *word)
{
	size_t n = strlen(word);
	return kend - k == n + 2 && memcmp(t + k + 1, word, n) == 0;
}

struct scan {
	struct rl_results_text *x;
	size_t thread;
	int bad;
};

/* A thread's member: its "regions" array's inside kept as a span. */
static int thread_member(void *ctx, const char *t, size_t k, size_t kend,
			 size_t v, size_t vend)
{
	struct scan *s = ctx;
	struct rl_results_text *x = s->x;

	if (!key_is(t, k, kend, "regions") || t[v] != '[')
		return 0;
	if (s->thread >= x->n_spans) {
		size_t n = x->n_spans ? 2 * x->n_spans : 16;
		struct rl_text_span *g = realloc(x->spans, n * sizeof *g);
		if (!g)
			return -1;
		memset(g + x->n_spans, 0, (n - x->n_spans) * sizeof *g);
		x->spans = g;
		x->n_spans = n;
	}
	x->spans[s->thread].from = v + 1;
	x->spans[s->thread].to = vend - 1;
	return 0;
}

/* The top object's member: each thread of "threads" scanned. */
static int top_member(void *ctx, const char *t, size_t k, size_t kend,
		      size_t v, size_t vend)
{
	struct scan *s = ctx;
	size_t at;

	if (!key_is(t, k, kend, "threads") || t[v] != '[')
		return 0;
	at = rl_json_skip_ws(t, vend, v + 1);
	for (s->thread = 0; at < vend - 1; s->thread++) {
		if (t[at] != '{' ||
		    !(at = rl_json_members(t, vend, at, thread_member, s)))
			return -1;
		at = rl_json_skip_ws(t, vend, at);
		if (t[at] == ',')
			at = rl_json_skip_ws(t, vend, at + 1);
		else if (at != vend - 1)
			return -1;
	}
	return 0;
}

int rl_results_text_thin(struct rl_results_text *x)
{
	const char *t = x->text;
	size_t len = x->len, at = rl_json_skip_ws(t, len, 0), used = 0;
	struct scan s = {x, 0, 0};

	x->thin = NULL;
	if (at >= len || t[at] != '{' || !rl_json_members(t, len, at, top_member, &s)) {
		free(x->spans); /* not plain: read whole, as it is */
		x->spans = NULL;
		x->n_spans = 0;
		return 0;
	}
	if (!x->n_spans)
		return 0;
	if (!(x->thin = malloc(len + 1)))
		return RL_ENOMEM;
	/* each span's bytes become its newlines, then spaces to the column
	 * where it ended: what follows keeps its line and column */
	at = 0;
	for (size_t i = 0; i < x->n_spans; i++) {
		const struct rl_text_span *sp = &x->spans[i];
		const char *nl;
		size_t tail;

		if (sp->from == 0 || sp->to <= sp->from || sp->from < at)
			continue;
		memcpy(x->thin + used, t + at, sp->from - at);
		used += sp->from - at;
		tail = sp->to - sp->from;
		for (const char *p = t + sp->from;
		     (nl = memchr(p, '\n', (size_t)(t + sp->to - p)));
		     p = nl + 1) {
			x->thin[used++] = '\n';
			tail = (size_t)(t + sp->to - nl - 1);
		}
		memset(x->thin + used, ' ', tail);
		used += tail;
		at = sp->to;
	}
	memcpy(x->thin + used, t + at, len - at);
	x->thin_len = used + len - at;
	x->thinned = 1;
	return 0;
}

int rl_results_text_region(struct rl_json_ctx *c,
			   const struct rl_results_text *x, size_t thread,
			   size_t *at, size_t i, json_t **out)
{
	const char *t = x->text;
	size_t to = x->spans[thread].to;
	json_error_t je;
	char near[160], shown[512];
	int col;

	*out = NULL;
	*at = rl_json_skip_ws(t, to, *at);
	if (i > 0) { /* past the element before: a comma, or the end */
		if (*at >= to)
			return 0;
		if (t[*at] != ',') {
			je.line = rl_json_line_of(t, *at, &je.column);
			snprintf(je.text, sizeof je.text,
				 "']' expected near '%c'", t[*at]);
			goto bad;
		}
		*at = rl_json_skip_ws(t, to, *at + 1);
	}
	if (*at >= to) {
		if (i == 0)
			return 0;
		je.line = rl_json_line_of(t, *at, &je.column);
		snprintf(je.text, sizeof je.text, "unexpected token near ']'");
		goto bad;
	}
	*out = json_loadb(t + *at, to - *at,
			  JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK |
				  JSON_REJECT_DUPLICATES,
			  &je);
	if (*out) {
		*at += (size_t)je.position;
		return 0;
	}
	/* jansson's line and column are the element's: made the file's */
	if (je.line == 1) {
		je.line = rl_json_line_of(t, *at, &col);
		je.column += col - 1;
	} else {
		je.line += rl_json_line_of(t, *at, NULL) - 1;
	}
bad:
	rl_term_cut(near, sizeof near, je.text, 80);
	rl_term_cut(shown, sizeof shown, c->path, 400);
	return rl_fail(c->err, c->errlen, RL_EFORMAT,
		       "cannot parse '%s': line %d column %d: %s: %s", shown,
		       je.line, je.column, near, RL_JSON_RERUN);
}

void rl_results_text_free(struct rl_results_text *x)
{
	free(x->text);
	free(x->thin);
	free(x->spans);
	memset(x, 0, sizeof *x);
}
