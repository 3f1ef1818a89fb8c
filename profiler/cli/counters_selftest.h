/* rlprof counters --selftest (counters_selftest.c). */
#ifndef RL_COUNTERS_SELFTEST_H
#define RL_COUNTERS_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/backend_choice.h"

/* Runs the known-answer check through the backend named (NULL: the best
 * that counts hardware flops here) and prints it. Returns the exit
 * status: 0 every event within tolerance, 1 one outside (or the check
 * failed), 2 no such backend, 77 nothing to check here (the kernels'
 * own time is printed). use_cache: read and write the per-machine cache. */
int rl_counters_selftest(const struct rl_backend_probe *probes, size_t n,
			 const char *named, bool use_cache);

#endif
