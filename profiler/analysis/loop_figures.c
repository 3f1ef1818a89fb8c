/* rlprof run --loops: what is made of the loops' counts and samples:
 * sums up the nest, the hot rule, a loop's sampled time
 * (analysis/loop_figures.h). */
#include "analysis/loop_figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rl_loops_flops(const uint64_t *s)
{
	uint64_t f = 0;
	for (int k = RS_F64_S; k <= RS_F32_256; k++)
		f += s[k];
	return f;
}

uint64_t rl_loops_dram(const uint64_t *s, int levels)
{
	int b = levels >= 1 && levels <= 3 ? levels : 1;
	return s[RS_B1_R + 2 * (b - 1)] + s[RS_B1_W + 2 * (b - 1)];
}

void rl_loops_inclusive(const struct rl_loops *l, uint64_t (*incl)[RS_NSLOTS],
			uint64_t (*self)[RS_NSLOTS])
{
	memcpy(incl, self, (l->n + 1) * sizeof *incl);
	/* preorder: children after parents, so walk backwards */
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].parent >= 0)
			for (int k = 0; k < RS_NSLOTS; k++)
				incl[l->v[i].parent + 1][k] += incl[i + 1][k];
}

void rl_loops_with_calls(struct rl_loop_figures *x)
{
	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < RS_NSLOTS; k++)
			x->with_calls[i][k] = x->self[i][k] + x->calls[i][k];
	for (size_t i = x->l.n; i-- > 0;)
		if (x->l.v[i].parent >= 0)
			for (int k = 0; k < RS_NSLOTS; k++)
				x->with_calls[x->l.v[i].parent + 1][k] +=
					x->with_calls[i + 1][k];
}

bool rl_loops_calls_count(const struct rl_loop_figures *x, size_t i)
{
	const uint64_t *w = x->with_calls[i + 1], *c = x->incl[i + 1];

	return rl_loops_flops(w) != rl_loops_flops(c) ||
	       w[RS_L1_R] + w[RS_L1_W] != c[RS_L1_R] + c[RS_L1_W];
}

void rl_loops_samples_up(const struct rl_loops *l, uint64_t *incl)
{
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].parent >= 0)
			incl[l->v[i].parent + 1] += incl[i + 1];
}

/* Loop id ran in region name (once per name); 0 or -1 (no memory). */
int rl_loops_add_in_region(struct rl_loop_figures *x, size_t id,
			   const char *name)
{
	struct rl_loop_regions *r;
	char **v;

	if (!x->in_region &&
	    !(x->in_region = calloc(x->l.n + 1, sizeof *x->in_region)))
		return -1;
	r = &x->in_region[id];
	for (size_t k = 0; k < r->n; k++)
		if (strcmp(r->v[k], name) == 0)
			return 0;
	if (!(v = realloc(r->v, (r->n + 1) * sizeof *v)))
		return -1;
	r->v = v;
	if (!(v[r->n] = strdup(name)))
		return -1;
	r->n++;
	return 0;
}

/* loop id's time (inclusive) and its standard error: each sample stands
 * for one period of a thread's CPU time in user space (samples in the
 * kernel are not taken), so a loop's time is its samples x the period,
 * its error the Poisson error sqrt(samples) x the period; 0 when not
 * sampled */
double rl_loops_time(const struct rl_loop_figures *x, size_t id, double *err)
{
	const struct rl_loop_samples *s = &x->samples;
	double n, period = (double)s->period_ns * 1e-9;

	*err = 0;
	if (!x->sampled || !s->total)
		return 0;
	n = (double)x->samples_incl[id];
	*err = sqrt(n) * period;
	return n * period;
}

#define HOT_PCT 1   /* a hot loop: at least 1% of the run's time */
#define HOT_MAX 50  /* at most this many, the first in the nest's order */

bool rl_loops_sampled(const struct rl_loop_figures *x)
{
	return x->sampled && x->samples.total;
}

void rl_loops_totals(const struct rl_loop_figures *x, uint64_t *total)
{
	memset(total, 0, RS_NSLOTS * sizeof *total);
	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < RS_NSLOTS; k++)
			total[k] += x->self[i][k];
}

/* Loop i ran: it has counts or samples. */
bool rl_loops_ran(const struct rl_loop_figures *x, size_t i)
{
	const uint64_t *s = x->incl[i + 1];
	return rl_loops_flops(s) || s[RS_L1_R] || s[RS_L1_W] ||
	       (rl_loops_sampled(x) && x->samples_incl[i + 1]);
}

/* Loop i is hot: at least HOT_PCT% of the samples (the run's CPU time);
 * not sampled, of the flops or of the L1 bytes. */
static bool hot(const struct rl_loop_figures *x, size_t i)
{
	uint64_t total[RS_NSLOTS], tf, tb, f;
	const uint64_t *s = x->incl[i + 1];

	if (!rl_loops_ran(x, i))
		return false;
	if (rl_loops_sampled(x))
		return x->samples_incl[i + 1] * 100 >=
		       HOT_PCT * x->samples.total;
	rl_loops_totals(x, total);
	tf = rl_loops_flops(total);
	tb = total[RS_L1_R] + total[RS_L1_W];
	f = rl_loops_flops(s);
	return (tf && f * 100 >= HOT_PCT * tf) ||
	       (tb && (s[RS_L1_R] + s[RS_L1_W]) * 100 >= HOT_PCT * tb);
}

void rl_loops_hot_rule(const struct rl_loop_figures *x, char *buf, size_t len)
{
	snprintf(buf, len, "the loops of at least %d%% of the %s, at most "
		 "%d (the first in the order of the nests)", HOT_PCT,
		 rl_loops_sampled(x) ? "run's sampled CPU time (all its samples: "
			      "every thread, code outside loops and shared "
			      "libraries included)"
			    : "run's flops or L1 bytes (not sampled)",
		 HOT_MAX);
}

bool rl_loops_total_shown(const struct rl_loop_figures *x, size_t i,
			  size_t *shown)
{
	uint64_t total[RS_NSLOTS], tf, tb;
	const uint64_t *w = x->with_calls[i + 1];

	if (!x->counting || *shown >= HOT_MAX || !rl_loops_calls_count(x, i))
		return false;
	rl_loops_totals(x, total);
	tf = rl_loops_flops(total);
	tb = total[RS_L1_R] + total[RS_L1_W];
	if ((tf && rl_loops_flops(w) * 100 >= HOT_PCT * tf) ||
	    (tb && (w[RS_L1_R] + w[RS_L1_W]) * 100 >= HOT_PCT * tb)) {
		(*shown)++;
		return true;
	}
	return false;
}

void rl_loops_choose_hot(struct rl_loop_figures *x)
{
	size_t shown = 0;

	for (size_t i = 0; i < x->l.n; i++)
		if (hot(x, i) && shown < HOT_MAX)
			x->is_hot[i] = true, shown++;
}
