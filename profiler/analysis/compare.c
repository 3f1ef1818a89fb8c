/* rlprof diff: two reports region by region. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
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

void rl_compare_time(const struct rl_report_region *a,
		     const struct rl_report_region *b, double thr,
		     struct rl_time_cmp *out)
{
	bool ra = a->runs > 1 && !isnan(a->time_min_s),
	     rb = b->runs > 1 && !isnan(b->time_min_s);

	memset(out, 0, sizeof *out);
	out->a_s = ra && rb ? a->time_min_s : ra ? a->time_median_s : a->time_s;
	out->b_s = ra && rb ? b->time_min_s : rb ? b->time_median_s : b->time_s;
	out->change_pct = rl_rel_change_pct(out->a_s, out->b_s);
	out->noise_pct = NAN;
	if (ra && !isnan(a->spread_pct))
		out->noise_pct = a->spread_pct;
	if (rb && !isnan(b->spread_pct) &&
	    (isnan(out->noise_pct) || b->spread_pct > out->noise_pct))
		out->noise_pct = b->spread_pct;
	/* with repeats the change is known to within the runs' noise: a
	 * region is slower only when even the change less its noise is
	 * beyond the threshold (a loaded machine moving every run of one
	 * side by a few percent does not fail the gate) */
	double margin = thr;
	if (!isnan(out->noise_pct))
		margin += out->noise_pct;
	out->verdict = classify(out->change_pct, margin, false);
	out->noisy = out->verdict == RL_CHANGE_NONE &&
		     !isnan(out->noise_pct) &&
		     (out->noise_pct > thr || fabs(out->change_pct) > thr);
}

static void compare_row(struct rl_diff_row *r, double thr)
{
	struct rl_time_cmp tc;

	const struct rl_report_region *a = r->a, *b = r->b;

	r->time_pct = r->gflops_pct = r->ai_pct = r->roof_pct_delta = NAN;
	r->noise_pct = NAN;
	if (!a || !b) {
		r->presence = a ? RL_ONLY_A : RL_ONLY_B;
		r->verdict = a ? "gone" : "new";
		return;
	}
	rl_compare_time(a, b, thr, &tc);
	r->time_pct = tc.change_pct;
	r->noise_pct = tc.noise_pct;
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
		     : tc.noisy			   ? "noisy"
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
