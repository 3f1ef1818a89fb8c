/* A timed figure's spread over the runs of --repeat (report.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "common/sorted_doubles.h"

/* The largest k with P(B <= k) <= 5%, B binomial (n, 1/2): [x(k+1),
 * x(n-k)] then holds the median with at least 90% confidence; -1 when
 * none (n < 5). */
static long binomial_k(unsigned n)
{
	double c = 1, p = ldexp(1.0, -(int)n), s = 0;
	long k = -1;

	for (unsigned i = 0; i <= n / 2; i++) {
		if (i)
			c = c * (double)(n - i + 1) / (double)i;
		s += c * p;
		if (s > 0.05)
			break;
		k = (long)i;
	}
	return k;
}

/* Figure x measured at time t, known at t0: the same counts over t. */
static struct rl_figure_interval scaled(double x, double t0,
					const struct rl_figure_interval *t)
{
	struct rl_figure_interval f = {NAN, NAN, NAN};

	if (!rl_known(x) || !isfinite(x) || !(t0 > 0))
		return f;
	f.median = x * t0 / t->median;
	f.lo = x * t0 / t->hi; /* the slowest run: the lowest rate */
	f.hi = x * t0 / t->lo;
	return f;
}

void rl_row_interval(const struct rl_region_row *row,
		     struct rl_row_interval *out)
{
	double v[256];
	unsigned n = 0;
	long k;

	memset(out, 0, sizeof *out);
	if (!row->repeat_times_s)
		return;
	for (unsigned i = 0; i < row->repeat_n_times && n < 256; i++)
		if (isfinite(row->repeat_times_s[i]) &&
		    row->repeat_times_s[i] > 0)
			v[n++] = row->repeat_times_s[i];
	if (n < 2)
		return;
	rl_sort_doubles(v, n);
	k = binomial_k(n);
	out->runs = n;
	out->kind = k < 0 ? RL_INTERVAL_RANGE : RL_INTERVAL_MEDIAN90;
	if (k < 0)
		k = 0;
	out->time_s.median = rl_median_sorted(v, n);
	out->time_s.lo = v[k];
	out->time_s.hi = v[n - 1 - (unsigned)k];
	out->gflops = scaled(row->gflops, row->time_s, &out->time_s);
	out->gbs = scaled(row->gbs, row->time_s, &out->time_s);
	out->roof_pct = scaled(row->roof_pct, row->time_s, &out->time_s);
}

const char *rl_interval_kind_word(enum rl_interval_kind k)
{
	return k == RL_INTERVAL_MEDIAN90 ? "median90"
	       : k == RL_INTERVAL_RANGE	 ? "range"
					 : NULL;
}
