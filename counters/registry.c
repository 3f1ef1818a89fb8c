/* The backends, in `-b auto` preference order: one line each. */
#include "counters/backend.h"

#include <string.h>

extern const struct rl_backend rl_backend_perf;
extern const struct rl_backend rl_backend_papi;
extern const struct rl_backend rl_backend_likwid;
extern const struct rl_backend rl_backend_sim;
extern const struct rl_backend rl_backend_time;

static const struct rl_backend *const rl_backends[] = {
	&rl_backend_perf,
	&rl_backend_papi,
	&rl_backend_likwid,
	&rl_backend_sim,
	&rl_backend_time,
};

size_t rl_backend_count(void)
{
	return sizeof rl_backends / sizeof *rl_backends;
}

const struct rl_backend *rl_backend_at(size_t i)
{
	return i < rl_backend_count() ? rl_backends[i] : NULL;
}

const struct rl_backend *rl_backend_find(const char *name)
{
	for (size_t i = 0; i < rl_backend_count(); i++)
		if (strcmp(rl_backends[i]->name, name) == 0)
			return rl_backends[i];
	return NULL;
}

const char *rl_capability_name(int cap)
{
	static const char *const names[] = {"unavailable", "time only",
					    "software events", "flops",
					    "flops and bytes"};
	return cap >= 0 && cap <= RL_CAP_FLOPS_BYTES ? names[cap] : "error";
}
