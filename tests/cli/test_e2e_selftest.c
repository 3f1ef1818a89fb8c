/* The known-answer check in the real commands: `rlprof counters
 * --selftest` says what it can check here (on a machine without a
 * hardware backend: nothing, exit 77, with the kernels' own time), `rlprof
 * run` makes no check for the simulator or time backends (run.json's
 * "selftest" null, the report unmarked), and a check recorded in run.json
 * comes back in `rlprof report` with its marks. */
#include <jansson.h>

#include "tests/lib/run.h"

Test(e2e_selftest, counters_selftest_says_what_it_can_check_here)
{
	const char *argv[] = {E2E_RLPROF, "counters", "--selftest", NULL};
	const char *timed[] = {E2E_RLPROF, "counters", "--selftest", "-b",
			       "time", NULL};
	const char *nosuch[] = {E2E_RLPROF, "counters", "--selftest", "-b",
				"nosuch", NULL};
	const char *lone[] = {E2E_RLPROF, "counters", "-b", "perf", NULL};
	struct e2e_result r = e2e_run(argv);

	if (r.status == 77) {
		cr_assert(strstr(r.out, "no backend counts hardware flops "
					"here (perf: "),
			  "%s", r.out);
		cr_assert(strstr(r.out, "its kernels alone take "), "%s",
			  r.out);
	} else { /* a machine with a PMU: the table */
		cr_assert(r.status == 0 || r.status == 1, "%d %s", r.status,
			  r.err);
		cr_assert(strstr(r.out, "known-answer check through '"), "%s",
			  r.out);
	}
	e2e_free(&r);
	r = e2e_run(timed);
	cr_assert_eq(r.status, 77, "%s", r.out);
	cr_assert(strstr(r.out, "this backend does not count hardware flops "
				"(time: "),
		  "%s", r.out);
	e2e_free(&r);
	r = e2e_run(nosuch);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "no backend 'nosuch'"), "%s", r.err);
	e2e_free(&r);
	r = e2e_run(lone);
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "go with --selftest"), "%s", r.err);
	e2e_free(&r);
}

static char *run_time_backend(const char *extra)
{
	char *dir = e2e_tmpdir(), out[600];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "time", "-o", out,
			      extra, E2E_PROG("sim_threads"), NULL};
	struct e2e_result r;

	snprintf(out, sizeof out, "%s/out", dir);
	if (!extra) {
		argv[7] = E2E_PROG("sim_threads");
		argv[8] = NULL;
	}
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.err, "known-answer"), "%s", r.err);
	e2e_free(&r);
	return dir;
}

Test(e2e_selftest, time_runs_make_no_check_and_are_unmarked)
{
	char *dir = run_time_backend(NULL), *dir2 = run_time_backend("--no-selftest");
	char path[700], *run, *csv, *rep;

	snprintf(path, sizeof path, "%s/out/run.json", dir);
	cr_assert_not_null(run = e2e_slurp(path));
	cr_assert(strstr(run, "\"selftest\": null"), "%s", run);
	snprintf(path, sizeof path, "%s/out/report.csv", dir);
	cr_assert_not_null(csv = e2e_slurp(path));
	cr_assert_null(strstr(csv, "counter_marks"), "%s", csv);
	snprintf(path, sizeof path, "%s/out/report.json", dir);
	cr_assert_not_null(rep = e2e_slurp(path));
	cr_assert_null(strstr(rep, "\"selftest\""), "%s", rep);
	cr_assert_null(strstr(rep, "counting_pct"), "%s", rep);
	free(run);
	free(csv);
	free(rep);
	e2e_rmtree(dir);
	e2e_rmtree(dir2);
	free(dir);
	free(dir2);
}

Test(e2e_selftest, a_recorded_check_comes_back_marked_in_the_report)
{
	char *dir = run_time_backend(NULL), path[800], res[700], out[700],
	     *text;
	const char *argv[] = {E2E_RLPROF, "report", res, "-f", "json", "-o",
			      out, NULL};
	json_t *run, *st;
	struct e2e_result r;

	snprintf(res, sizeof res, "%s/out", dir);
	snprintf(out, sizeof out, "%s/again.json", dir);
	snprintf(path, sizeof path, "%s/run.json", res);
	cr_assert_not_null(run = json_load_file(path, 0, NULL));
	st = json_pack("{s:b, s:b, s:f, s:[{s:s, s:f, s:f, s:f, s:b}], s:n}",
		       "ran", 1, "cached", 0, "seconds", 0.05, "items",
		       "counter", "dram_read_bytes", "counted", 2.98e6,
		       "expected", 1e6, "factor", 2.98, "ok", 1, "why");
	json_object_set_new(run, "selftest", st);
	cr_assert_eq(json_dump_file(run, path, JSON_INDENT(2)), 0);
	json_decref(run);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	cr_assert_not_null(text = e2e_slurp(out), "%s", out);
	/* "ok": true in the file is not believed: the factor decides */
	cr_assert(strstr(text, "DRAM bytes read 2.98x the known answer: not "
			       "used for placement"),
		  "%s", text);
	cr_assert(strstr(text, "\"selftest\": {"), "%s", text);
	free(text);
	e2e_rmtree(dir);
	free(dir);
}
