/*
 * A results file read region by region (results_stream.c), internal to
 * results_read.c: the file's text, the inside of each thread's "regions"
 * array, and a thin copy of the text with those left blank for jansson to
 * parse as one tree; the regions are then decoded one at a time.
 */
#ifndef RL_RESULTS_STREAM_H
#define RL_RESULTS_STREAM_H

#include <jansson.h>
#include <stddef.h>

#include "results/results_json.h"

struct rl_text_span {
	size_t from, to; /* t[from .. to): an array's inside; from 0: none */
};

struct rl_results_text {
	char *text;      /* the file, owned */
	size_t len;
	char *thin;      /* text with every span blank (its newlines kept,
			    the rest spaces), owned; NULL: read text whole */
	size_t thin_len;
	int thinned;     /* the tree was parsed from thin (freed after) */
	struct rl_text_span *spans; /* by thread index in "threads" */
	size_t n_spans;
};

/* Finds the spans and makes thin (NULL, the spans none, when the file's
 * punctuation is not plain: jansson then reads it whole and says what is
 * wrong). 0 or RL_ENOMEM. */
int rl_results_text_thin(struct rl_results_text *x);
/* Whether thread's regions are to be read from the text. */
static inline int rl_results_text_has(const struct rl_results_text *x,
				      size_t thread)
{
	return x && x->thinned && thread < x->n_spans &&
	       x->spans[thread].from > 0;
}
/* Region i of thread's span, from *at (the span's start for i = 0), into
 * *out (NULL past the last one); *at moves past it. 0, or RL_EFORMAT with
 * a "cannot parse 'PATH': line L column C" message as rl_json_load
 * words it. */
int rl_results_text_region(struct rl_json_ctx *c,
			   const struct rl_results_text *x, size_t thread,
			   size_t *at, size_t i, json_t **out);
void rl_results_text_free(struct rl_results_text *x);

#endif
