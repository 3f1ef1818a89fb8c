/* The bandwidth probe's first step (probe_bw.c): the triad sweep over
 * working-set sizes per thread, on one core and then on all cores, on a
 * fixed grid; with the helpers the level measurements share
 * (probe_bw.h). */
#include <math.h>
#include <stdio.h>

#include "probes/probe_bw.h"

#define DROP 0.15

enum rl_isa probe_bw_isa(const struct rl_cpu *cpu)
{
	for (int i = RL_ISA_COUNT - 1; i > 0; i--)
		if (rl_isa_usable(cpu, (enum rl_isa)i))
			return (enum rl_isa)i;
	return RL_ISA_SCALAR;
}

/* The largest claimed level each thread has to itself (0 none known):
 * below it the threads share no cache (see private_level in probe.h). */
uint64_t probe_bw_private_bytes(const struct bw_ctx *b)
{
	uint64_t v = 0;
	for (size_t i = 0; i < b->n_claims; i++)
		if (!b->claims[i].absurd && b->claims[i].shared_cpus == 1)
			v = b->claims[i].bytes;
	return v;
}

/* Runs one measurement and records every trial. */
int probe_bw_run(struct bw_ctx *b, const struct rl_triad_params *p, int sweep,
		 uint64_t bytes, int rec_op, struct rl_triad_result *r,
		 char *err, size_t errlen)
{
	int rc = rl_triad_pool_run(b->pool, p, r, err, errlen);
	if (rc)
		return rc;
	struct rl_rec_point *pt = NULL;
	for (unsigned i = 0; i < r->n_trials; i++)
		pt = rl_rec_add(b->rec, p->threads, rec_op, sweep, bytes,
				r->trial_gbs[i]);
	/* one-pass (DRAM) points timed in chunks: the best is the sum of
	 * each chunk's best time, above every whole trial */
	if (pt && r->best_gbs > pt->best_gbs)
		pt->best_gbs = r->best_gbs;
	return 0;
}

/* The sweep may stop: the last three points agree within DROP, and
 * either the last is beyond `beyond` (4x every believable claim per
 * thread), or the fall from the last cache has been seen (a point still
 * 1.5x faster than the sweep's end lies at least twice beyond the level
 * before the last claimed one: `llc_from`) and the last point is 4x
 * beyond where the sweep was last 1.2x faster than its end: a VM's share
 * of a big claimed L3 ends there. 1.2x, not 1.5x: past the fall's
 * halfway point, where the derivation (derive.c) places the level's
 * effective capacity and DRAM at four times it. */
static int sweep_done(const struct rl_probe_sweep *s, uint64_t beyond,
		      uint64_t llc_from)
{
	size_t n = s->n;
	if (n < 6)
		return 0;
	double g = s->pts[n - 1].gbs, lo = g, hi = g;
	for (size_t i = n - 3; i < n; i++) {
		if (s->pts[i].gbs < lo)
			lo = s->pts[i].gbs;
		if (s->pts[i].gbs > hi)
			hi = s->pts[i].gbs;
	}
	if (!(lo > 0) || hi > lo * (1 + DROP))
		return 0;
	uint64_t last = s->pts[n - 1].bytes;
	if (beyond && last >= beyond)
		return 1;
	uint64_t fell = 0, cache_end = 0;
	for (size_t i = 0; i < n; i++) {
		if (s->pts[i].gbs >= 1.5 * hi)
			fell = s->pts[i].bytes;
		if (s->pts[i].gbs >= 1.2 * hi)
			cache_end = s->pts[i].bytes;
	}
	return fell && fell >= llc_from && last >= 4 * cache_end;
}

/* Four times every believable claim per thread on `threads` threads
 * (64 MiB when none is): the working set per thread beyond which a sweep
 * on them may stop. */
static uint64_t beyond_claims(const struct bw_ctx *b, unsigned threads)
{
	uint64_t beyond = 0;
	for (size_t i = 0; i < b->n_claims; i++) {
		uint64_t pt = rl_claim_per_thread(&b->claims[i], threads);
		if (4 * pt > beyond)
			beyond = 4 * pt;
	}
	return beyond ? beyond : 64u << 20;
}

/* A one-thread job's elements the pool's other workers touch meanwhile
 * (pool.c: before any pass, never while timed): as far as the job goes,
 * up to where the sweep on all threads may stop (the update: 1.5x), so
 * the all-thread sweep and items find most of their pages there instead
 * of touching them while the first thread waits (0.1-0.18 s of a quick
 * probe here). */
size_t probe_bw_ahead_elems(const struct bw_ctx *b, enum rl_stream_op op)
{
	unsigned T = b->c->threads;
	if (T < 2)
		return 0;
	size_t n = (size_t)(beyond_claims(b, T) / RL_TRIAD_STREAM_BYTES);
	return op == RL_OP_UPDATE ? n + n / 2 : n;
}

/* Whether the derivation (derive.c) finds DRAM in the sweep on `threads`
 * threads so far. A sweep goes on until it does (or its cap: the memory
 * cap, and for all threads where the one-thread sweep ended): about
 * once in a hundred probes here one stopped where its points had
 * flattened but before four times its effective last level, the start
 * of DRAM's window, and the model had no DRAM roof for that thread
 * count (once on 2 threads, once on 1). */
static int derives_dram(const struct bw_ctx *b, unsigned threads)
{
	struct rl_rec_level lv[RL_REC_MAX_LEVELS];
	size_t n = rl_rec_levels(b->rec, threads, lv, RL_REC_MAX_LEVELS);
	return n > 0 && lv[n - 1].level == 0;
}

/* The sweep on `threads` threads; every point's trials recorded. */
int probe_bw_sweep(struct bw_ctx *b, unsigned threads,
		   struct rl_probe_sweep *s, char *err, size_t errlen)
{
	struct probe_ctx *c = b->c;
	const struct rl_probe_sweep *ref = NULL;
	size_t max_elems = b->max_elems;
	if (c->extra->n_sweeps && c->extra->sweeps[0].n) {
		const struct rl_probe_sweep *s0 = &c->extra->sweeps[0];
		ref = s0;
		size_t last = (size_t)(s0->pts[s0->n - 1].bytes /
				       RL_TRIAD_STREAM_BYTES);
		if (last < max_elems)
			max_elems = last;
	}
	const int quick = c->o->quick;
	uint64_t beyond = beyond_claims(b, threads), llc_from = 0, prev = 0;
	for (size_t i = 0; i < b->n_claims; i++) {
		uint64_t pt = rl_claim_per_thread(&b->claims[i], threads);
		if (pt) {
			llc_from = 2 * prev;
			prev = pt;
		}
	}
	double ws = 12 * 1024; /* per thread, 3 arrays */
	s->threads = threads;
	s->n = 0;
	while (s->n < RL_PROBE_MAX_SWEEP) {
		size_t elems = ((size_t)(ws / RL_TRIAD_STREAM_BYTES)) & ~(size_t)15;
		if (elems > max_elems)
			return 0; /* the memory cap */
		uint64_t bytes = (uint64_t)elems * RL_TRIAD_STREAM_BYTES;
		int big = ws > 32.0 * (1 << 20);
		struct rl_triad_params p = {
			.isa = probe_bw_isa(c->cpu), .nt = 0, .threads = threads,
			.elems = elems,
			.trials = big ? (quick ? 1 : 2) : (quick ? 3 : 5),
			.min_trial_s = quick ? 0.0002 : 0.0005,
			.private_level = bytes <= probe_bw_private_bytes(b),
			.ahead_elems =
				threads == 1 ? probe_bw_ahead_elems(b, RL_OP_TRIAD) : 0,
		};
		struct rl_triad_result r, again;
		int rc = probe_bw_run(b, &p, 1, bytes, RL_REC_TRIAD, &r, err, errlen);
		/* a wide spread, or T threads moving less in all than one
		 * alone at the same size per thread: a thread was preempted
		 * (a shared machine): measure again, keep every trial. (Each
		 * of T threads may move less than one alone where they share
		 * a level: that is no reason.) */
		double floor = ref && s->n < ref->n ? ref->pts[s->n].gbs : 0;
		for (int k = 0; !rc && k < (big ? 1 : 3) &&
				(r.spread_pct > 10 || r.best_gbs < floor);
		     k++) {
			rc = probe_bw_run(b, &p, 1, bytes, RL_REC_TRIAD, &again, err,
				     errlen);
			if (again.best_gbs > r.best_gbs)
				r = again;
		}
		if (rc)
			return rc;
		const struct rl_rec_point *pt =
			rl_rec_find(b->rec, threads, RL_REC_TRIAD, 1, bytes);
		s->pts[s->n].bytes = bytes;
		s->pts[s->n].gbs = (pt ? pt->best_gbs : r.best_gbs) / threads;
		s->n++;
		char what[96], h[32];
		rl_rec_size_text(h, sizeof h, (double)bytes);
		snprintf(what, sizeof what, "triad sweep %u thread%s: %s",
			 threads, threads > 1 ? "s" : "", h);
		probe_progress(c, what, 0.1);
		if (sweep_done(s, beyond, llc_from) && derives_dram(b, threads))
			return 0;
		ws *= M_SQRT2;
	}
	return 0;
}
