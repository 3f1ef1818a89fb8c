/* rlprof diff: two reports region by region. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/shift_test.h"
#include "common/rl_error.h"

double rl_rel_change_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || a == 0.0)
		return NAN;
	return (b - a) / fabs(a) * 100.0;
}

/* higher_is_better: GFLOP/s, % of roof; time is lower-is-better. */
static enum rl_change classify(double pct, double threshold,
			       bool higher_is_better)
{
	if (isnan(pct) || fabs(pct) <= threshold)
		return RL_CHANGE_NONE;
	return (pct > 0) == higher_is_better ? RL_CHANGE_BETTER
					     : RL_CHANGE_WORSE;
}

static bool same_str(const char *x, const char *y)
{
	if (!x || !y)
		return x == y;
	return strcmp(x, y) == 0;
}

void rl_compare_times(const double *a, size_t n_a, const double *b,
		      size_t n_b, double thr, struct rl_time_cmp *out)
{
	rl_compare_times_at(a, n_a, b, n_b, thr, RL_SHIFT_CONFIDENCE, out);
}

void rl_compare_times_at(const double *a, size_t n_a, const double *b,
			 size_t n_b, double thr, double confidence,
			 struct rl_time_cmp *out)
{
	struct rl_shift sh;

	memset(out, 0, sizeof *out);
	out->a_s = out->b_s = out->change_pct = NAN;
	out->lo_pct = out->hi_pct = NAN;
	out->confidence = confidence;
	if (rl_shift_estimate_at(a, n_a, b, n_b, confidence, &sh) != 0)
		return;
	out->n_a = sh.n_a;
	out->n_b = sh.n_b;
	out->a_s = sh.median_a;
	out->b_s = sh.median_b;
	if (sh.n_a == 1 && sh.n_b == 1) { /* no test: face value */
		out->change_pct = rl_rel_change_pct(out->a_s, out->b_s);
		out->verdict = classify(out->change_pct, thr, false);
		return;
	}
	out->tested = true;
	out->change_pct = (sh.ratio - 1) * 100;
	out->lo_pct = (sh.lo - 1) * 100;
	out->hi_pct = isinf(sh.hi) ? INFINITY : (sh.hi - 1) * 100;
	if (out->lo_pct > thr)
		out->verdict = RL_CHANGE_WORSE;
	else if (out->hi_pct < -thr)
		out->verdict = RL_CHANGE_BETTER;
	else
		out->unsure = out->hi_pct > thr;
}

/* A side's sample: its runs' times, else its median or its one time. */
static const double *sample(const struct rl_report_region *r, double *one,
			    size_t *n)
{
	if (r->n_times) {
		*n = r->n_times;
		return r->times_s;
	}
	*one = r->runs > 1 && !isnan(r->time_median_s) ? r->time_median_s
						       : r->time_s;
	*n = 1;
	return one;
}

void rl_compare_time(const struct rl_report_region *a,
		     const struct rl_report_region *b, double thr,
		     struct rl_time_cmp *out)
{
	double oa, ob;
	size_t na, nb;
	const double *sa = sample(a, &oa, &na), *sb = sample(b, &ob, &nb);

	rl_compare_times(sa, na, sb, nb, thr, out);
}

static void compare_row(struct rl_diff_row *r, double thr)
{
	struct rl_time_cmp tc;

	const struct rl_report_region *a = r->a, *b = r->b;

	r->time_pct = r->gflops_pct = r->ai_pct = r->roof_pct_delta = NAN;
	r->lo_pct = r->hi_pct = NAN;
	if (!a || !b) {
		r->presence = a ? RL_ONLY_A : RL_ONLY_B;
		r->verdict = a ? "gone" : "new";
		return;
	}
	rl_compare_time(a, b, thr, &tc);
	r->time_pct = tc.change_pct;
	r->lo_pct = tc.lo_pct;
	r->hi_pct = tc.hi_pct;
	r->gflops_pct = rl_rel_change_pct(a->gflops, b->gflops);
	r->ai_pct = rl_rel_change_pct(a->ai, b->ai);
	if (!isnan(a->roof_pct) && !isnan(b->roof_pct))
		r->roof_pct_delta = b->roof_pct - a->roof_pct;
	r->time = tc.verdict;
	r->gflops = classify(r->gflops_pct, thr, true);
	/* AI is neither better nor worse: a change is a change */
	r->ai = classify(r->ai_pct, thr, true);
	/* % of roof: relative to A's value, like the others */
	r->roof = classify(rl_rel_change_pct(a->roof_pct, b->roof_pct), thr,
			   true);
	r->roof_changed = !same_str(a->bound_roof, b->bound_roof);
	r->verdict = isnan(r->time_pct)		    ? "-"
		     : r->time == RL_CHANGE_WORSE  ? "slower"
		     : r->time == RL_CHANGE_BETTER ? "faster"
		     : tc.unsure		   ? "unsure"
						   : "same";
}

int rl_diff_build(const struct rl_report_file *a,
		  const struct rl_report_file *b, double threshold_pct,
		  struct rl_diff *out, char *err, size_t errlen)
{
	size_t n = 0;

	memset(out, 0, sizeof *out);
	if (isnan(threshold_pct) || threshold_pct < 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "threshold must be a percentage >= 0");
	out->threshold_pct = threshold_pct;
	out->rows = calloc(a->n_regions + b->n_regions + 1, sizeof *out->rows);
	if (!out->rows)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	for (size_t i = 0; i < a->n_regions; i++) {
		struct rl_diff_row *r = &out->rows[n++];
		r->region = a->regions[i].region;
		r->a = &a->regions[i];
		r->b = rl_report_file_find(b, r->region);
	}
	for (size_t i = 0; i < b->n_regions; i++) {
		if (rl_report_file_find(a, b->regions[i].region))
			continue;
		out->rows[n].region = b->regions[i].region;
		out->rows[n++].b = &b->regions[i];
	}
	out->n_rows = n;
	for (size_t i = 0; i < n; i++) {
		compare_row(&out->rows[i], threshold_pct);
		if (out->rows[i].time == RL_CHANGE_WORSE)
			out->n_worse++;
		else if (out->rows[i].time == RL_CHANGE_BETTER)
			out->n_better++;
	}
	return 0;
}

void rl_diff_release(struct rl_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof *d);
}
