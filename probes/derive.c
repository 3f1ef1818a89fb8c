/* Levels, bandwidth roofs and doubts from a probe recording (recording.h):
 * pure arithmetic, the same for the live probe and for a replay.
 *
 * Levels are led by the claims: every believable claimed cache level is a
 * level, measured inside its claimed capacity per thread (L1 up to its
 * claim, Lk from twice L(k-1) to Lk's claim, a shared cache split between
 * the threads), DRAM from four times the last level for all threads. Two
 * claimed levels are never merged, a level's roof never comes from a
 * working set outside its window. The sweep then says where each level
 * really ends (its effective capacity: where the triad bandwidth has
 * fallen halfway, geometrically, from the level's roof to the next
 * level's); a level it shows ending well before its claim (below half:
 * a VM's share of the host's L3), or whose claim cannot be true, is
 * measured inside what the sweep shows, and said. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/machine.h"
#include "probes/recording.h"
#include "common/rl_error.h"

#define DROP 0.15

static const char *const op_names[RL_REC_N_OPS] = {
	"triad", "triad_nt", "read", "fill", "fill_nt", "update"
};

const char *rl_rec_op_name(int op)
{
	return op >= 0 && op < RL_REC_N_OPS ? op_names[op] : NULL;
}

int rl_rec_op_parse(const char *name)
{
	for (int i = 0; i < RL_REC_N_OPS; i++)
		if (name && !strcmp(name, op_names[i]))
			return i;
	return -1;
}

static long find_at(const struct rl_probe_recording *r, unsigned threads,
		    int op, int sweep, uint64_t bytes)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct rl_rec_point *p = &r->pts[i];
		if (p->threads == threads && p->op == op &&
		    !p->sweep == !sweep && p->bytes == bytes)
			return (long)i;
	}
	return -1;
}

const struct rl_rec_point *rl_rec_find(const struct rl_probe_recording *r,
				       unsigned threads, int op, int sweep,
				       uint64_t bytes)
{
	long i = find_at(r, threads, op, sweep, bytes);
	return i < 0 ? NULL : &r->pts[i];
}

struct rl_rec_point *rl_rec_edit(struct rl_probe_recording *r,
				 unsigned threads, int op, int sweep,
				 uint64_t bytes)
{
	long i = find_at(r, threads, op, sweep, bytes);
	return i < 0 ? NULL : &r->pts[i];
}

struct rl_rec_point *rl_rec_add(struct rl_probe_recording *r,
				unsigned threads, int op, int sweep,
				uint64_t bytes, double gbs)
{
	struct rl_rec_point *p = rl_rec_edit(r, threads, op, sweep, bytes);
	if (!p) {
		if (r->n >= RL_REC_MAX_POINTS)
			return NULL;
		p = &r->pts[r->n++];
		memset(p, 0, sizeof *p);
		p->threads = threads;
		p->op = op;
		p->sweep = sweep;
		p->bytes = bytes;
	}
	if (!(gbs > 0) || !isfinite(gbs))
		return p;
	if (p->n_trials < RL_REC_MAX_TRIALS)
		p->trials[p->n_trials++] = gbs;
	if (gbs > p->best_gbs)
		p->best_gbs = gbs;
	return p;
}

size_t rl_rec_thread_counts(const struct rl_probe_recording *r,
			    unsigned *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		if (!r->pts[i].sweep)
			continue;
		size_t k = 0;
		while (k < n && out[k] != r->pts[i].threads)
			k++;
		if (k < n || n >= max)
			continue;
		out[n++] = r->pts[i].threads;
	}
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && out[b - 1] > out[b]; b--) {
			unsigned t = out[b];
			out[b] = out[b - 1];
			out[b - 1] = t;
		}
	return n;
}

void rl_rec_size_text(char *buf, size_t len, double bytes)
{
	if (bytes >= 1 << 30)
		snprintf(buf, len, "%.3g GiB", bytes / (1 << 30));
	else if (bytes >= 1 << 20)
		snprintf(buf, len, "%.3g MiB", bytes / (1 << 20));
	else
		snprintf(buf, len, "%.3g KiB", bytes / 1024);
}

/* ---- the sweep of one thread count ------------------------------------- */

struct sweep {
	size_t n;
	uint64_t b[RL_REC_MAX_POINTS];
	double g[RL_REC_MAX_POINTS]; /* per thread */
};

static void sweep_of(const struct rl_probe_recording *r, unsigned threads,
		     struct sweep *s)
{
	s->n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct rl_rec_point *p = &r->pts[i];
		if (!p->sweep || p->threads != threads || p->op != RL_REC_TRIAD ||
		    !(p->best_gbs > 0))
			continue;
		size_t k = s->n++;
		while (k > 0 && s->b[k - 1] > p->bytes) {
			s->b[k] = s->b[k - 1];
			s->g[k] = s->g[k - 1];
			k--;
		}
		s->b[k] = p->bytes;
		s->g[k] = p->best_gbs / threads;
	}
}

/* The best per-thread figure in [lo, hi] (hi 0: open); 0 when none. */
static double best_in(const struct sweep *s, uint64_t lo, uint64_t hi,
		      size_t *at)
{
	double best = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->b[i] >= lo && (!hi || s->b[i] <= hi) && s->g[i] > best) {
			best = s->g[i];
			if (at)
				*at = i;
		}
	return best;
}

/* Where the sweep falls from `roof` to `mid` for good, walking up from
 * point `from`: between the last point at or above mid and the first of
 * two in a row below it (one point below is a disturbed trial), in log
 * space. 0 when the sweep never falls below mid. */
static uint64_t fall_point(const struct sweep *s, size_t from, double mid)
{
	size_t last_above = from;
	for (size_t i = from + 1; i < s->n; i++) {
		if (s->g[i] >= mid) {
			last_above = i;
			continue;
		}
		if (i + 1 < s->n && s->g[i + 1] >= mid)
			continue; /* one point below: look on */
		double g1 = s->g[last_above], b1 = (double)s->b[last_above];
		size_t j = last_above + 1;
		double g2 = s->g[j], b2 = (double)s->b[j];
		double f = g1 > g2 ? (g1 - mid) / (g1 - g2) : 0;
		if (f < 0)
			f = 0;
		if (f > 1)
			f = 1;
		return (uint64_t)(b1 * pow(b2 / b1, f));
	}
	return 0;
}

static size_t first_at_or_above(const struct sweep *s, uint64_t b)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->b[i] >= b)
			return i;
	return s->n;
}

static uint64_t geo_mid(uint64_t lo, uint64_t hi)
{
	if (!lo)
		return hi / 2;
	if (!hi || hi <= lo)
		return lo;
	return (uint64_t)sqrt((double)lo * (double)hi);
}

/* A working set the kernels can run (a whole number of 16-element
 * blocks of 24 B) inside [lo, hi] (hi 0: open) where there is one. */
static uint64_t snap(uint64_t at, uint64_t lo, uint64_t hi)
{
	const uint64_t q = 16 * RL_TRIAD_STREAM_BYTES;
	uint64_t a = at / q * q;
	if (a < lo)
		a += q;
	if (hi && a > hi && hi / q * q >= lo)
		a = hi / q * q;
	return a < q ? q : a;
}

/* Levels from the plateaus alone (nothing claimed). */
static size_t levels_unclaimed(const struct sweep *s,
			       struct rl_rec_level *out, size_t max)
{
	struct rl_sweep_point pts[RL_PROBE_MAX_SWEEP];
	struct rl_found_level f[RL_REC_MAX_LEVELS + 1];
	size_t n = s->n < RL_PROBE_MAX_SWEEP ? s->n : RL_PROBE_MAX_SWEEP;
	for (size_t i = 0; i < n; i++) {
		pts[i].bytes = s->b[i];
		pts[i].gbs = s->g[i];
	}
	size_t nf = rl_detect_levels(pts, n, NULL, 0, 1, DROP, f,
				     max < RL_REC_MAX_LEVELS ? max
							     : RL_REC_MAX_LEVELS);
	for (size_t i = 0; i < nf; i++) {
		struct rl_rec_level *l = &out[i];
		memset(l, 0, sizeof *l);
		memcpy(l->name, f[i].name, sizeof l->name);
		l->name[sizeof l->name - 1] = 0;
		l->level = f[i].level;
		l->lo = pts[f[i].first].bytes;
		l->hi = pts[f[i].last].bytes;
		l->at = pts[f[i].roof].bytes;
		l->effective = f[i].effective_bytes;
		snprintf(l->note, sizeof l->note,
			 "no cache sizes claimed: placed from the sweep's "
			 "plateaus");
	}
	return nf;
}

size_t rl_rec_levels(const struct rl_probe_recording *r, unsigned threads,
		     struct rl_rec_level *out, size_t max)
{
	struct sweep *s = malloc(sizeof *s);
	struct rl_cpu *cpu = calloc(1, sizeof *cpu);
	struct rl_level_claim cl[RL_REC_MAX_LEVELS];
	double roof[RL_REC_MAX_LEVELS + 1];
	size_t nl = 0, nc = 0;
	if (!s || !cpu || max < 2)
		goto out;
	sweep_of(r, threads, s);
	if (!s->n)
		goto out;
	memcpy(cpu->caches, r->caches, sizeof cpu->caches);
	cpu->n_caches = r->n_caches;
	cpu->mem_bytes = r->mem_bytes;
	nc = rl_level_claims(cpu, cl, RL_REC_MAX_LEVELS);
	if (!nc) {
		nl = levels_unclaimed(s, out, max);
		goto out;
	}
	/* windows from the claims */
	uint64_t prev = 0;
	for (size_t i = 0; i < nc && nl + 1 < max; i++) {
		struct rl_rec_level *l = &out[nl];
		memset(l, 0, sizeof *l);
		snprintf(l->name, sizeof l->name, "L%d",
			 cl[i].level < 1 ? 1 : cl[i].level > 9 ? 9 : cl[i].level);
		l->level = cl[i].level;
		l->claim = rl_claim_per_thread(&cl[i], threads);
		l->lo = 2 * prev;
		l->hi = l->claim; /* 0: not believable, open */
		if (l->claim)
			prev = l->claim;
		else if (!prev)
			break; /* no L1 to start from */
		nl++;
	}
	/* provisional roofs: the best inside each window; DRAM: the sweep's
	 * last point */
	for (size_t i = 0; i < nl; i++)
		roof[i] = best_in(s, out[i].lo, out[i].hi, NULL);
	double dram = s->g[s->n - 1];
	/* effective capacities, and windows shrunk to what the sweep shows */
	for (size_t i = 0; i < nl; i++) {
		struct rl_rec_level *l = &out[i];
		size_t from = s->n;
		if (!(roof[i] > 0))
			continue;
		best_in(s, l->lo, l->hi, &from);
		double next = dram;
		for (size_t k = i + 1; k < nl; k++)
			if (roof[k] > 0 && roof[k] < roof[i]) {
				next = roof[k];
				break;
			}
		if (!(next < roof[i] * (1 - DROP / 3)))
			continue; /* no fall to see */
		l->effective = fall_point(s, from, sqrt(roof[i] * next));
		char e[32], c[32];
		rl_rec_size_text(e, sizeof e, (double)l->effective);
		if (l->effective && l->claim && l->effective < l->claim / 2 &&
		    l->effective > l->lo) {
			rl_rec_size_text(c, sizeof c, (double)l->claim);
			l->hi = l->effective;
			l->shrunk = 1;
			snprintf(l->note, sizeof l->note,
				 "the sweep shows %.7s ending near %.12s per "
				 "thread, well before the claimed %.12s: its "
				 "roof is measured inside %.12s",
				 l->name, e, c, e);
		} else if (!l->claim && l->effective > l->lo) {
			l->hi = l->effective;
			l->shrunk = 1;
			snprintf(l->note, sizeof l->note,
				 "its claimed size is not believable: the sweep "
				 "shows it ending near %s per thread, its roof "
				 "is measured inside",
				 e);
		}
		/* the next level starts twice beyond what this one really
		 * holds when that is less than claimed */
		if (l->shrunk && i + 1 < nl && out[i + 1].lo > 2 * l->hi)
			out[i + 1].lo = 2 * l->hi;
		if (l->shrunk)
			roof[i] = best_in(s, l->lo, l->hi, NULL);
	}
	/* a level without an upper bound (its claim not believed) and no
	 * fall seen: the sweep's points beyond twice the level above */
	for (size_t i = 0; i < nl; i++)
		if (!out[i].hi)
			out[i].hi = s->b[s->n - 1];
	for (size_t i = 0; i < nl; i++)
		out[i].at = snap(geo_mid(out[i].lo, out[i].hi), out[i].lo,
				 out[i].hi);
	/* DRAM: four times the last level, for all threads (per thread: four
	 * times its share), when the sweep got there */
	if (nl && nl < max) {
		const struct rl_rec_level *last = &out[nl - 1];
		uint64_t llc = last->shrunk || !last->claim ? last->hi
							    : last->claim;
		struct rl_rec_level *l = &out[nl];
		memset(l, 0, sizeof *l);
		snprintf(l->name, sizeof l->name, "DRAM");
		l->lo = 4 * llc;
		l->at = snap(l->lo, l->lo, 0);
		size_t k = first_at_or_above(s, l->lo);
		if (k < s->n) {
			nl++;
		} else if (s->n >= 2 && s->b[s->n - 1] >= 2 * llc &&
			   s->g[s->n - 1] < roof[nl - 1] * (1 - DROP)) {
			/* the sweep stopped at the memory cap short of 4x:
			 * its last point, said */
			char h[32], c[32];
			rl_rec_size_text(h, sizeof h, (double)s->b[s->n - 1]);
			rl_rec_size_text(c, sizeof c, (double)l->lo);
			l->lo = l->at = s->b[s->n - 1];
			snprintf(l->note, sizeof l->note,
				 "measured at %s per thread (the memory cap), "
				 "below 4x the last level (%s)",
				 h, c);
			nl++;
		}
	}
out:
	free(s);
	free(cpu);
	return nl;
}

/* ---- roofs and doubts ---------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(const double *v, unsigned n)
{
	double t[RL_REC_MAX_TRIALS];
	if (!n)
		return 0;
	memcpy(t, v, n * sizeof *v);
	qsort(t, n, sizeof t[0], cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The best point of one op inside a level's window: the level
 * measurements and, for the triad, the sweep's points there too (the
 * best of every trial inside the window, as STREAM keeps its best). */
static const struct rl_rec_point *
roof_point(const struct rl_probe_recording *r, unsigned threads, int op,
	   const struct rl_rec_level *l, int *from_sweep)
{
	const struct rl_rec_point *best = NULL;
	for (int sweep = 0; sweep < 2; sweep++) {
		if (sweep && op != RL_REC_TRIAD)
			break;
		for (size_t i = 0; i < r->n; i++) {
			const struct rl_rec_point *p = &r->pts[i];
			if (p->threads != threads || p->op != op ||
			    !p->sweep != !sweep || !(p->best_gbs > 0) ||
			    p->bytes < l->lo || (l->hi && p->bytes > l->hi))
				continue;
			if (!best || p->best_gbs > best->best_gbs) {
				best = p;
				if (from_sweep)
					*from_sweep = sweep;
			}
		}
	}
	return best;
}

/* A level measurement in the window taken only while another thread
 * shared the core (recording.h). */
static int level_shared(const struct rl_probe_recording *r, unsigned threads,
			const struct rl_rec_level *l)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct rl_rec_point *p = &r->pts[i];
		if (p->threads == threads && !p->sweep && p->core_shared &&
		    p->bytes >= l->lo && (!l->hi || p->bytes <= l->hi))
			return 1;
	}
	return 0;
}

static void add_doubt(struct rl_rec_roof *f, const char *part)
{
	size_t n = strlen(f->doubt);
	if (n + strlen(part) + 3 < sizeof f->doubt)
		snprintf(f->doubt + n, sizeof f->doubt - n, "%s%s",
			 n ? "; " : "", part);
}

int rl_rec_derive(const struct rl_probe_recording *r,
		  struct rl_rec_derived *d, char *err, size_t errlen)
{
	unsigned tc[8];
	memset(d, 0, sizeof *d);
	size_t ntc = rl_rec_thread_counts(r, tc, 8);
	if (!ntc)
		return rl_fail(err, errlen, RL_EINVAL,
			       "the recording has no sweep points");
	/* one thread and the most threads */
	unsigned use[2] = { tc[0], tc[ntc - 1] };
	d->n_t = ntc > 1 ? 2 : 1;
	for (size_t t = 0; t < d->n_t; t++) {
		d->t[t].threads = use[t];
		d->t[t].n = rl_rec_levels(r, use[t], d->t[t].lv,
					  RL_REC_MAX_LEVELS);
	}
	int busy = r->cpus && ((r->loadavg1 >= r->cpus) ||
			       (r->loadavg1_end >= 2.0 * r->cpus));
	for (size_t t = 0; t < d->n_t; t++) {
		unsigned T = d->t[t].threads;
		struct rl_rec_roof *prev = NULL;
		for (size_t i = 0; i < d->t[t].n && d->n_roofs < RL_REC_MAX_ROOFS;
		     i++) {
			const struct rl_rec_level *l = &d->t[t].lv[i];
			struct rl_rec_roof *f = &d->roofs[d->n_roofs];
			memset(f, 0, sizeof *f);
			int sweep = 0;
			for (int op = 0; op < RL_REC_N_OPS; op++) {
				const struct rl_rec_point *p =
					roof_point(r, T, op, l,
						   op == RL_REC_TRIAD ? &sweep : NULL);
				if (!p)
					continue;
				f->gbs[op] = p->best_gbs;
				f->trials[op] = p->n_trials;
				double med = median_of(p->trials, p->n_trials);
				f->spread_pct[op] = med > 0 ? (p->best_gbs - med) /
								     p->best_gbs * 100
							    : 0;
				if (op == RL_REC_TRIAD)
					f->bytes = p->bytes;
			}
			if (!(f->gbs[RL_REC_TRIAD] > 0))
				continue; /* not measured: not a roof */
			f->from_sweep = sweep;
			snprintf(f->level, sizeof f->level, "%s", l->name);
			f->threads = T;
			/* a roof above the level's before it (triad, read; a
			 * fill or non-temporal store may not fall) */
			char part[160];
			if (prev) {
				if (f->gbs[RL_REC_TRIAD] > prev->gbs[RL_REC_TRIAD]) {
					snprintf(part, sizeof part,
						 "triad %.1f GB/s above %s's %.1f",
						 f->gbs[RL_REC_TRIAD], prev->level,
						 prev->gbs[RL_REC_TRIAD]);
					add_doubt(f, part);
				}
				if (prev->gbs[RL_REC_READ] > 0 &&
				    f->gbs[RL_REC_READ] > prev->gbs[RL_REC_READ]) {
					snprintf(part, sizeof part,
						 "read %.1f GB/s above %s's %.1f",
						 f->gbs[RL_REC_READ], prev->level,
						 prev->gbs[RL_REC_READ]);
					add_doubt(f, part);
				}
			}
			if (f->spread_pct[RL_REC_TRIAD] > RL_REC_DOUBT_SPREAD) {
				snprintf(part, sizeof part,
					 "trials spread %.0f%% (best against "
					 "median), over %.0f%%",
					 f->spread_pct[RL_REC_TRIAD],
					 RL_REC_DOUBT_SPREAD);
				add_doubt(f, part);
			}
			if (level_shared(r, T, l))
				add_doubt(f, "measured only while this core ran "
					     "below its own rate (another thread "
					     "on it, or the host slowing it): may "
					     "read low");
			/* all threads move at least what one moves alone */
			for (size_t k = 0; t > 0 && k < d->n_roofs; k++) {
				const struct rl_rec_roof *one = &d->roofs[k];
				if (one->threads != d->t[0].threads ||
				    strcmp(one->level, f->level) ||
				    !(f->gbs[RL_REC_TRIAD] <
				      0.9 * one->gbs[RL_REC_TRIAD]))
					continue;
				snprintf(part, sizeof part,
					 "%u threads %.1f GB/s below one "
					 "thread's %.1f",
					 T, f->gbs[RL_REC_TRIAD],
					 one->gbs[RL_REC_TRIAD]);
				add_doubt(f, part);
			}
			if (f->doubt[0] && busy) {
				snprintf(part, sizeof part,
					 "load average %.1f on %u CPUs: the "
					 "machine was busy",
					 r->loadavg1 > r->loadavg1_end
						 ? r->loadavg1 : r->loadavg1_end,
					 r->cpus);
				add_doubt(f, part);
			}
			if (f->doubt[0])
				d->n_doubts++;
			prev = f;
			d->n_roofs++;
		}
	}
	return 0;
}

/* ---- into the machine model ---------------------------------------------- */

void rl_rec_fill_model(const struct rl_probe_recording *r,
		       const struct rl_rec_derived *d, struct rl_machine *m)
{
	m->n_bw = 0;
	for (size_t i = 0; i < d->n_roofs && m->n_bw < RL_MACHINE_MAX_BW; i++) {
		const struct rl_rec_roof *f = &d->roofs[i];
		struct rl_bw_roof *b = &m->bw[m->n_bw++];
		memset(b, 0, sizeof *b);
		snprintf(b->level, sizeof b->level, "%s", f->level);
		b->threads = f->threads;
		b->stream_gbs = f->gbs[RL_REC_TRIAD];
		b->moved_gbs = b->stream_gbs * RL_TRIAD_MOVED_BYTES /
			       RL_TRIAD_STREAM_BYTES;
		b->nt_gbs = f->gbs[RL_REC_TRIAD_NT];
		b->read_gbs = f->gbs[RL_REC_READ];
		b->write_gbs = 2 * f->gbs[RL_REC_FILL];
		b->write_nt_gbs = f->gbs[RL_REC_FILL_NT];
		b->update_gbs = f->gbs[RL_REC_UPDATE];
		b->spread_pct = f->spread_pct[RL_REC_TRIAD];
		b->working_set_bytes = f->bytes * f->threads;
		char h[32];
		rl_rec_size_text(h, sizeof h, (double)f->bytes / 3);
		snprintf(b->method, sizeof b->method,
			 "%s %s best of %u trials, 3x%s per thread%s",
			 f->from_sweep ? "triad (sweep)" : "triad/read/fill",
			 r->isa[0] ? r->isa : "?", f->trials[RL_REC_TRIAD], h,
			 f->doubt[0] ? " (in doubt)" : "");
		snprintf(b->doubt, sizeof b->doubt, "%s", f->doubt);
	}
	/* cache levels: what is claimed, and what the sweeps showed */
	struct rl_cpu *cpu = calloc(1, sizeof *cpu);
	struct rl_level_claim cl[RL_REC_MAX_LEVELS];
	size_t nc = 0;
	if (cpu) {
		memcpy(cpu->caches, r->caches, sizeof cpu->caches);
		cpu->n_caches = r->n_caches;
		cpu->mem_bytes = r->mem_bytes;
		nc = rl_level_claims(cpu, cl, RL_REC_MAX_LEVELS);
		free(cpu);
	}
	m->n_levels = 0;
	for (int lvl = 1; lvl <= RL_MACHINE_MAX_LEVELS; lvl++) {
		const struct rl_level_claim *c = NULL;
		const struct rl_rec_level *l1 = NULL, *la = NULL;
		for (size_t i = 0; i < nc; i++)
			if (cl[i].level == lvl)
				c = &cl[i];
		for (size_t i = 0; i < d->t[0].n; i++)
			if (d->t[0].lv[i].level == lvl)
				l1 = &d->t[0].lv[i];
		for (size_t i = 0; d->n_t > 1 && i < d->t[1].n; i++)
			if (d->t[1].lv[i].level == lvl)
				la = &d->t[1].lv[i];
		if (!c && !l1 && !la)
			continue;
		struct rl_cache_level *l = &m->levels[m->n_levels++];
		memset(l, 0, sizeof *l);
		snprintf(l->level, sizeof l->level, "L%d", lvl);
		if (c) {
			l->claimed_bytes = c->bytes;
			l->ways = c->ways;
			l->line_bytes = c->line_bytes;
			l->shared_cpus = c->shared_cpus;
			snprintf(l->source, sizeof l->source, "%s",
				 r->cache_source);
		} else {
			snprintf(l->source, sizeof l->source, "none");
		}
		if (l1)
			l->effective_bytes = l1->effective;
		if (la)
			l->effective_all_bytes = la->effective * d->t[1].threads;
		snprintf(l->note, sizeof l->note, "%s",
			 l1 && l1->note[0] ? l1->note : la ? la->note : "");
	}
	/* the caches line */
	char claim[128] = "", found[128] = "";
	for (size_t i = 0; i < nc; i++) {
		char h[32], part[64];
		rl_rec_size_text(h, sizeof h, (double)cl[i].bytes);
		snprintf(part, sizeof part, "%sL%d %s%s", i ? " " : "",
			 cl[i].level, h, cl[i].absurd ? " (not believed)" : "");
		if (strlen(claim) + strlen(part) < sizeof claim)
			strcat(claim, part);
	}
	for (size_t i = 0; i < d->t[0].n; i++) {
		const struct rl_rec_level *l = &d->t[0].lv[i];
		if (!l->level || !l->effective)
			continue;
		char h[32], part[48];
		rl_rec_size_text(h, sizeof h, (double)l->effective);
		snprintf(part, sizeof part, " %.7s~%s", l->name, h);
		if (strlen(found) + strlen(part) < sizeof found)
			strcat(found, part);
	}
	snprintf(m->caches, sizeof m->caches, "%s: %s; effective per thread:%s",
		 r->cache_source[0] ? r->cache_source : "none",
		 claim[0] ? claim : "-", found[0] ? found : " -");
}
