/* Bandwidth roofs: a triad sweep over working-set sizes (per thread),
 * first on one core and then on all cores, split into plateaus (L1, L2,
 * L3, ..., DRAM); then each plateau is measured again at one size inside
 * it with more trials, and DRAM also with non-temporal stores. The sweep
 * grows until it has as many plateaus as the claimed cache levels + 1
 * and the last one held for two sizes (bandwidth stopped falling), or
 * until the memory cap: claimed cache sizes only set that count, never a
 * size. The all-core sweep stops at the one-core sweep's last size. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_int.h"
#include "rl_error.h"

#define DROP 0.15

static enum rl_isa triad_isa(const struct rl_cpu *cpu)
{
	for (int i = RL_ISA_COUNT - 1; i > 0; i--)
		if (rl_isa_usable(cpu, (enum rl_isa)i))
			return (enum rl_isa)i;
	return RL_ISA_SCALAR;
}

static size_t expected_plateaus(const struct rl_cpu *cpu)
{
	int max_level = 0;
	for (size_t i = 0; i < cpu->n_caches; i++)
		if (cpu->caches[i].level > max_level)
			max_level = cpu->caches[i].level;
	return max_level ? (size_t)max_level + 1 : 4;
}

static void human(char *buf, size_t len, double bytes)
{
	if (bytes >= 1 << 30)
		snprintf(buf, len, "%.3g GiB", bytes / (1 << 30));
	else if (bytes >= 1 << 20)
		snprintf(buf, len, "%.3g MiB", bytes / (1 << 20));
	else
		snprintf(buf, len, "%.3g KiB", bytes / 1024);
}

/* A wide spread means other work shared a core during the trials: try
 * again up to `retries` times (cheap below the DRAM sizes) and keep the
 * best run. */
static int run_best(struct rl_triad_pool *pool,
		    const struct rl_triad_params *p, int retries,
		    struct rl_triad_result *r, char *err, size_t errlen)
{
	struct rl_triad_result again;
	int rc = rl_triad_pool_run(pool, p, r, err, errlen);
	for (int k = 0; !rc && k < retries && r->spread_pct > 10; k++) {
		if ((rc = rl_triad_pool_run(pool, p, &again, err, errlen)))
			break;
		if (again.best_gbs > r->best_gbs)
			*r = again;
		else
			break;
	}
	return rc;
}

static int sweep(struct probe_ctx *c, struct rl_triad_pool *pool,
		 unsigned threads, size_t max_elems, struct rl_probe_sweep *s,
		 char *err, size_t errlen)
{
	if (c->extra->n_sweeps && c->extra->sweeps[0].n) {
		const struct rl_probe_sweep *s0 = &c->extra->sweeps[0];
		size_t last = (size_t)(s0->pts[s0->n - 1].bytes /
				       RL_TRIAD_STREAM_BYTES);
		if (last < max_elems)
			max_elems = last;
	}
	const int quick = c->o->quick;
	const size_t expect = expected_plateaus(c->cpu);
	double ws = 12 * 1024; /* per thread, 3 arrays */
	s->threads = threads;
	s->n = 0;
	while (s->n < RL_PROBE_MAX_SWEEP) {
		size_t elems = ((size_t)(ws / RL_TRIAD_STREAM_BYTES)) & ~(size_t)15;
		if (elems > max_elems)
			break;
		int big = ws > 32.0 * (1 << 20);
		struct rl_triad_params p = {
			.isa = triad_isa(c->cpu), .nt = 0, .threads = threads,
			.elems = elems, .trials = big ? 2 : (quick ? 3 : 5),
			.min_trial_s = quick ? 0.0003 : 0.001,
		};
		struct rl_triad_result r;
		int rc = run_best(pool, &p, big ? 0 : 3, &r, err, errlen);
		if (rc)
			return rc;
		s->pts[s->n].bytes = (uint64_t)elems * RL_TRIAD_STREAM_BYTES;
		s->pts[s->n].gbs = r.best_gbs / threads;
		s->n++;
		char what[96], h[32];
		human(h, sizeof h, (double)s->pts[s->n - 1].bytes);
		snprintf(what, sizeof what, "triad sweep %u thread%s: %s", threads,
			 threads > 1 ? "s" : "", h);
		probe_progress(c, what, 0.1);
		if (rl_sweep_done_n(s->pts, s->n, expect, DROP, quick ? 2 : 3))
			return 1; /* bandwidth stopped falling */
		ws *= quick || ws >= 8.0 * (1 << 20) ? 2 : M_SQRT2;
	}
	return 0; /* stopped at the cap */
}

static int measure_level(struct probe_ctx *c, struct rl_triad_pool *pool,
			 const char *level, unsigned threads, uint64_t ws_bytes,
			 int nt_too, const char *note, char *err, size_t errlen)
{
	const int quick = c->o->quick, dram = !strcmp(level, "DRAM");
	size_t elems = (size_t)(ws_bytes / RL_TRIAD_STREAM_BYTES) & ~(size_t)15;
	unsigned trials = dram ? (quick ? 3 : 10) : (quick ? 5 : 20);
	struct rl_triad_params p = {
		.isa = triad_isa(c->cpu), .nt = 0, .threads = threads,
		.elems = elems, .trials = trials,
		.min_trial_s = quick ? 0.0005 : 0.002,
	};
	struct rl_triad_result r, rn = { 0 };
	char what[96];
	snprintf(what, sizeof what, "triad %s on %u thread%s", level, threads,
		 threads > 1 ? "s" : "");
	probe_progress(c, what, 0);
	int rc = run_best(pool, &p, dram ? 0 : 3, &r, err, errlen);
	if (rc)
		return rc;
	if (nt_too) {
		p.nt = 1;
		if ((rc = rl_triad_pool_run(pool, &p, &rn, err, errlen)))
			return rc;
	}
	probe_progress(c, what, 0.2);
	if (c->m->n_bw >= RL_MACHINE_MAX_BW)
		return 0;
	struct rl_bw_roof *b = &c->m->bw[c->m->n_bw++];
	memset(b, 0, sizeof *b);
	snprintf(b->level, sizeof b->level, "%s", level);
	b->threads = threads;
	b->stream_gbs = r.best_gbs;
	b->moved_gbs = r.best_gbs * RL_TRIAD_MOVED_BYTES / RL_TRIAD_STREAM_BYTES;
	b->nt_gbs = rn.best_gbs;
	b->spread_pct = r.spread_pct;
	b->working_set_bytes = r.working_set_bytes;
	char h[32];
	human(h, sizeof h, (double)elems * sizeof(double));
	snprintf(b->method, sizeof b->method,
		 "triad %s 24 B/elem best of %u%s, 3x%s per thread%s%s",
		 rl_isa_name(triad_isa(c->cpu)), trials,
		 r.chunked ? " per 3x512 KiB chunk" : "", h,
		 nt_too ? ", nt stores too" : "", note);
	return 0;
}

/* One size inside a plateau: the middle for caches; for DRAM two steps
 * past its start (well beyond the last cache), or its end (--quick: one
 * step, smaller arrays). */
static uint64_t level_size(const struct rl_probe_sweep *s,
			   const struct rl_plateau *pl, int dram, int quick)
{
	size_t into = quick ? 1 : 2;
	size_t i = dram ? (pl->first + into <= pl->last ? pl->first + into
							 : pl->last)
			: (pl->first + pl->last) / 2;
	return s->pts[i].bytes;
}

static void label(struct rl_probe_sweep *s, const struct rl_plateau *pl,
		  size_t np, char (*names)[8])
{
	for (size_t i = 0; i < s->n; i++)
		s->level[i][0] = 0;
	for (size_t k = 0; k < np; k++)
		for (size_t i = pl[k].first; i <= pl[k].last; i++)
			memcpy(s->level[i], names[k], sizeof s->level[i]);
}

static size_t cache_levels(size_t np, char (*names)[8])
{
	size_t n = 0;
	for (size_t k = 0; k < np; k++)
		n += strcmp(names[k], "DRAM") != 0;
	return n;
}

int probe_bw_roofs(struct probe_ctx *c, char *err, size_t errlen)
{
	const unsigned T = c->threads;
	uint64_t cap = c->cpu->mem_bytes / 4 / T;
	if (cap > (1ull << 30) || cap == 0)
		cap = 1ull << 30;
	size_t max_elems = (size_t)(cap / RL_TRIAD_STREAM_BYTES);
	struct rl_triad_pool *pool;
	int rc = rl_triad_pool_open(&pool, T, c->cpu->cpus, max_elems, err,
				    errlen);
	if (rc)
		return rc;
	char found[128] = "";
	struct rl_plateau pl1[RL_PROBE_MAX_SWEEP], pl2[RL_PROBE_MAX_SWEEP];
	char names1[RL_PROBE_MAX_SWEEP][8], names2[RL_PROBE_MAX_SWEEP][8];
	uint64_t dram_bytes = 0; /* per thread, from the one-core sweep */

	/* one core */
	struct rl_probe_sweep *s1 = &c->extra->sweeps[0];
	rc = sweep(c, pool, 1, max_elems, s1, err, errlen);
	if (rc < 0)
		goto out;
	int at_cap = rc == 0;
	c->extra->n_sweeps = 1;
	size_t np1 = rl_find_plateaus(s1->pts, s1->n, DROP, pl1,
				      RL_PROBE_MAX_SWEEP);
	/* the last plateau is DRAM when the sweep ends in it: it stopped
	 * falling there, or the memory cap came first */
	int dram = np1 >= 2 && pl1[np1 - 1].last == s1->n - 1;
	rl_name_levels(np1, dram, names1);
	label(s1, pl1, np1, names1);
	for (size_t k = 0; k < np1; k++) {
		int is_dram = !strcmp(names1[k], "DRAM");
		uint64_t ws = level_size(s1, &pl1[k], is_dram, c->o->quick);
		if (is_dram)
			dram_bytes = ws;
		if ((rc = measure_level(c, pool, names1[k], 1, ws, is_dram, "",
					err, errlen)))
			goto out;
		if (!is_dram) {
			char h[32], part[48];
			human(h, sizeof h, (double)s1->pts[pl1[k].last].bytes);
			snprintf(part, sizeof part, " %.7s<=%s", names1[k], h);
			if (strlen(found) + strlen(part) < sizeof found)
				strcat(found, part);
		}
	}
	/* no DRAM plateau before the memory cap (a noisy tail): the largest
	 * size reached is beyond every cache we could fill */
	if (!dram && at_cap && s1->n) {
		dram_bytes = s1->pts[s1->n - 1].bytes;
		if ((rc = measure_level(c, pool, "DRAM", 1, dram_bytes, 1,
					", at the memory cap", err, errlen)))
			goto out;
	}
	if (T == 1)
		goto done;

	/* all cores: cache levels from their own sweep when it finds the
	 * same levels (a shared cache is smaller per thread), else (and
	 * with --quick) at the one-core sizes; DRAM at the one-core DRAM
	 * size per thread (beyond every cache for one core, so for all) */
	struct rl_probe_sweep *sa = s1;
	struct rl_plateau *pla = pl1;
	char(*namesa)[8] = names1;
	size_t npa = np1;
	const char *note = c->o->quick ? ", at the 1-core sizes" : "";
	if (!c->o->quick) {
		struct rl_probe_sweep *s2 = &c->extra->sweeps[1];
		rc = sweep(c, pool, T, max_elems, s2, err, errlen);
		if (rc < 0)
			goto out;
		c->extra->n_sweeps = 2;
		size_t np2 = rl_find_plateaus(s2->pts, s2->n, DROP, pl2,
					      RL_PROBE_MAX_SWEEP);
		int dram2 = np2 >= 2 && pl2[np2 - 1].last == s2->n - 1;
		rl_name_levels(np2, dram2, names2);
		label(s2, pl2, np2, names2);
		if (cache_levels(np2, names2) == cache_levels(np1, names1)) {
			sa = s2;
			pla = pl2;
			namesa = names2;
			npa = np2;
		} else {
			note = ", at the 1-core sizes (the all-core sweep "
			       "found other levels)";
		}
	}
	for (size_t k = 0; k < npa; k++) {
		if (!strcmp(namesa[k], "DRAM"))
			continue;
		uint64_t ws = level_size(sa, &pla[k], 0, c->o->quick);
		if ((rc = measure_level(c, pool, namesa[k], T, ws, 0, note, err,
					errlen)))
			goto out;
	}
	if (dram_bytes &&
	    (rc = measure_level(c, pool, "DRAM", T, dram_bytes, 1,
				", at the 1-core DRAM size", err, errlen)))
		goto out;
done:
	rc = 0;
	{
		char claim[128] = "";
		for (size_t i = 0; i < c->cpu->n_caches; i++) {
			char h[32], part[48];
			human(h, sizeof h, (double)c->cpu->caches[i].size_bytes);
			snprintf(part, sizeof part, "%sL%d %s", i ? " " : "",
				 c->cpu->caches[i].level, h);
			if (strlen(claim) + strlen(part) < sizeof claim)
				strcat(claim, part);
		}
		snprintf(c->m->caches, sizeof c->m->caches,
			 "%s: %s; found per thread:%s", c->cpu->cache_source,
			 claim[0] ? claim : "-", found);
	}
out:
	rl_triad_pool_close(pool);
	return rc;
}
