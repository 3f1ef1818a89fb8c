/* Plateaus of a bandwidth sweep and the memory levels they stand for.
 * Pure arithmetic on (size, GB/s) points, so the tests can feed it
 * synthetic sweeps, including ones where the claimed cache sizes lie. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probe.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(const struct rl_sweep_point *pts, size_t first,
			size_t last)
{
	double v[RL_PROBE_MAX_SWEEP] = { 0 };
	size_t n = 0;
	for (size_t i = first; i <= last && n < RL_PROBE_MAX_SWEEP; i++)
		v[n++] = pts[i].gbs;
	if (n == 0)
		return 0;
	qsort(v, n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A group becomes a plateau when it has two points or more (two that
 * agree within half the drop); its leading points that stand clearly
 * above the rest are the tail of the previous level (a transition), not
 * part of it. */
static int close_group(const struct rl_sweep_point *pts, size_t first,
		       size_t last, double drop_frac, struct rl_plateau *pl)
{
	if (last <= first)
		return 0;
	/* two points still falling are a slope (a gradual fall from a big
	 * shared cache to DRAM), not a level */
	if (last - first == 1 && pts[last].gbs < pts[first].gbs * (1 - drop_frac / 2))
		return 0;
	while (last - first >= 2) {
		double rest = median_of(pts, first + 1, last);
		if (pts[first].gbs <= rest * (1 + drop_frac / 2))
			break;
		first++;
	}
	pl->first = first;
	pl->last = last;
	pl->best = first;
	for (size_t i = first; i <= last; i++)
		if (pts[i].gbs > pts[pl->best].gbs)
			pl->best = i;
	pl->gbs = pts[pl->best].gbs;
	return 1;
}

/* Adds a closed group; a plateau at the previous plateau's level (a
 * noisy point split one level in two) extends that one instead. */
static size_t push(const struct rl_sweep_point *pts, size_t first,
		   size_t last, double drop_frac, struct rl_plateau *out,
		   size_t np, size_t max)
{
	struct rl_plateau pl;
	if (!close_group(pts, first, last, drop_frac, &pl))
		return np;
	if (np) {
		struct rl_plateau *prev = &out[np - 1];
		double hi = prev->gbs > pl.gbs ? prev->gbs : pl.gbs;
		double lo = prev->gbs > pl.gbs ? pl.gbs : prev->gbs;
		if (lo >= hi * (1 - drop_frac)) {
			prev->last = pl.last;
			if (pl.gbs > prev->gbs) {
				prev->gbs = pl.gbs;
				prev->best = pl.best;
			}
			return np;
		}
	}
	if (np < max)
		out[np++] = pl;
	return np;
}

size_t rl_find_plateaus(const struct rl_sweep_point *pts, size_t n,
			double drop_frac, struct rl_plateau *out, size_t max)
{
	size_t np = 0, first = 0;
	double level = 0;
	if (n > RL_PROBE_MAX_SWEEP)
		n = RL_PROBE_MAX_SWEEP;
	for (size_t i = 0; i < n; i++) {
		double g = pts[i].gbs;
		if (i == 0) {
			level = g;
			continue;
		}
		/* a fall below the plateau (or a clear rise: small sizes
		 * limited by loop overhead) starts a new group */
		if (g < level * (1 - drop_frac) || g > level * (1 + drop_frac)) {
			np = push(pts, first, i - 1, drop_frac, out, np, max);
			first = i;
			level = g;
		} else if (g > level) {
			level = g;
		}
	}
	if (n)
		np = push(pts, first, n - 1, drop_frac, out, np, max);
	return np;
}

int rl_sweep_done(const struct rl_sweep_point *pts, size_t n,
		  size_t expected_plateaus, double drop_frac)
{
	return rl_sweep_done_n(pts, n, expected_plateaus, drop_frac, 3);
}

int rl_sweep_done_n(const struct rl_sweep_point *pts, size_t n,
		    size_t expected_plateaus, double drop_frac, size_t points)
{
	struct rl_plateau pl[RL_PROBE_MAX_SWEEP];
	size_t np = rl_find_plateaus(pts, n, drop_frac, pl, RL_PROBE_MAX_SWEEP);
	if (np < expected_plateaus || np == 0)
		return 0;
	const struct rl_plateau *last = &pl[np - 1];
	/* the last plateau runs to the end of the sweep and the last three
	 * sizes (a 4x range at x2 steps) agree within half the drop:
	 * bandwidth has stopped falling (the fall from a big shared L3 to
	 * DRAM can be gradual: two points agree by chance on the slope) */
	if (points < 2)
		points = 2;
	if (last->last != n - 1 || n < points)
		return 0;
	double lo = pts[n - 1].gbs, hi = lo;
	for (size_t i = n - points; i < n; i++) {
		if (pts[i].gbs < lo)
			lo = pts[i].gbs;
		if (pts[i].gbs > hi)
			hi = pts[i].gbs;
	}
	return lo > 0 && hi <= lo * (1 + drop_frac / 2);
}

void rl_name_levels(size_t n_plateaus, int dram_reached, char (*levels)[8])
{
	for (size_t i = 0; i < n_plateaus; i++) {
		if (dram_reached && i + 1 == n_plateaus && i > 0)
			strcpy(levels[i], "DRAM");
		else
			snprintf(levels[i], 8, "L%zu", i + 1 > 9 ? (size_t)9 : i + 1);
	}
}
