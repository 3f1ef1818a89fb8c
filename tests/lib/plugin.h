/* What the papi and likwid plugin tests share: both backends are
 * forwarders in librlprof that dlopen a plugin, and both must explain a
 * missing plugin and initialise to "no counters" on a host without a PMU. */
#ifndef RL_TESTS_LIB_PLUGIN_H
#define RL_TESTS_LIB_PLUGIN_H

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/perf_probe.h"
#include "counters/plugins/plugin.h"

/* Is there a hardware PMU at all? (perf's view, independent of plugins) */
int host_has_pmu(void);

/* With no plugin directory, probe and init of backend `name` say that
 * its plugin `file` is not installed. */
void plugin_missing_is_explained(const char *name, const char *file);

/* The plugin at path, loaded directly, refuses another ABI and, without
 * a PMU, initialises to RL_ENOCOUNTERS providing nothing. */
void plugin_init_finds_no_counters(const char *path, const char *name);

#endif
