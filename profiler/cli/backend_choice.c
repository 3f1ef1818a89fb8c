/* Probing the backends and choosing the best that works here. */
#include "cli/backend_choice.h"

#include <stdio.h>
#include <string.h>

void rl_backend_probe_one(struct rl_backend_probe *p,
			  const struct rl_backend *backend)
{
	p->backend = backend;
	p->why[0] = '\0';
	p->capability = backend->probe ? backend->probe(p->why, sizeof p->why)
				       : RL_CAP_NONE;
	if (p->capability < 0) {
		if (!p->why[0])
			snprintf(p->why, sizeof p->why, "%s",
				 rl_strerror(p->capability));
		p->capability = RL_CAP_NONE;
	}
	if (p->capability > RL_CAP_FLOPS_BYTES)
		p->capability = RL_CAP_FLOPS_BYTES;
	if (p->capability == RL_CAP_NONE && !p->why[0])
		snprintf(p->why, sizeof p->why,
			 "does not work here (no reason given)");
}

size_t rl_backends_probe_all(struct rl_backend_probe *probes, size_t max)
{
	size_t n = rl_backend_count();

	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++)
		rl_backend_probe_one(&probes[i], rl_backend_at(i));
	return n;
}

int rl_backend_pick_auto(const struct rl_backend_probe *probes, size_t n)
{
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (probes[i].capability > RL_CAP_NONE &&
		    (best < 0 || probes[i].capability > probes[best].capability))
			best = (int)i;
	return best;
}

void rl_backend_names(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < rl_backend_count() && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 rl_backend_at(i)->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}
