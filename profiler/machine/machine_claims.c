/* A machine model of what this machine claims (machine_claims.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine_claims.h"
#include "probes/probe.h"
#include "common/rl_error.h"

static void isa_text(const struct rl_cpu *cpu, char *buf, size_t len)
{
	buf[0] = '\0';
	if (cpu->avx512f)
		rl_appendf(buf, len, "avx512 ");
	if (cpu->avx2)
		rl_appendf(buf, len, "avx2 ");
	if (cpu->fma)
		rl_appendf(buf, len, "fma ");
	if (cpu->sse2)
		rl_appendf(buf, len, "sse2");
	size_t n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

int rl_machine_from_claims(struct rl_machine *m, char *absurd,
			   size_t absurdlen, char *err, size_t errlen)
{
	struct rl_level_claim claims[RL_MACHINE_MAX_LEVELS];
	struct rl_cpu *cpu;
	size_t n;
	int rc;

	memset(m, 0, sizeof *m);
	if (absurd && absurdlen)
		absurd[0] = '\0';
	if (!(cpu = malloc(sizeof *cpu)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if ((rc = rl_cpu_detect(cpu, err, errlen)) < 0) {
		free(cpu);
		return rc;
	}
	m->version = RL_MACHINE_VERSION;
	m->loadavg1 = -1;
	snprintf(m->cpu_model, sizeof m->cpu_model, "%s", cpu->model);
	isa_text(cpu, m->isa, sizeof m->isa);
	m->cores = cpu->logical_cpus;
	m->mem_bytes = cpu->mem_bytes;
	m->nominal_ghz = cpu->nominal_ghz;
	n = rl_level_claims(cpu, claims, RL_MACHINE_MAX_LEVELS);
	for (size_t i = 0; i < n; i++) {
		struct rl_cache_level *l = &m->levels[m->n_levels++];
		const struct rl_level_claim *c = &claims[i];
		snprintf(l->level, sizeof l->level, "L%d", c->level);
		l->ways = c->ways;
		l->line_bytes = c->line_bytes;
		l->shared_cpus = c->shared_cpus;
		snprintf(l->source, sizeof l->source, "%s", cpu->cache_source);
		if (!c->absurd) {
			l->claimed_bytes = c->bytes;
			continue;
		}
		if (absurd && absurdlen)
			rl_appendf(absurd, absurdlen, "%s%s %" PRIu64 " KiB %u-way",
				   absurd[0] ? ", " : "", l->level,
				   c->bytes >> 10, c->ways);
	}
	snprintf(m->caches, sizeof m->caches, "claimed by %s, not measured",
		 cpu->cache_source);
	free(cpu);
	return 0;
}
