/*
 * A cached model probed under load is measured again when the machine is
 * quieter (run_model.c, rl_run_model_refresh; issue 38: a quick probe
 * taken at a load average of 8.7 on 2 CPUs read the DRAM triad on 1
 * thread at 5.1 GB/s where the machine gives 14.7, and every later run
 * placed streaming loops at 190-330% of it). The machine's load average
 * now is the test hook RLPROF_TEST_LOADAVG; the model's is written here.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine_file.h"
#include "tests/lib/cache.h"
#include "tests/lib/run.h"

/* The fixture model probed at load average load, cached under dir/cache;
 * the XDG_CACHE_HOME entry into env. */
static void loaded_model(const char *dir, double load, char *env, size_t len)
{
	struct rl_machine *m = calloc(1, sizeof *m);
	char cache[600], err[256];

	cr_assert_not_null(m);
	rl_test_cache_model(m);
	m->loadavg1 = load;
	snprintf(cache, sizeof cache, "%s/cache", dir);
	cr_assert_eq(rl_test_cache_put(cache, m, err, sizeof err), 0, "%s",
		     err);
	snprintf(env, len, "XDG_CACHE_HOME=%s", cache);
	free(m);
}

/* The cached model's load average, by the file's own reader. */
static double cached_load(void)
{
	struct rl_machine *m = calloc(1, sizeof *m);
	char err[256];
	double load;

	cr_assert_not_null(m);
	cr_assert_eq(rl_machine_load_cached(m, NULL, 0, err, sizeof err), 0,
		     "%s", err);
	load = m->loadavg1;
	free(m);
	return load;
}

static struct e2e_result run(const char *dir, const char *xdg,
			     const char *now, int no_probe)
{
	char out[600];
	const char *env[] = {xdg, now, NULL};
	const char *argv[] = {E2E_RLPROF, "run", "-b", "time", "--repeat", "1",
			      "-o", out, no_probe ? "--no-probe" : "--no-selftest",
			      E2E_PROG("e2e_plain"), NULL};

	snprintf(out, sizeof out, "%s/out-%s", dir, no_probe ? "np" : "p");
	e2e_rmtree(out);
	return e2e_run_in(NULL, argv, env);
}

Test(e2e_model_refresh, a_model_probed_under_load_is_measured_again,
     .timeout = 180)
{
	char *dir = e2e_tmpdir(), xdg[700];
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	/* 50 on 2 CPUs, the machine at 0.1 now: measured again, cached */
	loaded_model(dir, 50, xdg, sizeof xdg);
	r = run(dir, xdg, "RLPROF_TEST_LOADAVG=0.1", 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "rlprof: the cached machine model was probed "
				"under load (load average 50.00 on 2 CPUs, "
				"2026-01-01T00:00:00Z); the machine is quieter "
				"now (0.10): measuring it again (--quick)..."),
		  "%s", r.err);
	cr_expect_neq(cached_load(), 50, "the model was not measured again");
	e2e_free(&r);

	/* not quieter (40 now), or --no-probe: the cached model stays */
	loaded_model(dir, 50, xdg, sizeof xdg);
	r = run(dir, xdg, "RLPROF_TEST_LOADAVG=40", 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, "measuring it again"), "%s", r.err);
	cr_expect_eq(cached_load(), 50);
	e2e_free(&r);
	r = run(dir, xdg, "RLPROF_TEST_LOADAVG=0.1", 1);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, "measuring it again"), "%s", r.err);
	cr_expect_eq(cached_load(), 50);
	e2e_free(&r);

	/* a model probed on a quiet machine (0.2): never measured again */
	loaded_model(dir, 0.2, xdg, sizeof xdg);
	r = run(dir, xdg, "RLPROF_TEST_LOADAVG=0.0", 0);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, "measuring it again"), "%s", r.err);
	cr_expect_eq(cached_load(), 0.2);
	e2e_cleanup(&r, dir);
}
