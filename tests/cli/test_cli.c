/* The rlprof command's interface: help, version, usage errors, statuses. */
#include "tests/lib/run.h"

#define RUN_HINT "see 'rlprof run --help'"

static void check_usage(const char *const *argv, const char *flag)
{
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 2, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, flag) != NULL, "'%s' not named in: %s", flag,
		  r.err);
	cr_expect(strstr(r.err, RUN_HINT) != NULL, "no hint in: %s", r.err);
	/* one line */
	cr_expect(strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		  "not one line: %s", r.err);
	e2e_free(&r);
}

Test(cli, help_lists_every_command)
{
	const char *argv[] = {E2E_RLPROF, "--help", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0);
	for (const char *const *c = (const char *const[]){"run", "report",
		     "inspect", "counters", "probe", NULL}; *c; c++)
		cr_expect(strstr(r.out, *c) != NULL, "'%s' missing", *c);
	cr_expect(strstr(r.out, "exit status") != NULL);
	e2e_free(&r);
}

Test(cli, version)
{
	const char *argv[] = {E2E_RLPROF, "--version", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0);
	cr_expect(strncmp(r.out, "rlprof 0.", 9) == 0, "got '%s'", r.out);
	e2e_free(&r);
}

Test(cli, help_command_shows_its_options)
{
	const char *argv[] = {E2E_RLPROF, "help", "run", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "--backend") != NULL, "got: %s", r.out);
	cr_expect(strstr(r.out, "--output") != NULL);
	e2e_free(&r);
}

Test(cli, no_command_is_usage_error)
{
	const char *argv[] = {E2E_RLPROF, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "usage: rlprof") != NULL);
	e2e_free(&r);
}

Test(cli, unknown_command)
{
	const char *argv[] = {E2E_RLPROF, "frobnicate", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "unknown command 'frobnicate'") != NULL,
		  "got: %s", r.err);
	e2e_free(&r);
}

Test(cli, run_unknown_long_option)
{
	const char *argv[] = {E2E_RLPROF, "run", "--frob", "true", NULL};
	check_usage(argv, "'--frob'");
}

Test(cli, run_unknown_short_option)
{
	const char *argv[] = {E2E_RLPROF, "run", "-Z", "true", NULL};
	check_usage(argv, "'-Z'");
}

Test(cli, run_option_without_value)
{
	const char *argv[] = {E2E_RLPROF, "run", "-o", NULL};
	check_usage(argv, "'-o'");
}

Test(cli, run_long_option_without_value)
{
	const char *argv[] = {E2E_RLPROF, "run", "--events", NULL};
	check_usage(argv, "'--events'");
}

Test(cli, run_without_program)
{
	const char *argv[] = {E2E_RLPROF, "run", "-b", "time", NULL};
	check_usage(argv, "missing PROGRAM");
}

Test(cli, run_bad_sim_bounds)
{
	const char *argv[] = {E2E_RLPROF, "run", "--sim-bounds", "lines",
			      "true", NULL};
	check_usage(argv, "'lines'");
}

Test(cli, run_unknown_backend_names_the_backends)
{
	const char *argv[] = {E2E_RLPROF, "run", "-b", "nosuch", "true", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "'nosuch'") != NULL, "got: %s", r.err);
	for (const char *const *b = (const char *const[]){"perf", "papi",
		     "likwid", "sim", "time", NULL}; *b; b++)
		cr_expect(strstr(r.err, *b) != NULL, "'%s' not named: %s", *b,
			  r.err);
	e2e_free(&r);
}

Test(cli, options_after_program_belong_to_it, .timeout = 60)
{
	/* "-o" after PROGRAM is the program's: rlprof must not take it */
	char *dir = e2e_tmpdir();
	char out[512];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, "/bin/echo", "-o", "--frob",
			      NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "-o --frob\n") != NULL, "echo got: %s", r.out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(cli, counters_lists_every_backend_with_reason)
{
	const char *argv[] = {E2E_RLPROF, "counters", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	for (const char *const *b = (const char *const[]){"perf", "papi",
		     "likwid", "sim", "time", NULL}; *b; b++) {
		const char *line = NULL, *next;
		size_t n = strlen(*b);
		/* its own line: "[* ]NAME  CAPABILITY  SUMMARY" */
		for (const char *p = r.out; p && *p;
		     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (strlen(p) > n + 2 && strncmp(p + 2, *b, n) == 0 &&
			    p[n + 2] == ' ')
				line = p;
		cr_expect_not_null(line, "'%s' not listed: %s", *b, r.out);
		if (!line)
			continue;
		next = strchr(line, '\n');
		cr_expect(next && (memmem(line, (size_t)(next - line), "time only", 9) ||
				   memmem(line, (size_t)(next - line), "unavailable", 11) ||
				   memmem(line, (size_t)(next - line), "flops", 5) ||
				   memmem(line, (size_t)(next - line), "software", 8)),
			  "no capability for '%s'", *b);
	}
	cr_expect(strstr(r.out, "why: ") != NULL, "no reason given: %s", r.out);
	cr_expect(strstr(r.out, "-b auto picks '") != NULL);
	e2e_free(&r);
}

Test(cli, counters_auto_prints_one_name)
{
	const char *argv[] = {E2E_RLPROF, "counters", "--auto", NULL};
	struct e2e_result r;
	bool known = false;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	for (const char *const *b = (const char *const[]){"perf\n", "papi\n",
		     "likwid\n", "sim\n", "time\n", NULL}; *b; b++)
		known |= strcmp(r.out, *b) == 0;
	cr_expect(known, "not one backend name: '%s'", r.out);
	e2e_free(&r);
}

/* -j means --json in every command, inspect's too (issue 41: refused). */
Test(cli, inspect_takes_j_for_json)
{
	const char *argv[] = {E2E_RLPROF, "inspect", "-j",
			      E2E_PROG("e2e_exit"), NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect(r.out[0] == '{' && strstr(r.out, "exit-work"), "got: %s",
		  r.out);
	e2e_free(&r);
}

/* argv run with stdout on /dev/full (a full disk): status 1, one message. */
static void expect_full_stdout(const char *const *argv, const char *cmd)
{
	char script[64], want[128];
	const char *sh[16] = {"/bin/sh", "-c", script};
	size_t n = 3;

	snprintf(script, sizeof script, "exec \"$0\" \"$@\" >/dev/full");
	for (; *argv && n < 15; argv++)
		sh[n++] = *argv;
	sh[n] = NULL;
	struct e2e_result r = e2e_run(sh);
	snprintf(want, sizeof want,
		 "rlprof %s: cannot write to standard output: ", cmd);
	cr_expect_eq(r.status, 1, "%s: status %d: %s", cmd, r.status, r.err);
	cr_expect(strstr(r.err, want), "%s: %s", cmd, r.err);
	e2e_free(&r);
}

/* Output that cannot be written is a failure (issue 41: run, check and
 * counters exited 0 with stdout on /dev/full). */
Test(cli, a_full_stdout_is_a_failure, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600];

	if (access("/dev/full", W_OK))
		cr_skip_test("no /dev/full here");
	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *run[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			     "time", "-o", out, E2E_PROG("e2e_exit"), "0",
			     NULL};
	expect_full_stdout(run, "run");
	const char *check[] = {E2E_RLPROF, "check", "-R", "exit-work", out,
			       NULL};
	expect_full_stdout(check, "check");
	const char *counters[] = {E2E_RLPROF, "counters", NULL};
	expect_full_stdout(counters, "counters");
	e2e_rmtree(dir);
	free(dir);
}

/* A report with no regions: a gate that checked nothing does not pass
 * (issue 41: "all 0 checks hold", exit 0). */
Test(cli, check_of_a_report_without_regions_fails)
{
	char *dir = e2e_tmpdir(), path[600];

	e2e_need(E2E_RLPROF);
	snprintf(path, sizeof path, "%s/report.json", dir);
	e2e_put_file(path,
		     "{\"format\": \"rlprof-report\", \"version\": 2, "
		     "\"backend\": \"time\", \"regions\": [], "
		     "\"warnings\": []}\n",
		     0644);
	const char *argv[] = {E2E_RLPROF, "check", "-m", "40", dir, NULL};
	struct e2e_result r = e2e_run(argv);
	cr_expect_eq(r.status, 1, "status %d: %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.err, "rlprof: no check was made: the report in "),
		  "%s", r.err);
	cr_expect(strstr(r.err, "has no regions"), "%s", r.err);
	cr_expect_null(strstr(r.out, "checks hold"), "%s", r.out);
	e2e_free(&r);
	e2e_rmtree_raw(dir); /* made up, not the schema's */
	free(dir);
}
