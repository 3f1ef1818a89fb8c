/* Issue 40: the suite never depends on the user's model cache or on test
 * order. Every test process has a cache of its own (tests/lib/cache.h)
 * that holds the fixture model, so `rlprof run` without --no-probe finds
 * a model and never probes, and nothing lands in the user's cache. */
#include <stdlib.h>

#include "machine/machine_file.h"
#include "tests/lib/cache.h"
#include "tests/lib/run.h"

Test(e2e_cache, each_test_process_has_its_own_cache_with_the_fixture_model)
{
	const char *home = rl_test_cache_home(), *xdg = getenv("XDG_CACHE_HOME");
	const char *root = getenv("RLPROF_TEST_CACHE_ROOT");
	struct rl_machine m;
	char path[4096], err[512], sub[1024];

	cr_assert_not_null(home, "no cache of this test's own");
	cr_assert_not_null(xdg);
	cr_expect_str_eq(xdg, home);
	cr_assert_not_null(root, "the runner made no folder for the caches");
	cr_expect_eq(strncmp(home, root, strlen(root)), 0, "%s not under %s",
		     home, root);
	cr_expect_null(getenv("RLPROF_MACHINE"));
	cr_assert_eq(rl_machine_load_cached(&m, path, sizeof path, err,
					    sizeof err),
		     0, "%s", err);
	cr_expect_str_eq(m.cpu_model, "Test CPU");
	cr_expect_eq(m.version, RL_MACHINE_VERSION);
	cr_expect_eq(m.n_levels, 3);
	/* fresh: the model alone, nothing an earlier test left */
	snprintf(sub, sizeof sub, "%s/rlprof", home);
	cr_expect_eq(e2e_count_entries(sub, "machine-", 0), 1);
	cr_expect_eq(e2e_count_entries(sub, "", 0), 3); /* ., .., model */
}

Test(e2e_cache, a_run_without_no_probe_uses_the_fixture_and_never_probes,
     .timeout = 60)
{
	char *dir = e2e_tmpdir(), out[512], sub[1024];
	const char *argv[] = {E2E_RLPROF, "run", "-b", "time", "-o", out,
			      E2E_PROG("e2e_exit"), "0", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(argv[6]);
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.out, "machine: Test CPU"), "%s", r.out);
	cr_expect_null(strstr(r.err, "probing"), "%s", r.err);
	cr_expect_null(strstr(r.err, "no machine model"), "%s", r.err);
	snprintf(sub, sizeof sub, "%s/rlprof", rl_test_cache_home());
	cr_expect_eq(e2e_count_entries(sub, "", 0), 3);
	e2e_cleanup(&r, dir);
}
