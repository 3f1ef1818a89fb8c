/*
 * What the program leaves in DIR/raw reaches rlprof whatever stands in
 * its way (issue 41): a program that calls umask(0777), and entries named
 * raw/rlprof-<pid>.json left there before the run (a FIFO, a folder, a
 * link).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/run.h"

/* umask(0777) in the program: its results file is still readable by
 * rlprof, run as the same unprivileged user (root reads any mode). */
Test(e2e_rawdir, a_program_with_umask_0777_keeps_its_regions,
     .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600], home[640], cache[640];

	if (geteuid() != 0)
		cr_skip_test("needs root to run rlprof as nobody (root reads "
			     "a file of any mode)");
	if (access("/usr/bin/setpriv", X_OK))
		cr_skip_test("needs setpriv (Debian: util-linux)");
	e2e_need(E2E_RLPROF);
	cr_assert_eq(chmod(dir, 0777), 0);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(home, sizeof home, "HOME=%s", dir);
	snprintf(cache, sizeof cache, "XDG_CACHE_HOME=%s/cache", dir);
	const char *env[] = {home, cache, NULL};
	const char *argv[] = {"/usr/bin/setpriv", "--reuid=nobody",
			      "--regid=nogroup", "--clear-groups", E2E_RLPROF,
			      "run", "-q", "--no-probe", "-b", "time", "-o",
			      out, E2E_PROG("e2e_umask"), NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	if (strstr(r.err, "setpriv:") || r.status == 126)
		cr_skip_test("cannot run the build as nobody here: %s", r.err);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_null(strstr(r.err, "could not be read"), "%s", r.err);
	e2e_expect_csv_row(out, "report.csv", "umask-work");
	e2e_cleanup(&r, dir);
}
