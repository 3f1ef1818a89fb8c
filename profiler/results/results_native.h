/*
 * Internal to reading a run directory (results_dir.c, results_native.c):
 * merging the native timing run (DIR/raw-native, rlprof run -b sim
 * --sim-timing native) into the simulated results of DIR/raw.
 */
#ifndef RL_RESULTS_NATIVE_H
#define RL_RESULTS_NATIVE_H

#include <stddef.h>

#include "results/run_results.h"

/* Replaces each region's time_ns in out by the native run's: processes
 * matched by start order (start_ns), threads by index, regions by name,
 * and only when the calls agree. A region, thread or process without a
 * native counterpart keeps the simulator's time and gets a warning (kind
 * "native-timing") in its process. Sets time_native on every merged
 * region and out->sim_timing_native when at least one was merged.
 * Returns 0 or RL_ENOMEM. */
int rl_results_merge_native(struct rl_run_results *out,
			    const struct rl_process_results *native,
			    size_t n_native);

/* Appends a warning (kind "native-timing", no region) to process p.
 * Returns 0 or RL_ENOMEM. */
int rl_results_native_warn(struct rl_process_results *p, const char *region,
			   uint64_t tid, const char *message);

#endif
