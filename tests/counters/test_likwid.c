/* The likwid backend: a forwarder in librlprof that dlopens the plugin
 * rlprof-likwid.so; here without a PMU it must initialise, find no counters,
 * say why in one line, and keep the library's own stderr out. */
#include "tests/lib/plugin.h"

#define PLUGIN RL_BUILD_DIR "/lib/rlprof/rlprof-likwid.so"

Test(likwid, plugin_is_built_next_to_librlprof)
{
	cr_assert_eq(access(PLUGIN, R_OK), 0, "missing %s", PLUGIN);
}

Test(likwid, probe_says_why_in_one_line)
{
	const struct rl_backend *be = rl_backend_find("likwid");
	char why[512] = "";
	int cap;

	cr_assert_not_null(be);
	cap = be->probe(why, sizeof why);
	cr_assert(cap >= RL_CAP_NONE && cap <= RL_CAP_FLOPS_BYTES);
	cr_assert_gt(strlen(why), 10, "no why for capability %d", cap);
	cr_assert_null(strchr(why, '\n'), "why is one line: %s", why);
	if (!host_has_pmu()) {
		cr_assert_eq(cap, RL_CAP_NONE, "no PMU, yet %s says %d (%s)",
			     "likwid", cap, why);
		cr_assert(strstr(why, "LIKWID cannot count") ||
				  strstr(why, "LIKWID does not support"),
			  "%s", why);
	}
}

Test(likwid, missing_plugin_is_explained)
{
	plugin_missing_is_explained("likwid", "rlprof-likwid.so");
}

Test(likwid, plugin_init_finds_no_counters_without_pmu)
{
	plugin_init_finds_no_counters(PLUGIN, "likwid");
}

Test(likwid, rlprof_counters_keeps_likwid_noise_out)
{
	char cmd[512], out[16384];
	size_t len;
	FILE *p;

	snprintf(cmd, sizeof cmd, "%s/bin/rlprof counters 2>&1", RL_BUILD_DIR);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	len = fread(out, 1, sizeof out - 1, p);
	out[len] = '\0';
	pclose(p);
	cr_assert(strstr(out, "likwid"), "%s", out);
	cr_assert_null(strstr(out, "Cannot get access to MSRs"), "library noise leaked: %s", out);
	if (!host_has_pmu())
		cr_assert(strstr(out, "LIKWID cannot count") ||
				  strstr(out, "LIKWID does not support"),
			  "%s", out);
}
