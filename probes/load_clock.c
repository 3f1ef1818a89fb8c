/* The clock under an ISA's FMA load on several cores at once: every
 * pinned thread runs the load kernel (FMA chains + dependent integer
 * adds, see rl_probe_load_clock_ghz) in trials that start together; a
 * trial's clock is the mean of each thread's own adds / time (a thread
 * preempted by other work lowers only its own figure), and the best
 * trial counts. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "probes/probe.h"

#define MAX_TRIALS 64

struct load_job {
	rl_load_kernel_fn fn;
	unsigned adds, trials, threads;
	long iters;
	int cpu;
	atomic_uint *arrived;
	double ghz[MAX_TRIALS];
};

/* through a volatile so the compiler cannot know the addend */
static volatile unsigned long load_addend = 1;

static void *load_thread(void *arg)
{
	struct load_job *j = arg;
	if (j->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(j->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	}
	double sum = 0;
	j->fn(j->iters * 8, j->adds, load_addend, &sum); /* warm-up */
	for (unsigned t = 0; t < j->trials; t++) {
		unsigned target = (t + 1) * j->threads;
		atomic_fetch_add(j->arrived, 1);
		while (atomic_load(j->arrived) < target)
			__builtin_ia32_pause();
		double t0 = rl_probe_now_s();
		unsigned long n = j->fn(j->iters, j->adds, load_addend, &sum);
		double dt = rl_probe_now_s() - t0;
		j->ghz[t] = n == (unsigned long)j->iters * j->adds &&
					    isfinite(sum)
				    ? rl_clock_ghz_from_adds((double)n, dt)
				    : 0;
	}
	return NULL;
}

double rl_probe_load_clock_all_ghz(enum rl_isa isa, int f32, unsigned units,
				   long iters, unsigned trials,
				   unsigned threads, const int *cpus)
{
	unsigned chains = 0;
	rl_load_kernel_fn fn = rl_load_kernel(isa, f32, &chains);
	unsigned adds = rl_load_clock_adds(chains, units);
	if (!fn || adds > 17 || iters < 1 || threads < 1 || trials < 1 ||
	    trials > MAX_TRIALS)
		return 0;
	struct load_job *jobs = calloc(threads, sizeof *jobs);
	pthread_t *th = calloc(threads, sizeof *th);
	atomic_uint arrived = 0;
	unsigned started = 0;
	double best = 0;
	if (!jobs || !th)
		goto out;
	for (unsigned i = 0; i < threads; i++) {
		jobs[i] = (struct load_job){ .fn = fn, .adds = adds,
					     .trials = trials,
					     .threads = threads, .iters = iters,
					     .cpu = cpus ? cpus[i] : -1,
					     .arrived = &arrived };
		if (pthread_create(&th[i], NULL, load_thread, &jobs[i])) {
			/* let the started ones finish: count the missing
			 * arrivals as done */
			for (unsigned t = 0; t < trials; t++)
				atomic_fetch_add(&arrived, threads - started);
			break;
		}
		started++;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (started < threads)
		goto out;
	for (unsigned t = 0; t < trials; t++) {
		double s = 0;
		for (unsigned i = 0; i < threads; i++)
			s += jobs[i].ghz[t];
		if (s / threads > best)
			best = s / threads;
	}
out:
	free(jobs);
	free(th);
	return best;
}
