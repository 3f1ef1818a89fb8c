/* The runtime where its output cannot be kept: a RLPROF_OUT too long to
 * use, and a disk with no room for even its live file. Each says so on
 * stderr and leaves nothing half-made behind. (A nearly full disk through
 * rlprof run: tests/cli/test_e2e_hostile.c.) */
#include <dirent.h>
#include <errno.h>
#include <sys/mount.h>

#include "tests/lib/run.h"

#define SCENARIOS E2E_PROG("rt_scenarios")

/* A tmpfs of 64 KiB at dir filled but for free_kib. Skips the test when
 * it cannot be mounted (not root). */
static void small_disk(const char *dir, int free_kib)
{
	char ballast[600];
	FILE *f;

	if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
		int e = errno;
		e2e_rmtree(dir);
		cr_skip_test("cannot mount a small tmpfs here (%s): needs root",
			     strerror(e));
	}
	snprintf(ballast, sizeof ballast, "%s/ballast", dir);
	f = fopen(ballast, "w");
	cr_assert_not_null(f);
	for (int i = 0; i < (64 - free_kib) * 1024; i++)
		if (fputc('x', f) == EOF)
			break;
	fclose(f); /* full may fail: that is the point at 0 KiB */
}

/* A RLPROF_OUT longer than the runtime can use: said once on stderr, the
 * program runs as without rlprof (it was silently inactive). */
Test(runtime_disk, rlprof_out_too_long_is_said, .timeout = 60)
{
	static char out[4200];
	const char *argv[] = {SCENARIOS, "nest", NULL};
	const char *env[] = {out, NULL};
	struct e2e_result r;

	e2e_need(SCENARIOS);
	memset(out, 'd', sizeof out - 1);
	memcpy(out, "RLPROF_OUT=/tmp/", 16);
	r = e2e_run_in(NULL, argv, env);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "rlprof: RLPROF_OUT is too long"),
			   "stderr: %s", r.err);
	cr_expect_not_null(strstr(r.err, "give a shorter output directory"),
			   "stderr: %s", r.err);
	e2e_free(&r);
}

/* No room at all: the live file cannot be reserved and the results file
 * cannot be written. Nothing is left in the directory (an empty live
 * file was), and stderr names what was lost. */
Test(runtime_disk, full_disk_leaves_no_empty_live_file, .timeout = 60)
{
	char *dir = e2e_tmpdir(), out[600], env_out[640];
	const char *argv[] = {SCENARIOS, "nest", NULL};
	const char *env[] = {env_out, NULL};
	struct e2e_result r;
	struct dirent *de;
	DIR *d;

	e2e_need(SCENARIOS);
	small_disk(dir, 0);
	snprintf(out, sizeof out, "%s/raw", dir);
	cr_assert_eq(mkdir(out, 0755), 0, "%s", strerror(errno));
	snprintf(env_out, sizeof env_out, "RLPROF_OUT=%s", out);
	r = e2e_run_in(NULL, argv, env);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_not_null(strstr(r.err, "No space left on device"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "which its live file could not keep "
					 "either"), "stderr: %s", r.err);
	d = opendir(out);
	cr_assert_not_null(d);
	while ((de = readdir(d)))
		cr_expect(de->d_name[0] != '.' || !strcmp(de->d_name, ".") ||
				  !strcmp(de->d_name, ".."),
			  "'%s' left behind", de->d_name);
	closedir(d);
	e2e_free(&r);
	umount(dir);
	e2e_rmtree(dir);
	free(dir);
}
