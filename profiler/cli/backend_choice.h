/*
 * Probing the registered backends and choosing one (rlprof run, rlprof
 * counters): `auto` takes the highest capability, the earlier backend in
 * registry order on a tie.
 */
#ifndef RL_BACKEND_CHOICE_H
#define RL_BACKEND_CHOICE_H

#include <stddef.h>

#include "counters/backend.h"

#define RL_WHY_MAX 1024

struct rl_backend_probe {
	const struct rl_backend *backend;
	int capability;          /* enum rl_capability, RL_CAP_NONE on error */
	char why[RL_WHY_MAX];    /* "" when it has all it could want */
};

/* Probes one backend into *p. */
void rl_backend_probe_one(struct rl_backend_probe *p,
			  const struct rl_backend *backend);

/* Probes every backend of the registry into probes[] (at most max);
 * returns how many. */
size_t rl_backends_probe_all(struct rl_backend_probe *probes, size_t max);

/* Index of the backend `auto` picks, -1 when none works. */
int rl_backend_pick_auto(const struct rl_backend_probe *probes, size_t n);

/* "perf, papi, likwid, sim, time" into buf. */
void rl_backend_names(char *buf, size_t len);

#endif
