/* Issue 10: rlprof report DIR places against the machine model stored
 * with the results (DIR/machine.json): byte-identical output before and
 * after rlprof probe --force. Runs the real rlprof with its own cache. */
#include <stdlib.h>

#include "machine/machine_file.h"
#include "tests/lib/machine.h"
#include "tests/lib/run.h"

/* A model no probe would measure, cached where rlprof will look. */
static void cache_hand_model(const char *cache_home)
{
	struct rl_machine *m = rl_test_machine_new(1, "Stored Test CPU");
	struct rl_bw_roof *b;
	struct rl_compute_roof *c;
	char path[1024], err[256];

	cr_assert_eq(setenv("XDG_CACHE_HOME", cache_home, 1), 0);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0, "%s", err);
	m->version = RL_MACHINE_VERSION;
	snprintf(m->probed_at, sizeof m->probed_at, "2026-01-01T00:00:00Z");
	b = rl_test_machine_add_bw(m, "DRAM", 1, 3, 4);
	snprintf(b->method, sizeof b->method, "hand-made");
	c = rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 1, 7);
	snprintf(c->method, sizeof c->method, "hand-made");
	cr_assert_eq(rl_machine_save(path, m, err, sizeof err), 0, "%s", err);
	free(m);
}

static struct e2e_result report(const char *out_dir, const char *format,
				const char *env)
{
	const char *argv[] = {E2E_RLPROF, "report", out_dir, "-f", format,
			      NULL};
	const char *envv[] = {env, NULL};
	return e2e_run_in(NULL, argv, envv);
}

Test(e2e_stored_model, report_is_identical_after_probe_force,
     .timeout = 240)
{
	char *dir = e2e_tmpdir(), cache[512], env[600], out[512];
	const char *run[] = {E2E_RLPROF, "run", "-q", "-b", "time", "-o", out,
			     E2E_PROG("e2e_exit"), "0", NULL};
	const char *probe[] = {E2E_RLPROF, "probe", "--force", "--quick",
			       NULL};
	const char *envv[] = {env, NULL};
	static const char *const formats[] = {"table", "json", "csv", "svg",
					      "html"};
	char *before[5], *stored;
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(run[7]);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	snprintf(env, sizeof env, "XDG_CACHE_HOME=%s", cache);
	snprintf(out, sizeof out, "%s/out", dir);
	cache_hand_model(cache);

	r = e2e_run_in(NULL, run, envv);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_assert(strstr(r.out, "machine: Stored Test CPU"), "%s", r.out);
	e2e_free(&r);
	stored = e2e_file(dir, "out/machine.json");
	cr_assert(strstr(stored, "\"Stored Test CPU\""), "%s", stored);
	free(stored);
	for (int i = 0; i < 5; i++) {
		r = report(out, formats[i], env);
		cr_assert_eq(r.status, 0, "%s: %s", formats[i], r.err);
		before[i] = r.out;
		free(r.err);
	}
	cr_assert(strstr(before[0], "machine: Stored Test CPU"), "%s",
		  before[0]);

	r = e2e_run_in(NULL, probe, envv); /* replaces the cached model */
	if (r.status != 0)
		e2e_skip_if_too_busy(r.err);
	cr_assert_eq(r.status, 0, "probe: %s", r.err);
	e2e_free(&r);
	{
		const char *cat[] = {E2E_RLPROF, "probe", "--json", NULL};
		r = e2e_run_in(NULL, cat, envv);
		cr_assert_null(strstr(r.out, "Stored Test CPU"),
			       "the cache still holds the hand-made model");
		e2e_free(&r);
	}
	for (int i = 0; i < 5; i++) {
		r = report(out, formats[i], env);
		cr_assert_eq(r.status, 0, "%s: %s", formats[i], r.err);
		cr_expect_str_eq(r.out, before[i], "%s differs", formats[i]);
		e2e_free(&r);
		free(before[i]);
	}
	/* --model cache: today's model, on request */
	{
		const char *argv[] = {E2E_RLPROF, "report", out, "--model",
				      "cache", NULL};
		r = e2e_run_in(NULL, argv, envv);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert_null(strstr(r.out, "Stored Test CPU"), "%s", r.out);
		e2e_free(&r);
	}
	e2e_rmtree(dir);
	free(dir);
}

/* Results of an older rlprof (no machine.json): the cached model. */
Test(e2e_stored_model, results_without_a_stored_model_use_the_cache,
     .timeout = 60)
{
	char *dir = e2e_tmpdir(), cache[512], env[600];
	const char *envv[] = {env, NULL};
	const char *argv[] = {E2E_RLPROF, "report",
			      RL_SOURCE_DIR "/tests/data/results/run1",
			      "--no-probe", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	snprintf(env, sizeof env, "XDG_CACHE_HOME=%s", cache);
	cache_hand_model(cache);
	r = e2e_run_in(NULL, argv, envv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "machine: Stored Test CPU"), "%s", r.out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}
