/* SPDX-License-Identifier: MIT */
/*
 * Completed regions survive the deaths no program can catch: SIGKILL from
 * another process, _exit() inside a region, and a memory limit (ulimit
 * -v) reached inside a region. The real rlprof run on tests/programs/
 * rt_killed.c: "done" completed 3 times, "working" open at the end.
 */
#include <dirent.h>
#include <signal.h>

#include "tests/lib/run.h"

struct killed {
	char *dir, out[512];
	struct e2e_result r;
	char *csv;
};

static void run_killed(struct killed *k, const char *const *prog)
{
	const char *argv[32] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
				"time", "-o", NULL};
	size_t n = 7;
	e2e_need(E2E_RLPROF);
	e2e_need(E2E_PROG("rt_killed"));
	k->dir = e2e_tmpdir();
	snprintf(k->out, sizeof k->out, "%s/out", k->dir);
	argv[n++] = k->out;
	argv[n++] = "--";
	for (size_t i = 0; prog[i] && n < 31; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	k->r = e2e_run(argv);
	k->csv = e2e_file(k->out, "report.csv");
}

static void killed_free(struct killed *k)
{
	free(k->csv);
	e2e_free(&k->r);
	e2e_rmtree(k->dir);
	free(k->dir);
}

/* "done" kept with its 3 calls; "working" listed with 0 calls; no live
 * file left behind, one results file. */
static void check_kept(struct killed *k)
{
	const char *done = e2e_csv_row(k->csv, "done");
	cr_assert_not_null(done, "csv: %s\nstderr: %s", k->csv, k->r.err);
	cr_expect_eq(strncmp(done, "done,,3,", 8), 0, "row: %.60s", done);
	const char *working = e2e_csv_row(k->csv, "working");
	cr_assert_not_null(working, "csv: %s", k->csv);
	cr_expect_eq(strncmp(working, "working,,0,", 11), 0, "row: %.60s",
		     working);
	cr_expect_null(strstr(k->r.err, "no counts for"), "%s", k->r.err);
	char raw[600];
	snprintf(raw, sizeof raw, "%s/raw", k->out);
	DIR *d = opendir(raw);
	cr_assert_not_null(d);
	struct dirent *de;
	int json = 0;
	while ((de = readdir(d))) {
		cr_expect_null(strstr(de->d_name, ".live"), "left: %s",
			       de->d_name);
		json += strncmp(de->d_name, "rlprof-", 7) == 0;
	}
	closedir(d);
	cr_expect_eq(json, 1);
}

Test(e2e_killed, sigkill_from_outside_keeps_completed_regions,
     .timeout = 60)
{
	struct killed k;
	const char *prog[] = {E2E_PROG("rt_killed"), "kill", NULL};
	run_killed(&k, prog);
	cr_expect_eq(k.r.status, 128 + SIGKILL, "status %d: %s", k.r.status,
		     k.r.err);
	check_kept(&k);
	cr_expect(strstr(k.r.err, "killed by signal 9 (SIGKILL") != NULL, "%s",
		  k.r.err);
	cr_expect(strstr(k.r.err, "recovered from its live file") != NULL,
		  "%s", k.r.err);
	cr_expect(strstr(k.r.err, "region 'working' still open when process") !=
			  NULL,
		  "%s", k.r.err);
	killed_free(&k);
}

Test(e2e_killed, underscore_exit_inside_a_region_keeps_completed_regions,
     .timeout = 60)
{
	struct killed k;
	const char *prog[] = {E2E_PROG("rt_killed"), "exit", NULL};
	run_killed(&k, prog);
	cr_expect_eq(k.r.status, 3, "status %d: %s", k.r.status, k.r.err);
	check_kept(&k);
	cr_expect(strstr(k.r.err, "through _exit() or exec, exit status 3") !=
			  NULL,
		  "%s", k.r.err);
	cr_expect_null(strstr(k.r.err, "signal 0"), "%s", k.r.err);
	killed_free(&k);
}

/* A child of a shell that set a 300 MB address-space limit allocates
 * until malloc fails and dies writing through the null pointer. */
Test(e2e_killed, memory_limit_keeps_completed_regions, .timeout = 60)
{
#ifdef RL_TEST_SANITIZED
	cr_skip_test("AddressSanitizer reserves terabytes of address space: "
		     "no program runs under ulimit -v");
#endif
	struct killed k;
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "ulimit -v 300000 && exec %s oom",
		 E2E_PROG("rt_killed"));
	const char *prog[] = {"/bin/sh", "-c", cmd, NULL};
	run_killed(&k, prog);
	cr_expect_eq(k.r.status, 128 + SIGSEGV, "status %d: %s", k.r.status,
		     k.r.err);
	check_kept(&k);
	killed_free(&k);
}

/* A child that outlives the program (rt_scenarios orphan: it is still in
 * "child-late" when its parent exits) was missing from the report with no
 * word. rlprof run names it, leaves its live file to it (not recovered as
 * if killed, not removed), and once it has ended `rlprof report` has its
 * regions from the results file it wrote. */
Test(e2e_killed, child_outliving_the_program_is_named, .timeout = 60)
{
	struct killed k;
	const char *prog[] = {E2E_PROG("rt_scenarios"), "orphan", NULL};
	const char *msg;
	char json[700], *csv;
	long pid = 0;

	e2e_need(prog[0]);
	run_killed(&k, prog);
	cr_expect_eq(k.r.status, 0, "%s", k.r.err);
	msg = strstr(k.r.err, "rlprof: warning: process ");
	cr_assert_not_null(msg, "stderr: %s", k.r.err);
	cr_assert_eq(sscanf(msg, "rlprof: warning: process %ld", &pid), 1);
	cr_expect_not_null(strstr(msg, ", started by the program, was still "
				       "running when the program ended: its "
				       "regions are not in this report"),
			   "stderr: %s", k.r.err);
	cr_expect_null(strstr(k.r.err, "recovered from its live file"),
		       "recovered as if killed: %s", k.r.err);
	cr_expect_null(e2e_csv_row(k.csv, "child-done"), "csv: %s", k.csv);
	/* the child ends 2 s after it began and writes its results */
	snprintf(json, sizeof json, "%s/raw/rlprof-%ld.json", k.out, pid);
	for (int i = 0; i < 100 && access(json, F_OK) != 0; i++)
		usleep(100 * 1000);
	cr_assert_eq(access(json, F_OK), 0, "the child wrote no '%s'", json);
	{
		const char *argv[] = {E2E_RLPROF, "report", "--no-probe", "-f",
				      "csv", k.out, NULL};
		struct e2e_result r = e2e_run(argv);
		cr_expect_eq(r.status, 0, "%s", r.err);
		csv = r.out;
		cr_expect_not_null(e2e_csv_row(csv, "child-done"), "csv: %s", csv);
		cr_expect_not_null(e2e_csv_row(csv, "child-late"), "csv: %s", csv);
		cr_expect_not_null(e2e_csv_row(csv, "parent"), "csv: %s", csv);
		e2e_free(&r);
	}
	killed_free(&k);
}
