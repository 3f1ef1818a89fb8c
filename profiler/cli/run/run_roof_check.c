/*
 * rlprof run: the DRAM roofs paired with the timing runs (issue 38,
 * results/roof_check.h). At each sample point (before the first timing
 * run, after it, after the repetitions of --repeat) one pass of the
 * probes' own triad kernel (probes/probe.h: the one the roof was
 * measured with, so the figures compare) and one of a read-only stream
 * (1, 2, 3 or 4 streams, rotating over the points: the family the
 * model's read roof is the best of), on one pinned thread per CPU of the
 * model's all-thread DRAM roof (the rate the sum of the threads'), then
 * the same two on 1 thread (the caller, over all the arrays). The arrays
 * are first touched at the first point and kept to the last
 * (rl_run_pair_release: twice the last cache level held while the
 * program runs, never touched again). Every sample is kept.
 * The points share RL_PAIR_BUDGET_S (the first touch one share more), a
 * point at most RL_RUN_CHECK_S, cut by the clock whatever the load (the
 * passes are cut in 1 MiB chunks, the clock read between them). The
 * working set is the DRAM roof's, but not above what fits into the
 * budget; never below twice the last cache level's capacity for all
 * threads (it would measure a cache): then the time decides. No whole
 * pass in time: no sample, said in run.json.
 * The first two points' all-thread triads are also the check before and
 * after the timing run (issue 23), and before each, the core's clock
 * (about 2 ms), whenever a model with a clock was found (not in an MPI
 * rank).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/run/run.h"
#include "common/rl_error.h"
#include "machine/machine_file.h"
#include "analysis/roof_choice.h"
#include "probes/probe.h"

#define RL_RUN_CHECK_S 0.12 /* a point at most, cut by the clock */
#define TOUCH_GBS 3.0 /* first touch per thread, pages populated in one
			* call (3-3.5 GB/s on a VM here; 1.4 faulted) */
#define PASSES 3      /* per point: a triad pass and another, with a
			 write-allocate margin */
#define CHUNK (1u << 17) /* elements per clock read: 1 MiB per array */
#define CLOCK_ADDS 1000000 /* per clock trial: 0.3 ms at 3 GHz */
#define CLOCK_TRIALS 5     /* the best: an interrupt only lowers one */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the last cache level's capacity for all threads, 0 unknown */
static uint64_t llc_all(const struct rl_machine *m)
{
	uint64_t cap = 0;
	for (size_t i = 0; i < m->n_levels && i < RL_MACHINE_MAX_LEVELS; i++) {
		const struct rl_cache_level *l = &m->levels[i];
		uint64_t c = l->effective_all_bytes ? l->effective_all_bytes
			     : l->effective_bytes   ? l->effective_bytes
						    : l->claimed_bytes;
		if (c)
			cap = c;
	}
	return cap;
}

/* half the machine's memory in bytes: no triad takes more */
static uint64_t half_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 2
				     : UINT64_MAX;
}

static void not_taken(struct rl_roof_check *c, const char *fmt, const char *arg)
{
	if (!c->why_not[0])
		snprintf(c->why_not, sizeof c->why_not, fmt, arg);
}

static enum rl_isa widest(const struct rl_cpu *cpu)
{
	for (int i = RL_ISA_COUNT - 1; i > 0; i--)
		if (rl_isa_usable(cpu, (enum rl_isa)i) &&
		    rl_triad_kernel((enum rl_isa)i, 0))
			return (enum rl_isa)i;
	return RL_ISA_SCALAR;
}

/* The workers start together once every one of them started, or quit
 * at once when one could not: a barrier would wait for the missing one
 * forever (issue 41: `ulimit -v`, `ulimit -u`, a model whose caches
 * claim 2^62 bytes hung rlprof run before the program started). */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state; /* 0 wait, 1 go, -1 quit */
};

static int gate_wait(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	while (g->state == 0)
		pthread_cond_wait(&g->cv, &g->mu);
	int go = g->state > 0;
	pthread_mutex_unlock(&g->mu);
	return go;
}

static void gate_open(struct gate *g, int go)
{
	pthread_mutex_lock(&g->mu);
	g->state = go ? 1 : -1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* The arrays of the paired samples, kept from the first point to the
 * last (rl_run_pair_release): first touched once, by the pinned worker
 * that uses them. */
struct rl_run_pair {
	unsigned threads;
	size_t n;              /* elements per array, per worker */
	uint64_t ws;           /* all workers' bytes (24 B/element) */
	double **a, **b, **c;  /* threads arrays each */
	bool touched;
};

static volatile double pair_sink; /* the read's sums: the loads stay */

struct worker {
	pthread_t th;
	int cpu;
	struct rl_run_pair *p;
	unsigned t;            /* its arrays */
	rl_triad_fn fn;
	rl_rw_fn rd;           /* the read-only stream, NULL none */
	double deadline;
	struct gate *go;
	double triad_s;        /* its triad pass, 0 none */
	double read_s;         /* its read pass, 0 none */
	double sink;           /* the read's sums, kept */
	bool touched;          /* its arrays first touched */
};

/* One whole pass of a kernel (the triad when rd is NULL) over the arrays
 * of workers [t0, t1), cut in chunks with the clock read between them;
 * its seconds, 0 when the deadline came first. */
static double pass(const struct rl_run_pair *p, unsigned t0, unsigned t1,
		   rl_triad_fn fn, rl_rw_fn rd, double deadline, double *sink)
{
	double t = now_s();

	for (unsigned k = t0; k < t1; k++)
		for (size_t i = 0; i < p->n; i += CHUNK) {
			size_t m = p->n - i < CHUNK ? p->n - i : CHUNK;
			if (rd)
				*sink += rd(p->a[k] + i, p->b[k] + i,
					    p->c[k] + i, 3.0, m);
			else
				fn(p->a[k] + i, p->b[k] + i, p->c[k] + i, 3.0,
				   m);
			if (now_s() > deadline)
				return 0;
		}
	return now_s() - t;
}

/* first touch, by the thread that uses the pages: zeroed pages in one
 * call each (a triad of zeros moves the same bytes), else written; 0 when
 * the deadline came first */
static int touch(struct rl_run_pair *p, unsigned t, double deadline)
{
	size_t n = p->n, bytes = n * sizeof(double);
	if (rl_populate_pages(p->a[t], bytes) == 0 &&
	    rl_populate_pages(p->b[t], bytes) == 0 &&
	    rl_populate_pages(p->c[t], bytes) == 0)
		return now_s() <= deadline;
	for (size_t i = 0; i < n; i += CHUNK) {
		size_t k = n - i < CHUNK ? n - i : CHUNK;
		for (size_t j = i; j < i + k; j++) {
			p->a[t][j] = 0;
			p->b[t][j] = 1;
			p->c[t][j] = 2;
		}
		if (now_s() > deadline)
			return 0;
	}
	return 1;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	if (!gate_wait(w->go))
		return NULL;
	if (!w->p->touched && !touch(w->p, w->t, w->deadline))
		return NULL;
	w->touched = true;
	w->triad_s = pass(w->p, w->t, w->t + 1, w->fn, NULL, w->deadline,
			  &w->sink);
	if (w->triad_s > 0 && w->rd)
		w->read_s = pass(w->p, w->t, w->t + 1, NULL, w->rd,
				 w->deadline, &w->sink);
	return NULL;
}

/* What one point measured besides the all-thread triad: GB/s at 24
 * B/element, 0 not taken. */
struct point_rates {
	double read_t;  /* the read on all threads */
	double triad_1; /* on 1 thread (the caller), over all the arrays */
	double read_1;
};

/* The sum of the workers' rates; 0 when one of them has none. */
static double summed(const struct worker *w, const struct rl_run_pair *p,
		     int read)
{
	double gbs = 0;
	for (unsigned t = 0; t < p->threads; t++) {
		double s = read ? w[t].read_s : w[t].triad_s;
		if (!(s > 0))
			return 0;
		gbs += (double)p->n * RL_TRIAD_STREAM_BYTES / s / 1e9;
	}
	return gbs;
}

void rl_run_pair_release(struct rl_run_pair **pp)
{
	struct rl_run_pair *p = *pp;

	if (!p)
		return;
	for (unsigned t = 0; t < p->threads && p->a && p->b && p->c; t++) {
		free(p->a[t]);
		free(p->b[t]);
		free(p->c[t]);
	}
	free(p->a);
	free(p->b);
	free(p->c);
	free(p);
	*pp = NULL;
}

/* The arrays for threads workers over ws bytes, kept in *pp; NULL with
 * why. */
static struct rl_run_pair *arrays(struct rl_run_pair **pp, unsigned threads,
				  uint64_t ws, char *why, size_t len)
{
	struct rl_run_pair *p = *pp;
	size_t n = (size_t)(ws / RL_TRIAD_STREAM_BYTES / threads);
	size_t bytes = ((n * 8 + (2u << 20) - 1) >> 21) << 21;

	if (p && p->threads == threads)
		return p;
	rl_run_pair_release(pp);
	if (!(p = calloc(1, sizeof *p)) ||
	    !(p->a = calloc(threads, sizeof *p->a)) ||
	    !(p->b = calloc(threads, sizeof *p->b)) ||
	    !(p->c = calloc(threads, sizeof *p->c))) {
		if (p)
			p->threads = threads;
		rl_run_pair_release(&p);
		snprintf(why, len, "not taken: out of memory");
		return NULL;
	}
	p->threads = threads;
	p->n = n;
	p->ws = (uint64_t)n * RL_TRIAD_STREAM_BYTES * threads;
	for (unsigned t = 0; t < threads; t++) {
		p->a[t] = aligned_alloc(2u << 20, bytes);
		p->b[t] = aligned_alloc(2u << 20, bytes);
		p->c[t] = aligned_alloc(2u << 20, bytes);
		if (!p->a[t] || !p->b[t] || !p->c[t]) {
			snprintf(why, len, "not taken: cannot allocate 3 x "
				 "%.0f MiB for its thread %u of %u (a limit on "
				 "memory, ulimit -v?)",
				 (double)bytes / (1 << 20), t + 1, threads);
			rl_run_pair_release(&p);
			return NULL;
		}
	}
	return *pp = p;
}

/* The triad on the pair's threads; GB/s at 24 B/element, or 0 with why
 * (too slow), -1 with why (its threads could not be had); with it, into
 * pr, the read on all threads (rd), or one pass on 1 thread (the caller,
 * over every worker's arrays) of the triad (fn1) or the read (rd1). */
static double triad(struct rl_run_pair *p, const int *cpus, rl_triad_fn fn,
		    rl_rw_fn rd, rl_triad_fn fn1, rl_rw_fn rd1,
		    double budget_s, struct point_rates *pr, char *why,
		    size_t len)
{
	struct worker *w = calloc(p->threads, sizeof *w);
	struct gate go = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			   0 };
	double gbs = 0, s, sink = 0, deadline = now_s() + budget_s;
	unsigned started = 0;
	int e = 0;

	if (!w) {
		snprintf(why, len, "not taken: out of memory");
		return -1;
	}
	for (unsigned t = 0; t < p->threads; t++) {
		w[t] = (struct worker){.cpu = cpus[t], .p = p, .t = t, .fn = fn,
				       .rd = rd, .deadline = deadline,
				       .go = &go};
		if ((e = pthread_create(&w[t].th, NULL, work, &w[t])) != 0)
			break;
		started++;
	}
	/* all started: go; else the started ones quit before touching */
	gate_open(&go, started == p->threads);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].th, NULL);
	if (started == p->threads) {
		p->touched = true;
		for (unsigned t = 0; t < p->threads; t++)
			p->touched &= w[t].touched;
		gbs = summed(w, p, 0);
		pr->read_t = gbs > 0 ? summed(w, p, 1) : 0;
	}
	/* 1 thread: the caller over all the arrays (fn1, then rd1) */
	if (gbs > 0 && fn1 &&
	    (s = pass(p, 0, p->threads, fn1, NULL, deadline, &sink)) > 0)
		pr->triad_1 = (double)p->ws / s / 1e9;
	if (gbs > 0 && rd1 &&
	    (s = pass(p, 0, p->threads, NULL, rd1, deadline, &sink)) > 0)
		pr->read_1 = (double)p->ws / s / 1e9;
	pthread_mutex_destroy(&go.mu);
	pthread_cond_destroy(&go.cv);
	for (unsigned t = 0; t < p->threads; t++)
		sink += w[t].sink;
	pair_sink = pair_sink + sink;
	free(w);
	if (started < p->threads) {
		snprintf(why, len, "not taken: cannot start its thread %u of "
			 "%u: %s (a limit on processes, ulimit -u?)",
			 started + 1, p->threads, strerror(e));
		return -1;
	}
	if (!(gbs > 0)) {
		snprintf(why, len, "not taken: %sa whole pass over %.0f MiB "
			 "took more than its %.2f s (the machine is busy, or "
			 "its memory slow to hand out)",
			 p->touched ? "" : "first touch and ",
			 (double)p->ws / (1 << 20), budget_s);
		return 0;
	}
	return gbs;
}

static void keep(struct rl_roof_check *c, enum rl_pair_op op,
		 unsigned threads, unsigned streams, unsigned after_run,
		 double gbs)
{
	if (!(gbs > 0) || c->n_samples >= RL_PAIR_MAX_SAMPLES)
		return;
	c->samples[c->n_samples++] = (struct rl_pair_sample){
		op, threads, op == RL_PAIR_READ ? streams : 0, after_run, gbs};
}

void rl_run_roof_check(struct rl_roof_check *c, struct rl_run_pair **pair,
		       const struct rl_run_model *model,
		       const struct rl_run_options *opt,
		       const struct rl_mpi_run *mpi, unsigned after_run,
		       unsigned points)
{
	static const unsigned rotation[4] = {2, 4, 3, 1};
	/* beside the all-thread triad, one more sample per point in turn,
	 * the 1-thread ones first (most regions run on one); all three at
	 * the first point and at each of 2 points (a run without
	 * repetitions), so that every roof has two */
	enum { ONE_TRIAD = 1, ONE_READ = 2, ALL_READ = 4 };
	static const unsigned extras[3] = {ONE_TRIAD, ONE_READ, ALL_READ};
	const struct rl_machine *m;
	const struct rl_bw_roof *roof, *one;
	struct rl_cpu *cpu;
	struct rl_run_pair *p = NULL;
	struct point_rates pr = {0, 0, 0};
	char err[512];
	double t0 = now_s(), gbs, share, per_byte, one_gbs, touch_s;
	uint64_t ws, floor_ws, fit;
	unsigned streams, reads = 0, extra;
	rl_triad_fn fn;
	rl_rw_fn rd = NULL;

	if (opt->no_probe)
		return not_taken(c, "%s", "not taken (--no-probe)");
	if (mpi->mode == RL_MPI_RANK || mpi->mode == RL_MPI_RANK_ONLY)
		return not_taken(c, "%s",
				 "not taken under mpirun in a rank "
				 "(ranks share the node)");
	if (!(m = model->machine))
		return not_taken(c, "%s", "no machine model before the run");
	/* the core's clock, as the model's clock_ghz is read (best of
	 * trials of dependent adds): the compute ceilings hold at theirs */
	if (m->clock_ghz > 0 && after_run <= 1) {
		double ghz = rl_probe_clock_ghz(CLOCK_ADDS, CLOCK_TRIALS);
		if (ghz > 0 && after_run)
			c->after_ghz = ghz;
		else if (ghz > 0)
			c->before_ghz = ghz;
		c->seconds += now_s() - t0;
		t0 = now_s();
	}
	if (!(roof = rl_roof_bw_nearest(m, "DRAM", m->cores)) ||
	    !(roof->stream_gbs > 0))
		return not_taken(c, "%s",
				 "the machine model has no DRAM "
				 "triad roof");
	if (!(cpu = malloc(sizeof *cpu)))
		return;
	if (rl_cpu_detect(cpu, err, sizeof err) < 0 ||
	    roof->threads > cpu->logical_cpus || roof->threads == 0) {
		free(cpu);
		return not_taken(c, "%s",
				 "this process may not use the "
				 "CPUs the DRAM roof was measured on");
	}
	/* the run's points share RL_PAIR_BUDGET_S, the first touch one
	 * share more (taken at the first point); a point at most
	 * RL_RUN_CHECK_S. The working set: the DRAM roof's, but not above
	 * what the touch and every point's passes (a triad and a read on
	 * all threads and on 1, with a margin) fit into the budget, never
	 * below twice the last cache level */
	points = points ? points : 1;
	one = rl_roof_bw_nearest(m, "DRAM", 1);
	one_gbs = one && one->threads == 1 ? one->stream_gbs
					   : roof->stream_gbs / roof->threads;
	per_byte = 1 / (TOUCH_GBS * roof->threads * 1e9) +
		   points * PASSES / 2.0 *
			   (1 / (roof->stream_gbs * 1e9) +
			    (points <= 2 ? 2 : 1) /
				    ((roof->threads > 1 ? one_gbs
							: roof->stream_gbs) *
				     1e9));
	ws = roof->working_set_bytes ? roof->working_set_bytes : 1ull << 30;
	fit = (uint64_t)(RL_PAIR_BUDGET_S / per_byte);
	floor_ws = llc_all(m) > UINT64_MAX / 2 ? UINT64_MAX : 2 * llc_all(m);
	if (ws > fit)
		ws = fit;
	if (ws < floor_ws)
		ws = floor_ws; /* the deadline decides whether it fits */
	if (*pair && (*pair)->threads == roof->threads)
		ws = (*pair)->ws; /* the arrays of the first point */
	/* the first touch's expected time comes off the budget once */
	touch_s = (double)ws / (TOUCH_GBS * roof->threads * 1e9);
	share = (RL_PAIR_BUDGET_S - touch_s) / points;
	if (share < RL_PAIR_BUDGET_S / RL_PAIR_POINTS / 2)
		share = RL_PAIR_BUDGET_S / RL_PAIR_POINTS / 2;
	if (share > RL_RUN_CHECK_S)
		share = RL_RUN_CHECK_S;
	/* one thread: no 1-thread extra (the same samples). The first point
	 * takes all three: it comes before the program's length is known,
	 * and a long program has a second point only (each figure then has
	 * its 2 samples) */
	extra = points <= 2 || c->n_points == 0
			? ONE_TRIAD | ONE_READ | ALL_READ
			: extras[c->n_points % 3];
	if (roof->threads == 1)
		extra = ALL_READ;
	for (unsigned i = 0; i < c->n_samples; i++)
		reads += c->samples[i].op == RL_PAIR_READ;
	streams = rotation[(reads / (points <= 2 ? 2 : 1)) % 4];
	fn = rl_triad_kernel(widest(cpu), 0);
	if ((extra & (ONE_READ | ALL_READ)) &&
	    !(rd = rl_read_kernel(widest(cpu), streams)))
		rd = rl_read_kernel(widest(cpu), streams = 3);
	if (!fn)
		snprintf(err, sizeof err, "not taken: no triad kernel");
	else if (ws > half_memory())
		snprintf(err, sizeof err, "not taken: twice the machine "
			 "model's last cache level, %.0f MiB, is more than "
			 "half this machine's memory", (double)ws / (1 << 20));
	else
		p = arrays(pair, roof->threads, ws, err, sizeof err);
	gbs = p ? triad(p, cpu->cpus, fn, extra & ALL_READ ? rd : NULL,
			extra & ONE_TRIAD ? fn : NULL,
			extra & ONE_READ ? rd : NULL,
			p->touched ? share : share + 3 * touch_s + 0.05, &pr, err,
			sizeof err)
		: -1;
	free(cpu);
	c->seconds += now_s() - t0;
	c->pair_seconds += now_s() - t0;
	c->n_points++;
	if (!(gbs > 0)) {
		c->n_points_empty++;
		/* what this machine or model cannot give, said once (not
		 * again after the run); a busy machine only in run.json */
		if (gbs < 0 && !c->why_not[0])
			rl_run_say(opt, "the DRAM check around the run was %s",
				   err);
		if (after_run <= 1)
			not_taken(c, "%.180s", err);
		return;
	}
	keep(c, RL_PAIR_TRIAD, roof->threads, 0, after_run, gbs);
	keep(c, RL_PAIR_READ, roof->threads, streams, after_run, pr.read_t);
	if (roof->threads > 1) {
		keep(c, RL_PAIR_TRIAD, 1, 0, after_run, pr.triad_1);
		keep(c, RL_PAIR_READ, 1, streams, after_run, pr.read_1);
	}
	if (after_run > c->timing_runs)
		c->timing_runs = after_run;
	if (after_run > 1)
		return; /* the check before and after the timing run is kept */
	c->taken = true;
	c->why_not[0] = '\0';
	c->roof_gbs = roof->stream_gbs;
	c->threads = roof->threads;
	c->working_set_bytes = p->ws;
	snprintf(c->probed_at, sizeof c->probed_at, "%s", m->probed_at);
	if (after_run)
		c->after_gbs = gbs;
	else
		c->before_gbs = gbs;
}
