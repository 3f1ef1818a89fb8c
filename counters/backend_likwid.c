/*
 * The likwid backend in librlprof: forwards to the plugin
 * $(LIB)/rlprof/rlprof-likwid.so (counters/plugins/likwid_plugin.c), which links
 * liblikwid, so librlprof itself needs only libc, pthreads and dlopen.
 */
#include "counters/backend.h"
#include "counters/plugins/plugin.h"

static struct rl_plugin plugin = RL_PLUGIN_INIT("rlprof-likwid.so", "liblikwid");

static int fwd_probe(char *why, size_t len)
{
	return rl_plugin_probe(&plugin, why, len);
}

static int fwd_init(const char *options, struct rl_backend_setup *setup,
		    char *err, size_t errlen)
{
	return rl_plugin_init(&plugin, options, setup, err, errlen);
}

const struct rl_backend rl_backend_likwid = {
	.abi = RL_BACKEND_ABI,
	.name = "likwid",
	.summary = "LIKWID perfmon groups FLOPS_DP/FLOPS_SP/MEM per cpu (plugin rlprof-likwid.so)",
	.thread_state_size = RL_PLUGIN_STATE_MAX,
	.probe = fwd_probe,
	.init = fwd_init,
	.thread_open = rl_plugin_thread_open,
	.read = rl_plugin_read,
	.thread_close = rl_plugin_thread_close,
	.fini = rl_plugin_fini,
};
