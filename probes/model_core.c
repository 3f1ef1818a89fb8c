/* The probe's watch on its core's rate (core_rate.c): readings taken on
 * cpus[0] between measurements, and the compute roofs measured again
 * when the core was shared around them (see probe_compute_again). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/model_int.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double probe_core_read(struct probe_ctx *c)
{
	double r = rl_probe_core_rate(c->core_cpu, c->cpu->fma, c->core_chains);
	if (r > c->core_best) {
		c->core_second = c->core_best;
		c->core_best = r;
	} else if (r > c->core_second) {
		c->core_second = r;
	}
	return r;
}

/* The best rate but one (the best while only one was read). */
static double core_ref(const struct probe_ctx *c)
{
	return c->core_second > 0 ? c->core_second : c->core_best;
}

int probe_core_whole(const struct probe_ctx *c, double rate)
{
	return rl_core_rate_whole(rate, core_ref(c));
}

void probe_core_doubt(const struct probe_ctx *c, double rate, char *buf,
		      size_t len)
{
	snprintf(buf, len,
		 "measured while this core ran %.2f scalar %s per cycle, "
		 "below the %u its units give alone (another thread shared "
		 "the core): may read low",
		 rate, c->cpu->fma ? "FMAs" : "adds",
		 rl_core_whole_rate(core_ref(c)));
}

/* The same roof of two measurements. */
static int same_roof(const struct rl_compute_roof *a,
		     const struct rl_compute_roof *b)
{
	return a->threads == b->threads && !strcmp(a->name, b->name) &&
	       !strcmp(a->kind, b->kind) && !strcmp(a->precision, b->precision);
}

/* The compute roofs measured while the core was shared (a rate read
 * around them not whole): once the core runs whole again (read for at
 * most cap_s), measured again, keeping each roof's better measurement;
 * where the core never ran whole again, or the new measurement was
 * shared too, each roof says so. */
int probe_compute_again(struct probe_ctx *c, double cap_s, char *err,
			size_t errlen)
{
	if (c->compute_core < 0 || probe_core_whole(c, c->compute_core))
		return 0;
	double t0 = now_s(), r;
	while (!probe_core_whole(c, r = probe_core_read(c)) &&
	       now_s() - t0 < cap_s)
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	struct rl_machine *m = c->m;
	if (probe_core_whole(c, r)) {
		size_t n = m->n_compute;
		struct rl_compute_roof *old = malloc(n * sizeof *old);
		if (!old)
			return 0; /* keep the first measurement, in doubt */
		memcpy(old, m->compute, n * sizeof *old);
		m->n_compute = 0;
		c->compute_core = c->compute_low = -1;
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
	}
	if (!probe_core_whole(c, c->compute_core))
		for (size_t i = 0; i < m->n_compute; i++)
			probe_core_doubt(c, c->compute_core, m->compute[i].doubt,
					 sizeof m->compute[i].doubt);
	return 0;
}
