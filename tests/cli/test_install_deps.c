/* Issue 40: scripts/install-deps (make demo's first step) shows one line
 * per step; the package manager's output goes to a log file it names, and
 * a failed step prints that log's last lines. Run with stand-ins for
 * dpkg-query (every package missing), id (root) and apt-get (400 lines of
 * output; 'install' fails when told to) first in PATH. */
#include "tests/lib/run.h"

#define DEPS RL_SOURCE_DIR "/scripts/install-deps"

static struct e2e_result deps(const char *dir, int fail)
{
	char bin[512], path[600], tmp[600], p[700];
	const char *argv[] = {"/bin/bash", DEPS, NULL};
	const char *env[] = {path, tmp, fail ? "FAKE_APT_FAIL=1" : NULL, NULL};

	snprintf(bin, sizeof bin, "%s/bin", dir);
	cr_assert_eq(mkdir(bin, 0755), 0);
	snprintf(p, sizeof p, "%s/dpkg-query", bin);
	e2e_put_file(p, "#!/bin/sh\nexit 1\n", 0755);
	snprintf(p, sizeof p, "%s/id", bin);
	e2e_put_file(p, "#!/bin/sh\necho 0\n", 0755);
	snprintf(p, sizeof p, "%s/apt-get", bin);
	e2e_put_file(p,
		     "#!/bin/sh\n"
		     "i=0; while [ $i -lt 400 ]; do echo \"apt line $i ($1)\"; "
		     "i=$((i+1)); done\n"
		     "if [ \"$1\" = install ] && [ -n \"$FAKE_APT_FAIL\" ]; then\n"
		     "  echo 'E: Unable to locate package likwid' >&2; exit 100\n"
		     "fi\n",
		     0755);
	snprintf(path, sizeof path, "PATH=%s:/usr/bin:/bin", bin);
	snprintf(tmp, sizeof tmp, "TMPDIR=%s", dir);
	return e2e_run_in(dir, argv, env);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(install_deps, one_line_per_step_and_the_log_named, .timeout = 30)
{
	char *dir = e2e_tmpdir(), *log, logpath[600];
	struct e2e_result r = deps(dir, 0);
	const char *at;

	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_eq(r.out[0], '\0', "%s", r.out);
	cr_expect_leq(count_lines(r.err), 5, "%s", r.err);
	cr_expect_null(strstr(r.err, "apt line"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "rlprof:   updating the package lists"),
			   "%s", r.err);
	cr_expect_not_null(strstr(r.err, "rlprof:   installing the packages"),
			   "%s", r.err);
	at = strstr(r.err, "output goes to ");
	cr_assert_not_null(at, "%s", r.err);
	snprintf(logpath, sizeof logpath, "%.*s", (int)strcspn(at + 15, ")\n"),
		 at + 15);
	cr_expect_eq(strncmp(logpath, dir, strlen(dir)), 0, "%s", logpath);
	log = e2e_slurp(logpath);
	cr_assert_not_null(log, "no log at '%s'", logpath);
	cr_expect_eq(count_lines(log), 800, "both steps' output");
	cr_expect_not_null(strstr(log, "apt line 399 (install)"));
	free(log);
	e2e_cleanup(&r, dir);
}

Test(install_deps, a_failed_step_shows_the_logs_tail, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r = deps(dir, 1);

	cr_expect_eq(r.status, 1, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "rlprof: installing the packages "
				  "(apt-get install) failed (exit status 100)"),
			   "%s", r.err);
	cr_expect_not_null(strstr(r.err, "  | E: Unable to locate package "
				  "likwid\n"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "  | apt line 399 (install)\n"), "%s",
			   r.err);
	cr_expect_null(strstr(r.err, "apt line 100 (install)"), "only the tail: %s",
		       r.err);
	e2e_cleanup(&r, dir);
}
