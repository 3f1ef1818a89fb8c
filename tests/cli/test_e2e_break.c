/* rlprof run against programs that misbehave the way real ones do:
 * descriptors closed under the runtime, interrupts, vanished output. */
#include <dirent.h>
#include <signal.h>

#include "tests/lib/run.h"

/* Without the id check the runtime read()s a pipe the program made on a
 * perf descriptor's old number: it hangs (timeout) or eats a byte. */
Test(e2e_break, perf_never_reads_a_descriptor_the_program_reused,
     .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_fdreuse"), NULL};
	struct e2e_result r;

	e2e_need(prog[0]);
	r = e2e_profile_in("perf", dir, prog);
	if (r.status == 1 && strstr(r.err, "does not work here"))
		cr_skip_test("the perf backend does not work here");
	cr_expect_eq(r.status, 0, "status %d, stdout: %s\nstderr: %s",
		     r.status, r.out, r.err);
	cr_expect(strstr(r.out, "lost their byte: 0") != NULL, "%s", r.out);
	cr_expect(strstr(r.err, "could not read the counters of thread"),
		  "stderr: %s", r.err);
	e2e_cleanup(&r, dir);
}

/* -b sim runs the program natively first for the times: a Ctrl-C there
 * means stop, not "go on under the simulator". */
Test(e2e_break, interrupt_in_native_timing_run_stops_the_run, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_interrupt"), NULL};
	struct e2e_result r;
	char log[600];

	e2e_need(prog[0]);
	signal(SIGINT, SIG_DFL); /* the program's Ctrl-C must kill it */
	r = e2e_profile_in("sim", dir, prog);
	if (r.status == 1 && strstr(r.err, "does not work here"))
		cr_skip_test("the sim backend does not work here");
	cr_expect_eq(r.status, 128 + SIGINT, "status %d, stderr: %s",
		     r.status, r.err);
	cr_expect(strstr(r.err, "the simulator run was not started") != NULL,
		  "stderr: %s", r.err);
	cr_expect(strstr(r.err, "counting run") == NULL, "stderr: %s", r.err);
	e2e_expect_csv_row(dir, "out/report.csv", "before-interrupt");
	snprintf(log, sizeof log, "%s/out/raw-native", dir);
	cr_expect_neq(access(log, F_OK), 0, "raw-native left behind");
	snprintf(log, sizeof log, "%s/out/raw", dir);
	cr_expect_eq(e2e_count_entries(log, "valgrind-", 0), 0,
		     "the simulator ran after the interrupt");
	cr_expect_eq(e2e_count_entries(log, "rlprof-", 0), 1,
		     "the timing run's results are not in raw/");
	e2e_cleanup(&r, dir);
}

/* The output directory removed while the program runs: the runtime makes
 * it again, so the regions measured are kept and the report is written. */
Test(e2e_break, output_dir_removed_during_the_run_is_made_again,
     .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[512];
	const char *prog[] = {E2E_PROG("e2e_rmout"), out, NULL};
	struct e2e_result r;
	char *csv;

	e2e_need(prog[0]);
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "cannot write") == NULL, "stderr: %s", r.err);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "before-removal"), "csv: %s", csv);
	cr_expect_not_null(e2e_csv_row(csv, "after-removal"), "csv: %s", csv);
	free(csv);
	e2e_cleanup(&r, dir);
}

/* A results file that cannot be written: one line that says where, why,
 * and what to do; the program's own exit status is kept. */
Test(e2e_break, unwritable_results_dir_is_said_with_its_reason,
     .timeout = 60)
{
	const char *argv[] = {E2E_PROG("e2e_exit"), "0", NULL};
	const char *env[] = {"RLPROF_OUT=/proc/self/no-such-dir/raw",
			     "RLPROF_BACKEND=time", NULL};
	struct e2e_result r;

	e2e_need(argv[0]);
	r = e2e_run_in(NULL, argv, env);
	cr_expect_eq(r.status, 0, "status %d", r.status);
	cr_expect(strstr(r.err, "rlprof: cannot write '/proc/self/no-such-dir"
				"/raw/") != NULL, "stderr: %s", r.err);
	/* what is lost, by name, since no live file keeps it either */
	cr_expect(strstr(r.err, "No such file or directory: lost: 'exit-work' "
				"(1 region per thread, 1 call, which its live "
				"file could not keep either)") != NULL,
		  "stderr: %s", r.err);
	e2e_free(&r);
}

/* `rlprof run ./app | head`: the reader goes, the program dies of
 * SIGPIPE. Its results are still written (the runtime catches SIGPIPE)
 * and rlprof, whose table goes to the same closed pipe, still writes the
 * report files and exits with the program's status instead of dying. */
Test(e2e_break, closed_stdout_pipe_keeps_results_and_report, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[512], errp[600], buf[256];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, E2E_PROG("e2e_pipe"), NULL};
	int p[2], st;
	pid_t pid;
	char *err;

	e2e_need(E2E_RLPROF);
	e2e_need(argv[8]);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(errp, sizeof errp, "%s/stderr", dir);
	cr_assert_eq(pipe(p), 0);
	pid = e2e_start(argv, errp, p);
	close(p[1]);
	cr_assert_gt(read(p[0], buf, sizeof buf), 0, "no output");
	close(p[0]);
	st = e2e_wait(pid);
	err = e2e_file(dir, "stderr");
	cr_expect(WIFEXITED(st), "rlprof was killed by signal %d; stderr: %s",
		  WIFSIGNALED(st) ? WTERMSIG(st) : 0, err);
	cr_expect_eq(WEXITSTATUS(st), 128 + SIGPIPE, "status %d",
		     WEXITSTATUS(st));
	free(err);
	e2e_expect_csv_row(dir, "out/report.csv", "before-pipe");
	e2e_rmtree(dir);
	free(dir);
}

/* SIGKILL leaves no results: the message says so, and what to do. */
Test(e2e_break, sigkill_says_nothing_could_be_written, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {"/bin/sh", "-c", "kill -9 $$", NULL};
	struct e2e_result r = e2e_profile_in("time", dir, prog);

	cr_expect_eq(r.status, 128 + SIGKILL, "status %d", r.status);
	cr_expect(strstr(r.err, "killed by SIGKILL") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "stop a program with SIGTERM or Ctrl-C") !=
			  NULL, "%s", r.err);
	e2e_expect_csv_row(dir, "out/report.csv", "<program>");
	e2e_cleanup(&r, dir);
}

/* The output directory replaced by a file while the program runs: one
 * line says so; the table is still printed; exit status 1 (the program
 * succeeded but rlprof could not write its report). */
Test(e2e_break, output_dir_unusable_after_the_run_is_status_1,
     .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[512];
	const char *prog[] = {E2E_PROG("e2e_rmout"), out, "file", NULL};
	struct e2e_result r;

	e2e_need(prog[0]);
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "rlprof: the output directory changed while "
				"the program ran: cannot use '") != NULL,
		  "stderr: %s", r.err);
	cr_expect(strstr(r.err, "warning: cannot write") == NULL,
		  "a line per report file: %s", r.err);
	cr_expect(strstr(r.out, "<program>") != NULL, "stdout: %s", r.out);
	e2e_cleanup(&r, dir);
}
