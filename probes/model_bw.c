/* Bandwidth roofs. A triad sweep over working-set sizes per thread, on
 * one core and then on all cores, on a fixed grid (the same for --quick,
 * which only runs fewer trials): sqrt(2) steps from 12 KiB until
 * bandwidth stopped falling (three points, a 2x range, within 7.5%) at
 * least 4x beyond the largest believable claimed cache (64 MiB when none
 * is believable), or the memory cap. rl_detect_levels (levels.c) names the levels from the
 * plateaus and the claimed sizes. Each level is then measured again at
 * one point inside its plateau, never where the working set fits in the
 * level above, with more trials: the triad (plain and non-temporal), a
 * read-only stream and a fill (plain and non-temporal). Roofs must fall
 * from level to level (L1 >= L2 >= ... >= DRAM for the triad, the read
 * and the fill); when they do not, the offending levels are measured
 * again (twice at most) and then the probe fails rather than cache a
 * model that contradicts itself. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/model_int.h"
#include "common/rl_error.h"

#define DROP 0.15
#define MAX_LEVELS 8
#define RETRIES 2

static enum rl_isa triad_isa(const struct rl_cpu *cpu)
{
	for (int i = RL_ISA_COUNT - 1; i > 0; i--)
		if (rl_isa_usable(cpu, (enum rl_isa)i))
			return (enum rl_isa)i;
	return RL_ISA_SCALAR;
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

struct bw_ctx {
	struct probe_ctx *c;
	struct rl_triad_pool *pool;
	struct rl_level_claim claims[MAX_LEVELS];
	size_t n_claims;
};

/* A wide spread means other work shared a core during the trials: try
 * again up to `retries` times and keep the best run. */
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
	}
	return rc;
}

/* The largest claimed level each thread has to itself (0 none known):
 * below it the threads share no cache (see private_level in probe.h). */
static uint64_t private_bytes(const struct bw_ctx *b)
{
	uint64_t v = 0;
	for (size_t i = 0; i < b->n_claims; i++)
		if (!b->claims[i].absurd && b->claims[i].shared_cpus == 1)
			v = b->claims[i].bytes;
	return v;
}

static void per_thread_claims(const struct bw_ctx *b, unsigned threads,
			      uint64_t *out)
{
	for (size_t i = 0; i < b->n_claims; i++)
		out[i] = rl_claim_per_thread(&b->claims[i], threads);
}

/* The sweep; returns 1 when it ended in memory (bandwidth stopped
 * falling, or the cap), 0 when the point limit came first. */
static int sweep(struct bw_ctx *b, unsigned threads, size_t max_elems,
		 struct rl_probe_sweep *s, char *err, size_t errlen)
{
	struct probe_ctx *c = b->c;
	const struct rl_probe_sweep *ref = NULL;
	if (c->extra->n_sweeps && c->extra->sweeps[0].n) {
		const struct rl_probe_sweep *s0 = &c->extra->sweeps[0];
		ref = s0;
		size_t last = (size_t)(s0->pts[s0->n - 1].bytes /
				       RL_TRIAD_STREAM_BYTES);
		if (last < max_elems)
			max_elems = last;
	}
	const int quick = c->o->quick;
	uint64_t claims[MAX_LEVELS], dram_min = 0;
	per_thread_claims(b, threads, claims);
	for (size_t i = 0; i < b->n_claims; i++)
		if (4 * claims[i] > dram_min)
			dram_min = 4 * claims[i];
	if (!dram_min)
		dram_min = 64u << 20;
	double ws = 12 * 1024; /* per thread, 3 arrays */
	s->threads = threads;
	s->n = 0;
	while (s->n < RL_PROBE_MAX_SWEEP) {
		size_t elems = ((size_t)(ws / RL_TRIAD_STREAM_BYTES)) & ~(size_t)15;
		if (elems > max_elems)
			return 1; /* the memory cap */
		int big = ws > 32.0 * (1 << 20);
		struct rl_triad_params p = {
			.isa = triad_isa(c->cpu), .nt = 0, .threads = threads,
			.elems = elems, .trials = big ? 2 : (quick ? 3 : 5),
			.min_trial_s = quick ? 0.0002 : 0.0005,
			.private_level = ws <= (double)private_bytes(b),
		};
		struct rl_triad_result r;
		int rc = run_best(b->pool, &p, big ? 0 : 2, &r, err, errlen);
		if (rc)
			return rc;
		/* T threads together move at least what one moves alone at
		 * the same size per thread: less means a thread was
		 * preempted (a shared machine), so measure again */
		double floor = ref && s->n < ref->n ? ref->pts[s->n].gbs : 0;
		for (int k = 0; k < (big ? 1 : 4) && r.best_gbs < floor; k++) {
			struct rl_triad_result again;
			if ((rc = rl_triad_pool_run(b->pool, &p, &again, err,
						    errlen)))
				return rc;
			if (again.best_gbs > r.best_gbs)
				r = again;
		}
		s->pts[s->n].bytes = (uint64_t)elems * RL_TRIAD_STREAM_BYTES;
		s->pts[s->n].gbs = r.best_gbs / threads;
		s->n++;
		char what[96], h[32];
		human(h, sizeof h, (double)s->pts[s->n - 1].bytes);
		snprintf(what, sizeof what, "triad sweep %u thread%s: %s", threads,
			 threads > 1 ? "s" : "", h);
		probe_progress(c, what, 0.1);
		if (s->pts[s->n - 1].bytes >= dram_min &&
		    rl_sweep_done_n(s->pts, s->n, 2, DROP, 3))
			return 1; /* bandwidth stopped falling */
		ws *= M_SQRT2;
	}
	return 0;
}

struct level_bw {
	double triad, triad_nt, read, fill, fill_nt; /* 24 B/elem, GB/s */
	double spread;
	unsigned trials;
	int chunked;
};

static int measure_op(struct bw_ctx *b, unsigned threads, size_t elems,
		      unsigned trials, enum rl_stream_op op, int nt,
		      double *gbs, double *spread, int *chunked, char *err,
		      size_t errlen)
{
	const int quick = b->c->o->quick;
	struct rl_triad_params p = {
		.isa = triad_isa(b->c->cpu), .nt = nt, .op = op,
		.threads = threads, .elems = elems, .trials = trials,
		.min_trial_s = quick ? 0.0003 : 0.001,
		.private_level = (uint64_t)elems * RL_TRIAD_STREAM_BYTES <=
				 private_bytes(b),
	};
	if (!(op == RL_OP_TRIAD ? rl_triad_kernel(p.isa, nt) != NULL
				: rl_rw_kernel(p.isa, op, nt) != NULL))
		return 0; /* not measured: stays 0 */
	struct rl_triad_result r;
	int rc = run_best(b->pool, &p, elems * 24 > (32u << 20) ? 0 : 1, &r,
			  err, errlen);
	if (rc)
		return rc;
	if (r.best_gbs > *gbs)
		*gbs = r.best_gbs;
	if (spread)
		*spread = r.spread_pct;
	if (chunked)
		*chunked = r.chunked;
	return 0;
}

static int measure_level(struct bw_ctx *b, const char *level,
			 unsigned threads, uint64_t ws_bytes, unsigned boost,
			 struct level_bw *v, char *err, size_t errlen)
{
	const int quick = b->c->o->quick, dram = !strcmp(level, "DRAM");
	size_t elems = (size_t)(ws_bytes / RL_TRIAD_STREAM_BYTES) & ~(size_t)15;
	unsigned trials = (dram ? (quick ? 2 : 4) : (quick ? 4 : 10)) * boost;
	char what[96];
	snprintf(what, sizeof what, "%s on %u thread%s", level, threads,
		 threads > 1 ? "s" : "");
	probe_progress(b->c, what, 0);
	v->trials = trials;
	int rc;
	if ((rc = measure_op(b, threads, elems, trials, RL_OP_TRIAD, 0,
			     &v->triad, &v->spread, &v->chunked, err, errlen)) ||
	    (rc = measure_op(b, threads, elems, trials, RL_OP_TRIAD, 1,
			     &v->triad_nt, NULL, NULL, err, errlen)) ||
	    (rc = measure_op(b, threads, elems, trials, RL_OP_READ, 0,
			     &v->read, NULL, NULL, err, errlen)) ||
	    (rc = measure_op(b, threads, elems, trials, RL_OP_FILL, 0,
			     &v->fill, NULL, NULL, err, errlen)) ||
	    (rc = measure_op(b, threads, elems, trials, RL_OP_FILL, 1,
			     &v->fill_nt, NULL, NULL, err, errlen)))
		return rc;
	probe_progress(b->c, what, 0.2);
	return 0;
}

/* The first level (>= 1) whose triad, read or fill roof is above the
 * level's before it; 0 when all fall. */
static size_t inversion(const struct level_bw *v, size_t n)
{
	double t[MAX_LEVELS + 1], r[MAX_LEVELS + 1], f[MAX_LEVELS + 1];
	for (size_t i = 0; i < n; i++) {
		t[i] = v[i].triad;
		r[i] = v[i].read;
		f[i] = v[i].fill;
	}
	int a = rl_roofs_monotonic(t, n), bb = rl_roofs_monotonic(r, n),
	    cc = rl_roofs_monotonic(f, n);
	int m = a;
	if (bb && (!m || bb < m))
		m = bb;
	if (cc && (!m || cc < m))
		m = cc;
	return (size_t)m;
}

static void add_roof(struct probe_ctx *c, const struct rl_found_level *f,
		     unsigned threads, uint64_t ws, const struct level_bw *v,
		     const char *note)
{
	if (c->m->n_bw >= RL_MACHINE_MAX_BW)
		return;
	struct rl_bw_roof *b = &c->m->bw[c->m->n_bw++];
	memset(b, 0, sizeof *b);
	snprintf(b->level, sizeof b->level, "%s", f->name);
	b->threads = threads;
	b->stream_gbs = v->triad;
	b->moved_gbs = v->triad * RL_TRIAD_MOVED_BYTES / RL_TRIAD_STREAM_BYTES;
	b->nt_gbs = v->triad_nt;
	b->spread_pct = v->spread;
	b->working_set_bytes = ws * threads;
	b->read_gbs = v->read;
	b->write_gbs = 2 * v->fill; /* + the write-allocate reads */
	b->write_nt_gbs = v->fill_nt;
	char h[32];
	human(h, sizeof h, (double)ws / 3);
	snprintf(b->method, sizeof b->method,
		 "triad/read/fill %s best of %u%s, 3x%s per thread%s",
		 rl_isa_name(triad_isa(c->cpu)), v->trials,
		 v->chunked ? " per 3x512 KiB chunk" : "", h, note);
}

/* Measures every level found in a sweep on `threads` threads, again
 * where the roofs do not fall from level to level. */
static int level_roofs(struct bw_ctx *b, const struct rl_probe_sweep *s,
		       const struct rl_found_level *f, size_t nf,
		       unsigned threads, const char *note, char *err,
		       size_t errlen)
{
	struct level_bw v[MAX_LEVELS];
	memset(v, 0, sizeof v);
	int rc;
	for (size_t i = 0; i < nf; i++)
		if ((rc = measure_level(b, f[i].name, threads,
					s->pts[f[i].roof].bytes, 1, &v[i], err,
					errlen)))
			return rc;
	/* on all cores, at least the one-core roof of the same level (see
	 * sweep()): below it a thread was preempted */
	for (size_t i = 0; threads > 1 && i < nf; i++) {
		const struct rl_bw_roof *one = NULL;
		for (size_t j = 0; j < b->c->m->n_bw; j++)
			if (b->c->m->bw[j].threads == 1 &&
			    !strcmp(b->c->m->bw[j].level, f[i].name))
				one = &b->c->m->bw[j];
		for (int k = 0;
		     one && k < RETRIES &&
		     (v[i].triad < one->stream_gbs || v[i].read < one->read_gbs ||
		      2 * v[i].fill < one->write_gbs);
		     k++)
			if ((rc = measure_level(b, f[i].name, threads,
						s->pts[f[i].roof].bytes, 2,
						&v[i], err, errlen)))
				return rc;
	}
	size_t bad;
	for (int k = 0; (bad = inversion(v, nf)) && k < RETRIES; k++) {
		/* again, with twice the trials, keeping the best of both */
		for (size_t i = bad - 1; i <= bad; i++)
			if ((rc = measure_level(b, f[i].name, threads,
						s->pts[f[i].roof].bytes, 2,
						&v[i], err, errlen)))
				return rc;
	}
	if (bad && threads > 1) {
		/* on all cores a busy other core can keep a level from its
		 * figure run after run: those two levels get no all-core
		 * roof (left empty: the one-core roofs stand in), rather
		 * than a contradiction or no model at all */
		for (size_t i = 0; i < nf; i++)
			if (i + 1 != bad && i != bad)
				add_roof(b->c, &f[i], threads,
					 s->pts[f[i].roof].bytes, &v[i], note);
		return 0;
	}
	if (bad) {
		double la = b->c->m->loadavg1;
		return rl_fail(err, errlen, RL_EBUSY,
			       "the roofs do not fall from level to level: "
			       "'%s' %.1f GB/s triad, %.1f read, %.1f fill "
			       "above '%s' %.1f, %.1f, %.1f on %u thread%s, "
			       "measured %d times (load average %.1f): the "
			       "machine is too busy; run 'rlprof probe "
			       "--force' when it is quieter",
			       f[bad].name, v[bad].triad, v[bad].read,
			       v[bad].fill, f[bad - 1].name, v[bad - 1].triad,
			       v[bad - 1].read, v[bad - 1].fill, threads,
			       threads > 1 ? "s" : "", RETRIES + 1,
			       la >= 0 ? la : 0);
	}
	for (size_t i = 0; i < nf; i++)
		add_roof(b->c, &f[i], threads, s->pts[f[i].roof].bytes, &v[i],
			 note);
	return 0;
}

static void label(struct rl_probe_sweep *s, const struct rl_found_level *f,
		  size_t nf)
{
	for (size_t i = 0; i < s->n; i++)
		s->level[i][0] = 0;
	for (size_t k = 0; k < nf; k++)
		for (size_t i = f[k].first; i <= f[k].last && i < s->n; i++)
			memcpy(s->level[i], f[k].name, sizeof s->level[i]);
}

static size_t detect(struct bw_ctx *b, struct rl_probe_sweep *s,
		     int in_memory, struct rl_found_level *f)
{
	uint64_t claims[MAX_LEVELS];
	per_thread_claims(b, s->threads, claims);
	size_t nf = rl_detect_levels(s->pts, s->n, claims, b->n_claims,
				     in_memory, DROP, f, MAX_LEVELS);
	label(s, f, nf);
	return nf;
}

/* levels[]: every claimed level, and the effective capacities seen */
static void record_levels(struct bw_ctx *b, const struct rl_found_level *f1,
			  size_t n1, const struct rl_found_level *fa,
			  size_t na, unsigned threads)
{
	struct rl_machine *m = b->c->m;
	m->n_levels = 0;
	for (int lvl = 1; lvl <= RL_MACHINE_MAX_LEVELS; lvl++) {
		const struct rl_level_claim *cl = NULL;
		for (size_t i = 0; i < b->n_claims; i++)
			if (b->claims[i].level == lvl)
				cl = &b->claims[i];
		uint64_t e1 = 0, ea = 0;
		for (size_t i = 0; i < n1; i++)
			if (f1[i].level == lvl)
				e1 = f1[i].effective_bytes;
		for (size_t i = 0; i < na; i++)
			if (fa[i].level == lvl)
				ea = fa[i].effective_bytes * threads;
		if (!cl && !e1 && !ea)
			continue;
		struct rl_cache_level *l = &m->levels[m->n_levels++];
		memset(l, 0, sizeof *l);
		snprintf(l->level, sizeof l->level, "L%d", lvl);
		if (cl) {
			l->claimed_bytes = cl->bytes;
			l->ways = cl->ways;
			l->line_bytes = cl->line_bytes;
			l->shared_cpus = cl->shared_cpus;
			snprintf(l->source, sizeof l->source, "%s",
				 b->c->cpu->cache_source);
		} else {
			snprintf(l->source, sizeof l->source, "none");
		}
		l->effective_bytes = e1;
		l->effective_all_bytes = ea;
	}
}

static void caches_line(struct bw_ctx *b, const struct rl_probe_sweep *s,
			const struct rl_found_level *f, size_t nf)
{
	char claim[128] = "", found[128] = "";
	for (size_t i = 0; i < b->n_claims; i++) {
		char h[32], part[80];
		human(h, sizeof h, (double)b->claims[i].bytes);
		snprintf(part, sizeof part, "%sL%d %s%s", i ? " " : "",
			 b->claims[i].level, h,
			 b->claims[i].absurd ? " (not believed)" : "");
		if (strlen(claim) + strlen(part) < sizeof claim)
			strcat(claim, part);
	}
	for (size_t k = 0; k < nf; k++) {
		if (!f[k].level)
			continue;
		char h[32], part[48];
		human(h, sizeof h, (double)s->pts[f[k].last].bytes);
		snprintf(part, sizeof part, " %.7s<=%s", f[k].name, h);
		if (strlen(found) + strlen(part) < sizeof found)
			strcat(found, part);
	}
	snprintf(b->c->m->caches, sizeof b->c->m->caches,
		 "%s: %s; found per thread:%s", b->c->cpu->cache_source,
		 claim[0] ? claim : "-", found[0] ? found : " -");
}

int probe_bw_roofs(struct probe_ctx *c, char *err, size_t errlen)
{
	const unsigned T = c->threads;
	uint64_t cap = c->cpu->mem_bytes / 4 / T;
	if (cap > (1ull << 30) || cap == 0)
		cap = 1ull << 30;
	size_t max_elems = (size_t)(cap / RL_TRIAD_STREAM_BYTES);
	struct bw_ctx b = { .c = c };
	b.n_claims = rl_level_claims(c->cpu, b.claims, MAX_LEVELS);
	int rc = rl_triad_pool_open(&b.pool, T, c->cpu->cpus, max_elems, err,
				    errlen);
	if (rc)
		return rc;
	struct rl_found_level f1[MAX_LEVELS], fa[MAX_LEVELS];
	size_t n1 = 0, na = 0;

	/* one core */
	struct rl_probe_sweep *s1 = &c->extra->sweeps[0];
	rc = sweep(&b, 1, max_elems, s1, err, errlen);
	if (rc < 0)
		goto out;
	c->extra->n_sweeps = 1;
	n1 = detect(&b, s1, rc, f1);
	if ((rc = level_roofs(&b, s1, f1, n1, 1, "", err, errlen)))
		goto out;
	caches_line(&b, s1, f1, n1);
	if (T > 1) {
		/* all cores: their own sweep (a shared cache holds less per
		 * thread), on the same grid */
		struct rl_probe_sweep *s2 = &c->extra->sweeps[1];
		rc = sweep(&b, T, max_elems, s2, err, errlen);
		if (rc < 0)
			goto out;
		c->extra->n_sweeps = 2;
		na = detect(&b, s2, rc, fa);
		if ((rc = level_roofs(&b, s2, fa, na, T, "", err, errlen)))
			goto out;
	}
	record_levels(&b, f1, n1, fa, na, T);
	rc = 0;
out:
	rl_triad_pool_close(b.pool);
	return rc;
}
