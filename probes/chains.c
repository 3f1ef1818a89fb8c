/* Runs a chain kernel on one or several pinned threads at once and turns
 * the best trial into GFLOP/s (all threads together). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probe.h"
#include "common/rl_error.h"

#define MAX_TRIALS 64

struct chain_job {
	const struct rl_chain_params *p;
	rl_chain_fn fn;
	atomic_uint *arrived;
	unsigned idx;
	double t0[MAX_TRIALS], t1[MAX_TRIALS];
	double sum;
};

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
		j->t0[t] = rl_probe_now_s();
		j->sum += j->fn(p->iters, 1.0);
		j->t1[t] = rl_probe_now_s();
	}
	return NULL;
}

int rl_probe_chains(const struct rl_chain_params *p,
		    struct rl_chain_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	rl_chain_fn fn = rl_chain_kernel_op(p->isa, p->op, p->f32, p->add_only,
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
	/* A trial's rate is the sum of each thread's own rate: the threads
	 * start together and share no memory traffic, so a preempted thread
	 * slows only its own figure, not the others' (on SMT siblings that
	 * share FMA units this would favour trials where one sibling was
	 * off the core: rlprof pins one thread per logical CPU, so there it
	 * is an upper bound). */
	double flops1 = rl_chain_flops_per_step(p->isa, p->f32, p->add_only) *
			p->chains * (double)p->iters;
	double rates[MAX_TRIALS] = { 0 }, best = 0;
	for (unsigned t = 0; t < p->trials; t++) {
		rates[t] = 0;
		for (unsigned i = 0; i < p->threads; i++) {
			double dt = jobs[i].t1[t] - jobs[i].t0[t];
			if (dt > 0)
				rates[t] += flops1 / dt / 1e9;
		}
		if (rates[t] > best)
			best = rates[t];
	}
	/* median by insertion sort (trials are few) */
	for (unsigned i = 1; i < p->trials; i++)
		for (unsigned k = i; k > 0 && rates[k] < rates[k - 1]; k--) {
			double x = rates[k];
			rates[k] = rates[k - 1];
			rates[k - 1] = x;
		}
	r->best_gflops = best;
	r->median_gflops = rates[p->trials / 2];
	r->best_s = best > 0 ? flops1 * p->threads / best / 1e9 : 0;
	for (unsigned i = 0; i < p->threads; i++)
		r->checksum += jobs[i].sum;
out:
	free(jobs);
	free(th);
	return rc;
}
