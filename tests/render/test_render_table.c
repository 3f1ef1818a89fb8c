/* render_table.c: the table for fixed results files. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/machine.h"

static char *render(const char *file, int with_machine, int per_thread)
{
	struct rl_run_results run = {.backend_requested = (char *)"auto",
				     .backend_reason = (char *)"auto: no hardware PMU",
				     .command = (char *)"./app 1",
				     .exit_status = 0};
	struct rl_render_options opt = {.per_thread = per_thread};
	struct rl_machine m;

	/* a 1-thread peak too: a row is held against the roofs of one
	 * thread count, its own (the per-thread rows: 1) */
	rl_test_machine_render(&m, "Test CPU", 2, 50, 100);
	return rl_test_report_text("table", file, run, with_machine ? &m : NULL,
				   opt);
}

Test(render_table, counted_rows_with_the_binding_roof)
{
	char *t = render(DATA "good.json", 1, 0);

	cr_assert(strstr(t, "backend: perf (auto: no hardware PMU)\n"), "%s", t);
	cr_assert(strstr(t, "command: ./app 1 (exit status 0)\n"), "%s", t);
	cr_assert(strstr(t, "machine: Test CPU, 2 threads\n"), "%s", t);
	cr_assert(strstr(t, "\nregion       thr  calls    time   flops  DRAM "
			    "bytes     AI  AI decl  GFLOP/s  GB/s  % roof  "
			    "bound\n"),
		  "%s", t);
	cr_assert(strstr(t, "\ntriad          2     20  1.50 s  4.00 G     48.0 "
			    "GB  0.083    0.083     2.67  32.0    66.7  memory "
			    "DRAM triad*\n"),
		  "%s", t);
	/* no flops: GB/s against the bandwidth roof (32 of 30 GB/s) */
	cr_assert(strstr(t, "\ninit, setup    1      1  500 ms       0     16.0 "
			    "GB      0        -        0  32.0     107  memory "
			    "DRAM triad*\n"),
		  "%s", t);
	cr_assert_null(strstr(t, "tid 100"), "%s", t);
	cr_assert(strstr(t, "\nmethod: flops: perf fp_arith_inst_retired 256b "
			    "x4, per-thread; bytes: perf offcore dram x64, "
			    "per-thread; roofs: no flops: the bytes moved per "
			    "second against each level's bandwidth for the "
			    "region's read/write mix; the level nearest its "
			    "roof binds [init, setup]\n"),
		  "%s", t);
	cr_assert(strstr(t, "* binding roof: "), "%s", t);
	cr_assert(strstr(t, "\nwarning: region 'solve' was still open at exit "
			    "in thread 101\n"),
		  "%s", t);
	free(t);
}

Test(render_table, per_thread_rows_follow_their_region)
{
	char *t = render(DATA "good.json", 1, 1), *a, *b, *c;

	a = strstr(t, "\ntriad ");
	b = strstr(t, "\n  tid 101 ");
	c = strstr(t, "\ninit, setup ");
	cr_assert(a && b && c, "%s", t);
	cr_assert(a < b && b < c, "%s", t);
	cr_assert(strstr(t, "\n  tid 100      1     10  1.00 s  2.00 G     24.0 "
			    "GB  0.083    0.083     2.00  24.0    80.0  memory "
			    "DRAM triad*\n"),
		  "%s", t);
	free(t);
}

Test(render_table, unknown_figures_are_dashes)
{
	char *t = render(DATA "time_only.json", 0, 0);

	cr_assert(strstr(t, "machine: no model: bounds are not shown"), "%s",
		  t);
	cr_assert(strstr(t, "\nplain     1      2  1.00 s      -           -   "
			    "-        -        -     -       -  -\n"),
		  "%s", t);
	cr_assert(strstr(t, "\nstream    1      4  2.00 s      -           -   "
			    "-    0.250   4.00 d     -       -  -\n"),
		  "%s", t);
	cr_assert(strstr(t, "method: time only: no counters (declared figures "
			    "from RL_REGION_EXPECT) [stream]\n"),
		  "%s", t);
	cr_assert_null(strstr(t, "* binding roof"), "%s", t);
	cr_assert(strstr(t, "\nd: declared flops"), "%s", t);
	free(t);
}

Test(render_table, declared_bound_is_marked)
{
	char *t = render(DATA "time_only.json", 1, 0);

	cr_assert(strstr(t, "  66.7  memory DRAM triad* (decl)\n"), "%s", t);
	free(t);
}

/* Columns of a line up to p, as a terminal shows them (CJK: 2). */
static size_t cols(const char *line, const char *p)
{
	size_t n = 0;
	for (const unsigned char *q = (const unsigned char *)line;
	     q < (const unsigned char *)p; q++) {
		if ((*q & 0xc0) == 0x80)
			continue;
		n += *q >= 0xe4 && *q <= 0xe9 ? 2 : 1;
	}
	return n;
}

/* Control characters and escape sequences in names are shown escaped,
 * never sent; UTF-8 names stay; columns stay aligned; a very long name is
 * cut with an ellipsis. */
Test(render_table, names_cannot_break_the_table)
{
	char path[] = "/tmp/rlprof-rt-XXXXXX", *s, *hdr, *thr;
	int fd = mkstemp(path);
	FILE *f;
	static const char *const shown[] = {
		"tab\\there", "esc\\x1b[31mred", "c1\\u009b2J", "\xc3\xa9t\xc3\xa9",
		"\xe4\xb8\xad\xe6\x96\x87", "llllllllll"};

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs("{\"format\":\"rlprof-results\",\"version\":1,\"pid\":1,"
	      "\"program\":\"p\",\"backend\":\"time\\u001b[31m\",\"counters\":"
	      "[],\"threads\":[{\"tid\":1,\"regions\":["
	      "{\"name\":\"tab\\there\",\"calls\":1,\"time_ns\":5},"
	      "{\"name\":\"esc\\u001b[31mred\",\"calls\":1,\"time_ns\":5},"
	      "{\"name\":\"c1\\u009b2J\",\"calls\":1,\"time_ns\":5},"
	      "{\"name\":\"\\u00e9t\\u00e9\",\"calls\":1,\"time_ns\":5},"
	      "{\"name\":\"\\u4e2d\\u6587\",\"calls\":1,\"time_ns\":5},"
	      "{\"name\":\"llllllllllllllllllllllllllllllllllllllllllllllll"
	      "llllllllllllllllllllllllllllllllllllllllllllll\",\"calls\":1,"
	      "\"time_ns\":5}]}],\"warnings\":[{\"kind\":\"end-mismatch\","
	      "\"message\":\"bad \\u001b[2J\\r\\nend\"}]}",
	      f);
	fclose(f);
	s = render(path, 0, 0);
	unlink(path);
	cr_assert_null(strchr(s, '\x1b'), "%s", s);
	cr_assert_null(strchr(s, '\t'), "%s", s);
	cr_assert_null(strchr(s, '\r'), "%s", s);
	cr_assert_null(strstr(s, "\xc2\x9b"), "%s", s);
	cr_assert(strstr(s, "backend: time\\x1b[31m (auto"), "%s", s);
	cr_assert(strstr(s, "warning: bad \\x1b[2J\\r\\nend\n"), "%s", s);
	/* the long name: 59 columns and an ellipsis */
	cr_assert(strstr(s, "\n" "lllllllllllllllllllllllllllllllllllllllllllllll"
			    "llllllllllll\xe2\x80\xa6  "),
		  "%s", s);
	hdr = strstr(s, "\nregion");
	cr_assert_not_null(hdr);
	hdr++;
	thr = strstr(hdr, "thr");
	cr_assert_eq(cols(hdr, thr), 62, "%s", s);
	for (size_t i = 0; i < sizeof shown / sizeof *shown; i++) {
		char *line = strstr(s, shown[i]), *p;
		cr_assert(line && line[-1] == '\n', "%s in %s", shown[i], s);
		p = line + strlen(shown[i]);
		while (*p == 'l')
			p++;
		if (strncmp(p, "\xe2\x80\xa6", 3) == 0)
			p += 3;
		while (*p == ' ')
			p++;
		/* thr column: right-aligned under "thr" */
		cr_assert_eq(cols(line, p), cols(hdr, thr) + 2, "%s: %s",
			     shown[i], s);
		cr_assert_eq(*p, '1');
	}
	free(s);
}

/* A results file of one time-only process in path (a mkstemp template),
 * open after its "threads":[{"tid":7,"regions":[ for the test to go on. */
static FILE *results_file(char *path)
{
	int fd = mkstemp(path);
	FILE *f;

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fputs("{\"format\":\"rlprof-results\",\"version\":2,\"pid\":7,"
	      "\"program\":\"./kern\",\"backend\":\"time\",\"counters\":[],"
	      "\"threads\":[{\"tid\":7,\"regions\":[", f);
	return f;
}

/* Four or more regions with the same diagnosis: one line naming the first
 * three and the count, where the first of them stands; fewer keep a line
 * each. */
Test(render_table, shared_diagnosis_is_one_line)
{
	char path[] = "/tmp/rlprof-test-diag-XXXXXX", *text, *line;
	FILE *f = results_file(path);

	for (int i = 0; i < 6; i++)
		fprintf(f, "{\"name\":\"r%d\",\"calls\":1,\"time_ns\":100},", i);
	fputs("{\"name\":\"decl\",\"calls\":1,\"time_ns\":100,"
	      "\"expected_flops\":8e9,\"expected_bytes\":32e9,"
	      "\"expect_calls\":1}]}]}", f);
	fclose(f);
	text = render(path, 1, 0);
	unlink(path);
	line = strstr(text, "r0, r1, r2 and 3 more regions: no flop or byte "
			    "counts and nothing declared");
	cr_assert_not_null(line, "%s", text);
	cr_expect_null(strstr(text, "\nr3: "), "%s", text);
	cr_expect_null(strstr(line + 1, "r0, r1, r2"), "one line: %s", text);
	cr_expect_not_null(strstr(text, "\ndecl: "), "%s", text);
	free(text);
}

/* 510 warnings: the table lists 50 and the HTML report 500, each then
 * says how many more there are and where they all are. */
Test(render_table, many_warnings_are_counted_past_a_screenful)
{
	char path[] = "/tmp/rlprof-test-warn-XXXXXX", *text, want[96];
	struct rl_run_results run = {.backend_requested = (char *)"auto",
				     .exit_status = 0};
	struct rl_render_options opt = {0};
	FILE *f = results_file(path);
	size_t n = 0;

	fputs("{\"name\":\"a\",\"calls\":1,\"time_ns\":100}]}],"
	      "\"warnings\":[", f);
	for (int i = 0; i < 510; i++)
		fprintf(f, "%s{\"kind\":\"open-at-exit\",\"region\":\"r%d\","
			"\"tid\":7,\"message\":\"region 'r%d' still open\"}",
			i ? "," : "", i, i);
	fputs("]}", f);
	fclose(f);
	text = rl_test_report_text("table", path, run, NULL, opt);
	for (const char *p = text; (p = strstr(p, "\nwarning: region")); p++)
		n++;
	cr_expect_eq(n, 50, "%zu warnings listed", n);
	cr_expect_not_null(strstr(text, "region 'r49' still open\n"));
	cr_expect_null(strstr(text, "region 'r50' still open"));
	cr_expect_not_null(strstr(text, "warning: ... and 460 more warnings: "
					"report.json"), "%s", text);
	free(text);
	text = rl_test_report_text("html", path, run, NULL, opt);
	unlink(path);
	n = 0;
	for (const char *p = text; (p = strstr(p, "still open</li>")); p++)
		n++;
	cr_expect_eq(n, 500, "%zu warnings listed", n);
	snprintf(want, sizeof want, "and %d more warnings: report.json has "
		 "every one</li>", 10);
	cr_expect_not_null(strstr(text, want));
	free(text);
}

/* Issue 40: at COLUMNS=100 every line fits: the command and warning
 * lines (and check lines) are wrapped at words, indented, like the
 * diagnoses; --verbose keeps them whole. */
Test(render_table, long_command_and_warning_lines_fit_the_width)
{
	char path[] = "/tmp/rlprof-test-wide-XXXXXX", *text, cmd[400];
	struct rl_run_results run = {.backend_requested = (char *)"auto",
				     .command = cmd, .exit_status = 0};
	struct rl_render_options opt = {.width = 100};
	FILE *f = results_file(path);

	snprintf(cmd, sizeof cmd, "./app");
	for (int i = 0; i < 40; i++)
		strcat(cmd, " --option");
	fputs("{\"name\":\"a\",\"calls\":1,\"time_ns\":100}]}],"
	      "\"warnings\":[{\"kind\":\"open-at-exit\",\"region\":\"a\","
	      "\"tid\":7,\"message\":\"", f);
	for (int i = 0; i < 30; i++)
		fprintf(f, "word%02d of a long warning ", i);
	fputs("\"}]}", f);
	fclose(f);
	text = rl_test_report_text("table", path, run, NULL, opt);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		cr_expect_leq(n, 100, "a line of %zu columns:\n%.*s", n, (int)n,
			      p);
		p += n + (p[n] == '\n');
	}
	cr_expect_not_null(strstr(text, "\nwarning: word00 of a long "), "%s",
			   text);
	cr_expect_not_null(strstr(text, "\n    "), "indented: %s", text);
	cr_expect_not_null(strstr(text, "word29"), "%s", text);
	cr_expect_not_null(strstr(text, "(exit status 0)"), "%s", text);
	free(text);
	opt.verbose = true;
	text = rl_test_report_text("table", path, run, NULL, opt);
	unlink(path);
	cr_expect_not_null(strstr(text, "word00 of a long warning word01"),
			   "%s", text);
	cr_expect_not_null(strstr(text, "word28 of a long warning word29"),
			   "whole: %s", text);
	free(text);
}

/* --count-with: the header says which build was counted and which
 * ceiling the timed one gets, from where (the paths escaped: they are the
 * user's); unknown says the best peak and why; JSON and HTML say it too */
Test(render_table, count_with_header_names_the_counted_build_and_ceiling)
{
	struct rl_run_results run = {
		.exit_status = 0,
		.count_with = (char *)"./app-\x1bportable",
		.timed_isa = (char *)"avx2",
		.timed_isa_source = (char *)"the code of 'app': 256-bit",
		.timed_no_fma = true};
	struct rl_render_options opt = {0};
	struct rl_machine m;
	json_t *doc, *cw;
	char *t;

	/* a 1-thread peak too: a row is held against the roofs of one
	 * thread count, its own (the per-thread rows: 1) */
	rl_test_machine_render(&m, "Test CPU", 2, 50, 100);
	t = rl_test_report_text("table", DATA "good.json", run, &m, opt);
	cr_assert(strstr(t, "\n--count-with: counted build ./app-\\x1bportable; "
			    "the timed build's ceiling: avx2 without FMA, from "
			    "the code of 'app': 256-bit\n"),
		  "%s", t);
	free(t);
	t = rl_test_report_text("json", DATA "good.json", run, &m, opt);
	doc = json_loads(t, 0, NULL);
	cw = json_object_get(doc, "count_with");
	cr_assert(json_is_object(cw), "%s", t);
	cr_expect_str_eq(json_string_value(json_object_get(cw, "counted_build")),
			 "./app-\x1bportable");
	cr_expect_str_eq(json_string_value(json_object_get(cw, "timed_isa")),
			 "avx2");
	cr_expect(json_is_true(json_object_get(cw, "timed_no_fma")));
	cr_expect_str_eq(json_string_value(json_object_get(cw,
							   "timed_isa_source")),
			 "the code of 'app': 256-bit");
	json_decref(doc);
	free(t);
	t = rl_test_report_text("html", DATA "good.json", run, &m, opt);
	cr_assert(strstr(t, "--count-with: counted build ./app-"), "%s", t);
	cr_assert_null(strchr(t, '\x1b'), "the path escaped");
	free(t);
	run.timed_isa = NULL;
	run.timed_no_fma = false;
	run.timed_isa_source = (char *)"unknown: no note";
	t = rl_test_report_text("table", DATA "good.json", run, &m, opt);
	cr_assert(strstr(t, "the timed build's ceiling: the best peak, as its "
			    "ISA is unknown: no note\n"),
		  "%s", t);
	free(t);
	run.count_with = NULL;
	t = rl_test_report_text("table", DATA "good.json", run, &m, opt);
	cr_assert_null(strstr(t, "--count-with"), "%s", t);
	free(t);
}
