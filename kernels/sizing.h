/*
 * sizing.h - how many elements per array the streaming kernels of
 * rlprof-kernels use by default: enough that every streaming kernel is
 * DRAM-bound on this machine, from its machine model.
 */
#ifndef RL_KERNELS_SIZING_H
#define RL_KERNELS_SIZING_H

#include <stddef.h>
#include <stdint.h>

#include "formats/machine.h"

/* Without a machine model: 16M doubles = 128 MiB per array. */
#define RL_KERNELS_DEFAULT_N ((size_t)1 << 24)
/* Each array at least this many times the last level's capacity. */
#define RL_KERNELS_LLC_FACTOR 4

/*
 * Elements per array: RL_KERNELS_LLC_FACTOR x the capacity of the last
 * cache level in m, in doubles, rounded up to a multiple of 1 Mi elements.
 * The capacity is the measured effective capacity for all threads, else
 * for one thread, else the claimed size; m NULL (no_model: why, NULL for
 * "no machine model cached") or without any of these:
 * RL_KERNELS_DEFAULT_N. A size whose 3 arrays would not fit in 80% of
 * mem_bytes (0: unknown) is capped to fit. why (may be NULL) receives one
 * line saying which capacity and where it came from.
 */
size_t rl_kernels_stream_size(const struct rl_machine *m,
			      const char *no_model, uint64_t mem_bytes,
			      char *why, size_t len);

#endif
