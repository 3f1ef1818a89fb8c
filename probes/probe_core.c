/* The probe's watch on its core's rate (core_rate.c): readings taken on
 * the first CPU between measurements, judged against the best the probe
 * saw, and the compute roofs measured again when the core was shared
 * around them (probe_compute_again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/probe_steps.h"

static void keep_two(double v, double *best, double *second)
{
	if (v > *best) {
		*second = *best;
		*best = v;
	} else if (v > *second) {
		*second = v;
	}
}

/* The best rate but one (the best while only one was read). */
static double ref(double best, double second)
{
	return second > 0 ? second : best;
}

struct rl_core_rate probe_core_read(struct probe_ctx *c)
{
	struct rl_core_rate r;
	if (rl_probe_core_rate(c->core_cpu, c->cpu->fma, c->core_chains,
			       c->core_read_fn, &r))
		return r; /* zeros: nothing known, nothing judged */
	keep_two(r.fma, &c->fma_best, &c->fma_second);
	keep_two(r.read, &c->read_best, &c->read_second);
	return r;
}

double probe_core_share(const struct probe_ctx *c,
			const struct rl_core_rate *r, int with_read)
{
	double share = rl_core_fma_share(r->fma,
					 ref(c->fma_best, c->fma_second));
	/* the read stream has no whole number, and on the Xeon guest it
	 * reads 76 or 96 bytes per cycle from one moment to the next with
	 * nobody else on the core: its share counts from there; its
	 * reference is the best read but one, or the L1 read roof of the
	 * model this probe replaces where that is higher (a probe wholly
	 * inside a slow stretch of the host read 161 GB/s against 290) */
	double rr = ref(c->read_best, c->read_second);
	if (c->o->prior_read_bpc > rr)
		rr = c->o->prior_read_bpc;
	if (with_read && rr > 0 && r->read > 0) {
		double s = r->read / rr / (1 - RL_CORE_READ_SPREAD);
		if (s < share)
			share = s;
	}
	return share;
}

int probe_core_whole(const struct probe_ctx *c, const struct rl_core_rate *r,
		     int with_read)
{
	return probe_core_share(c, r, with_read) >= 1 - RL_CORE_RATE_SHARED;
}

/* The FMA rate the compute roofs were measured at: the lowest reading
 * around them but one (one reading alone, the first of a process often,
 * may be low for a moment); -1 none. */
static double compute_rate(const struct probe_ctx *c)
{
	double lo = -1, lo2 = -1;
	for (size_t i = 0; i < c->n_compute_fma; i++) {
		double v = c->compute_fma[i];
		if (lo < 0 || v < lo) {
			lo2 = lo;
			lo = v;
		} else if (lo2 < 0 || v < lo2) {
			lo2 = v;
		}
	}
	return lo2 >= 0 ? lo2 : lo;
}

/* The same roof of two measurements. */
static int same_roof(const struct rl_compute_roof *a,
		     const struct rl_compute_roof *b)
{
	return a->threads == b->threads && !strcmp(a->name, b->name) &&
	       !strcmp(a->kind, b->kind) && !strcmp(a->precision, b->precision);
}

/* The compute roofs measured while the core was shared (their FMA rate
 * not whole): once the core runs whole (read every 2 ms for at most
 * cap_s), measured again, each roof keeping its better measurement;
 * where the core never ran whole again, or the new measurement was
 * shared too, each roof says so. */
int probe_compute_again(struct probe_ctx *c, double cap_s, char *err,
			size_t errlen)
{
	struct rl_core_rate at = { compute_rate(c), 0 }, r;
	if (at.fma < 0 || probe_core_whole(c, &at, 0))
		return 0;
	double t0 = rl_probe_now_s();
	while (r = probe_core_read(c), !probe_core_whole(c, &r, 0) &&
					       rl_probe_now_s() - t0 < cap_s)
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	struct rl_machine *m = c->m;
	if (probe_core_whole(c, &r, 0)) {
		size_t n = m->n_compute;
		struct rl_compute_roof *old = malloc(n * sizeof *old);
		if (!old)
			return 0; /* the first measurement stays, in doubt */
		memcpy(old, m->compute, n * sizeof *old);
		m->n_compute = 0;
		c->n_compute_fma = 0;
		int rc = probe_compute_roofs(c, err, errlen);
		if (rc) {
			free(old);
			return rc;
		}
		for (size_t i = 0; i < m->n_compute; i++)
			for (size_t k = 0; k < n; k++)
				if (same_roof(&m->compute[i], &old[k]) &&
				    old[k].gflops > m->compute[i].gflops)
					m->compute[i] = old[k];
		free(old);
		at.fma = compute_rate(c);
	}
	if (probe_core_whole(c, &at, 0))
		return 0;
	for (size_t i = 0; i < m->n_compute; i++)
		snprintf(m->compute[i].doubt, sizeof m->compute[i].doubt,
			 "measured while this core ran %.2f scalar %s per "
			 "cycle, below the %u its units give alone (another "
			 "thread shared the core): may read low",
			 at.fma, c->cpu->fma ? "FMAs" : "adds",
			 rl_core_whole_rate(ref(c->fma_best, c->fma_second)));
	return 0;
}
