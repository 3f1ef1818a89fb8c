/* Triad worker pool: one thread per CPU, pinned with
 * pthread_setaffinity_np; each worker owns its arrays a, b, c (address
 * space reserved up front, pages first touched by that worker when a
 * sweep first reaches them), so a growing sweep touches every page
 * once; a job on fewer threads may ask the idle workers to touch their
 * own ahead, at the same time, before any timed pass (ahead_elems). No
 * huge pages are asked for (madvise MADV_HUGEPAGE): a user's program
 * gets them only where the system gives them unasked, and where the
 * kernel compacts memory for advised ranges on a fault (defrag
 * "madvise", the Debian default) first touch fell from 1.5 to 0.09 GB/s
 * on a fragmented VM here, 9 of a quick probe's 12 s. Trials start
 * together behind a spinning barrier; a trial's time runs from the first
 * thread's start to the last thread's end, as STREAM times its parallel
 * region.
 *
 * Arrays too large to repeat within a trial (one pass per trial: DRAM)
 * are also timed in chunks of CHUNK_ELEMS elements: a preempted chunk is
 * only slower, so the best time of each chunk over the trials, summed,
 * is the pass time of an undisturbed run even on a busy machine. With
 * several threads a chunk counts only when the other threads completed
 * about one chunk each meanwhile (they ran at the same time, sharing the
 * bandwidth, and this one was not preempted while they ran on); when
 * fewer than half the chunks ever did, the trials' wall time stands. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "probes/probe.h"
#include "common/rl_error.h"

#define MAX_TRIALS 64
#define HUGE_BYTES (2u << 20)
#define CHUNK_ELEMS (64u * 1024) /* 3 x 512 KiB */

struct worker {
	pthread_t th;
	struct rl_triad_pool *pool;
	unsigned idx;
	int cpu;
	void *map;
	size_t map_bytes;
	double *a, *b, *c;
	size_t touched_a, touched_b, touched_c; /* elements with pages */
	double t0[MAX_TRIALS + 1], t1[MAX_TRIALS + 1];
	double *chunk_shared; /* best chunk times, together and undisturbed */
	size_t chunk_cap;
	double pass_s;                    /* sum of the best chunk times */
	volatile double sink;             /* keeps the read streams' sums */
};

struct rl_triad_pool {
	unsigned n;
	size_t max_elems;
	pthread_mutex_t mu;
	pthread_cond_t cv, done_cv;
	unsigned gen, done;
	int quit;
	/* the current job: the triad, or a read / fill stream */
	rl_triad_fn fn;
	rl_rw_fn rw;
	int uses_c;             /* not the update: it runs over a and b */
	unsigned threads, trials, reps;
	size_t elems;
	int chunked;
	size_t ahead; /* the other workers' touch, first dispatch only */
	/* the last job's arrays and one pass's time: a job on the same
	 * large arrays right after it needs no warm-up pass */
	size_t warm_elems;
	unsigned warm_threads;
	double warm_one;
	int warm_beyond; /* the last job's arrays lay beyond the caches */
	atomic_uint arrived, phase;
	atomic_ulong chunks_done;
	struct worker w[];
};

static void spin_barrier(struct rl_triad_pool *p, unsigned n)
{
	unsigned ph = atomic_load(&p->phase);
	if (atomic_fetch_add(&p->arrived, 1) + 1 == n) {
		atomic_store(&p->arrived, 0);
		atomic_fetch_add(&p->phase, 1);
		return;
	}
	while (atomic_load(&p->phase) == ph)
		__builtin_ia32_pause();
}

static void kernel(struct worker *w, size_t off, size_t len)
{
	struct rl_triad_pool *p = w->pool;
	if (p->rw)
		w->sink = w->sink + p->rw(w->a + off, w->b + off, w->c + off,
					  3.0, len);
	else
		p->fn(w->a + off, w->b + off, w->c + off, 3.0, len);
}

int rl_populate_pages(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t pg = 4096;
	uintptr_t lo = (uintptr_t)p & ~(pg - 1);
	uintptr_t hi = ((uintptr_t)p + bytes + pg - 1) & ~(pg - 1);
	return hi <= lo || madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) == 0
		       ? 0
		       : -1;
#else
	(void)p;
	(void)bytes;
	return -1;
#endif
}

/* Pages for [*touched, elems) of one array: populated (zeros: every
 * kernel moves the same bytes over them, none makes a subnormal), else
 * written. */
static void touch_array(double *arr, size_t *touched, size_t elems,
			double v)
{
	if (elems <= *touched)
		return;
	if (rl_populate_pages(arr + *touched,
			      (elems - *touched) * sizeof *arr) != 0)
		for (size_t i = *touched; i < elems; i++)
			arr[i] = v;
	*touched = elems;
}

/* The arrays the job uses: the update none of c (it runs over a and b
 * with 1.5x the elements). */
static void touch(struct worker *w, size_t elems, int uses_c)
{
	touch_array(w->a, &w->touched_a, elems, 0.0);
	touch_array(w->b, &w->touched_b, elems, 1.0);
	if (uses_c)
		touch_array(w->c, &w->touched_c, elems, 2.0);
}

static int chunk_arrays(struct worker *w, size_t n)
{
	if (n <= w->chunk_cap)
		return 0;
	free(w->chunk_shared);
	w->chunk_shared = malloc(n * sizeof(double));
	w->chunk_cap = w->chunk_shared ? n : 0;
	return w->chunk_cap ? 0 : -1;
}

/* One pass in timed chunks; keeps each chunk's best time. */
static void chunked_pass(struct worker *w, size_t nch)
{
	struct rl_triad_pool *p = w->pool;
	for (size_t k = 0; k < nch; k++) {
		size_t off = k * CHUNK_ELEMS;
		size_t len = off + CHUNK_ELEMS <= p->elems ? CHUNK_ELEMS
							  : p->elems - off;
		unsigned long c0 = atomic_load(&p->chunks_done);
		double t0 = rl_probe_now_s();
		kernel(w, off, len);
		double dt = rl_probe_now_s() - t0;
		unsigned long others = atomic_fetch_add(&p->chunks_done, 1) - c0;
		/* running together, each other thread finishes about one
		 * chunk during ours: none means we ran alone, many means we
		 * were preempted while they ran */
		unsigned long n1 = p->threads - 1;
		if ((n1 == 0 || (others >= n1 && others <= 2 * n1)) &&
		    dt < w->chunk_shared[k])
			w->chunk_shared[k] = dt;
	}
}

static void run_job(struct worker *w)
{
	struct rl_triad_pool *p = w->pool;
	size_t nch = (p->elems + CHUNK_ELEMS - 1) / CHUNK_ELEMS;
	int chunked = p->chunked && chunk_arrays(w, nch) == 0;
	touch(w, p->elems, p->uses_c);
	if (p->ahead) /* the others touch meanwhile: none while timed */
		spin_barrier(p, p->n);
	if (chunked)
		for (size_t k = 0; k < nch; k++)
			w->chunk_shared[k] = 1e30;
	for (unsigned t = 0; t < p->trials; t++) {
		if (chunked) {
			spin_barrier(p, p->threads);
			w->t0[t] = rl_probe_now_s();
			chunked_pass(w, nch);
			w->t1[t] = rl_probe_now_s();
			continue;
		}
		spin_barrier(p, p->threads);
		double t0 = rl_probe_now_s();
		for (unsigned r = 0; r < p->reps; r++)
			kernel(w, 0, p->elems);
		w->t1[t] = rl_probe_now_s();
		w->t0[t] = t0;
	}
	/* the pass time from the chunks that ran together undisturbed,
	 * scaled to the whole pass when at least half of them did; else
	 * none (the trials' wall time stands) */
	w->pass_s = 0;
	if (chunked) {
		double sum = 0;
		size_t ok = 0;
		for (size_t k = 0; k < nch; k++)
			if (w->chunk_shared[k] < 1e30) {
				sum += w->chunk_shared[k];
				ok++;
			}
		if (ok && 2 * ok >= nch)
			w->pass_s = sum * (double)nch / (double)ok;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct rl_triad_pool *p = w->pool;
	unsigned seen = 0;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (p->gen == seen && !p->quit)
			pthread_cond_wait(&p->cv, &p->mu);
		int quit = p->quit;
		seen = p->gen;
		pthread_mutex_unlock(&p->mu);
		if (quit) {
			/* its own pages, beside the other workers': closing
			 * a quick probe's pool took 32-46 ms here against
			 * 42-56 when one thread freed them all (paired) */
			munmap(w->map, w->map_bytes);
			w->map = NULL;
			return NULL;
		}
		if (w->idx < p->threads) {
			run_job(w);
		} else if (p->ahead) {
			touch(w, p->ahead, p->uses_c);
			spin_barrier(p, p->n);
		}
		pthread_mutex_lock(&p->mu);
		if (++p->done == p->n)
			pthread_cond_signal(&p->done_cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static int map_arrays(struct worker *w, size_t max_elems)
{
	/* b and c start 1 KiB + 64 B and 2 KiB + 128 B after a 2 MiB
	 * boundary so the three streams do not alias in the caches. */
	size_t arr = (max_elems * sizeof(double) + 4096 + HUGE_BYTES - 1) &
		     ~(size_t)(HUGE_BYTES - 1);
	w->map_bytes = 3 * arr + HUGE_BYTES;
	w->map = mmap(NULL, w->map_bytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (w->map == MAP_FAILED) {
		w->map = NULL;
		return -1;
	}
	char *base = (char *)(((uintptr_t)w->map + HUGE_BYTES - 1) &
			      ~(uintptr_t)(HUGE_BYTES - 1));
	w->a = (double *)(void *)base;
	w->b = (double *)(void *)(base + arr + 1024 + 64);
	w->c = (double *)(void *)(base + 2 * arr + 2048 + 128);
	return 0;
}

int rl_triad_pool_open(struct rl_triad_pool **pool, unsigned threads,
		       const int *cpus, size_t max_elems, char *err,
		       size_t errlen)
{
	*pool = NULL;
	if (threads < 1 || max_elems < 16)
		return rl_fail(err, errlen, RL_EINVAL,
			       "triad pool needs a thread and 16 elements");
	struct rl_triad_pool *p =
		calloc(1, sizeof *p + threads * sizeof p->w[0]);
	if (!p)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	p->max_elems = max_elems;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	pthread_cond_init(&p->done_cv, NULL);
	int rc = 0;
	for (unsigned i = 0; i < threads; i++) {
		struct worker *w = &p->w[i];
		w->pool = p;
		w->idx = i;
		w->cpu = cpus[i];
		if (map_arrays(w, max_elems)) {
			rc = rl_fail(err, errlen, RL_ENOMEM,
				     "cannot reserve %zu MiB for triad arrays: "
				     "%s",
				     3 * max_elems * sizeof(double) >> 20,
				     strerror(errno));
			break;
		}
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof set, &set);
		int e = pthread_create(&w->th, &attr, worker_main, w);
		pthread_attr_destroy(&attr);
		if (e) {
			munmap(w->map, w->map_bytes);
			w->map = NULL;
			rc = rl_fail(err, errlen, RL_EIO,
				     "cannot start triad thread on CPU %d: %s",
				     w->cpu, strerror(e));
			break;
		}
		/* affinity again in the thread's own terms, as the issue
		 * asks for pthread_setaffinity_np */
		pthread_setaffinity_np(w->th, sizeof set, &set);
		p->n++;
	}
	if (rc) {
		rl_triad_pool_close(p);
		return rc;
	}
	*pool = p;
	return 0;
}

void rl_triad_pool_close(struct rl_triad_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->n; i++) {
		pthread_join(p->w[i].th, NULL); /* it unmapped its arrays */
		free(p->w[i].chunk_shared);
	}
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	pthread_cond_destroy(&p->done_cv);
	free(p);
}

/* Runs the current job on every worker (idle ones check in, after
 * touching their own arrays ahead when the job asks). */
static void dispatch(struct rl_triad_pool *p)
{
	pthread_mutex_lock(&p->mu);
	p->done = 0;
	p->gen++;
	pthread_cond_broadcast(&p->cv);
	while (p->done < p->n)
		pthread_cond_wait(&p->done_cv, &p->mu);
	p->ahead = 0; /* touched: the job's next dispatches time at once */
	pthread_mutex_unlock(&p->mu);
}

static double trial_s(const struct rl_triad_pool *p, unsigned t)
{
	double t0 = p->w[0].t0[t], t1 = p->w[0].t1[t];
	for (unsigned i = 1; i < p->threads; i++) {
		if (p->w[i].t0[t] < t0)
			t0 = p->w[i].t0[t];
		if (p->w[i].t1[t] > t1)
			t1 = p->w[i].t1[t];
	}
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int rl_triad_pool_run(struct rl_triad_pool *p,
		      const struct rl_triad_params *q,
		      struct rl_triad_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	rl_triad_fn fn = q->op == RL_OP_TRIAD ? rl_triad_kernel(q->isa, q->nt)
					      : NULL;
	rl_rw_fn rw = q->op == RL_OP_READ && q->streams && !q->nt
			      ? rl_read_kernel(q->isa, q->streams)
			      : rl_rw_kernel(q->isa, q->op, q->nt);
	if (!fn && !rw)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "no %s %s kernel for '%s' on this CPU",
			       q->nt ? "non-temporal" : "plain",
			       rl_stream_op_name(q->op), rl_isa_name(q->isa));
	if (q->threads < 1 || q->threads > p->n || q->elems < 16 ||
	    q->elems > p->max_elems || q->trials < 1 ||
	    q->trials >= MAX_TRIALS)
		return rl_fail(err, errlen, RL_EINVAL,
			       "triad: %u threads, %zu elements, %u trials "
			       "out of range",
			       q->threads, q->elems, q->trials);
	p->fn = fn;
	p->rw = rw;
	p->uses_c = q->op != RL_OP_UPDATE;
	p->threads = q->threads;
	p->elems = q->elems;
	/* every worker of the pool touches in the job's first dispatch */
	p->ahead = q->threads < p->n ? q->ahead_elems : 0;
	if (p->ahead > q->elems)
		p->ahead = q->elems;
	/* warm-up and calibration: passes after the first touch; a pass's
	 * time is the fastest any thread took for its own (a thread
	 * preempted during calibration must not make the trials too short
	 * to time). Arrays of 32 MiB and more that the last job passed over
	 * on as many threads, to their end or beyond, are as warm as a pass
	 * makes them (what it left in the caches is its tail: at this
	 * pass's end or past it), and its pass time, scaled, calibrates: no
	 * warm-up. Arrays several times the last level's size
	 * (beyond_caches: DRAM) need none right after another such job,
	 * whatever its size and threads: a pass meets nothing the caches
	 * hold when it starts (in one thread at 470 MiB the update, over
	 * 1.5x the elements, read the same without its warm-up, in 73 ms
	 * against 112). After a job the caches held whole (32 MiB and more
	 * fit a large L3: this Xeon guest's one-thread L3 item measured at
	 * 32 MiB), this pass's start is still there: a warm-up. */
	int large = q->elems * RL_TRIAD_STREAM_BYTES >= (32u << 20);
	double one = p->warm_one * (double)q->elems /
		     (double)(p->warm_elems ? p->warm_elems : 1);
	int warm = large && one > 0 &&
		   ((p->warm_elems >= q->elems &&
		     p->warm_threads == q->threads) ||
		    (q->beyond_caches && p->warm_beyond));
	if (!warm) {
		p->trials = 1;
		p->reps = 1;
		dispatch(p);
		one = trial_s(p, 0);
		r->warmup_passes++;
	}
	if (!large) {
		p->trials = 3;
		dispatch(p);
		r->warmup_passes += 3;
		for (unsigned i = 0; i < 3; i++)
			for (unsigned k = 0; k < q->threads; k++) {
				double dt = p->w[k].t1[i] - p->w[k].t0[i];
				if (dt > 0 && dt < one)
					one = dt;
			}
	}
	unsigned reps = 1;
	if (one > 0 && one < q->min_trial_s)
		reps = (unsigned)(q->min_trial_s / one) + 1;
	/* with several passes per trial the first trial is another
	 * warm-up; one pass per trial (large arrays) was warmed by the
	 * calibration pass already */
	unsigned skip = reps > 1;
	r->warmup_passes += skip * reps;
	p->reps = reps;
	p->trials = q->trials + skip;
	p->chunked = reps == 1 && q->elems >= 4 * CHUNK_ELEMS &&
		     !q->whole_passes;
	dispatch(p);
	double t[MAX_TRIALS];
	for (unsigned i = 0; i < q->trials; i++)
		t[i] = trial_s(p, i + skip);
	p->warm_elems = q->elems;
	p->warm_threads = q->threads;
	p->warm_one = t[0] / reps;
	p->warm_beyond = q->beyond_caches;
	if (q->private_level && q->threads > 1 && !p->chunked) {
		/* threads that share no cache share no bandwidth: each
		 * thread's own k-th fastest trial, their rates summed, is
		 * the k-th trial (a thread preempted in one trial lowers
		 * only its own figure of that trial) */
		double own[MAX_TRIALS], rate[MAX_TRIALS] = { 0 };
		for (unsigned k = 0; k < q->threads; k++) {
			for (unsigned i = 0; i < q->trials; i++)
				own[i] = p->w[k].t1[i + skip] -
					 p->w[k].t0[i + skip];
			qsort(own, q->trials, sizeof own[0], cmp_double);
			for (unsigned i = 0; i < q->trials; i++)
				if (own[i] > 0)
					rate[i] += 1.0 / own[i];
		}
		for (unsigned i = 0; i < q->trials; i++)
			if (rate[i] > 0)
				t[i] = q->threads / rate[i];
	}
	double bytes = (double)RL_TRIAD_STREAM_BYTES * q->elems * q->threads *
		       reps;
	r->n_trials = q->trials < 63 ? q->trials : 63;
	for (unsigned i = 0; i < r->n_trials; i++)
		r->trial_gbs[i] = t[i] > 0 ? bytes / t[i] / 1e9 : 0;
	qsort(t, q->trials, sizeof t[0], cmp_double);
	double best = t[0];
	if (p->chunked) {
		/* the slowest thread's undisturbed pass */
		double pass = 0;
		for (unsigned i = 0; i < q->threads; i++) {
			if (p->w[i].pass_s <= 0) {
				pass = 0;
				break;
			}
			if (p->w[i].pass_s > pass)
				pass = p->w[i].pass_s;
		}
		if (pass > 0 && pass < best)
			best = pass;
	}
	r->chunked = p->chunked;
	r->reps = reps;
	r->best_s = best;
	r->median_s = t[q->trials / 2];
	r->best_gbs = bytes / best / 1e9;
	r->median_gbs = bytes / r->median_s / 1e9;
	r->spread_pct = (r->best_gbs - r->median_gbs) / r->best_gbs * 100;
	r->working_set_bytes =
		(uint64_t)RL_TRIAD_STREAM_BYTES * q->elems * q->threads;
	return 0;
}

size_t rl_triad_check(enum rl_isa isa, int nt, size_t n)
{
	rl_triad_fn fn = rl_triad_kernel(isa, nt);
	if (!fn)
		return (size_t)-1;
	double *a = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
	double *b = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
	double *c = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
	size_t wrong = n;
	if (a && b && c) {
		for (size_t i = 0; i < n; i++) {
			a[i] = -1.0;
			b[i] = 0.5 * (double)i;
			c[i] = (double)i + 1.0;
		}
		fn(a, b, c, 3.0, n);
		wrong = 0;
		for (size_t i = 0; i < n; i++)
			wrong += a[i] != 0.5 * (double)i + 3.0 * ((double)i + 1.0);
	}
	free(a);
	free(b);
	free(c);
	return wrong;
}
