/*
 * The likwid backend in librlprof: forwards to the plugin
 * $(LIB)/rlprof/rlprof-likwid.so (counters/plugins/likwid_plugin.c), which links
 * liblikwid, so librlprof itself needs only libc, pthreads and dlopen.
 */
#include "counters/backend.h"
#include "counters/plugins/plugin.h"

RL_PLUGIN_BACKEND(rl_backend_likwid, "likwid", "rlprof-likwid.so", "liblikwid",
		  "LIKWID perfmon groups FLOPS_DP/FLOPS_SP/MEM per cpu (plugin rlprof-likwid.so)");
