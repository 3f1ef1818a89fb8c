/* rlprof run end to end: statuses, messages, the files it writes. */
#include "tests/lib/run.h"

#define CSV_HEADER                                                           \
	"region,thread,calls,time_s,flops,dram_read_bytes,dram_write_bytes,"  \
	"ai,flops_expected,bytes_expected,ai_expected,gflops,gbs,bound,"     \
	"roof_pct,backend,roof,ceiling,check,diagnosis,mpi_s\n"

/* field i (0-based) of a CSV line, into buf */
static const char *csv_field(const char *line, int i, char *buf, size_t len)
{
	const char *p = line;
	size_t k = 0;

	for (; i > 0 && p; i--) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	while (p[k] && p[k] != ',' && p[k] != '\n' && k + 1 < len) {
		buf[k] = p[k];
		k++;
	}
	buf[k] = '\0';
	return buf;
}

Test(e2e_run, missing_program_is_127, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {"./no-such-program-here", NULL};
	struct e2e_result r = e2e_profile_in("time", dir, prog);

	cr_expect_eq(r.status, 127, "status %d", r.status);
	cr_expect(strstr(r.err, "cannot run './no-such-program-here'") != NULL,
		  "got: %s", r.err);
	cr_expect(strstr(r.err, "No such file") != NULL, "got: %s", r.err);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, program_not_in_path_is_127, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {"no-such-command-rlprof", NULL};
	struct e2e_result r = e2e_profile_in("time", dir, prog);

	cr_expect_eq(r.status, 127, "status %d", r.status);
	cr_expect(strstr(r.err, "not found in PATH") != NULL, "got: %s", r.err);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, non_executable_file_is_126, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char path[512];
	const char *prog[] = {path, NULL};
	struct e2e_result r;

	snprintf(path, sizeof path, "%s/data.txt", dir);
	e2e_put_file(path, "not a program\n", 0644);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 126, "status %d", r.status);
	cr_expect(strstr(r.err, "not executable") != NULL, "got: %s", r.err);
	cr_expect(strstr(r.err, "chmod +x") != NULL, "no advice: %s", r.err);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, executable_that_is_no_program_is_126, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char path[512];
	const char *prog[] = {path, NULL};
	struct e2e_result r;

	snprintf(path, sizeof path, "%s/garbage", dir);
	e2e_put_file(path, "\x01\x02 not elf, no #!\n", 0755);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 126, "status %d", r.status);
	cr_expect(strstr(r.err, "not an ELF executable") != NULL, "got: %s",
		  r.err);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, exit_status_passes_through, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_exit"), "3", NULL};
	struct e2e_result r;

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 3, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.out, "exit-work") != NULL, "no table: %s", r.out);
	e2e_expect_csv_row(dir, "out/report.csv", "exit-work");
	e2e_cleanup(&r, dir);
}

Test(e2e_run, csv_header_and_unmeasured_cells_empty, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_exit"), "0", NULL};
	struct e2e_result r;
	const char *row;
	char *csv, f[64];

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_assert_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect(strncmp(csv, CSV_HEADER, strlen(CSV_HEADER)) == 0,
		  "header: %.200s", csv);
	row = e2e_csv_row(csv, "exit-work");
	cr_assert_not_null(row, "csv: %s", csv);
	/* the time backend counts nothing: flops, bytes, ai, gflops, gbs */
	static const int unmeasured[] = {4, 5, 6, 7, 11, 12};
	for (size_t i = 0; i < sizeof unmeasured / sizeof *unmeasured; i++) {
		const char *v = csv_field(row, unmeasured[i], f, sizeof f);
		cr_expect(v && v[0] == '\0', "column %d is '%s', not empty: %.200s",
			  unmeasured[i], v ? v : "(none)", row);
	}
	/* calls and time were measured */
	cr_expect_str_eq(csv_field(row, 2, f, sizeof f), "1");
	cr_expect(csv_field(row, 3, f, sizeof f) && f[0] != '\0');
	cr_expect_str_eq(csv_field(row, 15, f, sizeof f), "time");
	e2e_free(&r);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_run, crash_after_region_is_139_with_region, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_crash"), NULL};
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", NULL, prog[0], NULL};
	const char *env[] = {"ASAN_OPTIONS=handle_segv=0:detect_leaks=0:"
			     "verify_asan_link_order=0",
			     "UBSAN_OPTIONS=handle_segv=0", NULL};
	char out[512];
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(prog[0]);
	snprintf(out, sizeof out, "%s/out", dir);
	argv[7] = out;
	r = e2e_run_in(NULL, argv, env);
	cr_expect_eq(r.status, 139, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "signal 11") != NULL, "got: %s", r.err);
	e2e_expect_csv_row(dir, "out/report.csv", "before-crash");
	e2e_cleanup(&r, dir);
}

Test(e2e_run, unannotated_program_is_one_region, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_plain"), NULL};
	struct e2e_result r;
	char *csv, *run;

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "<program>"), "csv: %s", csv);
	/* counted by librlprof (preloaded or linked), not synthesised */
	cr_expect(strstr(r.err, "no counts for") == NULL, "stderr: %s", r.err);
	run = e2e_file(dir, "out/run.json");
	cr_expect(strstr(run, "\"whole_program\": true") != NULL, "%s", run);
	free(run);
	free(csv);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, static_program_gets_synthesised_region, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_static"), NULL};
	struct e2e_result r;

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "statically linked") != NULL, "got: %s", r.err);
	e2e_expect_csv_row(dir, "out/report.csv", "<program>");
	e2e_cleanup(&r, dir);
}

Test(e2e_run, unwritable_output_dir_fails_before_running, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char file[512], out[600], marker[512];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, "/usr/bin/touch", marker, NULL};
	struct e2e_result r;
	FILE *f;

	e2e_need(E2E_RLPROF);
	/* a directory below a regular file cannot be made, even by root */
	snprintf(file, sizeof file, "%s/plainfile", dir);
	snprintf(out, sizeof out, "%s/sub", file);
	snprintf(marker, sizeof marker, "%s/ran", dir);
	f = fopen(file, "w");
	cr_assert_not_null(f);
	fclose(f);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "cannot create output directory") != NULL,
		  "got: %s", r.err);
	cr_expect(strstr(r.err, "-o DIR") != NULL, "no advice: %s", r.err);
	cr_expect(access(marker, F_OK) != 0, "the program ran");
	e2e_cleanup(&r, dir);
}

Test(e2e_run, run_json_and_report_files, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_exit"), "0", NULL};
	struct e2e_result r;
	char *run;

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_assert_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	run = e2e_file(dir, "out/run.json");
	cr_expect(strstr(run, "\"format\": \"rlprof-run\"") != NULL, "%s", run);
	cr_expect(strstr(run, "\"version\": 1") != NULL);
	cr_expect(strstr(run, "\"backend_requested\": \"time\"") != NULL);
	cr_expect(strstr(run, "\"backend\": \"time\"") != NULL);
	cr_expect(strstr(run, "\"exit_status\": 0") != NULL);
	/* a named backend is the only one probed (auto probes them all) */
	cr_expect(strstr(run, "\"name\": \"time\"") != NULL, "%s", run);
	cr_expect(strstr(run, "\"name\": \"perf\"") == NULL, "%s", run);
	cr_expect(strstr(run, "\"start_time\"") != NULL);
	free(run);
	free(e2e_file(dir, "out/report.json"));
	e2e_cleanup(&r, dir);
}

Test(e2e_run, stale_results_are_removed, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_exit"), "0", NULL};
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
			      "-o", NULL, prog[0], "0", NULL};
	char out[512], stale[600], *csv;
	struct e2e_result r;
	FILE *f;

	e2e_need(E2E_RLPROF);
	e2e_need(prog[0]);
	snprintf(out, sizeof out, "%s/out", dir);
	argv[6] = out;
	mkdir(out, 0755);
	snprintf(stale, sizeof stale, "%s/raw", out);
	mkdir(stale, 0755);
	snprintf(stale, sizeof stale, "%s/raw/rlprof-999999.json", out);
	f = fopen(stale, "w");
	cr_assert_not_null(f);
	fputs("{}", f);
	fclose(f);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(access(stale, F_OK) != 0, "stale results file left");
	cr_expect(strstr(r.err, "of a previous run") != NULL, "got: %s", r.err);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "exit-work"));
	free(csv);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, named_backend_that_does_not_work_fails, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char out[512];
	const char *argv[] = {E2E_RLPROF, "counters", NULL};
	const char *runv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      NULL, "-o", out, "/bin/true", NULL};
	struct e2e_result c, r;
	const char *names[] = {"perf", "papi", "likwid", "sim"};
	const char *broken = NULL;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	c = e2e_run(argv);
	for (size_t i = 0; i < 4 && !broken; i++) {
		char key[64];
		snprintf(key, sizeof key, "  %-8s %-16s", names[i], "unavailable");
		if (strstr(c.out, key))
			broken = names[i];
	}
	e2e_free(&c);
	if (!broken) {
		e2e_rmtree(dir);
		cr_skip_test("every backend works here");
	}
	runv[5] = broken;
	r = e2e_run(runv);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "does not work here") != NULL, "got: %s", r.err);
	cr_expect(strstr(r.err, broken) != NULL);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, sigterm_is_forwarded_and_report_written, .timeout = 90)
{
	char *dir = e2e_tmpdir();
	pid_t pid = e2e_start_shell(dir, "exec sleep 60");
	int st;

	usleep(200000); /* let the shell exec sleep */
	kill(pid, SIGTERM);
	st = e2e_wait(pid);
	cr_expect(WIFEXITED(st), "rlprof itself was killed (signal %d)",
		  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	cr_expect_eq(WEXITSTATUS(st), 128 + SIGTERM, "status %d",
		     WEXITSTATUS(st));
	e2e_expect_csv_row(dir, "out/report.csv", "<program>");
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_run, auto_runs_what_counters_auto_names, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	char out[512], want[128];
	const char *cargv[] = {E2E_RLPROF, "counters", "--auto", NULL};
	/* --sim-caches: when auto picks sim, without a machine model */
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe",
			      "--sim-caches", "48K:12,1M:8,32M:16", "-o", out,
			      E2E_PROG("e2e_exit"), "0", NULL};
	struct e2e_result c, r;
	char *run, *nl;

	e2e_need(E2E_RLPROF);
	e2e_need(argv[8]);
	c = e2e_run(cargv);
	cr_assert_eq(c.status, 0, "%s", c.err);
	nl = strchr(c.out, '\n');
	if (nl)
		*nl = '\0';
#ifdef RL_TEST_SANITIZED
	if (strcmp(c.out, "sim") == 0) {
		e2e_rmtree(dir);
		cr_skip_test("auto picks sim: Valgrind cannot run a sanitized program");
	}
#endif
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	run = e2e_file(dir, "out/run.json");
	snprintf(want, sizeof want, "\"backend\": \"%s\"", c.out);
	cr_expect(strstr(run, want) != NULL, "no %s in %s", want, run);
	cr_expect(strstr(run, "\"backend_requested\": \"auto\"") != NULL);
	cr_expect(strstr(run, "picked by -b auto") != NULL, "%s", run);
	free(run);
	free(e2e_file(dir, "out/report.csv"));
	e2e_free(&c);
	e2e_cleanup(&r, dir);
}

Test(e2e_run, sigint_to_rlprof_alone_is_ignored, .timeout = 90)
{
	char *dir = e2e_tmpdir();
	pid_t pid = e2e_start_shell(dir, "sleep 2; exit 5");
	int st;

	/* the terminal would send it to both; rlprof must outlive it */
	kill(pid, SIGINT);
	kill(pid, SIGQUIT);
	st = e2e_wait(pid);
	cr_expect(WIFEXITED(st), "rlprof was killed (signal %d)",
		  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	cr_expect_eq(WEXITSTATUS(st), 5, "status %d", WEXITSTATUS(st));
	free(e2e_file(dir, "out/report.csv"));
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_run, environment_given_to_the_program, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[512], want[700];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "--events", "a,b", "--sim-bounds", "raw",
			      "-o", out, "/usr/bin/env", NULL};
	const char *env[] = {"LD_PRELOAD=libm.so.6", "RLPROF_BACKEND=bogus",
			     NULL};
	struct e2e_result r;
	char *real;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_run_in(NULL, argv, env);
	cr_assert_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	real = realpath(out, NULL);
	cr_assert_not_null(real);
	snprintf(want, sizeof want, "\nRLPROF_OUT=%s/raw\n", real);
	cr_expect(strstr(r.out, want) != NULL, "no %s in %s", want, r.out);
	cr_expect(strstr(r.out, "\nRLPROF_BACKEND=time\n") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "RLPROF_BACKEND=bogus") == NULL, "%s", r.out);
	cr_expect(strstr(r.out,
			 "\nRLPROF_BACKEND_OPTIONS=events=a,b;sim-bounds=raw\n") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "\nRLPROF_WHOLE_PROGRAM=1\n") != NULL, "%s", r.out);
	/* librlprof first, the user's preload kept after it */
	cr_expect(strstr(r.out, "/librlprof.so:libm.so.6\n") != NULL, "%s", r.out);
	free(real);
	e2e_cleanup(&r, dir);
}

/* The rows of text that start with a and with b (each "\n..." ) hold
 * what at the same column. */
static void expect_same_column(const char *text, const char *a,
			       const char *b, const char *what)
{
	const char *ra = strstr(text, a), *rb = strstr(text, b), *wa, *wb;

	cr_assert(ra && rb, "no row '%s' or '%s' in: %s", a + 1, b + 1, text);
	wa = strstr(ra + 1, what);
	wb = strstr(rb + 1, what);
	cr_assert(wa && wb, "no '%s' in: %s", what, text);
	cr_expect_eq(wa - ra, wb - rb, "'%s' at column %td of '%s' but %td of "
		     "'%s': %s", what, wa - ra, a + 1, wb - rb, b + 1, text);
}

Test(e2e_run, warnings_show_control_characters_escaped, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_ctrlname"), NULL};
	struct e2e_result r;

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_assert_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "\\u009b31mred") != NULL, "stderr: %s", r.err);
	cr_expect(strstr(r.err, "\xc2\x9b") == NULL, "raw CSI on stderr");
	cr_expect(strstr(r.out, "\xc2\x9b") == NULL, "raw CSI on stdout");
	cr_expect(strstr(r.out, "rtl\\u202ex") != NULL, "stdout: %s", r.out);
	cr_expect(strstr(r.out, "\xe2\x80\xae") == NULL, "raw U+202E: %s",
		  r.out);
	cr_expect(strstr(r.err, "\xe2\x80\xae") == NULL, "raw U+202E: %s",
		  r.err);
	/* the escaped name is as wide as it is shown: the next column of
	 * its row starts where the other rows' does */
	expect_same_column(r.out, "\nok ", "\nrtl\\u202ex ", " 1 ");
	e2e_free(&r);
	{
		const char *argv[] = {E2E_RLPROF, "inspect", prog[0], NULL};
		r = e2e_run(argv);
		cr_expect_eq(r.status, 0, "inspect: %s", r.err);
		expect_same_column(r.out, "\n  ok ", "\n  rtl\\u202ex ",
				   "tests/programs/");
	}
	e2e_cleanup(&r, dir);
}

/* More regions than report.html lists: the 2000 longest, and a line that
 * says so; report.csv keeps every region (2 threads each: 3 rows) */
Test(e2e_run, html_lists_the_longest_regions_when_there_are_many,
     .timeout = 120)
{
	char *dir = e2e_tmpdir(), path[600];
	const char *prog[] = {E2E_PROG("scale_regions"), "2500", NULL};
	struct e2e_result r;
	char *html, *csv;
	size_t rows = 0, lines = 0;

	e2e_need(prog[0]);
	r = e2e_profile_in("time", dir, prog);
	cr_assert_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	snprintf(path, sizeof path, "%s/out/report.html", dir);
	html = e2e_slurp(path);
	cr_assert_not_null(html);
	for (const char *p = html; (p = strstr(p, "<tbody class=\"rl-region\""));
	     p++)
		rows++;
	cr_expect_eq(rows, 2000);
	cr_expect(strstr(html, "2000 of 2500 regions listed: the longest by "
			       "time. report.json and report.csv have every "
			       "region."),
		  "no truncation line");
	snprintf(path, sizeof path, "%s/out/report.csv", dir);
	csv = e2e_slurp(path);
	cr_assert_not_null(csv);
	for (const char *p = csv; (p = strchr(p, '\n')); p++)
		lines++;
	cr_expect_eq(lines, 1 + 2500 * 3, "report.csv: %zu lines", lines);
	free(html);
	free(csv);
	e2e_cleanup(&r, dir);
}
