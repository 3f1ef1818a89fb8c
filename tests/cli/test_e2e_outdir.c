/*
 * The output directory is rlprof's alone (issue 25): nothing of what a
 * hostile user places there (FIFOs, links, stale or foreign results,
 * absurd rank folders) hangs rlprof, makes it write outside DIR or merges
 * into the report.
 */
#include "tests/lib/run.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>

#include "results/run_results.h"
#include "results/results_live.h"
#include "runtime/results_write.h"
#include <sys/file.h>
#include <sys/types.h>

#define RUN1 RL_SOURCE_DIR "/tests/data/results/run1"
#define REPORTS RL_SOURCE_DIR "/tests/data/reports/"

/* A copy of tests/data/results/run1 in a new temporary directory; its
 * path into out (the caller frees the directory it returns). */
static char *copy_run1(char *out, size_t len)
{
	char *dir = e2e_tmpdir();
	const char *names[] = {"run.json", "raw/rlprof-200.json",
			       "raw/rlprof-300.json"};

	snprintf(out, len, "%s/run", dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	char raw[600];
	snprintf(raw, sizeof raw, "%s/raw", out);
	cr_assert_eq(mkdir(raw, 0755), 0);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char *text = e2e_file(RUN1, names[i]);
		char path[700];
		snprintf(path, sizeof path, "%s/%s", out, names[i]);
		e2e_put_file(path, text, 0644);
		free(text);
	}
	return dir;
}

static void fifo_at(const char *dir, const char *name)
{
	char path[700];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	cr_assert_eq(mkfifo(path, 0644), 0, "mkfifo '%s': %s", path,
		     strerror(errno));
}

/* rlprof report DIR with a FIFO at DIR/machine.json: the stored model is
 * said unusable at once, the report still made. */
Test(e2e_outdir, report_with_fifo_machine_json_does_not_hang,
     .timeout = 20)
{
	char run[600];
	char *dir = copy_run1(run, sizeof run);
	const char *argv[] = {E2E_RLPROF, "report", run, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	fifo_at(run, "machine.json");
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "machine.json': not a regular file (a FIFO)"),
		  "stderr: %s", r.err);
	e2e_cleanup(&r, dir);
}

/* A FIFO at DIR/run.json: one message, exit status 2 or 1, no hang. */
Test(e2e_outdir, report_with_fifo_run_json_does_not_hang, .timeout = 20)
{
	char run[600], path[700];
	char *dir = copy_run1(run, sizeof run);
	const char *argv[] = {E2E_RLPROF, "report", run, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(path, sizeof path, "%s/run.json", run);
	unlink(path);
	fifo_at(run, "run.json");
	r = e2e_run(argv);
	cr_expect_neq(r.status, 0, "status %d", r.status);
	cr_expect(strstr(r.err, "run.json': not a regular file (a FIFO)"),
		  "stderr: %s", r.err);
	e2e_cleanup(&r, dir);
}

/* Rank folders: FIFOs at rank-1/rank.json, rank-1/run.json and mpi.json
 * are as if absent. */
Test(e2e_outdir, report_with_fifo_rank_files_does_not_hang, .timeout = 20)
{
	char run[600], path[700];
	char *dir = copy_run1(run, sizeof run);
	const char *argv[] = {E2E_RLPROF, "report", "-f", "json", "-o",
			      "/dev/null", path, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	/* run1's results as rank 0 of a job */
	snprintf(path, sizeof path, "%s/job", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/job/rank-0", dir);
	cr_assert_eq(rename(run, path), 0);
	snprintf(path, sizeof path, "%s/job/rank-1", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	fifo_at(path, "rank.json");
	fifo_at(path, "run.json");
	snprintf(path, sizeof path, "%s/job", dir);
	fifo_at(path, "mpi.json");
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	e2e_cleanup(&r, dir);
}

/* diff and check with a FIFO as a report or baseline. */
Test(e2e_outdir, diff_and_check_refuse_a_fifo, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char fifo[600];
	const char *diff1[] = {E2E_RLPROF, "diff", fifo, REPORTS "base", NULL};
	const char *diff2[] = {E2E_RLPROF, "diff", REPORTS "base", fifo, NULL};
	const char *check[] = {E2E_RLPROF, "check", REPORTS "base",
			       "--max-regression", "5", "--baseline", fifo,
			       NULL};
	const char *const *all[] = {diff1, diff2, check};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(fifo, sizeof fifo, "%s/base.json", dir);
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	for (size_t i = 0; i < 3; i++) {
		r = e2e_run(all[i]);
		cr_expect_eq(r.status, 2, "%s: status %d, stderr: %s",
			     all[i][1], r.status, r.err);
		cr_expect(strstr(r.err, "not a regular file (a FIFO)"),
			  "%s: stderr: %s", all[i][1], r.err);
		e2e_free(&r);
	}
	e2e_cleanup(&r, dir);
}

/* RLPROF_MACHINE naming a FIFO: rlprof probe says so at once. */
Test(e2e_outdir, probe_with_fifo_machine_env_does_not_hang, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char fifo[600], env[700];
	const char *argv[] = {E2E_RLPROF, "probe", NULL};
	const char *envs[] = {env, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(fifo, sizeof fifo, "%s/machine.json", dir);
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	snprintf(env, sizeof env, "RLPROF_MACHINE=%s", fifo);
	r = e2e_run_in(NULL, argv, envs);
	cr_expect(strstr(r.err, "not a regular file (a FIFO)"),
		  "status %d, stderr: %s", r.status, r.err);
	e2e_cleanup(&r, dir);
}

/* ---- writes stay inside DIR (item 1) ---------------------------------- */

static void expect_untouched(const char *victim)
{
	char *s = e2e_slurp(victim);
	cr_assert_not_null(s, "'%s' is gone", victim);
	cr_expect_str_eq(s, "keep\n", "'%s' was written through a link",
			 victim);
	free(s);
}

/* Links placed in DIR while the program runs, at the report files and at
 * the runtime's old temporary name, are replaced, never written through;
 * a results file of no run identity is left out and named. */
Test(e2e_outdir, links_placed_during_the_run_are_not_followed,
     .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[600], victim[600], script[4096], path[700];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, "/bin/sh", "-c", script, NULL};
	struct e2e_result r;
	struct stat st;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	e2e_put_file(victim, "keep\n", 0644);
	snprintf(script, sizeof script,
		 "for f in report.json report.html roofline.svg report.csv "
		 "run.json machine.json; do ln -s %s %s/$f; done; "
		 "ln -s %s \"$RLPROF_OUT/.rlprof-$$.json.tmp\"; "
		 "cp %s/raw/rlprof-200.json \"$RLPROF_OUT/rlprof-1.json\"; "
		 "true",
		 victim, out, victim, RUN1);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	expect_untouched(victim);
	snprintf(path, sizeof path, "%s/report.json", out);
	cr_expect(lstat(path, &st) == 0 && S_ISREG(st.st_mode),
		  "report.json is not a regular file of rlprof's");
	cr_expect(strstr(r.err, "left out 1 results file of another rlprof "
				"run") &&
			  strstr(r.err, "rlprof-1.json' (no run identity)"),
		  "stderr: %s", r.err);
	e2e_cleanup(&r, dir);
}

/* DIR/raw as a link to another folder: refused, nothing there removed. */
Test(e2e_outdir, raw_as_a_link_is_refused, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[600], other[600], path[700];
	const char *prog[] = {E2E_PROG("e2e_exit"), NULL};
	struct e2e_result r;

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(other, sizeof other, "%s/other", dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	cr_assert_eq(mkdir(other, 0755), 0);
	snprintf(path, sizeof path, "%s/rlprof-1.json", other);
	e2e_put_file(path, "keep\n", 0644);
	snprintf(path, sizeof path, "%s/raw", out);
	cr_assert_eq(symlink(other, path), 0);
	r = e2e_profile("time", out, prog);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "/raw': it is a symbolic link, not a folder "
				"of rlprof's"),
		  "stderr: %s", r.err);
	snprintf(path, sizeof path, "%s/rlprof-1.json", other);
	expect_untouched(path);
	e2e_cleanup(&r, dir);
}

/* ---- stale and foreign results (items 2, 3) --------------------------- */

/* The live file of an earlier run killed with its rlprof (rt_killed exit
 * ran outside rlprof: _exit() left it) is removed with a warning, not
 * merged: region "done" is not in the new report. */
Test(e2e_outdir, stale_live_file_is_not_merged, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[600], raw[600], env[700];
	const char *killed[] = {E2E_PROG("rt_killed"), "exit", NULL};
	const char *envs[] = {env, NULL};
	const char *prog[] = {E2E_PROG("e2e_exit"), NULL};
	struct e2e_result r;

	e2e_need(E2E_PROG("rt_killed"));
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(raw, sizeof raw, "%s/out/raw", dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	cr_assert_eq(mkdir(raw, 0755), 0);
	snprintf(env, sizeof env, "RLPROF_OUT=%s", raw);
	r = e2e_run_in(NULL, killed, envs);
	e2e_free(&r);
	cr_assert_eq(e2e_count_entries(raw, ".live", 1), 1,
		     "rt_killed exit left no live file");
	r = e2e_profile("time", out, prog);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "removed 1 live file of an earlier run"),
		  "stderr: %s", r.err);
	char *csv = e2e_file(out, "report.csv");
	cr_expect_null(e2e_csv_row(csv, "done"), "stale region merged: %s",
		       csv);
	cr_expect_not_null(e2e_csv_row(csv, "exit-work"), "%s", csv);
	free(csv);
	e2e_cleanup(&r, dir);
}

/* A second run into a DIR that a run holds is refused with one message
 * (the lock is taken here as a running rlprof holds it). */
Test(e2e_outdir, second_run_into_a_busy_dir_is_refused, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[600];
	const char *prog[] = {E2E_PROG("e2e_exit"), NULL};
	struct e2e_result r;
	int fd;

	snprintf(out, sizeof out, "%s/out", dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	fd = open(out, O_RDONLY | O_DIRECTORY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(flock(fd, LOCK_EX), 0);
	r = e2e_profile("time", out, prog);
	close(fd);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "is in use by another rlprof run: wait for "
				"it to end, or choose another with -o DIR"),
		  "stderr: %s", r.err);
	cr_expect_eq(e2e_count_entries(out, "report", 0), 0);
	e2e_cleanup(&r, dir);
}

/* ---- untrusted text: escaped, CSV cells defused (items 5, 6) ---------- */

/* A copy of report base with every "triad" renamed to name, backend
 * "perf" to backend and bound roof "DRAM" to roof (JSON escapes
 * allowed), as dir/NAME/report.json. */
static void hostile_report(const char *dir, const char *sub, const char *name,
			   const char *backend, const char *roof)
{
	char *text = e2e_file(REPORTS "base", "report.json");
	char path[700], *out = malloc(strlen(text) * 4 + 4096), *o = out;

	cr_assert_not_null(out);
	for (const char *p = text; *p;) {
		if (!strncmp(p, "\"triad\"", 7)) {
			o += sprintf(o, "\"%s\"", name);
			p += 7;
		} else if (!strncmp(p, "\"perf\"", 6)) {
			o += sprintf(o, "\"%s\"", backend);
			p += 6;
		} else if (!strncmp(p, "\"DRAM\"", 6)) {
			o += sprintf(o, "\"%s\"", roof);
			p += 6;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	snprintf(path, sizeof path, "%s/%s", dir, sub);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/%s/report.json", dir, sub);
	e2e_put_file(path, out, 0644);
	free(out);
	free(text);
}

static void expect_no_raw_controls(const char *what, const char *s)
{
	cr_expect_null(strchr(s, '\033'), "%s: raw ESC: %s", what, s);
	cr_expect_null(strchr(s, '\007'), "%s: raw BEL: %s", what, s);
	cr_expect_null(strstr(s, "\xe2\x80\xae"), "%s: raw U+202E: %s", what,
		       s);
}

Test(e2e_outdir, diff_csv_defuses_formula_cells, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char a[600], b[600];
	const char *argv[] = {E2E_RLPROF, "diff", "-f", "csv", a, b, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	hostile_report(dir, "a", "=HYPERLINK(1)", "perf", "@x");
	hostile_report(dir, "b", "=HYPERLINK(1)", "perf", "+cmd|x");
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.out, "\n'=HYPERLINK(1),"), "csv: %s", r.out);
	cr_expect(strstr(r.out, ",'@x,'+cmd|x,"), "csv: %s", r.out);
	cr_expect_null(strstr(r.out, "\n=HYPERLINK"), "csv: %s", r.out);
	e2e_cleanup(&r, dir);
}

Test(e2e_outdir, diff_and_check_escape_the_reports_text, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char a[600], b[600];
	const char *diff[] = {E2E_RLPROF, "diff", a, b, NULL};
	const char *check[] = {E2E_RLPROF, "check", a, "--min-roof-pct",
			       "100", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	hostile_report(dir, "a", "triad", "perf\\u001b]0;pwn\\u0007",
		       "DRAM\\u202e\\u001b[2J");
	hostile_report(dir, "b", "triad", "perf", "DRAM");
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	r = e2e_run(diff);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	expect_no_raw_controls("diff", r.out);
	cr_expect(strstr(r.out, "(backend perf\\x1b]0;pwn\\x07)"), "diff: %s",
		  r.out);
	e2e_free(&r);
	r = e2e_run(check);
	expect_no_raw_controls("check", r.out);
	cr_expect(strstr(r.out, "(DRAM\\u202e\\x1b[2J)"), "check: %s", r.out);
	e2e_cleanup(&r, dir);
}

/* The "near" text jansson quotes from a damaged file is escaped. */
Test(e2e_outdir, parse_errors_escape_the_files_text, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char path[600];
	const char *argv[] = {E2E_RLPROF, "diff", path, REPORTS "base", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(path, sizeof path, "%s/bad.json", dir);
	e2e_put_file(path, "{\"format\": \xe2\x80\xae\033]0;pwn\007", 0644);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 2, "status %d, stderr: %s", r.status, r.err);
	expect_no_raw_controls("diff", r.err);
	e2e_cleanup(&r, dir);
}

/* ---- rank folders (items 7, 8) ---------------------------------------- */

/* run1 as rank 0 and a copy as rank r of a job in dir/job. */
static void make_job(const char *dir, long r, bool same_file)
{
	char run[600], path[700], *text;
	char *tmp = copy_run1(run, sizeof run);

	snprintf(path, sizeof path, "%s/job", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/job/rank-0", dir);
	cr_assert_eq(rename(run, path), 0);
	snprintf(path, sizeof path, "%s/job/rank-%ld", dir, r);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/job/rank-%ld/raw", dir, r);
	cr_assert_eq(mkdir(path, 0755), 0);
	text = e2e_file(dir, "job/rank-0/raw/rlprof-200.json");
	if (!same_file) { /* another process of the same pid */
		char *p = strstr(text, "\"tid\":200");
		cr_assert_not_null(p);
		p[8] = '1';
	}
	snprintf(path, sizeof path, "%s/job/rank-%ld/raw/rlprof-200.json", dir,
		 r);
	e2e_put_file(path, text, 0644);
	free(text);
	e2e_rmtree_raw(tmp);
	free(tmp);
}

Test(e2e_outdir, ranks_sharing_a_pid_are_both_listed, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char job[600];
	const char *argv[] = {E2E_RLPROF, "report", "-f", "json", job, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	make_job(dir, 1, false);
	snprintf(job, sizeof job, "%s/job", dir);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	json_error_t je;
	json_t *o = json_loads(r.out, 0, &je);
	cr_assert_not_null(o, "%s", r.out);
	/* process 200's regions ran in both ranks: none folded into rank 0 */
	json_t *regs = json_object_get(json_object_get(o, "mpi"), "regions");
	size_t i;
	json_t *e;
	cr_expect_gt(json_array_size(regs), 0, "%s", r.out);
	json_array_foreach (regs, i, e) {
		const char *name = json_string_value(json_object_get(e, "region"));
		/* the regions of process 200, which both ranks ran */
		if (!name || (strcmp(name, "stream") && strcmp(name, "plain")))
			continue;
		cr_expect_eq(json_integer_value(json_object_get(e, "ranks")), 2,
			     "region %s: %lld ranks",
			     json_string_value(json_object_get(e, "region")),
			     json_integer_value(json_object_get(e, "ranks")));
	}
	json_decref(o);
	e2e_cleanup(&r, dir);
}

Test(e2e_outdir, a_results_file_copied_into_two_ranks_is_refused,
     .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char job[600];
	const char *argv[] = {E2E_RLPROF, "report", job, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	make_job(dir, 1, true);
	snprintf(job, sizeof job, "%s/job", dir);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "hold the same process 200"), "stderr: %s",
		  r.err);
	e2e_cleanup(&r, dir);
}

/* An empty rank-1000000 shows no rank; an np of 10^6 is said in one
 * warning, not allocated for. */
Test(e2e_outdir, absurd_rank_folders_and_np_stay_small, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char job[600], path[700];
	const char *argv[] = {E2E_RLPROF, "report", "-f", "json", job, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	make_job(dir, 1, false);
	snprintf(job, sizeof job, "%s/job", dir);
	snprintf(path, sizeof path, "%s/rank-1000000", job);
	cr_assert_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/mpi.json", job);
	e2e_put_file(path, "{\"np\": 1000000}", 0644);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect_lt(strlen(r.out), 1 << 20, "%zu bytes of JSON",
		     strlen(r.out));
	cr_expect(strstr(r.out, "the job had 1000000 ranks"), "%.2000s",
		  r.out);
	e2e_free(&r);
	/* a rank.json in it makes it show a rank: refused, not listed */
	snprintf(path, sizeof path, "%s/rank-1000000/rank.json", job);
	e2e_put_file(path, "{\"size\": 1000001}", 0644);
	const char *table[] = {E2E_RLPROF, "report", job, NULL};
	r = e2e_run(table);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "not the output of one MPI job"), "stderr: %s",
		  r.err);
	e2e_cleanup(&r, dir);
}

/* ---- recovery (items 9, 10) ------------------------------------------- */

/* A live file of rt_killed exit (run outside rlprof) in dir/raw; its path
 * into out. */
static void killed_live(const char *dir, char *out, size_t len)
{
	char raw[400], env[500];
	const char *killed[] = {E2E_PROG("rt_killed"), "exit", NULL};
	const char *envs[] = {env, NULL};
	struct e2e_result r;
	DIR *d;
	struct dirent *de;

	e2e_need(E2E_PROG("rt_killed"));
	snprintf(raw, sizeof raw, "%s/raw", dir);
	cr_assert_eq(mkdir(raw, 0755), 0);
	snprintf(env, sizeof env, "RLPROF_OUT=%s", raw);
	r = e2e_run_in(NULL, killed, envs);
	e2e_free(&r);
	out[0] = '\0';
	cr_assert_not_null(d = opendir(raw));
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".live"))
			snprintf(out, len, "%s/%s", raw, de->d_name);
	closedir(d);
	cr_assert(out[0], "rt_killed exit left no live file");
}

/* A record whose calls is 2^64-1 is left out with a warning; what the
 * rest recovers is written and read back (recovery wrote a real the
 * reader refused, and the whole run was lost). */
Test(e2e_outdir, recovery_writes_what_its_reader_accepts, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char live[1024], json[700], err[1024];
	struct rl_process_results p, back;
	uint64_t all = UINT64_MAX;
	int fd;

	killed_live(dir, live, sizeof live);
	fd = open(live, O_RDWR);
	cr_assert_geq(fd, 0);
	/* the first record of the first block (after the header, whose
	 * size is at offset 12, and the block's 64-byte head): calls at its
	 * start */
	uint32_t hs = 0;
	cr_assert_eq(pread(fd, &hs, sizeof hs, 12), 4);
	cr_assert_eq(pwrite(fd, &all, sizeof all, (off_t)hs + 64), 8);
	close(fd);
	cr_assert_eq(rl_results_live_load(live, &p, err, sizeof err), 0, "%s",
		     err);
	cr_expect_eq(p.n_warnings, 1);
	cr_expect(p.n_warnings && strstr(p.warnings[0].message,
					 "hold figures no process reaches"),
		  "no live-damaged warning");
	snprintf(json, sizeof json, "%s/rlprof-%ld.json", dir, p.pid);
	fd = open(json, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_eq(rl_results_write_fd(fd, &p), 0);
	close(fd);
	cr_expect_eq(rl_results_load(json, &back, err, sizeof err), 0, "%s",
		     err);
	rl_results_release(&back);
	rl_results_release(&p);
	e2e_rmtree_raw(dir);
	free(dir);
}

/* A program that re-executes itself inside a region keeps the regions it
 * completed before the exec. */
Test(e2e_outdir, reexec_inside_a_region_keeps_the_earlier_regions,
     .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_reexec"), NULL};
	struct e2e_result r;
	char out[600];

	e2e_need(E2E_PROG("e2e_reexec"));
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_profile("time", out, prog);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	char *csv = e2e_file(out, "report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "before"), "%s", csv);
	cr_expect_not_null(e2e_csv_row(csv, "after"), "%s", csv);
	free(csv);
	char *rep = e2e_file(out, "report.json");
	cr_expect(strstr(rep, "executed a new program (exec)"),
		  "no warning of the exec");
	free(rep);
	e2e_cleanup(&r, dir);
}
