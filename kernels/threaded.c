/*
 * threaded.c - the triad split over `threads` POSIX threads, for
 * per-thread counts. The calling thread computes the first share itself
 * (inside the caller's region); each other share runs on a new thread
 * between d->thread_begin and d->thread_end (rlprof-kernels opens the
 * same region there, so every thread's share is counted on that thread).
 * Shares are whole cache lines (multiples of 8 doubles).
 *
 * Flops and bytes as the serial triad: 2 flops, 24 B (32 with
 * write-allocate) per element, in total over all threads.
 */
#include <pthread.h>
#include <stdio.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define NOINLINE __attribute__((noinline))
#define RL_MAX_THREADS 1024

static const double triad_s = 3.0;

struct share {
	struct rl_kernel_data *d;
	size_t lo, hi;
};

static NOINLINE void triad_part(double *restrict a, const double *restrict b,
				const double *restrict c, double s, size_t lo,
				size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		a[i] = b[i] + s * c[i];
}

static void do_share(const struct share *sh)
{
	struct rl_kernel_data *d = sh->d;
	triad_part(d->a, d->b, d->c, triad_s, sh->lo, sh->hi);
}

static void *worker(void *arg)
{
	const struct share *sh = arg;
	if (sh->d->thread_begin)
		sh->d->thread_begin("triad_mt", sh->d->hook_arg);
	do_share(sh);
	if (sh->d->thread_end)
		sh->d->thread_end("triad_mt", sh->d->hook_arg);
	return NULL;
}

/* Share k of t: whole cache lines, the last one possibly shorter. */
static struct share share_of(struct rl_kernel_data *d, int k, int t)
{
	size_t chunk = (d->n + (size_t)t - 1) / (size_t)t;
	chunk = (chunk + 7) & ~(size_t)7;
	size_t lo = (size_t)k * chunk, hi = lo + chunk;
	return (struct share){d, lo < d->n ? lo : d->n, hi < d->n ? hi : d->n};
}

static void triad_mt_run(struct rl_kernel_data *d)
{
	struct share sh[RL_MAX_THREADS];
	pthread_t tid[RL_MAX_THREADS];
	int started[RL_MAX_THREADS];
	int t = d->threads < 1 ? 1 : d->threads;
	if (t > RL_MAX_THREADS)
		t = RL_MAX_THREADS;
	for (int k = 1; k < t; k++) {
		sh[k] = share_of(d, k, t);
		started[k] = pthread_create(&tid[k], NULL, worker, &sh[k]) == 0;
	}
	sh[0] = share_of(d, 0, t);
	do_share(&sh[0]);
	for (int k = 1; k < t; k++) {
		if (started[k])
			pthread_join(tid[k], NULL);
		else /* no thread: do the share here, still counted */
			do_share(&sh[k]);
	}
}

static void triad_mt_init(struct rl_kernel_data *d)
{
	double *b = d->b, *c = d->c;
	for (size_t i = 0; i < d->n; i++) {
		b[i] = rl_kpat_u(i);
		c[i] = rl_kpat_sign(i);
	}
}

static int triad_mt_check(const struct rl_kernel_data *d, int reps, char *err,
			  size_t errlen)
{
	const double *a = d->a;
	(void)reps;
	for (size_t i = 0; i < d->n; i++) {
		double want = rl_kpat_u(i) + triad_s * rl_kpat_sign(i);
		if (a[i] != want) {
			snprintf(err, errlen,
				 "triad_mt: a[%zu] is %.17g, expected %.17g", i,
				 a[i], want);
			return RL_EINVAL;
		}
	}
	return 0;
}

const struct rl_kernel rl_kernels_threaded[] = {
	{"triad_mt", "threads", "f64", 2, 24, 32, 0, 1, RL_KSHAPE_ARRAY,
	 "a[i] = b[i] + s*c[i] on --threads threads", triad_mt_init,
	 triad_mt_run, triad_mt_check},
};
const size_t rl_kernels_threaded_count =
	sizeof rl_kernels_threaded / sizeof rl_kernels_threaded[0];
