/*
 * The runtime's environment (issue 41): read once, through rt_env.c, with
 * secure_getenv, so a setuid program linked with librlprof ignores the
 * caller's RLPROF_OUT, RLPROF_WHOLE_PROGRAM, RLPROF_BACKEND and stays
 * inactive, writing nothing.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "tests/lib/run.h"

/* Every .c of folder (under the source tree): none but rt_env.c calls
 * getenv or secure_getenv. */
static void expect_no_getenv(const char *folder)
{
	char path[1024];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof path, "%s/%s", RL_SOURCE_DIR, folder);
	cr_assert_not_null(d = opendir(path), "%s", path);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 3 || strcmp(de->d_name + len - 2, ".c") != 0 ||
		    strcmp(de->d_name, "rt_env.c") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/%s", RL_SOURCE_DIR, folder,
			 de->d_name);
		char *text = e2e_slurp(path);
		cr_assert_not_null(text, "%s", path);
		cr_assert_null(strstr(text, "getenv("),
			       "%s reads the environment itself: read it "
			       "through rl_rt_env() (runtime/rt_env.h)",
			       path);
		free(text);
	}
	closedir(d);
}

Test(runtime_env, only_rt_env_reads_the_environment)
{
	expect_no_getenv("profiler/runtime");
	expect_no_getenv("profiler/mpi");
}

/* Runs dir/prog as nobody with RLPROF_OUT=out and the other settings an
 * attacker would give; its exit status. */
static int run_as_nobody(const char *prog, const char *out)
{
	char env_out[700];
	snprintf(env_out, sizeof env_out, "RLPROF_OUT=%s", out);
	const char *argv[] = {"/usr/bin/setpriv", "--reuid=nobody",
			      "--regid=nogroup", "--clear-groups", prog, NULL};
	const char *env[] = {env_out, "RLPROF_WHOLE_PROGRAM=1",
			     "RLPROF_BACKEND=time", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	int status = r.status;
	cr_assert_null(strstr(r.err, "setpriv:"), "%s", r.err);
	e2e_free(&r);
	return status;
}

/* A setuid-root copy of a test program, run by nobody with RLPROF_OUT in
 * a root-only folder: it runs, and nothing appears there. The same
 * program without the setuid bit, into a folder nobody may write, writes
 * its results (the setup works). */
Test(runtime_env, setuid_program_ignores_the_callers_environment)
{
	char *dir = e2e_tmpdir(), prog[600], plain[600], secret[600],
	     open_out[600], cmd[2048];
	struct statvfs fs;

	if (geteuid() != 0)
		cr_skip_test("needs root to make a setuid-root program");
	if (access("/usr/bin/setpriv", X_OK))
		cr_skip_test("needs setpriv (Debian: util-linux)");
	cr_assert_eq(statvfs(dir, &fs), 0);
	if (fs.f_flag & ST_NOSUID)
		cr_skip_test("%s is mounted nosuid: no setuid program runs "
			     "there", dir);
	cr_assert_eq(chmod(dir, 0755), 0);
	snprintf(prog, sizeof prog, "%s/suid", dir);
	snprintf(plain, sizeof plain, "%s/plain", dir);
	snprintf(secret, sizeof secret, "%s/secret", dir);
	snprintf(open_out, sizeof open_out, "%s/open", dir);
	snprintf(cmd, sizeof cmd, "cp %s %s && cp %s %s && chmod 4755 %s",
		 E2E_PROG("e2e_regions"), prog, E2E_PROG("e2e_regions"), plain,
		 prog);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(mkdir(secret, 0700), 0);
	cr_assert_eq(mkdir(open_out, 0777), 0);
	cr_assert_eq(chmod(open_out, 0777), 0);

	int st = run_as_nobody(plain, open_out);
	if (st == 126 || st == 127)
		cr_skip_test("nobody cannot run the build's programs here "
			     "(status %d)", st);
	cr_assert_eq(st, 0);
	cr_assert_eq(e2e_count_entries(open_out, "rlprof-", 0), 1,
		     "the plain program wrote no results as nobody");

	cr_assert_eq(run_as_nobody(prog, secret), 0);
	cr_assert_eq(e2e_count_entries(secret, "", 1), 2, /* . and .. */
		     "a setuid program obeyed the caller's RLPROF_OUT");
	e2e_rmtree_raw(dir);
	free(dir);
}
