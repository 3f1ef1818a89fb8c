/* rl_probe_machine: the whole measurement, in the order that keeps the
 * clock estimate next to the FMA sweep it serves, and fills the machine
 * model. Prints nothing: progress goes to the caller's callback. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "probes/probe_steps.h"
#include "common/rl_error.h"

void probe_progress(struct probe_ctx *c, const char *what, double units)
{
	c->done += units;
	if (c->o->progress)
		c->o->progress(c->o->progress_ctx, what,
			       c->done < c->total ? c->done / c->total : 1.0);
}

double probe_loadavg1(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double v = -1;
	if (f) {
		if (fscanf(f, "%lf", &v) != 1 || !(v >= 0))
			v = -1;
		fclose(f);
	}
	return v;
}

static void isa_string(const struct rl_cpu *cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", cpu->avx512f ? "avx512f " : "",
		 cpu->avx2 ? "avx2 " : "", cpu->fma ? "fma " : "",
		 cpu->avx ? "avx " : "", cpu->sse2 ? "sse2" : "");
	size_t n = strlen(buf);
	if (n && buf[n - 1] == ' ')
		buf[n - 1] = 0;
}

int rl_probe_machine(const struct rl_probe_options *o, struct rl_machine *m,
		     struct rl_probe_extra *extra, char *err, size_t errlen)
{
	struct rl_cpu cpu;
	struct rl_probe_extra scratch;
	double t0 = rl_probe_now_s();
	int rc;

	memset(m, 0, sizeof *m);
	struct rl_probe_recording *rec = extra ? extra->recording : NULL;
	if (!extra)
		extra = &scratch;
	memset(extra, 0, sizeof *extra);
	extra->recording = rec;
	if ((rc = rl_cpu_detect(&cpu, err, errlen)))
		return rc;
	unsigned T = o->threads ? o->threads : cpu.logical_cpus;
	if (T < 1 || T > cpu.logical_cpus)
		return rl_fail(err, errlen, RL_EINVAL,
			       "cannot use %u threads: this process may run on "
			       "%u CPUs",
			       T, cpu.logical_cpus);
	struct probe_ctx c = { .o = o, .cpu = &cpu, .threads = T, .m = m,
			       .extra = extra, .core_cpu = cpu.cpus[0] };
	int n_isa = 0;
	for (int i = 0; i < RL_ISA_COUNT; i++)
		n_isa += rl_isa_usable(&cpu, (enum rl_isa)i);
	/* progress units: one per ISA sweep, 0.1 per sweep point (about 25
	 * per sweep), 0.2 per level measurement */
	c.total = 1 + 2 * n_isa + (o->quick ? 1 : 2) * 2.5 + 2 * 4 * 0.2;

	m->version = RL_MACHINE_VERSION;
	snprintf(m->cpu_model, sizeof m->cpu_model, "%s", cpu.model);
	isa_string(&cpu, m->isa, sizeof m->isa);
	m->cores = T;
	m->mem_bytes = cpu.mem_bytes;
	m->nominal_ghz = cpu.nominal_ghz;
	m->quick = o->quick;
	m->loadavg1 = probe_loadavg1();

	probe_progress(&c, "clock", 0);
	/* 1M adds (about 0.3 ms) per trial, many trials: the best one ran
	 * undisturbed on a shared machine */
	c.clock_ghz = m->clock_ghz =
		rl_probe_clock_ghz(1000000, o->quick ? 20 : 60);
	probe_progress(&c, "clock", 1);

	if (!(rc = probe_compute_roofs(&c, err, errlen)) &&
	    !(rc = probe_bw_roofs(&c, err, errlen)))
		/* after the bandwidth, which waited for the core to run whole
		 * where it had to: most often it does by now */
		rc = probe_compute_again(&c, o->quick ? 0.5 : 1.0, err,
					 errlen);
	if (rc)
		return rc;

	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(m->probed_at, sizeof m->probed_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
	m->probe_seconds = rl_probe_now_s() - t0;
	probe_progress(&c, "done", 0);
	return 0;
}
