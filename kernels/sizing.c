/*
 * sizing.c - the default size of the streaming kernels from the machine
 * model (see sizing.h).
 */
#include <stdio.h>

#include "common/rl_error.h"
#include "kernels/sizing.h"

#define MI ((size_t)1 << 20)

static double mib(uint64_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

size_t rl_kernels_stream_size(const struct rl_machine *m,
			      const char *no_model, uint64_t mem_bytes,
			      char *why, size_t len)
{
	const struct rl_cache_level *llc = NULL;
	uint64_t cap = 0;
	const char *what = "";
	size_t n;
	char dummy[1];

	if (!why) {
		why = dummy;
		len = sizeof dummy;
	}
	for (size_t i = 0; m && i < m->n_levels && i < RL_MACHINE_MAX_LEVELS;
	     i++) {
		const struct rl_cache_level *l = &m->levels[i];
		if (l->effective_all_bytes || l->effective_bytes ||
		    l->claimed_bytes)
			llc = l;
	}
	if (llc && llc->effective_all_bytes) {
		cap = llc->effective_all_bytes;
		what = "measured capacity for all threads";
	} else if (llc && llc->effective_bytes) {
		cap = llc->effective_bytes;
		what = "measured capacity of one thread (for all threads not "
		       "measured)";
	} else if (llc) {
		cap = llc->claimed_bytes;
		what = "claimed size (no plateau measured)";
	}
	if (!cap) {
		n = RL_KERNELS_DEFAULT_N;
		snprintf(why, len,
			 "%zu Mi doubles (%zu MiB per array), the default: %s "
			 "(run 'rlprof probe' to size from this machine)",
			 n / MI, n * sizeof(double) / MI,
			 m ? "the machine model has no cache levels"
			   : no_model ? no_model : "no machine model cached");
	} else {
		uint64_t bytes = (uint64_t)RL_KERNELS_LLC_FACTOR * cap;
		n = (size_t)((bytes / sizeof(double) + MI - 1) / MI * MI);
		snprintf(why, len,
			 "%zu Mi doubles (%zu MiB per array) = %d x the %s's "
			 "%s, %.1f MiB, rounded up to Mi elements",
			 n / MI, n * sizeof(double) / MI, RL_KERNELS_LLC_FACTOR,
			 llc->level[0] ? llc->level : "last level", what,
			 mib(cap));
	}
	if (mem_bytes && 3.0 * (double)n * sizeof(double) > 0.8 * (double)mem_bytes) {
		size_t fit = (size_t)(0.8 * (double)mem_bytes /
				      (3.0 * sizeof(double)));
		n = fit >= MI ? fit / MI * MI : (fit >= 16 ? fit : 16);
		size_t used = 0;
		while (used < len && why[used])
			used++;
		snprintf(why + used, len - used,
			 "; capped to %zu elements (%.0f MiB per array) so the "
			 "3 arrays fit in 80%% of the memory",
			 n, mib((uint64_t)n * sizeof(double)));
	}
	return n;
}
