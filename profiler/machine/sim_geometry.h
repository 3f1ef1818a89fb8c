/*
 * The cache geometry the simulated PMU (rlprof run -b sim) takes when
 * --sim-caches is not given: derived from the machine model's cache
 * levels (struct rl_cache_level in machine.h), as claimed by sysfs/CPUID
 * and as measured by the probe.
 *
 * Rules, per level L1..L3 (the simulator has at most 3):
 *  - size: the claimed size, unless the probe measured an effective
 *    capacity (where the level's plateau ends, one thread) below a quarter
 *    of it (a VM's share of the host's L3): then the measured size,
 *    rounded to the nearest power-of-two number of sets by ratio
 *    (within sqrt(2) of the measurement); with no claim, the
 *    measured size the same way; neither: the level is unknown;
 *  - ways: the claimed associativity; 16 assumed (and said) when it is
 *    unknown or below 2 (a VM's CPUID may claim a 1-way L3);
 *  - a claimed size that is not a multiple of ways x 64 B is rounded down
 *    to one; a level not larger than the one above it, or below an
 *    unknown level, is not simulated (and said).
 * Nothing known (no model, no level, or no L1): RL_ENOENT with a message.
 */
#ifndef RL_SIM_GEOMETRY_H
#define RL_SIM_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "machine/machine_file.h"

#define RL_SIM_GEOMETRY_LEVELS 3

struct rl_sim_geometry {
	int n;                      /* simulated levels, 1..3 */
	uint64_t size_bytes[RL_SIM_GEOMETRY_LEVELS];
	unsigned ways[RL_SIM_GEOMETRY_LEVELS];
	char spec[128];             /* as --sim-caches takes it:
				       "48K:12,2M:16,64M:16" */
	char origin[512];           /* where each size came from, one
				       clause per level, no ';': "L1 48 KiB:12
				       (sysfs), ..., L3 64 MiB:16 (measured
				       plateau 68 MiB, sysfs claims 480 MiB)" */
};

/* Derive g from m (may be NULL: nothing known). 0, or RL_ENOENT with
 * why in err. */
int rl_sim_geometry_derive(const struct rl_machine *m,
			   struct rl_sim_geometry *g, char *err,
			   size_t errlen);

#endif
