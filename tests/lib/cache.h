/*
 * Every test process's own machine-model cache: before any test runs, the
 * test binary points XDG_CACHE_HOME at a fresh folder of its own (one per
 * test process, under one folder per run that the runner removes at its
 * end) holding the fixture model below, and drops RLPROF_MACHINE. So no
 * test reads, probes into or writes the user's cache (~/.cache/rlprof or
 * $XDG_CACHE_HOME/rlprof), and none depends on what an earlier test or
 * `make demo` left there. A test that needs another cache (an empty one,
 * a model of its own) sets XDG_CACHE_HOME itself, as before.
 */
#ifndef RL_TESTS_LIB_CACHE_H
#define RL_TESTS_LIB_CACHE_H

#include <stddef.h>

#include "formats/machine.h"

/* This test process's cache folder (XDG_CACHE_HOME as the process
 * started), or NULL when it could not be made. */
const char *rl_test_cache_home(void);

/* The fixture model every test process's cache holds: the default test
 * machine (machine.h) of version RL_MACHINE_VERSION with cache levels
 * L1 48 KiB, L2 1 MiB, L3 32 MiB (claimed and effective: the sim tests'
 * geometry) and DRAM, probed at 2026-01-01T00:00:00Z. */
void rl_test_cache_model(struct rl_machine *m);

/* Writes m where rlprof looks for the model with XDG_CACHE_HOME set to
 * cache_home (also set in this process); 0, or -1 with why in err. */
int rl_test_cache_put(const char *cache_home, const struct rl_machine *m,
		      char *err, size_t errlen);

#endif
