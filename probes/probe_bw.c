/* Bandwidth roofs, led by what the machine claims, recorded point by
 * point (recording.h) and derived from the recording (derive.c), so a
 * replay of the recording gives the same levels, roofs and doubts.
 *
 * 1. A triad sweep (probe_bw_sweep.c) over working-set sizes per thread, on one core and
 *    then on all cores, on a fixed grid (the same for --quick, which
 *    runs fewer trials): sqrt(2) steps from 12 KiB until bandwidth
 *    stopped falling (three points within 15%) at least four times
 *    beyond where the caches ended (the last point still 1.5x faster
 *    than the sweep's end) or beyond the believable claims, or the
 *    memory cap.
 * 2. The levels' windows from the claims and the sweep (rl_rec_levels):
 *    each level is then measured at one working set inside its window
 *    with five operations (triad plain and non-temporal, read, fill
 *    plain and non-temporal), interleaved: round after round over every
 *    level, operation and thread count, as STREAM takes the best of its
 *    trials, until each point's best moved by less than 1.5% in a round
 *    (full: at least 3 rounds, DRAM 2; quick: 2, DRAM 1) or the time cap.
 *    Quick leaves DRAM's triad to the sweep's points in DRAM's window.
 * 3. Doubts (rl_rec_derive): a roof above the level's before it, a wide
 *    spread, all threads below one: those points are measured again (two
 *    more rounds, more trials); what stays is kept with its reason. The
 *    probe never refuses for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/probe_bw.h"
#include "common/rl_error.h"

#define STABLE 0.015

/* ---- level measurements -------------------------------------------------- */

/* Each operation meets the caches as its own passes leave them: the
 * read-only stream and the non-temporal ones (which leave no line dirty)
 * first, after their warm-up, then the update (over 1.5x the elements:
 * another warm-up) and the plain stores, which leave their tails dirty
 * in the last level. A read right after a store stream wrote that tail
 * back inside its timed pass: one pass of DRAM read (--quick) measured
 * 17-29% below the full probe's, whose second trial follows its own. */
static const int ops[] = { RL_REC_READ, RL_REC_TRIAD_NT, RL_REC_FILL_NT,
			   RL_REC_UPDATE, RL_REC_TRIAD, RL_REC_FILL };

struct item {
	unsigned threads;
	uint64_t bytes;
	int op;
	int dram;
	double best;   /* after the last round */
	int stable;
	char level[8];
	/* one thread: the core's rate the best of its measurements ran at
	 * (the lower of the readings before and after it, rate by rate;
	 * have_core 0: none), and how many ran while the core ran whole,
	 * judged when they ran (probe_core.c) */
	struct rl_core_rate core;
	int have_core;
	int n_whole;
	unsigned visits; /* measurements so far: which half of the family */
};

/* The kernels a roof is the best of (its family): a compiler makes a
 * read loop over one to four arrays, a triad or a fill with the vector
 * width -march asks for, and no such loop may beat the roof. Beyond the
 * caches (DRAM), where the prefetchers and the width the data streams
 * at decide: the read over 1 to 4 streams at a time (probe.h,
 * rl_read_kernel), and every operation also with 256-bit AVX2 kernels
 * where the widest are 512-bit (a plain C read loop over 2-4 arrays at
 * -march=x86-64-v3 moved 30.3-31.1 GB/s on one thread of the Xeon
 * guest, the quick probe's 512-bit three-array read roof 25.5). Member
 * 0 is the operation's own kernel, measured every time; the others take
 * turns (half of them a measurement), so two measurements cover the
 * family and its members run at different moments. --quick measures
 * member 0 first and three others in its second round (the read over 2
 * and 4 streams and the 256-bit read over 3; the other operations their
 * 256-bit kernel, else their own again): the whole family there cost
 * 0.5-0.7 s more a quick probe, the one-stream read is the slowest at
 * DRAM (17.8 GB/s against 30.3-31.1 for 2-4 streams). Inside the caches
 * only the operation's own kernel runs (the widest registers are the
 * fastest there; the read family there cost a quick probe about 0.3 s
 * on the Xeon guest). Returns how many members were written to out. */
#define MAX_FAMILY 8
static size_t family(const struct item *it, const struct rl_triad_params *p,
		     int quick, struct rl_triad_params *out)
{
	static const unsigned streams[] = { 3, 2, 4, 1 };
	enum rl_isa isas[2] = { p->isa, RL_ISA_AVX2 };
	size_t n_isa = p->isa == RL_ISA_AVX512 ? 2 : 1, n = 0;
	if (!it->dram) {
		out[0] = *p;
		return 1;
	}
	for (size_t w = 0; w < n_isa; w++)
		for (size_t k = 0; k < 4 && n < MAX_FAMILY; k++) {
			if (k && p->op != RL_OP_READ)
				break;
			struct rl_triad_params q = *p;
			q.isa = isas[w];
			q.streams = p->op == RL_OP_READ ? streams[k] : 0;
			int ok = p->op == RL_OP_TRIAD
					 ? rl_triad_kernel(q.isa, q.nt) != NULL
				 : p->op == RL_OP_READ
					 ? rl_read_kernel(q.isa, q.streams) != NULL
					 : rl_rw_kernel(q.isa, q.op, q.nt) != NULL;
			if (ok)
				out[n++] = q;
		}
	size_t kept = 0;
	if (quick) {
		if (!it->visits || n < 2)
			return 1;
		/* read: 2 and 4 streams, the 256-bit 3 streams; the others
		 * their 256-bit kernel (pick > kept: copied forward) */
		static const size_t pick[3] = { 1, 2, 4 };
		size_t m = p->op == RL_OP_READ ? 3 : 1;
		for (size_t i = 0; i < m; i++)
			if (pick[i] < n)
				out[kept++] = out[pick[i]];
		return kept ? kept : 1;
	}
	for (size_t i = 0; i < n; i++)
		if (!i || i % 2 == it->visits % 2)
			out[kept++] = out[i];
	return kept;
}

static int item_kernel(const struct bw_ctx *b, const struct item *it,
		       struct rl_triad_params *p)
{
	const int quick = b->c->o->quick;
	int nt = it->op == RL_REC_TRIAD_NT || it->op == RL_REC_FILL_NT;
	enum rl_stream_op op = it->op == RL_REC_READ ? RL_OP_READ
			       : it->op == RL_REC_FILL || it->op == RL_REC_FILL_NT
				       ? RL_OP_FILL
			       : it->op == RL_REC_UPDATE ? RL_OP_UPDATE
							 : RL_OP_TRIAD;
	memset(p, 0, sizeof *p);
	p->isa = probe_bw_isa(b->c->cpu);
	p->nt = nt;
	p->op = op;
	p->threads = it->threads;
	p->elems = (size_t)(it->bytes / RL_TRIAD_STREAM_BYTES) & ~(size_t)15;
	if (op == RL_OP_UPDATE) /* two arrays: 1.5x the elements */
		p->elems = (p->elems + p->elems / 2) & ~(size_t)15;
	/* DRAM: one pass per trial (--quick one trial) */
	p->trials = it->dram ? (quick ? 1 : 2) : (quick ? 3 : 5);
	/* the plain fill at DRAM in whole passes, as STREAM times: the best
	 * of each of its chunks over two passes read 12-20% above either
	 * pass (9.0-10.0 GB/s a pass, 10.7-11.7 chunk by chunk, one thread
	 * on the Xeon guest; the other operations 2-3%), a pass no pass
	 * makes: a plain store's line is written back when it is evicted,
	 * chunks later, so its cost moves between chunks inside a pass */
	p->whole_passes = it->dram && op == RL_OP_FILL && !nt;
	p->min_trial_s = quick ? 0.0003 : 0.0008;
	p->private_level = it->bytes <= probe_bw_private_bytes(b);
	p->beyond_caches = it->dram;
	p->ahead_elems = it->threads == 1 ? probe_bw_ahead_elems(b, op) : 0;
	if (p->elems < 16 ||
	    p->elems > b->max_elems + (op == RL_OP_UPDATE ? b->max_elems / 2 : 0))
		return 0;
	return op == RL_OP_TRIAD ? rl_triad_kernel(p->isa, nt) != NULL
				 : rl_rw_kernel(p->isa, op, nt) != NULL;
}

/* Measures one item. A one-thread measurement lies between two readings
 * of the core's rate on its CPU (the reading after one is the next one's
 * before): it ran whole only when both are. */
static int measure(struct bw_ctx *b, struct item *it,
		   const struct rl_triad_params *p, char *err, size_t errlen)
{
	struct probe_ctx *c = b->c;
	struct rl_triad_result r;
	struct rl_core_rate before = { 0, 0 };
	if (it->threads == 1)
		before = b->have_after ? b->core_after : probe_core_read(c);
	struct rl_triad_params fam[MAX_FAMILY];
	size_t n_fam = family(it, p, c->o->quick, fam);
	it->visits++;
	for (size_t i = 0; i < n_fam; i++) {
		int rc = probe_bw_run(b, &fam[i], 0, it->bytes, it->op, &r, err,
				 errlen);
		if (rc)
			return rc;
	}
	b->have_after = 0;
	if (it->threads == 1) {
		struct rl_core_rate after = probe_core_read(c), at = {
			before.fma < after.fma ? before.fma : after.fma,
			before.read < after.read ? before.read : after.read };
		b->core_after = after;
		b->have_after = 1;
		if (!it->have_core || probe_core_share(c, &at, 1) >
					      probe_core_share(c, &it->core, 1))
			it->core = at;
		it->have_core = 1;
		it->n_whole += probe_core_whole(c, &at, 1);
	}
	return 0;
}

/* Rounds over the items not yet stable, interleaved, until all are or
 * the time cap. A one-thread cache item counts only its measurements
 * taken while the core ran whole (see shared). */
static int rounds(struct bw_ctx *b, struct item *it, size_t n,
		  int min_rounds, int max_rounds, double cap_s,
		  unsigned boost, char *err, size_t errlen)
{
	double t0 = rl_probe_now_s();
	for (int round = 0; round < max_rounds; round++) {
		int left = 0;
		for (size_t i = 0; i < n; i++) {
			if (it[i].stable)
				continue;
			struct rl_triad_params p;
			if (!item_kernel(b, &it[i], &p)) {
				it[i].stable = 1;
				continue;
			}
			p.trials *= boost;
			int rc = measure(b, &it[i], &p, err, errlen);
			if (rc)
				return rc;
			const struct rl_rec_point *pt =
				rl_rec_find(b->rec, it[i].threads, it[i].op, 0,
					    it[i].bytes);
			double best = pt ? pt->best_gbs : 0;
			/* DRAM: two rounds at least, --quick too (each of
			 * its passes is long, its best already the best of
			 * each chunk): never a roof from one pass, and the
			 * family (see family) covered */
			int need = !it[i].dram	     ? min_rounds
				   : min_rounds > 2 ? 2
						    : min_rounds;
			int done = it[i].threads == 1 && !it[i].dram
					   ? it[i].n_whole
					   : round + 1;
			if (done >= need &&
			    (best <= it[i].best * (1 + STABLE) ||
			     (it[i].dram && b->c->o->quick)))
				it[i].stable = 1;
			it[i].best = best;
			left += !it[i].stable;
		}
		char what[64];
		snprintf(what, sizeof what, "levels: round %d", round + 1);
		probe_progress(b->c, what, 0.3);
		if (!left || (round + 1 >= min_rounds &&
			      rl_probe_now_s() - t0 > cap_s))
			break;
	}
	return 0;
}

/* A one-thread item none of whose measurements ran while the core ran
 * whole (judged against the best rate read by now; an item never
 * measured has no rate). */
static int shared(const struct bw_ctx *b, const struct item *it)
{
	return it->threads == 1 && it->have_core &&
	       !probe_core_whole(b->c, &it->core, 1);
}

/* The same, for a cache item: DRAM is not measured again (in the
 * stretches seen it read 8-17 % low, the caches up to half, and each of
 * its passes takes tens of milliseconds); it keeps its doubt. */
static int shared_cache(const struct bw_ctx *b, const struct item *it)
{
	return !it->dram && shared(b, it);
}

/* The one-thread cache items measured only while another thread shared
 * the core (core_rate.c): the core's rate is read every few milliseconds
 * and, whenever it is whole, they are measured again, until none is
 * left or cap_s. A host's other tenant takes the core for 0.2 s to over
 * a second at a time: a quick probe that fell wholly inside such a
 * stretch read its L1 roofs at half. */
static int shared_again(struct bw_ctx *b, struct item *it, size_t n,
			double cap_s, char *err, size_t errlen)
{
	double t0 = rl_probe_now_s();
	for (;;) {
		size_t left = 0;
		for (size_t i = 0; i < n; i++)
			left += shared_cache(b, &it[i]);
		if (!left || rl_probe_now_s() - t0 > cap_s)
			return 0;
		struct rl_core_rate r = probe_core_read(b->c);
		if (!probe_core_whole(b->c, &r, 1)) {
			b->have_after = 0;
			nanosleep(&(struct timespec){ .tv_nsec = 2000000 },
				  NULL);
			continue;
		}
		b->core_after = r;
		b->have_after = 1;
		for (size_t i = 0; i < n; i++) {
			struct rl_triad_params p;
			if (!shared_cache(b, &it[i]) ||
			    !item_kernel(b, &it[i], &p))
				continue;
			int rc = measure(b, &it[i], &p, err, errlen);
			if (rc)
				return rc;
		}
		probe_progress(b->c, "levels: the core was shared, again", 0);
	}
}

/* What stays shared is marked in the recording (its doubt is derived
 * from there, derive.c), with the best rate read. */
static void mark_shared(struct bw_ctx *b, const struct item *it, size_t n)
{
	b->rec->core_rate = b->c->fma_best > 0 ? b->c->fma_best : -1;
	for (size_t i = 0; i < n; i++) {
		if (!shared(b, &it[i]))
			continue;
		struct rl_rec_point *pt = rl_rec_edit(
			b->rec, it[i].threads, it[i].op, 0, it[i].bytes);
		if (pt)
			pt->core_shared = 1;
	}
}

static size_t items_of(const struct rl_rec_derived *d, struct item *it,
		       size_t max)
{
	size_t n = 0;
	for (size_t t = 0; t < d->n_t; t++)
		for (size_t l = 0; l < d->t[t].n; l++)
			for (size_t o = 0; o < sizeof ops / sizeof ops[0] && n < max;
			     o++) {
				const struct rl_rec_level *lv = &d->t[t].lv[l];
				struct item *x = &it[n++];
				memset(x, 0, sizeof *x);
				x->threads = d->t[t].threads;
				x->bytes = (lv->at / RL_TRIAD_STREAM_BYTES & ~(uint64_t)15) *
					   RL_TRIAD_STREAM_BYTES;
				x->op = ops[o];
				x->dram = !lv->level;
				snprintf(x->level, sizeof x->level, "%s", lv->name);
			}
	return n;
}

/* --quick: the DRAM triad item is left to the sweep, whose points inside
 * DRAM's window (the roof is the best of them and the item, derive.c)
 * ran the same kernel, one pass each, as the item's one trial would: the
 * item is measured only where a doubt asks for it again. */
static void sweep_stands_for_dram_triad(const struct bw_ctx *b,
					struct item *it, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!it[i].dram || it[i].op != RL_REC_TRIAD)
			continue;
		for (size_t k = 0; k < b->rec->n && !it[i].stable; k++) {
			const struct rl_rec_point *p = &b->rec->pts[k];
			it[i].stable = p->sweep && p->threads == it[i].threads &&
				       p->op == RL_REC_TRIAD &&
				       p->bytes >= it[i].bytes && p->best_gbs > 0;
		}
	}
}

static void label(struct rl_probe_sweep *s, const struct rl_rec_derived *d)
{
	const struct rl_rec_level *lv = NULL;
	size_t nl = 0;
	for (size_t t = 0; t < d->n_t; t++)
		if (d->t[t].threads == s->threads) {
			lv = d->t[t].lv;
			nl = d->t[t].n;
		}
	for (size_t i = 0; i < s->n; i++) {
		s->level[i][0] = 0;
		for (size_t k = 0; k < nl; k++)
			if (s->pts[i].bytes >= lv[k].lo &&
			    (!lv[k].hi || s->pts[i].bytes <= lv[k].hi))
				memcpy(s->level[i], lv[k].name,
				       sizeof s->level[i]);
	}
}

static void fill_header(struct bw_ctx *b)
{
	struct rl_probe_recording *r = b->rec;
	const struct rl_cpu *cpu = b->c->cpu;
	snprintf(r->cpu_model, sizeof r->cpu_model, "%s", cpu->model);
	r->cpus = b->c->threads;
	r->mem_bytes = cpu->mem_bytes;
	snprintf(r->cache_source, sizeof r->cache_source, "%s",
		 cpu->cache_source);
	memcpy(r->caches, cpu->caches, sizeof r->caches);
	r->n_caches = cpu->n_caches;
	snprintf(r->isa, sizeof r->isa, "%s", rl_isa_name(probe_bw_isa(cpu)));
	r->quick = b->c->o->quick;
	r->loadavg1 = b->c->m->loadavg1;
	r->loadavg1_end = -1;
	r->core_rate = -1;
	r->core_read_prior = b->c->o->prior_read_bpc > 0
				     ? b->c->o->prior_read_bpc : -1;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(r->recorded_at, sizeof r->recorded_at, "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	snprintf(r->source, sizeof r->source, "rlprof probe%s",
		 r->quick ? " --quick" : "");
}

int probe_bw_roofs(struct probe_ctx *c, char *err, size_t errlen)
{
	const unsigned T = c->threads;
	uint64_t cap = c->cpu->mem_bytes / 4 / T;
	if (cap > (1ull << 30) || cap == 0)
		cap = 1ull << 30;
	struct bw_ctx b = { .c = c };
	cpu_set_t was;
	int pinned = 0;
	b.max_elems = (size_t)(cap / RL_TRIAD_STREAM_BYTES);
	b.n_claims = rl_level_claims(c->cpu, b.claims, MAX_LEVELS);
	b.rec = c->extra->recording;
	struct rl_probe_recording *own = NULL;
	struct rl_rec_derived *d = calloc(1, sizeof *d);
	struct item *it = calloc(2 * RL_REC_MAX_LEVELS * 5, sizeof *it);
	if (!b.rec)
		b.rec = own = calloc(1, sizeof *own);
	if (!b.rec || !d || !it) {
		free(own);
		free(d);
		free(it);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	memset(b.rec, 0, sizeof *b.rec);
	fill_header(&b);
	/* arrays reserved for 1.5x: the in-place update runs over two of
	 * them with 1.5x the elements */
	int rc = rl_triad_pool_open(&b.pool, T, c->cpu->cpus,
				    b.max_elems + b.max_elems / 2, err,
				    errlen);
	if (rc)
		goto out;
	const int quick = c->o->quick;
	/* the calling thread waits on the first CPU meanwhile, where the
	 * core's rate is read between one-thread measurements (moving it
	 * there for each reading costs milliseconds in a VM); the workers
	 * started first, so none of them inherits the pin */
	if ((pinned = rl_pin_self(c->cpu->cpus[0], &was)))
		c->core_cpu = -1;
	c->core_read_fn = rl_rw_kernel(probe_bw_isa(c->cpu), RL_OP_READ, 0);

	/* the sweeps: one core, then all cores on the same grid */
	if ((rc = probe_bw_sweep(&b, 1, &c->extra->sweeps[0], err, errlen)))
		goto out;
	c->extra->n_sweeps = 1;
	if (T > 1) {
		if ((rc = probe_bw_sweep(&b, T, &c->extra->sweeps[1], err, errlen)))
			goto out;
		c->extra->n_sweeps = 2;
	}
	/* the windows, then every level's point, interleaved */
	if ((rc = rl_rec_derive(b.rec, d, err, errlen)))
		goto out;
	size_t n = items_of(d, it, 2 * RL_REC_MAX_LEVELS * 5);
	if (quick)
		sweep_stands_for_dram_triad(&b, it, n);
	if ((rc = rounds(&b, it, n, quick ? 2 : 3, quick ? 3 : 8,
			 quick ? 0.25 : 1.2, 1, err, errlen)))
		goto out;
	/* what contradicts physics or the other roofs: measured again (the
	 * level and the one before it), twice at most */
	for (int k = 0; k < 2; k++) {
		if ((rc = rl_rec_derive(b.rec, d, err, errlen)))
			goto out;
		if (!d->n_doubts)
			break;
		size_t again = 0;
		for (size_t i = 0; i < n; i++) {
			it[i].stable = 1;
			for (size_t f = 0; f < d->n_roofs; f++) {
				const struct rl_rec_roof *r = &d->roofs[f];
				if (!r->doubt[0] || r->threads != it[i].threads)
					continue;
				/* the doubtful level and the one before it */
				int hit = !strcmp(r->level, it[i].level);
				for (size_t g = 1; !hit && g < d->n_roofs; g++)
					if (d->roofs[g].threads == r->threads &&
					    !strcmp(d->roofs[g].level, r->level) &&
					    d->roofs[g - 1].threads == r->threads &&
					    !strcmp(d->roofs[g - 1].level,
						    it[i].level))
						hit = 1;
				if (hit) {
					it[i].stable = 0;
					again++;
				}
			}
		}
		if (!again)
			break;
		if ((rc = rounds(&b, it, n, 1, 2, quick ? 0.15 : 0.6, 2, err,
				 errlen)))
			goto out;
	}
	/* one-thread points measured only while the core was shared: again
	 * when it runs whole */
	if ((rc = shared_again(&b, it, n, quick ? 1.0 : 2.0, err, errlen)))
		goto out;
	mark_shared(&b, it, n);
	b.rec->loadavg1_end = probe_loadavg1();
	if ((rc = rl_rec_derive(b.rec, d, err, errlen)))
		goto out;
	rl_rec_fill_model(b.rec, d, c->m);
	for (size_t s = 0; s < c->extra->n_sweeps; s++)
		label(&c->extra->sweeps[s], d);
	rc = 0;
out:
	if (pinned) {
		rl_unpin_self(&was);
		c->core_cpu = c->cpu->cpus[0];
	}
	rl_triad_pool_close(b.pool);
	free(own);
	free(d);
	free(it);
	return rc;
}
