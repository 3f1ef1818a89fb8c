/* The papi backend: a forwarder in librlprof that dlopens the plugin
 * rlprof-papi.so; here without a PMU it must initialise, find no counters,
 * say why in one line, and keep the library's own stderr out. */
#include "tests/lib/plugin.h"

#define PLUGIN RL_BUILD_DIR "/lib/rlprof/rlprof-papi.so"

Test(papi, plugin_is_built_next_to_librlprof)
{
	cr_assert_eq(access(PLUGIN, R_OK), 0, "missing %s", PLUGIN);
}

Test(papi, probe_says_why_in_one_line)
{
	const struct rl_backend *be = rl_backend_find("papi");
	char why[512] = "";
	int cap;

	cr_assert_not_null(be);
	cap = be->probe(why, sizeof why);
	cr_assert(cap >= RL_CAP_NONE && cap <= RL_CAP_FLOPS_BYTES);
	cr_assert_gt(strlen(why), 10, "no why for capability %d", cap);
	cr_assert_null(strchr(why, '\n'), "why is one line: %s", why);
	if (!host_has_pmu()) {
		cr_assert_eq(cap, RL_CAP_NONE, "no PMU, yet %s says %d (%s)",
			     "papi", cap, why);
		cr_assert(strstr(why, "PAPI finds no hardware counters"), "%s", why);
	}
}

Test(papi, missing_plugin_is_explained)
{
	plugin_missing_is_explained("papi", "rlprof-papi.so");
}

Test(papi, plugin_init_finds_no_counters_without_pmu)
{
	plugin_init_finds_no_counters(PLUGIN, "papi");
}

Test(papi, rlprof_counters_keeps_papi_noise_out)
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
	cr_assert(strstr(out, "papi"), "%s", out);
	cr_assert_null(strstr(out, "PAPI Error"), "library noise leaked: %s", out);
	if (!host_has_pmu())
		cr_assert(strstr(out, "PAPI finds no hardware counters"), "%s", out);
}

/* End to end: -b papi refuses with the why line; -b auto runs another
 * backend and the report says why papi and likwid did not run. */
Test(papi, auto_falls_back_with_the_reason, .timeout = 120)
{
	char cmd[1024], out[8192], dir[] = "/tmp/rlprof-papi-e2e.XXXXXX";
	size_t len;
	FILE *p;
	int st;

	if (host_has_pmu())
		cr_skip_test("this host has a PMU: papi may well work here");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd,
		 "%s/bin/rlprof run -q --no-probe -b papi -o %s/a /bin/true 2>&1",
		 RL_BUILD_DIR, dir);
	p = popen(cmd, "r");
	len = fread(out, 1, sizeof out - 1, p);
	out[len] = '\0';
	st = pclose(p);
	cr_assert_neq(st, 0, "-b papi must fail here: %s", out);
	cr_assert(strstr(out, "PAPI finds no hardware counters"), "%s", out);

	snprintf(cmd, sizeof cmd,
		 "%s/bin/rlprof run -q --no-probe --sim-caches 48K:12,1M:8,32M:16 "
		 "-o %s/b /bin/true >/dev/null "
		 "2>&1; jq -r '.backend + \"|\" + .backend_reason' "
		 "%s/b/report.json",
		 RL_BUILD_DIR, dir, dir);
	p = popen(cmd, "r");
	len = fread(out, 1, sizeof out - 1, p);
	out[len] = '\0';
	st = pclose(p);
	/* the run's status is the program's (a sanitizer build may fail
	 * under the simulator); the report must exist and say why */
	if (st != 0 && strstr(out, "jq"))
		cr_skip_test("jq is not installed");
	cr_assert_eq(st, 0, "no report.json: %s", out);
	cr_assert(strncmp(out, "papi|", 5) && strncmp(out, "likwid|", 7),
		  "auto chose a backend that cannot count: %s", out);
	cr_assert(strstr(out, "papi: unavailable (PAPI finds no hardware "
			      "counters"),
		  "%s", out);
	cr_assert(strstr(out, "likwid: unavailable (LIKWID"), "%s", out);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

/* A plugin whose library is gone: the why line names the library. The
 * test builds a stand-in libpapi, links a plugin against it, then removes
 * the library again. */
Test(papi, missing_library_is_explained, .timeout = 60)
{
	char dir[] = "/tmp/rlprof-nolib.XXXXXX", cmd[2048], why[512] = "";
	const struct rl_backend *be = rl_backend_find("papi");

	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd,
		 "cd %s && echo 'int PAPI_stub(void){return 0;}' > s.c && "
		 "echo 'int PAPI_stub(void); int rl_x(void){return "
		 "PAPI_stub();}' > p.c && "
		 "cc -shared -fPIC -Wl,-soname,libpapi.so.999 s.c -o "
		 "libpapi.so.999 && ln -s libpapi.so.999 libpapi.so && "
		 "cc -shared -fPIC p.c -L. -lpapi -o rlprof-papi.so && "
		 "rm libpapi.so libpapi.so.999",
		 dir);
	if (system(cmd) != 0)
		cr_skip_test("no C compiler to build the stand-in plugin");
	setenv("RLPROF_PLUGIN_DIR", dir, 1);
	cr_assert_eq(be->probe(why, sizeof why), RL_CAP_NONE);
	cr_assert(strstr(why, "libpapi is not installed") &&
			  strstr(why, "libpapi.so.999"),
		  "%s", why);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}
