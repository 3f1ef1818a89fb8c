/*
 * rlprof run: the DRAM triad before and after the timing run
 * (model/roof_check.h), with the probes' own triad kernel
 * (probes/probe.h: the one the roof was measured with, so the figures
 * compare), one pinned thread per CPU of the roof. Each triad stops at
 * RL_RUN_CHECK_S whatever the load (a loaded machine takes longer: its
 * passes are cut in 1 MiB chunks, the clock read between them): first
 * touch, then up to 2 whole passes; a thread's rate is its fastest pass, the
 * triad's the sum. The working set is the DRAM roof's, but not above what
 * first touch and two passes at the roof fit into the time; never
 * below twice the last cache level's capacity for all threads (it would
 * measure a cache): then the time decides. No whole timed pass in time:
 * not taken, said. Before each triad, the core's clock (about 2 ms),
 * whenever a model with a clock was found (not in an MPI rank).
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
#include "model/machine.h"
#include "analysis/roof_choice.h"
#include "probes/probe.h"

#define RL_RUN_CHECK_S 0.12 /* each, cut by the clock: 0.3 s in all with
				* the allocation and the threads */
#define TOUCH_GBS 3.0 /* first touch per thread, pages populated in one
			* call (3-3.5 GB/s on a VM here; 1.4 faulted) */
#define PASSES 3      /* 2 passes, and a write-allocate margin */
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

struct worker {
	pthread_t th;
	int cpu;
	size_t n;              /* elements per array */
	double *a, *b, *c;
	rl_triad_fn fn;
	double deadline;
	struct gate *go;
	double best_s;         /* fastest whole pass, 0 none */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	if (!gate_wait(w->go))
		return NULL;
	/* first touch, by the thread that uses the pages: zeroed pages in
	 * one call each (a triad of zeros moves the same bytes), else
	 * written */
	int populated = rl_populate_pages(w->a, w->n * sizeof *w->a) == 0 &&
			rl_populate_pages(w->b, w->n * sizeof *w->b) == 0 &&
			rl_populate_pages(w->c, w->n * sizeof *w->c) == 0;
	for (size_t i = 0; !populated && i < w->n; i += CHUNK) {
		size_t k = w->n - i < CHUNK ? w->n - i : CHUNK;
		for (size_t j = i; j < i + k; j++) {
			w->a[j] = 0;
			w->b[j] = 1;
			w->c[j] = 2;
		}
		if (now_s() > w->deadline)
			return NULL;
	}
	if (now_s() > w->deadline)
		return NULL;
	for (int pass = 0; pass < PASSES - 1; pass++) {
		double t = now_s();
		for (size_t i = 0; i < w->n; i += CHUNK) {
			w->fn(w->a + i, w->b + i, w->c + i, 3.0,
			      w->n - i < CHUNK ? w->n - i : CHUNK);
			if (now_s() > w->deadline)
				return NULL;
		}
		t = now_s() - t;
		if (w->best_s == 0 || t < w->best_s)
			w->best_s = t;
	}
	return NULL;
}

/* The triad on `threads` threads over ws bytes; GB/s at 24 B/element, or
 * 0 with why (too slow), -1 with why (its memory or threads could not be
 * had). */
static double triad(const int *cpus, unsigned threads, uint64_t ws,
		    rl_triad_fn fn, char *why, size_t len)
{
	struct worker *w = calloc(threads, sizeof *w);
	struct gate go = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			   0 };
	double gbs = 0;
	unsigned started = 0;
	size_t n = (size_t)(ws / RL_TRIAD_STREAM_BYTES / threads);
	size_t bytes = ((n * 8 + (2u << 20) - 1) >> 21) << 21;
	int e = 0;

	if (!w) {
		snprintf(why, len, "not taken: out of memory");
		return -1;
	}
	double deadline = now_s() + RL_RUN_CHECK_S;
	for (unsigned t = 0; t < threads; t++) {
		w[t].cpu = cpus[t];
		w[t].n = n;
		w[t].fn = fn;
		w[t].go = &go;
		w[t].deadline = deadline;
		w[t].a = aligned_alloc(2u << 20, bytes);
		w[t].b = aligned_alloc(2u << 20, bytes);
		w[t].c = aligned_alloc(2u << 20, bytes);
		if (!w[t].a || !w[t].b || !w[t].c)
			break;
		if ((e = pthread_create(&w[t].th, NULL, work, &w[t])) != 0)
			break;
		started++;
	}
	/* all started: go; else the started ones quit before touching */
	gate_open(&go, started == threads);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].th, NULL);
	for (unsigned t = 0; t < threads; t++) {
		if (started == threads && w[t].best_s > 0 && gbs >= 0)
			gbs += (double)n * RL_TRIAD_STREAM_BYTES / w[t].best_s /
			       1e9;
		else
			gbs = -1;
		free(w[t].a);
		free(w[t].b);
		free(w[t].c);
	}
	pthread_mutex_destroy(&go.mu);
	pthread_cond_destroy(&go.cv);
	free(w);
	if (started < threads && e) {
		snprintf(why, len, "not taken: cannot start its thread %u of "
			 "%u: %s (a limit on processes, ulimit -u?)",
			 started + 1, threads, strerror(e));
		return -1;
	}
	if (started < threads) {
		snprintf(why, len, "not taken: cannot allocate 3 x %.0f MiB "
			 "for its thread %u of %u (a limit on memory, "
			 "ulimit -v?)", (double)bytes / (1 << 20),
			 started + 1, threads);
		return -1;
	}
	if (gbs <= 0) {
		snprintf(why, len, "not taken: first touch and a whole pass "
			 "over %.0f MiB took more than %.2f s (the machine is "
			 "busy, or its memory slow to hand out)",
			 (double)ws / (1 << 20), RL_RUN_CHECK_S);
		return 0;
	}
	return gbs;
}

void rl_run_roof_check(struct rl_roof_check *c, struct rl_run_model *model,
		       const struct rl_run_options *opt,
		       const struct rl_mpi_run *mpi, int after)
{
	const struct rl_machine *m;
	const struct rl_bw_roof *roof;
	struct rl_cpu *cpu;
	char err[512];
	double t0 = now_s(), gbs;
	uint64_t ws, floor_ws, fit;
	rl_triad_fn fn;

	if (opt->no_probe)
		return not_taken(c, "%s", "not taken (--no-probe)");
	if (mpi->mode == RL_MPI_RANK || mpi->mode == RL_MPI_RANK_ONLY)
		return not_taken(c, "%s",
				 "not taken under mpirun in a rank "
				 "(ranks share the node)");
	if (!(m = rl_run_model_cached(model, mpi)))
		return not_taken(c, "%s", "no machine model before the run");
	/* the core's clock, as the model's clock_ghz is read (best of
	 * trials of dependent adds): the compute ceilings hold at theirs */
	if (m->clock_ghz > 0) {
		double ghz = rl_probe_clock_ghz(CLOCK_ADDS, CLOCK_TRIALS);
		if (ghz > 0 && after)
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
	ws = roof->working_set_bytes ? roof->working_set_bytes : 1ull << 30;
	fit = (uint64_t)(RL_RUN_CHECK_S /
			 (PASSES / (roof->stream_gbs * 1e9) +
			  1 / (TOUCH_GBS * roof->threads * 1e9)));
	floor_ws = llc_all(m) > UINT64_MAX / 2 ? UINT64_MAX : 2 * llc_all(m);
	if (ws > fit)
		ws = fit;
	if (ws < floor_ws)
		ws = floor_ws; /* the deadline decides whether it fits */
	fn = rl_triad_kernel(widest(cpu), 0);
	if (!fn)
		snprintf(err, sizeof err, "not taken: no triad kernel");
	else if (ws > half_memory())
		snprintf(err, sizeof err, "not taken: twice the machine "
			 "model's last cache level, %.0f MiB, is more than "
			 "half this machine's memory", (double)ws / (1 << 20));
	gbs = fn && ws <= half_memory()
		      ? triad(cpu->cpus, roof->threads, ws, fn, err, sizeof err)
		      : -1;
	free(cpu);
	c->seconds += now_s() - t0;
	if (!(gbs > 0)) {
		/* what this machine or model cannot give, said once (not
		 * again after the run); a busy machine only in run.json */
		if (gbs < 0 && !c->why_not[0])
			rl_run_say(opt, "the DRAM check around the run was %s",
				   err);
		return not_taken(c, "%.180s", err);
	}
	c->taken = true;
	c->why_not[0] = '\0';
	c->roof_gbs = roof->stream_gbs;
	c->threads = roof->threads;
	c->working_set_bytes = ws;
	snprintf(c->probed_at, sizeof c->probed_at, "%s", m->probed_at);
	if (after)
		c->after_gbs = gbs;
	else
		c->before_gbs = gbs;
}
