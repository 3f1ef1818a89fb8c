/*
 * The papi backend in librlprof: forwards to the plugin
 * $(LIB)/rlprof/rlprof-papi.so (counters/plugins/papi_plugin.c), which links
 * libpapi, so librlprof itself needs only libc, pthreads and dlopen.
 */
#include "counters/backend.h"
#include "counters/plugins/plugin.h"

RL_PLUGIN_BACKEND(rl_backend_papi, "papi", "rlprof-papi.so", "libpapi",
		  "PAPI presets and native events per thread (plugin rlprof-papi.so)");
