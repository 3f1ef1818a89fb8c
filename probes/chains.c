/* Runs a chain kernel on one or several pinned threads at once and turns
 * the best trial into GFLOP/s (all threads together). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe.h"
#include "rl_error.h"

#define MAX_TRIALS 64

struct chain_job {
	const struct rl_chain_params *p;
	rl_chain_fn fn;
	atomic_uint *arrived;
	unsigned idx;
	double t0[MAX_TRIALS], t1[MAX_TRIALS];
	double sum;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *chain_thread(void *arg)
{
	struct chain_job *j = arg;
	const struct rl_chain_params *p = j->p;
	if (p->cpus) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(p->cpus[j->idx], &set);
		pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	}
	j->sum = j->fn(p->iters / 8 + 1, 1.0); /* warm-up */
	for (unsigned t = 0; t < p->trials; t++) {
		/* all threads start each trial together */
		unsigned target = (t + 1) * p->threads;
		atomic_fetch_add(j->arrived, 1);
		while (atomic_load(j->arrived) < target)
			__builtin_ia32_pause();
		j->t0[t] = now_s();
		j->sum += j->fn(p->iters, 1.0);
		j->t1[t] = now_s();
	}
	return NULL;
}

int rl_probe_chains(const struct rl_chain_params *p,
		    struct rl_chain_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	rl_chain_fn fn = rl_chain_kernel(p->isa, p->f32, p->add_only,
					 p->chains);
	if (!fn)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "no %s chain kernel for '%s' %s with %u chains",
			       p->add_only ? "add" : "fma", rl_isa_name(p->isa),
			       p->f32 ? "f32" : "f64", p->chains);
	if (p->threads < 1 || p->trials < 1 || p->trials > MAX_TRIALS ||
	    p->iters < 1)
		return rl_fail(err, errlen, RL_EINVAL,
			       "chains: %u threads, %u trials out of range",
			       p->threads, p->trials);
	struct chain_job *jobs = calloc(p->threads, sizeof *jobs);
	pthread_t *th = calloc(p->threads, sizeof *th);
	atomic_uint arrived = 0;
	int rc = 0;
	unsigned started = 0;
	if (!jobs || !th) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < p->threads; i++) {
		jobs[i] = (struct chain_job){ .p = p, .fn = fn,
					      .arrived = &arrived, .idx = i };
		if (pthread_create(&th[i], NULL, chain_thread, &jobs[i])) {
			rc = rl_fail(err, errlen, RL_EIO,
				     "cannot start chain thread %u", i);
			/* let the started ones finish: count the missing
			 * arrivals as done */
			for (unsigned t = 0; t < p->trials; t++)
				atomic_fetch_add(&arrived,
						 p->threads - started);
			break;
		}
		started++;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (rc)
		goto out;
	double best = 0, times[MAX_TRIALS];
	for (unsigned t = 0; t < p->trials; t++) {
		double t0 = jobs[0].t0[t], t1 = jobs[0].t1[t];
		for (unsigned i = 1; i < p->threads; i++) {
			if (jobs[i].t0[t] < t0)
				t0 = jobs[i].t0[t];
			if (jobs[i].t1[t] > t1)
				t1 = jobs[i].t1[t];
		}
		times[t] = t1 - t0;
		if (t == 0 || times[t] < best)
			best = times[t];
	}
	/* median by insertion sort (trials are few) */
	for (unsigned i = 1; i < p->trials; i++)
		for (unsigned k = i; k > 0 && times[k] < times[k - 1]; k--) {
			double x = times[k];
			times[k] = times[k - 1];
			times[k - 1] = x;
		}
	double flops = rl_chain_flops_per_step(p->isa, p->f32, p->add_only) *
		       p->chains * (double)p->iters * p->threads;
	r->best_s = best;
	r->best_gflops = flops / best / 1e9;
	r->median_gflops = flops / times[p->trials / 2] / 1e9;
	for (unsigned i = 0; i < p->threads; i++)
		r->checksum += jobs[i].sum;
out:
	free(jobs);
	free(th);
	return rc;
}
