/* Memory levels from a bandwidth sweep, guided by the cache sizes the
 * machine claims (sysfs or CPUID) and confirmed by the sweep's plateaus:
 *   - a plateau belongs to the claimed level whose size it starts within
 *     (a plateau starting beyond L1's claimed size is L2 or deeper: a
 *     missed L1 plateau never turns L2 into "L1");
 *   - plateaus of one level (a noisy point or a non-uniform cache split
 *     it) are one level: its roof is the highest, its effective capacity
 *     where the last one ends;
 *   - the last plateau is DRAM when the sweep ended in memory (bandwidth
 *     stopped falling, or the memory cap);
 *   - a level is named only when a plateau of it is seen;
 *   - a claim that cannot be true (larger than an eighth of memory, a
 *     direct-mapped cache above 4 MiB, not larger than the level below)
 *     is kept for the record but places no boundary: the plateaus decide
 *     (a VM reporting the host's L3).
 * Pure arithmetic, so the tests feed it synthetic sweeps. */
#include <stdio.h>
#include <string.h>

#include "probes/probe.h"

size_t rl_level_claims(const struct rl_cpu *cpu, struct rl_level_claim *out,
		       size_t max)
{
	size_t n = 0;
	for (int lvl = 1; lvl <= 8 && n < max; lvl++) {
		const struct rl_cache_info *ci = NULL;
		for (size_t i = 0; i < cpu->n_caches; i++)
			if (cpu->caches[i].level == lvl &&
			    (!ci || cpu->caches[i].type == 'D'))
				ci = &cpu->caches[i];
		if (!ci)
			break;
		struct rl_level_claim *c = &out[n];
		memset(c, 0, sizeof *c);
		c->level = lvl;
		c->bytes = ci->size_bytes;
		c->ways = ci->ways;
		c->line_bytes = ci->line_bytes;
		c->shared_cpus = ci->shared_cpus;
		c->absurd = c->bytes == 0 ||
			    (cpu->mem_bytes && c->bytes > cpu->mem_bytes / 8) ||
			    (c->ways == 1 && c->bytes > (4u << 20)) ||
			    (n && !out[n - 1].absurd &&
			     c->bytes <= out[n - 1].bytes);
		n++;
	}
	return n;
}

uint64_t rl_claim_per_thread(const struct rl_level_claim *c,
			     unsigned threads)
{
	if (c->absurd || !c->bytes)
		return 0;
	unsigned share = c->shared_cpus > 1 ? c->shared_cpus : 1;
	if (share > threads)
		share = threads;
	return c->bytes / (share ? share : 1);
}

/* The point a cache level's roof is measured at: the fastest of its
 * highest plateau's points that lie at least twice beyond the level
 * above's effective capacity (never a working set that fits there),
 * leaving out the plateau's last point when there are three or more
 * (the edge, where a re-measurement may already fall). The fastest, not
 * the middle: a plateau that rises or has a disturbed point still gives
 * the same point run after run. */
static size_t cache_roof_point(const struct rl_sweep_point *pts,
			       const struct rl_plateau *pl, uint64_t above)
{
	size_t lo = pl->first, hi = pl->last;
	while (lo < hi && above && pts[lo].bytes < 2 * above)
		lo++;
	if (hi - lo >= 2)
		hi--;
	size_t best = lo;
	for (size_t i = lo; i <= hi; i++)
		if (pts[i].gbs > pts[best].gbs)
			best = i;
	return best;
}

size_t rl_detect_levels(const struct rl_sweep_point *pts, size_t n,
			const uint64_t *claims, size_t n_claims,
			int in_memory, double drop_frac,
			struct rl_found_level *out, size_t max)
{
	struct rl_plateau pl[RL_PROBE_MAX_SWEEP];
	struct rl_plateau top[RL_PROBE_MAX_SWEEP]; /* highest per level */
	int lvl_of[RL_PROBE_MAX_SWEEP];
	size_t np = rl_find_plateaus(pts, n, drop_frac, pl, RL_PROBE_MAX_SWEEP);
	size_t nf = 0;
	int dram = in_memory && np >= 2 && pl[np - 1].last == n - 1;
	size_t ncache = np - (size_t)dram;
	int prev = 0;

	for (size_t k = 0; k < ncache && nf < max; k++) {
		uint64_t s = pts[pl[k].first].bytes;
		int lvl;
		if (!n_claims) {
			lvl = prev + 1;
		} else {
			lvl = prev ? prev : 1;
			while ((size_t)lvl < n_claims && claims[lvl - 1] &&
			       s > claims[lvl - 1])
				lvl++;
			/* beyond the last level's (believable) claim: not a
			 * cache; a slope towards DRAM */
			if ((size_t)lvl == n_claims && claims[lvl - 1] &&
			    s > claims[lvl - 1])
				continue;
		}
		if (nf && lvl_of[nf - 1] == lvl) {
			struct rl_found_level *f = &out[nf - 1];
			f->last = pl[k].last;
			f->effective_bytes = pts[pl[k].last].bytes;
			if (pl[k].gbs > top[nf - 1].gbs)
				top[nf - 1] = pl[k];
			continue;
		}
		struct rl_found_level *f = &out[nf];
		memset(f, 0, sizeof *f);
		snprintf(f->name, sizeof f->name, "L%c",
			 (char)('0' + (lvl < 1 ? 1 : lvl > 9 ? 9 : lvl)));
		f->level = lvl;
		f->first = pl[k].first;
		f->last = pl[k].last;
		f->effective_bytes = pts[pl[k].last].bytes;
		top[nf] = pl[k];
		lvl_of[nf] = lvl;
		prev = lvl;
		nf++;
	}
	for (size_t i = 0; i < nf; i++) {
		uint64_t above = i ? out[i - 1].effective_bytes : 0;
		out[i].roof = cache_roof_point(pts, &top[i], above);
		out[i].gbs = pts[out[i].roof].gbs;
	}
	if (!in_memory || !n || nf >= max)
		return nf;
	/* DRAM: its plateau, from the first point at least 4x beyond the
	 * last cache's effective capacity and its believable claim; with no
	 * plateau (still falling at the memory cap) the last point, when
	 * beyond every cache */
	uint64_t llc = nf ? out[nf - 1].effective_bytes : 0;
	uint64_t beyond = llc;
	if (n_claims && claims[n_claims - 1] > beyond)
		beyond = claims[n_claims - 1];
	size_t first = dram ? pl[np - 1].first : n - 1;
	if (!dram && llc && pts[n - 1].bytes < 2 * llc)
		return nf;
	struct rl_found_level *f = &out[nf];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "DRAM");
	f->first = first;
	f->last = n - 1;
	f->roof = n - 1;
	for (size_t i = first; i < n; i++)
		if (pts[i].bytes >= 4 * beyond) {
			f->roof = i;
			break;
		}
	f->gbs = pts[f->roof].gbs;
	return nf + 1;
}

int rl_roofs_monotonic(const double *gbs, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (gbs[i] > 0 && gbs[i + 1] > gbs[i])
			return (int)i + 1;
	return 0;
}
