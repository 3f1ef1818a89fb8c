/* The plugin tests' helpers: see plugin.h. */
#include "tests/lib/plugin.h"

int host_has_pmu(void)
{
	char why[512];
	return rl_perf_probe_hw(why, sizeof why) > RL_CAP_SOFTWARE;
}

void plugin_missing_is_explained(const char *name, const char *file)
{
	const struct rl_backend *be = rl_backend_find(name);
	char why[512] = "";

	setenv("RLPROF_PLUGIN_DIR", "/nonexistent-rlprof-plugins", 1);
	cr_assert_eq(be->probe(why, sizeof why), RL_CAP_NONE);
	cr_assert(strstr(why, file) && strstr(why, "not installed"), "%s",
		  why);
	cr_assert_eq(be->init("", &(struct rl_backend_setup){0}, why,
			      sizeof why),
		     RL_ENOTSUP);
	cr_assert(strstr(why, "not installed"), "%s", why);
}

void plugin_init_finds_no_counters(const char *path, const char *name)
{
	void *h;
	rl_plugin_get_fn get;
	const struct rl_backend *be;
	struct rl_backend_setup setup;
	char err[512] = "";
	int r, saved;

	if (host_has_pmu())
		cr_skip_test("this host has a PMU: see scripts/check-hw-counters");
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	cr_assert_not_null(h, "%s", dlerror());
	get = (rl_plugin_get_fn)(uintptr_t)dlsym(h, RL_PLUGIN_SYMBOL);
	cr_assert_not_null(get);
	cr_assert_null(get(RL_BACKEND_ABI + 1), "refuses another ABI");
	be = get(RL_BACKEND_ABI);
	cr_assert_str_eq(be->name, name);
	cr_assert_leq(be->thread_state_size, RL_PLUGIN_STATE_MAX);
	memset(&setup, 0, sizeof setup);
	saved = rl_stderr_mute();
	r = be->init("", &setup, err, sizeof err);
	rl_stderr_restore(saved, NULL, 0);
	cr_assert_eq(r, RL_ENOCOUNTERS, "init: %d (%s)", r, err);
	cr_assert_eq(setup.provided, 0, "nothing counted, nothing provided");
	cr_assert_gt(strlen(err), 10);
}
