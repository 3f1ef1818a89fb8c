/* rlprof diff and rlprof check: the comparison (compare.c), the saved
 * report reader (report_file.c) and both commands end to end, on the
 * hand-written reports of tests/data/reports/ (base; slow: triad 25%
 * slower, dgemm 2% slower, init gone, setup new; fast: triad 20% faster,
 * dgemm on another roof) and on a real run. */
#include <errno.h>
#include <jansson.h>
#include <math.h>

#include "analysis/compare.h"
#include "analysis/report_file.h"
#include "common/rl_error.h"
#include "tests/lib/run.h"

#define REPORTS RL_SOURCE_DIR "/tests/data/reports/"

/* rlprof with the arguments given (a NULL among them ends the list). */
static struct e2e_result rl_argv(const char **argv)
{
	e2e_need(E2E_RLPROF);
	return e2e_run(argv);
}
#define rl(...) rl_argv((const char *[]){E2E_RLPROF, __VA_ARGS__, NULL})

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0, k = strlen(prefix);
	for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, prefix, k) == 0)
			n++;
	return n;
}

Test(compare, rel_change)
{
	cr_expect_float_eq(rl_rel_change_pct(2.0, 2.5), 25.0, 1e-9);
	cr_expect_float_eq(rl_rel_change_pct(2.0, 1.0), -50.0, 1e-9);
	cr_expect(isnan(rl_rel_change_pct(0.0, 1.0)));
	cr_expect(isnan(rl_rel_change_pct(NAN, 1.0)));
	cr_expect(isnan(rl_rel_change_pct(1.0, NAN)));
}

Test(compare, base_against_slow)
{
	struct rl_report_file a, b;
	struct rl_diff d;
	char err[512];

	cr_assert_eq(rl_report_file_load(REPORTS "base", &a, err, sizeof err), 0, "%s", err);
	cr_assert_eq(rl_report_file_load(REPORTS "slow", &b, err, sizeof err), 0, "%s", err);
	cr_assert_eq(a.n_regions, 3);
	cr_expect(a.has_machine);
	cr_assert_eq(rl_diff_build(&a, &b, 5.0, &d, err, sizeof err), 0, "%s", err);
	cr_assert_eq(d.n_rows, 4);
	cr_expect_str_eq(d.rows[0].region, "triad");
	cr_expect_float_eq(d.rows[0].time_pct, 25.0, 1e-9);
	cr_expect_eq(d.rows[0].time, RL_CHANGE_WORSE);
	cr_expect_eq(d.rows[0].gflops, RL_CHANGE_WORSE);
	cr_expect_str_eq(d.rows[0].verdict, "slower");
	cr_expect_str_eq(d.rows[1].region, "dgemm");
	cr_expect_eq(d.rows[1].time, RL_CHANGE_NONE, "2%% is within 5%%");
	cr_expect_str_eq(d.rows[1].verdict, "same");
	cr_expect_str_eq(d.rows[2].verdict, "gone");
	cr_expect_eq(d.rows[2].presence, RL_ONLY_A);
	cr_expect_str_eq(d.rows[3].region, "setup");
	cr_expect_str_eq(d.rows[3].verdict, "new");
	cr_expect_eq(d.n_worse, 1);
	cr_expect_eq(d.n_better, 0);
	rl_diff_release(&d);
	/* a threshold of 1%: dgemm's 2% counts */
	cr_assert_eq(rl_diff_build(&a, &b, 1.0, &d, err, sizeof err), 0);
	cr_expect_eq(d.rows[1].time, RL_CHANGE_WORSE);
	cr_expect_eq(d.n_worse, 2);
	rl_diff_release(&d);
	cr_expect_eq(rl_diff_build(&a, &b, -1.0, &d, err, sizeof err), RL_EINVAL);
	rl_report_file_release(&a);
	rl_report_file_release(&b);
}

Test(compare, roof_change_and_unknowns)
{
	struct rl_report_file a, b;
	struct rl_diff d;
	char err[512];

	cr_assert_eq(rl_report_file_load(REPORTS "base", &a, err, sizeof err), 0);
	cr_assert_eq(rl_report_file_load(REPORTS "fast/report.json", &b, err, sizeof err), 0);
	cr_assert_eq(rl_diff_build(&a, &b, 5.0, &d, err, sizeof err), 0);
	cr_expect_str_eq(d.rows[0].verdict, "faster");
	cr_expect(d.rows[1].roof_changed, "avx512-fma f64 -> L2");
	cr_expect_float_eq(d.rows[1].roof_pct_delta, 5.0, 1e-9);
	/* init has no flops: its GFLOP/s change is unknown, never flagged */
	cr_expect(isnan(d.rows[2].gflops_pct));
	cr_expect_eq(d.rows[2].gflops, RL_CHANGE_NONE);
	rl_diff_release(&d);
	rl_report_file_release(&a);
	rl_report_file_release(&b);
}

Test(report_file, errors)
{
	struct rl_report_file f;
	char err[512], *dir = e2e_tmpdir(), path[600];
	FILE *fp;

	cr_expect_eq(rl_report_file_load("/nonexistent/x", &f, err, sizeof err), RL_ENOENT);
	cr_expect_eq(rl_report_file_load(dir, &f, err, sizeof err), RL_ENOENT);
	cr_expect(strstr(err, "rlprof report") != NULL, "%s", err);
	snprintf(path, sizeof path, "%s/report.json", dir);
	fp = fopen(path, "w");
	fputs("{\"format\": \"rlprof-run\", \"version\": 1}", fp);
	fclose(fp);
	cr_expect_eq(rl_report_file_load(dir, &f, err, sizeof err), RL_EFORMAT);
	fp = fopen(path, "w");
	fputs("{\"format\": \"rlprof-report\", \"version\": 99, \"regions\": []}", fp);
	fclose(fp);
	cr_expect_eq(rl_report_file_load(dir, &f, err, sizeof err), RL_EVERSION);
	fp = fopen(path, "w");
	fputs("{\"format\": \"rlprof-report\", \"version\": 1, \"regions\": [{\"region\": \"a\", \"time_s\": \"x\"}]}", fp);
	fclose(fp);
	cr_expect_eq(rl_report_file_load(dir, &f, err, sizeof err), RL_EFORMAT);
	fp = fopen(path, "w");
	fputs("{\"format\": \"rlprof-report\", \"version\": 1, ", fp);
	fclose(fp);
	cr_expect_eq(rl_report_file_load(dir, &f, err, sizeof err), RL_EFORMAT);
	e2e_rmtree_raw(dir); /* its report.json is broken on purpose */
	free(dir);
}

Test(diff_cmd, table_marks_changes, .timeout = 30)
{
	struct e2e_result r = rl("diff", REPORTS "base", REPORTS "slow", NULL, NULL, NULL, NULL);

	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "+25.0%*") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "+2.0% ") != NULL, "2%% unmarked: %s", r.out);
	cr_expect(strstr(r.out, "slower") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "gone") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "new") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "threshold of 5%") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "1 region slower, 0 faster") != NULL, "%s", r.out);
	e2e_free(&r);
	r = rl("diff", "--threshold", "1", REPORTS "base", REPORTS "slow", NULL, NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "+2.0%*") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "2 regions slower") != NULL, "%s", r.out);
	e2e_free(&r);
	r = rl("diff", REPORTS "base", REPORTS "fast", NULL, NULL, NULL, NULL);
	cr_expect(strstr(r.out, "avx512-fma f64 -> L2*") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "+15.0 pt*") != NULL, "%s", r.out);
	e2e_free(&r);
}

Test(diff_cmd, json_and_csv, .timeout = 30)
{
	struct e2e_result r = rl("diff", "-f", "json", REPORTS "base", REPORTS "fast", NULL, NULL);
	json_error_t je;
	json_t *root, *row;

	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	root = json_loads(r.out, 0, &je);
	cr_assert_not_null(root, "not JSON: %s: %s", je.text, r.out);
	cr_expect_str_eq(json_string_value(json_object_get(root, "format")), "rlprof-diff");
	cr_expect_eq(json_integer_value(json_object_get(root, "faster")), 1);
	row = json_array_get(json_object_get(root, "regions"), 1);
	cr_expect_str_eq(json_string_value(json_object_get(row, "region")), "dgemm");
	cr_expect(json_is_true(json_object_get(row, "bound_roof_changed")));
	cr_expect_float_eq(json_number_value(json_object_get(row, "ai_change_pct")), -75.0, 1e-6);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(row, "flagged"), "ai")), "worse");
	row = json_array_get(json_object_get(root, "regions"), 2);
	cr_expect(json_is_null(json_object_get(row, "gflops_change_pct")));
	json_decref(root);
	e2e_free(&r);

	r = rl("diff", "--format=csv", REPORTS "base", REPORTS "slow", NULL, NULL, NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strncmp(r.out, "region,presence,time_s_a,", 25) == 0, "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\ntriad,both,0.001,0.00125,25,"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\ninit,only_a,0.0005,,"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\nsetup,only_b,,0.0001,"), "%s", r.out);
	e2e_free(&r);
}

Test(diff_cmd, bad_input_exits_2, .timeout = 30)
{
	struct e2e_result r = rl("diff", REPORTS "base", NULL, NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	e2e_free(&r);
	r = rl("diff", REPORTS "base", REPORTS "missing", NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "missing") != NULL, "%s", r.err);
	e2e_free(&r);
	r = rl("diff", "-t", "-3", REPORTS "base", REPORTS "slow", NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "'-3' is not a percentage") != NULL, "%s", r.err);
	e2e_free(&r);
	r = rl("diff", "-f", "svg", REPORTS "base", REPORTS "slow", NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "unknown format 'svg'") != NULL, "%s", r.err);
	e2e_free(&r);
}

Test(check_cmd, all_hold_exits_0, .timeout = 30)
{
	struct e2e_result r = rl("check", REPORTS "base", "--min-roof-pct", "triad=50",
				 "--require-region", "dgemm", NULL, NULL);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect_str_eq(r.out, "all 2 checks hold\n");
	e2e_free(&r);
	r = rl("check", REPORTS "fast", "--max-regression", "10", "--baseline", REPORTS "base", "-q", NULL);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect_str_empty(r.out);
	e2e_free(&r);
	/* within 30%: triad (+25%) and dgemm (+2%) hold; init is gone */
	r = rl("check", REPORTS "slow", "-r", "30%", "-B", REPORTS "base", "-R", "setup", NULL);
	cr_expect_eq(r.status, 1, "init is gone: %s", r.out);
	cr_expect_eq(count_lines(r.out, "fail: "), 1, "%s", r.out);
	e2e_free(&r);
}

Test(check_cmd, failures_exit_1_one_line_each, .timeout = 30)
{
	struct e2e_result r = rl("check", REPORTS "base", "--min-roof-pct", "50", NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 1, "%s", r.out);
	cr_expect_eq(count_lines(r.out, "fail: "), 2, "%s", r.out);
	cr_expect(strstr(r.out, "fail: region 'dgemm' reaches 30% of its roof (avx512-fma f64), under the minimum 50%\n") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "fail: region 'init' has no % of roof") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "2 of 3 checks failed\n") != NULL, "%s", r.out);
	e2e_free(&r);

	r = rl("check", REPORTS "slow", "--max-regression", "10", "--baseline", REPORTS "base", NULL, NULL);
	cr_expect_eq(r.status, 1, "%s", r.out);
	cr_expect_eq(count_lines(r.out, "fail: "), 2, "%s", r.out);
	cr_expect(strstr(r.out, "fail: region 'triad' takes 25.0% more time than in the baseline") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "fail: region 'init' of the baseline is not in the report\n") != NULL, "%s", r.out);
	e2e_free(&r);

	r = rl("check", REPORTS "base", "--require-region", "nope", "-m", "nope2=1", NULL, NULL);
	cr_expect_eq(r.status, 1, "%s", r.out);
	cr_expect(strstr(r.out, "fail: region 'nope' is not in the report\n") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "fail: region 'nope2' is not in the report") != NULL, "%s", r.out);
	e2e_free(&r);
}

Test(check_cmd, bad_input_exits_2, .timeout = 30)
{
	struct e2e_result r = rl("check", REPORTS "base", NULL, NULL, NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "nothing to check") != NULL, "%s", r.err);
	e2e_free(&r);
	r = rl("check", REPORTS "missing", "-R", "a", NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	e2e_free(&r);
	r = rl("check", REPORTS "base", "-m", "triad=lots", NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "'triad=lots' is not [REGION=]PCT") != NULL, "%s", r.err);
	e2e_free(&r);
	r = rl("check", REPORTS "base", "--max-regression", "10", NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "go together") != NULL, "%s", r.err);
	e2e_free(&r);
	r = rl("check", REPORTS "base", "-r", "10", "-B", REPORTS "missing", NULL, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "baseline: ") != NULL, "%s", r.err);
	e2e_free(&r);
	r = rl("check", REPORTS "base", "--frobnicate", NULL, NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 2);
	e2e_free(&r);
}

/* A real run's directory: check and diff read what rlprof run wrote. */
Test(check_cmd, real_run, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char out[512];
	const char *run[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b", "time", "-o", out,
			     E2E_PROG("e2e_regions"), NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(run[8]);
	snprintf(out, sizeof out, "%s/run", dir);
	r = e2e_run(run);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	r = rl("check", out, "--require-region", "alpha", "-R", "dyn-1", NULL, NULL);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	e2e_free(&r);
	r = rl("check", out, "--require-region", "beta", NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	e2e_free(&r);
	r = rl("diff", out, out, NULL, NULL, NULL, NULL, NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "0 regions slower, 0 faster") != NULL, "%s", r.out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* Version 1 wrote every figure, null when unknown; version 2 leaves it
 * out. Both read the same: an unknown stays NAN, a known one its value. */
Test(report_file, version_1_nulls_and_version_2_absences_read_alike)
{
	static const char *const doc[2] = {
		"{\"format\": \"rlprof-report\", \"version\": 1, \"backend\": "
		"\"time\", \"machine\": null, \"regions\": [{\"region\": \"a\", "
		"\"calls\": 2, \"time_s\": 0.5, \"gflops\": null, \"ai\": null, "
		"\"roof_pct\": null, \"gflops_expected\": 3.5, \"bound_roof\": "
		"null, \"bound\": null, \"basis\": \"declared\"}]}",
		"{\"format\": \"rlprof-report\", \"version\": 2, \"backend\": "
		"\"time\", \"machine\": null, \"regions\": [{\"region\": \"a\", "
		"\"calls\": 2, \"time_s\": 0.5, \"gflops_expected\": 3.5, "
		"\"basis\": \"declared\"}]}",
	};
	char err[512], *dir = e2e_tmpdir(), path[600];

	snprintf(path, sizeof path, "%s/report.json", dir);
	for (int v = 0; v < 2; v++) {
		struct rl_report_file f;
		const struct rl_report_region *a;
		FILE *fp = fopen(path, "w");

		cr_assert_not_null(fp);
		fputs(doc[v], fp);
		fclose(fp);
		cr_assert_eq(rl_report_file_load(dir, &f, err, sizeof err), 0,
			     "version %d: %s", v + 1, err);
		cr_expect_eq(f.version, v + 1);
		a = rl_report_file_find(&f, "a");
		cr_assert_not_null(a);
		cr_expect_float_eq(a->time_s, 0.5, 1e-12);
		cr_expect_float_eq(a->gflops_expected, 3.5, 1e-12);
		cr_expect(isnan(a->gflops) && isnan(a->ai) && isnan(a->roof_pct),
			  "version %d: unknown figures stay unknown", v + 1);
		cr_expect_null(a->bound_roof);
		cr_expect_null(a->bound);
		cr_expect_str_eq(a->basis, "declared");
		rl_report_file_release(&f);
	}
	e2e_rmtree_raw(dir); /* not a report directory of a run */
	free(dir);
}

/* The reader decodes a report member by member and its regions one at a
 * time (report_file.c): the JSON must still be one whole object, and an
 * error names the line of the whole file. */
/* diff and check decode a region with its per-thread rows thinned (the
 * first as it is, the others as null): their count and the first row's
 * thread id still read */
Test(report_file, thread_rows_counted_and_the_first_read)
{
	static const char doc[] =
		"{\"format\":\"rlprof-report\",\"version\":2,\"regions\":["
		"{\"region\":\"a\",\"threads\":[{\"pid\":4,\"tid\":5,"
		"\"note\":\"],}\\\"\"}, {\"tid\":6}\n,{\"tid\":7}],"
		"\"time_s\":2},"
		"{\"region\":\"b\",\"threads\":[],\"time_s\":3},"
		"{\"threads\":[{\"tid\":9}],\"region\":\"c\"}]}";
	char err[512], *dir = e2e_tmpdir(), path[600];
	struct rl_report_file f;
	const struct rl_report_region *r;
	FILE *fp;

	snprintf(path, sizeof path, "%s/report.json", dir);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(doc, fp);
	fclose(fp);
	cr_assert_eq(rl_report_file_load(dir, &f, err, sizeof err), 0, "%s",
		     err);
	cr_assert_eq(f.n_regions, 3);
	r = rl_report_file_find(&f, "a");
	cr_assert_not_null(r);
	cr_expect_eq(r->n_thread_rows, 3);
	cr_expect_float_eq(r->first_tid, 5, 1e-9);
	cr_expect_float_eq(r->time_s, 2, 1e-9);
	r = rl_report_file_find(&f, "b");
	cr_expect_eq(r->n_thread_rows, 0);
	cr_expect(isnan(r->first_tid));
	cr_expect_float_eq(r->time_s, 3, 1e-9);
	r = rl_report_file_find(&f, "c");
	cr_expect_eq(r->n_thread_rows, 1);
	cr_expect_float_eq(r->first_tid, 9, 1e-9);
	rl_report_file_release(&f);
	e2e_rmtree_raw(dir); /* a partial report on purpose */
	free(dir);
}

Test(report_file, read_region_by_region_still_checks_the_whole_text)
{
	static const struct {
		const char *doc, *want; /* want: in the message; NULL: loads */
		size_t n;
	} cases[] = {
		{"{\"regions\": [], \"format\": \"rlprof-report\", \"version\": 2}",
		 NULL, 0},
		{"\n {\"format\":\"rlprof-report\",\"version\":2,\"regions\":"
		 "[ {\"region\":\"a\"} , {\"region\":\"b\",\"time_s\":1e-3} ],"
		 "\"warnings\":[\"x\"]}\n\n",
		 NULL, 2},
		{"{\"format\": \"rlprof-report\", \"version\": 2, \"regions\": "
		 "[]} x", "line 1: end of file expected near 'x'", 0},
		{"{\"format\": \"rlprof-report\", \"version\": 2,\n\"regions\": "
		 "[\n{\"region\": \"a\"}\n{\"region\": \"b\"}]}",
		 "line 4: ',' or ']' expected near '{'", 0},
		{"{\"format\": \"rlprof-report\", \"version\": 2,\n\n\"regions\": "
		 "[{\"region\": \"a\", \"calls\": 1,]}]}",
		 "line 3: ", 0},
		{"{\"format\": \"rlprof-report\" \"version\": 2}",
		 "line 1: ',' or '}' expected near '\"'", 0},
		{"{\"format\": \"rlprof-report\", \"version\": 2, \"regions\": 5}",
		 "no 'regions' array", 0},
		{"{\"format\": \"rlprof-report\", \"version\": 2, \"regions\": "
		 "[{\"region\": \"a\"}, 7]}",
		 "region 2 has a field of the wrong type", 0},
		{"{\"format\": \"rlprof-report\", \"version\": 2, \"regions\": "
		 "[{\"region\": \"a\"}", "line 1: ", 0},
		{"[{\"format\": \"rlprof-report\"}]",
		 "its 'format' is not 'rlprof-report'", 0},
		{"{\"format\": \"rlprof-report\", \"version\": 2, 3: 4}",
		 "line 1: string or '}' expected near '3'", 0},
		/* the per-thread rows ("threads") are passed over, wherever
		 * they are and whatever strings they hold; the rest is
		 * still decoded and checked */
		{"{\"format\":\"rlprof-report\",\"version\":2,\"regions\":["
		 "{\"threads\":[{\"x\":\"}\\\"]\"}],\"region\":\"a\"},"
		 "{\"region\":\"b\",\"threads\":[],\"calls\":3},"
		 "{\"region\":\"c\",\"threads\":[{}]}]}",
		 NULL, 3},
		{"{\"format\":\"rlprof-report\",\"version\":2,\n\"regions\":["
		 "{\"region\":\"a\",\"threads\":[1],\"calls\":tru}]}",
		 "line 2: ", 0},
		{"{\"format\":\"rlprof-report\",\"version\":2,\"regions\":["
		 "{\"region\":\"a\",\"threads\":[1}]}",
		 "line 1: ", 0},
		{"{\"format\":\"rlprof-report\",\"version\":2,\"regions\":["
		 "{\"region\":\"a\",\"threads\":[],\"calls\":\"3\"}]}",
		 "region 1 has a field of the wrong type", 0},
	};
	char err[512], *dir = e2e_tmpdir(), path[600];

	snprintf(path, sizeof path, "%s/report.json", dir);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rl_report_file f;
		FILE *fp = fopen(path, "w");
		int rc;

		cr_assert_not_null(fp);
		fputs(cases[i].doc, fp);
		fclose(fp);
		rc = rl_report_file_load(dir, &f, err, sizeof err);
		if (!cases[i].want) {
			cr_expect_eq(rc, 0, "case %zu: %s", i, err);
			if (!rc) {
				cr_expect_eq(f.n_regions, cases[i].n, "case %zu", i);
				rl_report_file_release(&f);
			}
			continue;
		}
		cr_expect_eq(rc, RL_EFORMAT, "case %zu loaded", i);
		cr_expect(rc && strstr(err, cases[i].want) != NULL,
			  "case %zu: '%s' not in: %s", i, cases[i].want, err);
	}
	e2e_rmtree_raw(dir);
	free(dir);
}

/* A generated report.json of the regions from..to-1 ("r%06d-\u00e9",
 * written in reverse order), each 1 ms, those with i % 10 == slow 1.3 ms
 * and == fast 0.7 ms (slow and fast -1: none); then extra regions
 * "new%03d". */
static void write_big_report(const char *dir, long from, long to, int slow,
			     int fast, int extra)
{
	char path[600];
	FILE *fp;

	snprintf(path, sizeof path, "%s/report.json", dir);
	cr_assert_eq(mkdir(dir, 0755), 0, "%s: %s", dir, strerror(errno));
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs("{\n  \"format\": \"rlprof-report\",\n  \"version\": 2,\n"
	      "  \"backend\": \"time\",\n  \"regions\": [\n", fp);
	for (long i = to - 1; i >= from; i--)
		fprintf(fp, "    {\"region\": \"r%06ld-\\u00e9\", \"calls\": 1, "
			    "\"time_s\": %g, \"method\": \"time only\", "
			    "\"threads\": [{\"tid\": 1, \"time_s\": 1e-3}]},\n",
			i, i % 10 == slow ? 1.3e-3 : i % 10 == fast ? 0.7e-3
								    : 1e-3);
	for (int k = 0; k < extra; k++)
		fprintf(fp, "    {\"region\": \"new%03d\", \"time_s\": 1e-3},\n", k);
	fputs("    {\"region\": \"last\", \"time_s\": 1e-3}\n  ],\n"
	      "  \"warnings\": []\n}\n", fp);
	fclose(fp);
}

/* 10^5 regions: diff and check match every region by name (the reports
 * list them in different orders) and count exactly what changed. The
 * time they take is `make bench`'s (scripts/bench-scale), not a test's. */
Test(diff_cmd, large_pair_counts_every_region, .timeout = 300)
{
	char *dir = e2e_tmpdir(), a[512], b[512];
	const long n = 100000;
	struct e2e_result r;
	json_error_t je;
	json_t *root, *regions, *row;
	size_t i, only_a = 0, only_b = 0, slower = 0;

	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	write_big_report(a, 0, n, -1, -1, 0);
	/* b: r000000..r000099 gone, 100 new, i % 10 == 3 slower, == 7 faster */
	write_big_report(b, 100, n, 3, 7, 100);

	r = rl("diff", "-f", "json", a, b, NULL, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_loads(r.out, 0, &je);
	cr_assert_not_null(root, "not JSON: %s", je.text);
	cr_expect_eq(json_integer_value(json_object_get(root, "slower")), 9990);
	cr_expect_eq(json_integer_value(json_object_get(root, "faster")), 9990);
	regions = json_object_get(root, "regions");
	cr_expect_eq(json_array_size(regions), (size_t)n + 101);
	json_array_foreach(regions, i, row) {
		const char *p = json_string_value(json_object_get(row, "presence"));
		const char *v = json_string_value(json_object_get(row, "verdict"));
		only_a += p && !strcmp(p, "only_a");
		only_b += p && !strcmp(p, "only_b");
		slower += v && !strcmp(v, "slower");
	}
	cr_expect_eq(only_a, 100);
	cr_expect_eq(only_b, 100);
	cr_expect_eq(slower, 9990);
	json_decref(root);
	e2e_free(&r);

	r = rl("check", b, "--baseline", a, "--max-regression", "10", NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	/* every baseline region is a check: 100 gone, 9990 slower */
	cr_expect_not_null(strstr(r.out, "\n10090 of 100001 checks failed\n"),
			   "%.300s", r.out);
	cr_expect_not_null(strstr(r.out, "region 'r000113-\u00e9' takes 30.0% "
					 "more time"), "%.300s", r.out);
	cr_expect_eq(count_lines(r.out, "fail: region 'r0000"), 100,
		     "r000000..r000099 gone");
	cr_expect_eq(count_lines(r.out, "fail: region 'r0001"), 10,
		     "r000103..r000193 slower");
	e2e_free(&r);

	r = rl("check", a, "-B", a, "-r", "10", "-R", "r099999-\u00e9", NULL);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect_not_null(strstr(r.out, "all 100002 checks hold"), "%s", r.out);
	e2e_free(&r);
	e2e_rmtree_raw(dir); /* the reports are made up, not the schema's */
	free(dir);
}
