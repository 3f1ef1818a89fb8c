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

/* rlprof run -q --no-probe -b time -o DIR/out e2e_exit 0 */
static struct e2e_result run_into(const char *dir)
{
	char out[600];
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {"/usr/bin/timeout", "20", E2E_RLPROF, "run",
			      "-q", "--no-probe", "-b", "time", "-o", out,
			      E2E_PROG("e2e_exit"), "0", NULL};
	e2e_need(E2E_RLPROF);
	struct e2e_result r = e2e_run(argv);
	cr_assert_neq(r.status, 124, "rlprof run hung:\n%s", r.err);
	return r;
}

/* DIR/out/raw/name into buf, DIR/out/raw made first. */
static const char *in_raw(char *buf, size_t len, const char *dir,
			  const char *name)
{
	snprintf(buf, len, "%s/out", dir);
	mkdir(buf, 0755);
	snprintf(buf, len, "%s/out/raw", dir);
	mkdir(buf, 0755);
	snprintf(buf, len, "%s/out/raw/%s", dir, name);
	return buf;
}

/* A FIFO, an empty folder and a link named raw/rlprof-N.json, left before
 * the run: removed with a warning (the link's target untouched, the FIFO
 * never opened), and the run's regions are all there. */
Test(e2e_rawdir, entries_named_like_results_are_cleaned, .timeout = 120)
{
	char *dir = e2e_tmpdir(), path[700], target[640], out[600];

	snprintf(out, sizeof out, "%s/out", dir);
	cr_assert_eq(mkfifo(in_raw(path, sizeof path, dir, "rlprof-1.json"),
			    0644), 0);
	cr_assert_eq(mkdir(in_raw(path, sizeof path, dir, "rlprof-2.json"),
			   0755), 0);
	snprintf(target, sizeof target, "%s/target.json", dir);
	e2e_put_file(target, "{\"planted\": 1}\n", 0644);
	cr_assert_eq(symlink(target, in_raw(path, sizeof path, dir,
					    "rlprof-3.json")), 0);

	struct e2e_result r = run_into(dir);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "rlprof: warning: removed 3 entries from "),
		  "%s", r.err);
	cr_assert(strstr(r.err, "named like rlprof's own files but not "
			 "files"), "%s", r.err);
	cr_assert_null(strstr(r.err, "could not be read"), "%s", r.err);
	e2e_expect_csv_row(out, "report.csv", "exit-work");
	char *t = e2e_slurp(target);
	cr_assert_str_eq(t, "{\"planted\": 1}\n");
	free(t);
	snprintf(path, sizeof path, "%s/out/raw", dir);
	cr_assert_eq(e2e_count_entries(path, "rlprof-", 0), 1);
	e2e_cleanup(&r, dir);
}

/* A folder named raw/rlprof-N.json that holds files: refused before the
 * program runs, with what to do; nothing in it is removed. */
Test(e2e_rawdir, a_folder_named_like_results_is_refused, .timeout = 120)
{
	char *dir = e2e_tmpdir(), path[700];

	cr_assert_eq(mkdir(in_raw(path, sizeof path, dir, "rlprof-7.json"),
			   0755), 0);
	e2e_put_file(in_raw(path, sizeof path, dir, "rlprof-7.json/keep"),
		     "mine\n", 0644);

	struct e2e_result r = run_into(dir);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "/raw': it holds a folder 'rlprof-7.json', "
			 "named like rlprof's results files, with files in "
			 "it: remove it or choose another output directory "
			 "with -o DIR"), "%s", r.err);
	cr_assert_eq(access(path, F_OK), 0);
	e2e_cleanup(&r, dir);
}

/* The program swaps DIR/which (DIR itself when which is "") for a link
 * to DIR/../target, where a report.json was planted: nothing is written
 * there, the run says so, and the report (in the folder rlprof held
 * open, now at DIR/which.moved or DIR) has both regions. */
static void swapped_while_running(const char *which)
{
	char *dir = e2e_tmpdir(), out[600], from[700], target[640],
	     planted[700], held[700];

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(from, sizeof from, "%s%s", out, which);
	snprintf(target, sizeof target, "%s/target", dir);
	snprintf(planted, sizeof planted, "%s/report.json", target);
	cr_assert_eq(mkdir(target, 0755), 0);
	e2e_put_file(planted, "planted\n", 0644);
	const char *argv[] = {"/usr/bin/timeout", "20", E2E_RLPROF, "run",
			      "-q", "--no-probe", "-b", "time", "-o", out,
			      E2E_PROG("e2e_swapout"), from, target, NULL};
	e2e_need(E2E_RLPROF);
	struct e2e_result r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "was replaced while the program ran (by a "
			 "symbolic link or another folder): rlprof reads and "
			 "writes in the folder it held open since the start"),
		  "%s", r.err);
	char *t = e2e_slurp(planted);
	cr_assert_str_eq(t, "planted\n");
	free(t);
	cr_assert_eq(e2e_count_entries(target, "", 1), 3,
		     "files were written into the link's target");
	unlink(planted); /* not a report: not checked against the schema */
	snprintf(held, sizeof held, "%s%s", out, *which ? "" : ".moved");
	e2e_expect_csv_row(held, "report.csv", "before-swap");
	e2e_expect_csv_row(held, "report.csv", "after-swap");
	e2e_cleanup(&r, dir);
}

Test(e2e_rawdir, folders_swapped_for_links_while_running, .timeout = 240)
{
	swapped_while_running("");     /* DIR */
	swapped_while_running("/raw"); /* DIR/raw */
}
