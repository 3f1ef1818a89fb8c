/* The change between two sets of run times, tested (shift_test.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/shift_test.h"
#include "common/sorted_doubles.h"

/* The counts of the arrangements of n and m runs with U = 0..k (the
 * number of (first-sample, second-sample) pairs where the first is the
 * larger), k <= n m: f(n, m, u) = f(n-1, m, u-m) + f(n, m-1, u), rolled
 * over n. Returns a malloc'd array of k + 1 counts, NULL out of memory. */
static double *u_counts(size_t n, size_t m, size_t k)
{
	size_t w = k + 1;
	double *prev = calloc((m + 1) * w, sizeof *prev),
	       *cur = calloc((m + 1) * w, sizeof *cur), *out;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NULL;
	}
	for (size_t j = 0; j <= m; j++) /* n = 0: only U = 0 */
		prev[j * w] = 1;
	for (size_t i = 1; i <= n; i++) {
		memset(cur, 0, (m + 1) * w * sizeof *cur);
		cur[0] = 1; /* m = 0 */
		for (size_t j = 1; j <= m; j++)
			for (size_t u = 0; u < w; u++)
				cur[j * w + u] = cur[(j - 1) * w + u] +
						 (u >= j ? prev[j * w + u - j]
							 : 0);
		double *t = prev;
		prev = cur;
		cur = t;
	}
	out = malloc(w * sizeof *out);
	if (out)
		memcpy(out, prev + m * w, w * sizeof *out);
	free(prev);
	free(cur);
	return out;
}

static double choose(size_t n, size_t k)
{
	double c = 1;

	for (size_t i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

/* P(U <= u) for integer u in [0, nm/2]. */
static double lower_cdf(size_t n, size_t m, size_t u)
{
	double *c = u_counts(n, m, u), s = 0;

	if (!c)
		return NAN;
	for (size_t i = 0; i <= u; i++)
		s += c[i];
	free(c);
	return s / choose(n + m, n);
}

double rl_mann_whitney_cdf(size_t n, size_t m, double u)
{
	double nm = (double)n * (double)m, f = floor(u);

	if (f < 0)
		return 0;
	if (f >= nm)
		return 1;
	/* symmetric about nm / 2: P(U <= f) = 1 - P(U <= nm - f - 1) */
	if (f > nm / 2)
		return 1 - lower_cdf(n, m, (size_t)(nm - f - 1));
	return lower_cdf(n, m, (size_t)f);
}

long rl_mann_whitney_critical(size_t n, size_t m, double alpha)
{
	/* one (n, m, alpha) at a time is asked for many regions alike */
	static size_t memo_n, memo_m;
	static double memo_alpha = -1;
	static long memo_k;
	size_t half = n * m / 2;
	double *c, total, s = 0;
	long k = -1;

	if (n == memo_n && m == memo_m && alpha == memo_alpha)
		return memo_k;
	if (!n || !m || !(c = u_counts(n, m, half)))
		return -1;
	total = choose(n + m, n);
	for (size_t u = 0; u <= half; u++) {
		s += c[u];
		if (s / total > alpha)
			break;
		k = (long)u;
	}
	free(c);
	memo_n = n, memo_m = m, memo_alpha = alpha, memo_k = k;
	return k;
}

/* The usable times of v, sorted, into out; their count. */
static size_t usable(const double *v, size_t n, double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0)
			out[k++] = v[i];
	rl_sort_doubles(out, k);
	return k;
}

int rl_shift_estimate(const double *a, size_t n_a, const double *b,
		      size_t n_b, struct rl_shift *out)
{
	return rl_shift_estimate_at(a, n_a, b, n_b, RL_SHIFT_CONFIDENCE, out);
}

int rl_shift_estimate_at(const double *a, size_t n_a, const double *b,
			 size_t n_b, double confidence, struct rl_shift *out)
{
	double sa[RL_SHIFT_MAX_RUNS], sb[RL_SHIFT_MAX_RUNS], *r;
	size_t na, nb, nr;
	long k;

	out->n_a = out->n_b = 0;
	out->median_a = out->median_b = out->ratio = NAN;
	out->lo = out->hi = NAN;
	if (n_a > RL_SHIFT_MAX_RUNS || n_b > RL_SHIFT_MAX_RUNS)
		return -1;
	na = usable(a, n_a, sa);
	nb = usable(b, n_b, sb);
	if (!na || !nb)
		return -1;
	nr = na * nb;
	if (!(r = malloc(nr * sizeof *r)))
		return -1;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			r[i * nb + j] = sb[j] / sa[i];
	rl_sort_doubles(r, nr);
	out->n_a = na;
	out->n_b = nb;
	out->median_a = rl_median_sorted(sa, na);
	out->median_b = rl_median_sorted(sb, nb);
	out->ratio = rl_median_sorted(r, nr);
	k = rl_mann_whitney_critical(na, nb, 1 - confidence);
	if (k < 0) {
		out->lo = 0;
		out->hi = INFINITY;
	} else {
		/* Moses: the (k+1)-th smallest and largest ratios */
		out->lo = r[k];
		out->hi = r[nr - 1 - (size_t)k];
	}
	free(r);
	return 0;
}
