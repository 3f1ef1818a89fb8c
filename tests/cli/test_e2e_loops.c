/* rlprof run --loops: the hot loops as rows of the report (issue 28,
 * section 4). Real runs of tests/programs/loops/ under the simulator,
 * placed against a hand-made machine model cached for the run; the
 * tests read report.json, report.csv and roofline.svg and assert each
 * loop's flops against its formula, its file:line, its region, and that
 * it was placed like a region (the same % of roof arithmetic). */
#include <jansson.h>
#include <math.h>

#include "cli/run/loop_samples.h"
#include "inspect/loops.h"
#include "machine/machine_file.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define LOOPS_SRC RL_SOURCE_DIR "/tests/programs/loops/loops.c"
#define STREAM_SRC RL_SOURCE_DIR "/tests/programs/loops/stream.c"
#define STREAM_N 65536

static void need_sim(void)
{
	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev");
	sim_need();
}

static int marker_line(const char *src_path, const char *name)
{
	char *src = e2e_slurp(src_path);
	char want[64];
	int line = 1;

	cr_assert_not_null(src);
	snprintf(want, sizeof want, "/* loop:%s */", name);
	for (const char *p = src; *p; p++) {
		if (strncmp(p, want, strlen(want)) == 0) {
			free(src);
			return line;
		}
		line += *p == '\n';
	}
	free(src);
	cr_assert_fail("no marker %s", want);
	return 0;
}

/* The default test machine cached under dir/cache: env gets
 * XDG_CACHE_HOME for rlprof. */
static void cache_model(const char *dir, char *env, size_t len)
{
	struct rl_machine *m = rl_test_machine_default();
	char cache[512], path[1024], err[256];

	snprintf(cache, sizeof cache, "%s/cache", dir);
	snprintf(env, len, "XDG_CACHE_HOME=%s", cache);
	cr_assert_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0, "%s", err);
	m->version = RL_MACHINE_VERSION;
	snprintf(m->probed_at, sizeof m->probed_at, "2026-01-01T00:00:00Z");
	cr_assert_eq(rl_machine_save(path, m, err, sizeof err), 0, "%s", err);
	free(m);
}

/* rlprof run -b sim --loops [extra] -o dir/out prog...; returns the
 * parsed report.json. */
static json_t *run_loops(const char *dir, const char *extra,
			 const char *const *prog, struct e2e_result *r)
{
	const char *argv[32] = {E2E_RLPROF, "run", "-q", "-b", "sim",
				"--sim-caches", "4K:4,16K:4,64K:4", "--loops"};
	char out[512], env[600], *text;
	const char *envv[] = {env, NULL};
	size_t n = 8;
	json_error_t je;
	json_t *j;

	cache_model(dir, env, sizeof env);
	snprintf(out, sizeof out, "%s/out", dir);
	if (extra)
		argv[n++] = extra;
	argv[n++] = "-o";
	argv[n++] = out;
	for (size_t i = 0; prog[i] && n < 31; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	e2e_need(E2E_RLPROF);
	e2e_need(prog[0]);
	*r = e2e_run_in(NULL, argv, envv);
	cr_assert_eq(r->status, 0, "%s\n%s", r->out, r->err);
	text = e2e_file(out, "report.json");
	j = json_loads(text, 0, &je);
	cr_assert_not_null(j, "report.json: %s", je.text);
	free(text);
	return j;
}

/* The row of the loop at marker's line in function func, checked as a
 * loop of region parent. */
static json_t *loop_row(json_t *rep, const char *src, const char *marker,
			const char *func, const char *parent, char *name,
			size_t len)
{
	const char *base = strrchr(src, '/') + 1;
	json_t *row, *loop;
	int line = marker_line(src, marker);

	snprintf(name, len, "%s:%d (%s)", base, line, func);
	row = rl_test_json_region(rep, name);
	cr_assert_not_null(row, "no row '%s' in report.json", name);
	loop = json_object_get(row, "loop");
	cr_assert(json_is_object(loop), "row '%s' is not marked a loop", name);
	cr_expect_str_eq(json_string_value(json_object_get(loop, "function")),
			 func);
	cr_expect_eq(json_integer_value(json_object_get(loop, "line")), line);
	cr_expect(strstr(json_string_value(json_object_get(loop, "file")),
			 base) != NULL);
	cr_expect_str_eq(json_string_value(json_object_get(loop, "parent")),
			 parent);
	return row;
}

/* report.html shows each hot loop's source lines, escaped (nest3.k's
 * line has a '<'); where the source cannot be read (loops.json made to
 * name a file that is not there, read again by rlprof report), it says
 * so. */
static void expect_html_sources(const char *dir)
{
	char out[512], html[600], path[600], *text, *json, *at;
	const char *argv[] = {E2E_RLPROF, "report", out, "-f", "html", "-o",
			      html, NULL};
	struct e2e_result r;
	FILE *f;

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(html, sizeof html, "%s/again.html", dir);
	snprintf(path, sizeof path, "%s/loops.json", out);
	text = e2e_file(out, "report.html");
	cr_expect(strstr(text, "<h2>Hot loops</h2>"), "no loops section");
	cr_expect(strstr(text, "for (int k = 0; k &lt; n; k++) /* "
			       "loop:nest3.k */"),
		  "no escaped source line of nest3.k");
	free(text);
	json = e2e_file(out, "loops.json");
	while ((at = strstr(json, "\"source\": \"/")))
		at[11] = '!'; /* "/..." becomes "!...": not there */
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(json, f);
	fclose(f);
	free(json);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	text = e2e_slurp(html);
	cr_assert_not_null(text);
	cr_expect(strstr(text, "source not readable here"), "%s",
		  strstr(text, "Hot loops") ? strstr(text, "Hot loops") : text);
	cr_expect(strstr(text, "loops.c:"), "the loops are not read again");
	free(text);
	e2e_free(&r);
}

/* Without samples (--sim-timing sim: no native run), the hot loops are
 * those of at least 1% of the flops or L1 bytes: nest3's three loops, each
 * counting 2 n^3 flops exactly (inclusive), a loop of <program>, with no
 * time and no % of roof, and saying why. */
Test(e2e_loops, rows_count_the_formula_without_time, .timeout = 240)
{
	const char *prog[] = {E2E_PROG("loops-O2"), "40", NULL};
	char *dir = e2e_tmpdir(), name[256], *csv;
	static const char *const nest[] = {"nest3.i", "nest3.j", "nest3.k"};
	struct e2e_result r;
	json_t *rep;

	need_sim();
	rep = run_loops(dir, "--sim-timing=sim", prog, &r);
	cr_expect(strstr(r.out, "loop loops.c:"), "table: %s", r.out);
	csv = e2e_file(dir, "out/report.csv");
	for (int k = 0; k < 3; k++) {
		json_t *row = loop_row(rep, LOOPS_SRC, nest[k], "nest3",
				       "<program>", name, sizeof name);
		const char *line;
		cr_expect_eq(rl_test_json_num(row, "flops"), 2.0 * 40 * 40 * 40,
			     "%s: %g flops", name, rl_test_json_num(row, "flops"));
		cr_expect(isnan(rl_test_json_num(row, "time_s")), "%s has a time", name);
		cr_expect(isnan(rl_test_json_num(row, "roof_pct")), "%s has a %% of roof",
			  name);
		cr_expect(strstr(json_string_value(json_object_get(
				     row, "diagnosis")), "no time"),
			  "%s", json_string_value(json_object_get(row,
								  "diagnosis")));
		line = e2e_csv_row(csv, name);
		cr_expect_not_null(line, "no CSV row for %s", name);
		if (line)
			cr_expect(strstr(line, ",<program>,"), "%.300s", line);
	}
	/* the region's own method says nothing of loops */
	cr_expect(strstr(json_string_value(json_object_get(
			     rl_test_json_region(rep, "<program>"), "method")), "loop") ==
		  NULL);
	expect_html_sources(dir);
	json_decref(rep);
	free(csv);
	e2e_cleanup(&r, dir);
}

/* Distinct loops that share a "file:line (function)" label are distinct
 * rows, never merged as threads (issue 39): two nested loops on one line
 * (the inner does all 2 N^2 flops; the outer holds it), and one loop
 * inlined twice (each copy N flops a pass), each one thread's. */
#define SHARED_SRC RL_SOURCE_DIR "/tests/programs/loops/shared_lines.c"
#define SHARED_N 2000.0
Test(e2e_loops, loops_sharing_a_line_are_rows_of_their_own, .timeout = 240)
{
	const char *prog[] = {E2E_PROG("loops-shared"), "300", NULL};
	char *dir = e2e_tmpdir(), name[256];
	struct e2e_result r;
	json_t *rep, *row;
	int line;

	need_sim();
	rep = run_loops(dir, "--sim-timing=sim", prog, &r);
	line = marker_line(SHARED_SRC, "oneline");
	for (int k = 1; k <= 2; k++) {
		snprintf(name, sizeof name, "shared_lines.c:%d #%d "
			 "(nest_one_line)", line, k);
		row = rl_test_json_region(rep, name);
		cr_assert_not_null(row, "no row '%s': %s", name, r.out);
		cr_expect_eq(rl_test_json_num(row, "flops"),
			     2 * SHARED_N * SHARED_N, "%s: %g", name,
			     rl_test_json_num(row, "flops"));
		cr_expect_eq(json_integer_value(json_object_get(row,
							       "n_threads")),
			     1, "%s: one thread", name);
	}
	line = marker_line(SHARED_SRC, "sum");
	for (int k = 0; k < 2; k++) {
		char *src = e2e_slurp(SHARED_SRC), *at;
		int call = 1;
		cr_assert_not_null(src);
		at = strstr(src, k ? "/* call:second */" : "/* call:first */");
		cr_assert_not_null(at);
		for (char *p = src; p < at; p++)
			call += *p == '\n';
		free(src);
		snprintf(name, sizeof name,
			 "shared_lines.c:%d (sum, inlined at shared_lines.c:%d)",
			 line, call);
		row = rl_test_json_region(rep, name);
		cr_assert_not_null(row, "no row '%s': %s", name, r.out);
		cr_expect_eq(rl_test_json_num(row, "flops"), SHARED_N * 300,
			     "%s: %g", name, rl_test_json_num(row, "flops"));
		cr_expect_eq(json_integer_value(json_object_get(row,
							       "n_threads")),
			     1, "%s: one thread", name);
		{ /* the inline chain, the loop it nests in, its chain */
			json_t *loop = json_object_get(row, "loop");
			const char *inl = json_string_value(
				json_object_get(loop, "inlined"));
			char want[128];
			snprintf(want, sizeof want,
				 "sum into twice at shared_lines.c:%d", call);
			cr_expect(inl && strcmp(inl, want) == 0, "%s", inl);
			cr_expect(strstr(json_string_value(json_object_get(
					     loop, "enclosing")), "(twice)"));
			cr_expect_eq(json_integer_value(json_object_get(
					     json_object_get(loop, "chains"),
					     "add")), 1);
		}
	}
	{
		char *html = e2e_file(dir, "out/report.html");
		cr_expect(strstr(html, "inlined: sum into twice at "
				       "shared_lines.c:"));
		free(html);
	}
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* A program of a few milliseconds gets its hot loop timed (issue 39):
 * the sampler is armed before the program starts (enable_on_exec), so
 * it no longer ends before rlprof attaches, and samples at the fine
 * period (0.1 ms of CPU time, loop_samples.h). loops-shared 3 runs about 4 ms (the nest on one line: 4 M
 * dependent adds). */
Test(e2e_loops, a_short_program_gets_its_hot_loop_timed, .timeout = 120)
{
	const char *prog[] = {E2E_PROG("loops-shared"), "3", NULL};
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "time", "--loops",
			      "-o", NULL, prog[0], prog[1], NULL};
	char *dir = e2e_tmpdir(), out[512], *text;
	struct e2e_result r;
	json_t *j, *samp, *o;
	json_error_t je;
	size_t i;
	long nest = -1;

	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev");
	e2e_need(prog[0]);
	snprintf(out, sizeof out, "%s/out", dir);
	argv[7] = out;
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	text = e2e_file(out, "loops.json");
	j = json_loads(text, 0, &je);
	cr_assert_not_null(j, "%s", je.text);
	if (json_is_string(json_object_get(j, "sampling_missing")) &&
	    strstr(json_string_value(json_object_get(j, "sampling_missing")),
		   "perf_event_paranoid"))
		cr_skip_test("no sampling here: %s", json_string_value(
			json_object_get(j, "sampling_missing")));
	samp = json_object_get(j, "sampling");
	cr_assert(json_is_object(samp), "not sampled: %s", text);
	cr_expect_leq(rl_test_json_num(samp, "period_s"),
		      RL_LOOP_SAMPLE_FINE_NS * 1e-9 + 1e-12);
	json_array_foreach(json_object_get(j, "loops"), i, o)
		if (strstr(json_string_value(json_object_get(o, "name")),
			   "#2 (nest_one_line)"))
			nest = (long)json_integer_value(json_object_get(o, "samples"));
	cr_expect_gt(nest, 0, "the hot loop has no sample: %s", text);
	json_decref(j);
	free(text);
	e2e_cleanup(&r, dir);
}

/* In an annotated program a loop's parent is the region innermost open
 * on its thread while it ran, as the simulator told: fill in setup, dot
 * in solve, scale (called in both) one row whose parent names both, each
 * with its exact flops (n = 1000: 1000, 2 x 1000, 2 x 1000). */
Test(e2e_loops, loops_in_regions_are_their_children, .timeout = 240)
{
	const char *prog[] = {E2E_PROG("loops-regions"), "1000", NULL};
	static const struct {
		const char *marker, *parent;
		double flops;
	} want[] = {{"fill", "setup", 1000},
		    {"scale", "setup, solve", 2000},
		    {"dot", "solve", 2000}};
	char *dir = e2e_tmpdir(), name[256], *csv, *raw;
	struct e2e_result r;
	json_t *rep;

	need_sim();
	rep = run_loops(dir, "--sim-timing=sim", prog, &r);
	csv = e2e_file(dir, "out/report.csv");
	for (size_t k = 0; k < 3; k++) {
		json_t *row = loop_row(rep, RL_SOURCE_DIR
				       "/tests/programs/loops/region_loops.c",
				       want[k].marker, want[k].marker,
				       want[k].parent, name, sizeof name);
		const char *line = e2e_csv_row(csv, name);
		cr_expect_eq(rl_test_json_num(row, "flops"), want[k].flops, "%s: %g flops",
			     name, rl_test_json_num(row, "flops"));
		cr_expect_not_null(line, "no CSV row for %s", name);
		if (line && k != 1)
			cr_expect(strstr(line, want[k].parent), "%.300s", line);
	}
	/* the regions' own rows are untouched: setup 1000 + 1000 flops,
	 * solve 1000 + 2000 */
	cr_expect_eq(rl_test_json_num(rl_test_json_region(rep, "setup"), "flops"), 2000);
	cr_expect_eq(rl_test_json_num(rl_test_json_region(rep, "solve"), "flops"), 3000);
	raw = e2e_file(dir, "out/loops.json");
	cr_expect(strstr(raw, "\"region\": \"setup, solve\"") ||
		  strstr(raw, "\"region\":\"setup, solve\""), "%.400s", raw);
	free(raw);
	json_decref(rep);
	free(csv);
	e2e_cleanup(&r, dir);
}

/* Sampled (the native run): the triad loop of stream.c is hot, counts
 * 2 N x passes flops exactly, has a time with its sampling error, and is
 * placed as a region is: its % of roof is its GFLOP/s over its roof's;
 * the chart has its labelled, marked point. */
Test(e2e_loops, hot_loop_placed_like_a_region, .timeout = 300)
{
	const char *prog[] = {E2E_PROG("loops-stream"), "1000", NULL};
	char *dir = e2e_tmpdir(), name[256], outer[256], *svg, *loops;
	struct e2e_result r;
	json_t *rep, *row;
	double t, err, samples, period;

	need_sim();
	rep = run_loops(dir, NULL, prog, &r);
	loops = e2e_file(dir, "out/loops.json");
	if (strstr(loops, "\"sampling_missing\"")) {
		json_decref(rep);
		free(loops);
		e2e_cleanup(&r, dir);
		cr_skip_test("no sampling here (loops.json says why)");
	}
	{ /* the run's one period (fine or coarse: loop_samples.h) */
		json_t *lj = json_loads(loops, 0, NULL);
		period = rl_test_json_num(json_object_get(lj, "sampling"),
					  "period_s");
		json_decref(lj);
	}
	free(loops);
	row = loop_row(rep, STREAM_SRC, "stream.triad", "main", "<program>",
		       name, sizeof name);
	loop_row(rep, STREAM_SRC, "stream.passes", "main", "<program>", outer,
		 sizeof outer);
	cr_expect_eq(rl_test_json_num(row, "flops"), 2.0 * STREAM_N * 1000, "%g",
		     rl_test_json_num(row, "flops"));
	t = rl_test_json_num(row, "time_s");
	err = rl_test_json_num(row, "time_error_s");
	samples = (double)json_integer_value(json_object_get(
		json_object_get(row, "loop"), "samples"));
	cr_assert(t > 0 && samples > 0, "time %g, %g samples", t, samples);
	/* one sample per period of CPU time: +- sqrt(n) periods */
	cr_expect(fabs(err - sqrt(t / period) * period) < 1e-9,
		  "error %g at %g s", err, t);
	cr_expect(json_is_string(json_object_get(row, "diagnosis")));
	if (t / period >= 10) {
		cr_expect(fabs(rl_test_json_num(row, "gflops") -
			       rl_test_json_num(row, "flops") / t / 1e9) <
				  1e-6 * rl_test_json_num(row, "gflops"),
			  "gflops %g", rl_test_json_num(row, "gflops"));
		cr_expect(fabs(rl_test_json_num(row, "roof_pct") -
			       rl_test_json_num(row, "gflops") / rl_test_json_num(row, "roof_gflops") * 100) <
				  1e-6 * rl_test_json_num(row, "roof_pct"),
			  "roof_pct %g, gflops %g, roof %g", rl_test_json_num(row, "roof_pct"),
			  rl_test_json_num(row, "gflops"), rl_test_json_num(row, "roof_gflops"));
		cr_expect_str_eq(json_string_value(json_object_get(row, "bound")),
				 "memory");
	} else {
		/* too few samples: no bare rate, its interval said */
		cr_expect(isnan(rl_test_json_num(row, "roof_pct")));
		cr_expect(isnan(rl_test_json_num(row, "gflops")));
		cr_expect(strstr(json_string_value(json_object_get(
				     row, "diagnosis")), "fewer than 10"));
		cr_expect(strstr(json_string_value(json_object_get(
				     row, "diagnosis")), " GFLOP/s, so no single rate"));
	}
	/* the hot rule's whole is every sample: what no loop holds is
	 * shown, in the table, report.json and report.csv alike */
	{
		char *lt = e2e_file(dir, "out/loops.json"), *csv, want[64];
		json_error_t je;
		json_t *lj = json_loads(lt, 0, &je), *o, *part;
		json_t *lo = json_object_get(rep, "loops");
		uint64_t all, in_loops = 0, outside, other;
		const char *line;
		size_t i;

		cr_assert_not_null(lj, "%s", je.text);
		all = (uint64_t)json_integer_value(json_object_get(
			json_object_get(lj, "sampling"), "samples"));
		json_array_foreach(json_object_get(lj, "loops"), i, o)
			in_loops += (uint64_t)json_integer_value(
				json_object_get(o, "samples_self"));
		part = json_object_get(lo, "outside_loops");
		outside = (uint64_t)json_integer_value(json_object_get(part,
								       "samples"));
		other = (uint64_t)json_integer_value(json_object_get(
			json_object_get(lo, "other_code"), "samples"));
		cr_expect_eq(json_integer_value(json_object_get(lo, "samples")),
			     (json_int_t)all);
		cr_expect_eq(in_loops + outside + other, all,
			     "%llu in loops + %llu + %llu of %llu",
			     (unsigned long long)in_loops,
			     (unsigned long long)outside,
			     (unsigned long long)other, (unsigned long long)all);
		cr_expect(strstr(json_string_value(json_object_get(lo, "rule")),
				  "all its samples"));
		snprintf(want, sizeof want, "loops' time: of %llu samples",
			 (unsigned long long)all);
		cr_expect(strstr(r.out, want), "table: %s", r.out);
		csv = e2e_file(dir, "out/report.csv");
		line = e2e_csv_row(csv, "(other code)");
		cr_expect(line && strncmp(line, "(other code),,,", 15) == 0,
			  "%s", csv);
		if (line)
			cr_expect(fabs(atof(line + 15) - (double)other * period) <
					  1e-9, "%.40s: %llu samples", line,
				  (unsigned long long)other);
		cr_expect(e2e_csv_row(csv, "(outside loops)"), "%s", csv);
		free(csv);
		json_decref(lj);
		free(lt);
	}
	svg = e2e_file(dir, "out/roofline.svg");
	cr_expect(strstr(svg, "class=\"region loop\""), "no loop point");
	cr_expect(strstr(svg, "class=\"loop-mark\""), "no loop mark");
	cr_expect(strstr(svg, name), "the chart does not name %s", name);
	cr_expect(strstr(svg, outer), "the chart does not name %s", outer);
	free(svg);
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* rlprof diff and rlprof check on loops: a loop's identity is its source
 * line and function, so the same loop doing twice the flops in a second
 * run (stream.c "slow": 4 flops per element on the same bytes) is one
 * row of the diff, in both runs, its AI up 100%; check finds it by that
 * name. Counted without time (--sim-timing sim): the counts are exact. */
Test(e2e_loops, diff_and_check_name_a_changed_loop, .timeout = 300)
{
	const char *fast[] = {E2E_PROG("loops-stream"), "20", NULL};
	const char *slow[] = {E2E_PROG("loops-stream"), "20", "slow", NULL};
	char *da = e2e_tmpdir(), *db = e2e_tmpdir(), name[256], a[512], b[512];
	struct e2e_result ra, rb, rd, rc;
	json_t *ja, *jb, *diff, *o, *found = NULL;
	json_error_t je;
	size_t i;

	need_sim();
	ja = run_loops(da, "--sim-timing=sim", fast, &ra);
	jb = run_loops(db, "--sim-timing=sim", slow, &rb);
	loop_row(ja, STREAM_SRC, "stream.triad", "main", "<program>", name,
		 sizeof name);
	cr_expect_eq(rl_test_json_num(rl_test_json_region(jb, name), "flops"),
		     2 * rl_test_json_num(rl_test_json_region(ja, name), "flops"));
	snprintf(a, sizeof a, "%s/out", da);
	snprintf(b, sizeof b, "%s/out", db);
	{
		const char *argv[] = {E2E_RLPROF, "diff", "-f", "json", a, b,
				      NULL};
		rd = e2e_run(argv);
	}
	cr_assert_eq(rd.status, 0, "%s", rd.err);
	diff = json_loads(rd.out, 0, &je);
	cr_assert_not_null(diff, "%s: %s", je.text, rd.out);
	json_array_foreach(json_object_get(diff, "regions"), i, o) {
		const char *r = json_string_value(json_object_get(o, "region"));
		if (r && strcmp(r, name) == 0)
			found = o;
	}
	cr_assert_not_null(found, "diff does not name %s: %s", name, rd.out);
	cr_expect_str_eq(json_string_value(json_object_get(found, "presence")),
			 "both");
	cr_expect(fabs(rl_test_json_num(found, "ai_change_pct") - 100) < 1e-6, "ai %g%%",
		  rl_test_json_num(found, "ai_change_pct"));
	{
		const char *argv[] = {E2E_RLPROF, "check", b, "--require-region", name,
				      NULL};
		rc = e2e_run(argv);
	}
	cr_expect_eq(rc.status, 0, "check --require '%s': %s%s", name, rc.out,
		     rc.err);
	json_decref(ja);
	json_decref(jb);
	json_decref(diff);
	e2e_free(&rd);
	e2e_free(&rc);
	e2e_cleanup(&rb, db);
	e2e_cleanup(&ra, da);
}

/* The triad loop's row in rep: n_threads rows in "threads", each of
 * per_thread flops, from pids (distinct processes) or one process. */
static void expect_split(json_t *rep, const char *name, int n_threads,
			 double per_thread, int distinct_pids)
{
	json_t *row = rl_test_json_region(rep, name), *t;
	long pid0 = -1;
	size_t i;

	cr_assert_not_null(row, "no row '%s'", name);
	cr_expect_eq(json_integer_value(json_object_get(row, "n_threads")),
		     n_threads);
	cr_expect_eq(rl_test_json_num(row, "flops"), n_threads * per_thread, "%g",
		     rl_test_json_num(row, "flops"));
	cr_assert_eq(json_array_size(json_object_get(row, "threads")),
		     (size_t)n_threads);
	json_array_foreach(json_object_get(row, "threads"), i, t) {
		long pid = (long)json_integer_value(json_object_get(t, "pid"));
		cr_expect_eq(rl_test_json_num(t, "flops"), per_thread, "thread %zu: %g", i,
			     rl_test_json_num(t, "flops"));
		if (i == 0)
			pid0 = pid;
		else if (distinct_pids)
			cr_expect_neq(pid, pid0, "one process for two ranks");
		else
			cr_expect_eq(pid, pid0, "two processes for threads");
	}
}

/* Loops per thread: a 2-thread OpenMP triad (no annotation) counts
 * N x passes flops in each thread, one row of 2 threads, merged as a
 * region is. */
Test(e2e_loops, openmp_loop_per_thread, .timeout = 300)
{
	const char *prog[] = {E2E_PROG("loops-omp"), "30", NULL};
	char *dir = e2e_tmpdir(), name[256];
	struct e2e_result r;
	json_t *rep;

	need_sim();
	if (access(prog[0], X_OK) != 0)
		cr_skip_test("the compiler has no OpenMP: %s not built", prog[0]);
	rep = run_loops(dir, "--sim-timing=sim", prog, &r);
	/* the loop GCC outlined: named by its function (its line is the
	 * outlined body's, not always the for statement's) */
	name[0] = '\0';
	{
		json_t *o, *loop;
		size_t i;
		json_array_foreach(json_object_get(rep, "regions"), i, o)
			if ((loop = json_object_get(o, "loop")) &&
			    strcmp(json_string_value(json_object_get(
					   loop, "function")),
				   "main._omp_fn.0") == 0) {
				snprintf(name, sizeof name, "%s",
					 json_string_value(json_object_get(
						 o, "region")));
				cr_expect_str_eq(json_string_value(
					json_object_get(loop, "parent")),
					"<program>");
			}
	}
	cr_assert(name[0], "no loop of main._omp_fn.0 is a row");
	expect_split(rep, name, 2, (double)STREAM_N * 30, 0);
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* An OpenMP team inside an annotated region: the main thread's "triad"
 * (process scope: its counts hold both threads' work) is the region of
 * the triad loop on both threads, the worker's too, as for the region's
 * counts; N x passes flops in each thread, 2 N x passes merged. */
Test(e2e_loops, openmp_loop_in_region_is_its_child, .timeout = 300)
{
	const char *prog[] = {E2E_PROG("loops-omp-region"), "30", NULL};
	char *dir = e2e_tmpdir(), name[256] = "", *raw;
	struct e2e_result r;
	json_t *rep, *o, *loop;
	size_t i;

	need_sim();
	if (access(prog[0], X_OK) != 0)
		cr_skip_test("the compiler has no OpenMP: %s not built", prog[0]);
	rep = run_loops(dir, "--sim-timing=sim", prog, &r);
	json_array_foreach(json_object_get(rep, "regions"), i, o)
		if ((loop = json_object_get(o, "loop")) &&
		    strcmp(json_string_value(json_object_get(loop, "function")),
			   "main._omp_fn.0") == 0) {
			snprintf(name, sizeof name, "%s", json_string_value(
					 json_object_get(o, "region")));
			cr_expect_str_eq(json_string_value(json_object_get(
						 loop, "parent")), "triad");
		}
	cr_assert(name[0], "no loop of main._omp_fn.0 is a row");
	expect_split(rep, name, 2, (double)STREAM_N * 30, 0);
	/* the region's own counts: the same work, both threads */
	cr_expect(rl_test_json_num(rl_test_json_region(rep, "triad"), "flops") >= 2.0 * STREAM_N * 30,
		  "triad: %g flops", rl_test_json_num(rl_test_json_region(rep, "triad"), "flops"));
	/* every thread's counts of the loop are the region's (none
	 * <program>'s: "<program>, triad" were the worker's not), the
	 * init loop before the region <program>'s */
	raw = e2e_file(dir, "out/loops.json");
	{
		json_error_t je;
		json_t *lj = json_loads(raw, 0, &je);
		int seen = 0;
		cr_assert_not_null(lj, "%s", je.text);
		json_array_foreach(json_object_get(lj, "loops"), i, o) {
			const char *f = json_string_value(json_object_get(o, "function"));
			const char *in = json_string_value(json_object_get(o, "region"));
			if (strcmp(f, "main._omp_fn.0") != 0)
				continue;
			seen++;
			cr_expect(in && strcmp(in, "triad") == 0, "%s: %s",
				  json_string_value(json_object_get(o, "label")),
				  in ? in : "(none)");
		}
		cr_expect(seen > 0);
		json_decref(lj);
	}
	free(raw);
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* Time per thread: sampled in the native run, both OpenMP threads' rows
 * of the triad loop have a time (samples of each thread, by its tid)
 * beside their N x passes flops each. */
Test(e2e_loops, openmp_loop_time_per_thread, .timeout = 300)
{
	const char *prog[] = {E2E_PROG("loops-omp"), "3000", NULL};
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *rep, *o, *row = NULL, *t;
	size_t i;

	need_sim();
	if (access(prog[0], X_OK) != 0)
		cr_skip_test("the compiler has no OpenMP: %s not built", prog[0]);
	/* libgomp's threads spinning at its barriers on a loaded machine
	 * would take most samples, leaving the loop under 1% of them */
	cr_assert_eq(setenv("OMP_WAIT_POLICY", "passive", 1), 0);
	rep = run_loops(dir, NULL, prog, &r);
	json_array_foreach(json_object_get(rep, "regions"), i, o) {
		json_t *loop = json_object_get(o, "loop");
		if (loop && strcmp(json_string_value(json_object_get(
					   loop, "function")),
				   "main._omp_fn.0") == 0)
			row = o;
	}
	cr_assert_not_null(row, "no loop of main._omp_fn.0 is a row");
	if (isnan(rl_test_json_num(row, "time_s")))
		cr_skip_test("not sampled here: %s",
			     json_string_value(json_object_get(row, "method")));
	cr_assert_eq(json_array_size(json_object_get(row, "threads")), 2);
	json_array_foreach(json_object_get(row, "threads"), i, t) {
		cr_expect_eq(rl_test_json_num(t, "flops"), (double)STREAM_N * 3000,
			     "thread %zu: %g flops", i, rl_test_json_num(t, "flops"));
		cr_expect(rl_test_json_num(t, "time_s") > 0, "thread %zu has no time: %s",
			  i, json_dumps(t, 0));
	}
	{ /* the loops table gives the rate the report's row has (over its
	   * longest thread's time), not the threads' summed time's */
		char name[256], want[32], *line, *tok[16];
		size_t n = 0;
		snprintf(name, sizeof name, "\n  %s ", json_string_value(
				 json_object_get(row, "region")));
		line = strstr(r.out, name);
		cr_assert_not_null(line, "no '%s' in: %s", name + 1, r.out);
		line = strndup(line + 1, strcspn(line + 1, "\n"));
		for (char *p = strtok(line, " "); p && n < 16; p = strtok(NULL, " "))
			tok[n++] = p;
		cr_assert_geq(n, 3);
		if (isnan(rl_test_json_num(row, "gflops")))
			/* under 10 samples: its interval, lo-hi or >=lo */
			cr_expect(strchr(tok[n - 3] + 1, '-') ||
					  strncmp(tok[n - 3], ">=", 2) == 0,
				  "%s", r.out);
		else {
			snprintf(want, sizeof want, "%.3g",
				 rl_test_json_num(row, "gflops"));
			cr_expect_str_eq(tok[n - 3], want, "%s", r.out);
		}
		free(line);
	}
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* The MPI tests' common start: the simulator and mpirun (else a skip), a
 * cached model in dir (env names it for the ranks) and out, the report's
 * folder. Returns mpirun. */
static const char *mpi_setup(const char *app, const char *dir, char *env,
			     size_t envlen, char *out, size_t outlen)
{
	const char *mpirun;

	need_sim();
	mpirun = e2e_need_mpirun(app);
	cache_model(dir, env, envlen);
	snprintf(out, outlen, "%s/out", dir);
	return mpirun;
}

/* The merged row of the MPI triad loop in out's report (its JSON in
 * *rep, its name in name). */
static json_t *mpi_triad_row(const char *out, json_t **rep, char *name,
			     size_t len)
{
	*rep = rl_test_json_report(out);
	return loop_row(*rep, RL_SOURCE_DIR "/tests/programs/loops/mpi_loops.c",
			"mpi.triad", "main", "<program>", name, len);
}

/* Loops per rank: `mpirun -np 2 rlprof run --loops` on an unannotated
 * MPI triad: each rank's loop counts 2 N x passes flops, the merged row
 * the sum over its 2 ranks. */
Test(e2e_loops, mpi_loop_per_rank, .timeout = 300)
{
	const char *app = E2E_PROG("loops-mpi");
	const char *mpirun;
	char *dir = e2e_tmpdir(), out[512], env[600], name[256];
	const char *envv[] = {env, "RLPROF_MPI_WAIT=120", NULL};
	struct e2e_result r;
	json_t *rep, *row;

	mpirun = mpi_setup(app, dir, env, sizeof env, out, sizeof out);
	{
		const char *cmd[] = {E2E_RLPROF, "run", "-q", "-b", "sim",
				     "--sim-caches", "4K:4,16K:4,64K:4",
				     "--loops", "-o", out, app, "20", NULL};
		r = e2e_run_mpi(mpirun, 2, cmd, envv);
	}
	cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
	row = mpi_triad_row(out, &rep, name, sizeof name);
	expect_split(rep, name, 2, 2.0 * STREAM_N * 20, 1);
	cr_expect_eq(json_integer_value(json_object_get(
			     rl_test_json_mpi_region(rep, name), "ranks")), 2);
	/* no time, and why: the ranks ran under the simulator only */
	cr_expect(strstr(json_string_value(json_object_get(row, "method")),
			 "under mpirun each rank runs once"),
		  "%s", json_string_value(json_object_get(row, "method")));
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* The launcher form `rlprof run -b sim --loops -- mpirun -np 2 ./app`:
 * each rank's rlprof finds and counts its loops (the simulated job) and
 * samples them (the native job, whose samples the simulated rank of the
 * same number takes); the report merges the ranks as the per-rank form
 * does: each rank's triad counts 2 N x passes flops, both ranks ran it. */
Test(e2e_loops, mpi_launcher_form_loops_per_rank, .timeout = 300)
{
	const char *app = E2E_PROG("loops-mpi");
	const char *mpirun;
	char *dir = e2e_tmpdir(), out[512], env[600], name[256], path[700];
	char *text;
	const char *envv[] = {env, "RLPROF_MPI_WAIT=120", NULL};
	struct e2e_result r;
	json_error_t je;
	json_t *rep, *row, *agg;

	mpirun = mpi_setup(app, dir, env, sizeof env, out, sizeof out);
	{
		const char *rlprof[] = {E2E_RLPROF, "run", "-q", "-b", "sim",
					"--sim-caches", "4K:4,16K:4,64K:4",
					"--loops", "-o", out, NULL};
		const char *prog[] = {app, "200", NULL};
		r = e2e_run_mpi_launcher(rlprof, mpirun, 2, prog, envv);
	}
	cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
	cr_expect(!strstr(r.err, "--loops"), "a warning: %s", r.err);
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/rank-%d/loops.json", out, k);
		cr_expect(access(path, F_OK) == 0, "no %s", path);
	}
	snprintf(path, sizeof path, "%s/loops.json", out);
	cr_expect(access(path, F_OK) != 0, "the launcher counted loops");
	row = mpi_triad_row(out, &rep, name, sizeof name);
	expect_split(rep, name, 2, 2.0 * STREAM_N * 200, 1);
	agg = rl_test_json_mpi_region(rep, name);
	cr_assert_not_null(agg, "no ranks' row of %s", name);
	cr_expect_eq(json_integer_value(json_object_get(agg, "ranks")), 2);
	cr_expect_eq(rl_test_json_num(agg, "flops_sum"), 2 * 2.0 * STREAM_N * 200);
	/* each simulated rank took its native rank's samples (or says why
	 * the native job has none: never that there was no native run) */
	for (int k = 0; k < 2; k++) {
		json_t *lj;
		snprintf(path, sizeof path, "rank-%d/loops.json", k);
		text = e2e_file(out, path);
		lj = json_loads(text, 0, &je);
		free(text);
		cr_assert_not_null(lj, "%s", je.text);
		if (json_is_string(json_object_get(lj, "sampling_missing")))
			cr_expect(strstr(json_string_value(json_object_get(
					 lj, "sampling_missing")),
					 "the native timing job"),
				  "rank %d: %s", k, json_string_value(
					  json_object_get(lj, "sampling_missing")));
		else
			cr_expect(json_integer_value(json_object_get(
					  json_object_get(lj, "sampling"),
					  "samples")) > 0, "rank %d", k);
		if (k == 0 && json_is_object(json_object_get(lj, "sampling")))
			cr_expect(rl_test_json_num(row, "time_s") > 0, "%s",
				  json_string_value(json_object_get(row, "method")));
		json_decref(lj);
	}
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* The launcher form with -b time: no counts, each rank's loops sampled
 * (its rlprof keeps the samples too), merged over the ranks; the
 * launcher says once that loops get their time alone. */
Test(e2e_loops, mpi_launcher_form_time_alone, .timeout = 300)
{
	const char *app = E2E_PROG("loops-mpi");
	const char *mpirun;
	char *dir = e2e_tmpdir(), out[512], env[600], name[256], *lj;
	const char *envv[] = {env, "RLPROF_MPI_WAIT=120", NULL};
	struct e2e_result r;
	json_t *rep, *row;
	size_t i;

	mpirun = mpi_setup(app, dir, env, sizeof env, out, sizeof out);
	{
		const char *rlprof[] = {E2E_RLPROF, "run", "-q", "-b", "time",
					"--loops", "-o", out, NULL};
		const char *prog[] = {app, "2000", NULL};
		r = e2e_run_mpi_launcher(rlprof, mpirun, 2, prog, envv);
	}
	cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
	{
		const char *w = "with backend 'time' loops get their time alone";
		const char *at = strstr(r.err, w);
		cr_expect(at && !strstr(at + 1, w), "said once? %s", r.err);
	}
	lj = e2e_file(out, "rank-0/loops.json");
	if (strstr(lj, "\"sampling_missing\"")) {
		free(lj);
		e2e_cleanup(&r, dir);
		cr_skip_test("no sampling here (rank-0/loops.json says why)");
	}
	free(lj);
	row = mpi_triad_row(out, &rep, name, sizeof name);
	cr_expect(rl_test_json_num(row, "time_s") > 0, "%s", json_string_value(
			  json_object_get(row, "method")));
	cr_expect(isnan(rl_test_json_num(row, "flops")), "counted without sim");
	cr_expect_eq(json_integer_value(json_object_get(
			     rl_test_json_mpi_region(rep, name), "ranks")), 2);
	{
		json_t *t;
		cr_expect_eq(json_array_size(json_object_get(row, "threads")), 2);
		json_array_foreach(json_object_get(row, "threads"), i, t)
			cr_expect(rl_test_json_num(t, "time_s") > 0,
				  "rank thread %zu has no time", i);
	}
	json_decref(rep);
	e2e_cleanup(&r, dir);
}
