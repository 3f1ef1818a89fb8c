/* rlprof run --loops: the sampling period adapts to the program's length
 * (issue 39: rates only where samples support them). A program of 10 ms
 * is sampled every 0.1 ms of CPU time and its hot loop timed; a program
 * past 0.1 s of CPU time is given at 1 ms, its time still right; a loop
 * of fewer than 10 samples gets no bare rate in the loops table, only
 * the interval its time allows. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run/loop_samples.h"
#include "inspect/loops.h"
#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define FINE_S (RL_LOOP_SAMPLE_FINE_NS * 1e-9)
#define COARSE_S (FINE_S * RL_LOOP_SAMPLE_COARSEN)

/* rlprof run -q -b BACKEND --loops -o dir/out prog arg; loops.json
 * parsed, or the test skipped where this machine cannot sample. */
static json_t *sampled(const char *dir, const char *backend,
		       const char *prog, const char *arg,
		       struct e2e_result *r)
{
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", backend,
			      "--repeat", "1", "--loops", "-o", NULL, prog,
			      arg, NULL};
	char out[512], *text;
	json_error_t je;
	json_t *j, *why;

	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev");
	e2e_need(prog);
	snprintf(out, sizeof out, "%s/out", dir);
	argv[9] = out;
	*r = e2e_run(argv);
	cr_assert_eq(r->status, 0, "%s\n%s", r->out, r->err);
	text = e2e_file(out, "loops.json");
	j = json_loads(text, 0, &je);
	cr_assert_not_null(j, "loops.json: %s", je.text);
	free(text);
	why = json_object_get(j, "sampling_missing");
	if (json_is_string(why) &&
	    strstr(json_string_value(why), "perf_event_paranoid"))
		cr_skip_test("no sampling here: %s", json_string_value(why));
	cr_assert(json_is_object(json_object_get(j, "sampling")),
		  "not sampled: %s", r->out);
	return j;
}

/* The loop of loops.json whose name holds part. */
static json_t *loop_named(json_t *j, const char *part)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(j, "loops"), i, o)
		if (strstr(json_string_value(json_object_get(o, "name")), part))
			return o;
	cr_assert_fail("no loop named %s", part);
	return NULL;
}

/* loops-spin 10: about 10 ms of CPU time, nearly all in spin.c's inner
 * loop. At the old fixed 0.25 ms it got about 35 samples; at the fine
 * period it gets about 100, and its time with its error. */
Test(e2e_loop_period, a_10_ms_program_gets_its_hot_loop_timed, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *j = sampled(dir, "time", E2E_PROG("loops-spin"), "10", &r);
	json_t *samp = json_object_get(j, "sampling");
	json_t *inner = loop_named(j, "spin.c:12");
	double n = (double)json_integer_value(json_object_get(inner, "samples"));
	double t = rl_test_json_num(inner, "time_s");

	cr_expect_lt(rl_test_json_num(samp, "cpu_s"), 0.1,
		     "the program ran past the fine stage: %s", r.out);
	cr_expect(fabs(rl_test_json_num(samp, "period_s") - FINE_S) < 1e-12,
		  "period %g s", rl_test_json_num(samp, "period_s"));
	cr_expect_geq(n, 10, "%g samples in the hot loop: %s", n, r.out);
	cr_expect(json_is_true(json_object_get(inner, "hot")));
	cr_expect(fabs(t - n * FINE_S) < 1e-12, "time %g for %g samples", t, n);
	cr_expect(fabs(rl_test_json_num(inner, "time_error_s") -
		       sqrt(n) * FINE_S) < 1e-12);
	json_decref(j);
	e2e_cleanup(&r, dir);
}

/* loops-spin 300: 0.2-0.35 s of CPU time, past the fine stage's 0.1 s:
 * every sample is given at the coarse period (the fine stage thinned to
 * it), so the samples stay bounded by the CPU time over that period, and
 * the loop's time still adds up to the program's CPU time. */
Test(e2e_loop_period, a_long_program_coarsens_and_keeps_its_time,
     .timeout = 120)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *j = sampled(dir, "time", E2E_PROG("loops-spin"), "300", &r);
	json_t *samp = json_object_get(j, "sampling");
	json_t *inner = loop_named(j, "spin.c:12");
	double cpu = rl_test_json_num(samp, "cpu_s");
	double all = (double)json_integer_value(json_object_get(samp, "samples"));
	double t = rl_test_json_num(inner, "time_s");

	cr_assert_gt(cpu, 0.15, "the program ran %g s of CPU time only", cpu);
	cr_expect(fabs(rl_test_json_num(samp, "period_s") - COARSE_S) < 1e-12,
		  "period %g s after %g s of CPU time",
		  rl_test_json_num(samp, "period_s"), cpu);
	cr_expect_leq(all, cpu / COARSE_S + 5, "%g samples for %g s", all, cpu);
	/* the loop holds nearly all of it: within 10% and 4 standard errors
	 * of the program's CPU time (which counts the kernel too) */
	cr_expect(t > 0.9 * cpu - 4 * sqrt(t / COARSE_S) * COARSE_S &&
			  t < cpu * 1.02,
		  "the loop's %g s against %g s of CPU time", t, cpu);
	json_decref(j);
	e2e_cleanup(&r, dir);
}

/* The GFLOP/s cell (third from the end) of the loops table's row for
 * name, NULL when the row is not there. */
static char *rate_cell(const char *out, const char *name, char *buf,
		       size_t len)
{
	const char *p = strstr(out, "\nloops ("), *end, *q;
	int cols = 0;

	/* (the report's table above names the loops too) */
	if (!p || !(p = strstr(p, name)))
		return NULL;
	end = strchr(p, '\n');
	/* a name too long for its column has its figures on the next line */
	if (end && end - p <= (long)strlen(name) + 1)
		end = strchr(end + 1, '\n');
	if (!end)
		return NULL;
	for (q = end; q > p && cols < 3; q--)
		if (q[-1] == ' ' && q[0] != ' ')
			cols++;
	{
		size_t n = strcspn(q + 1, " \n");
		snprintf(buf, len, "%.*s", (int)n, q + 1);
	}
	return buf;
}

/* loops-shared 100 under the simulator: its nest takes most of the run,
 * twice's, dot's and axpy's loops a few samples each. A row under 10
 * samples of its longest thread shows its rate only as an interval
 * (lo-hi, or >=lo), never a single figure; a row of 10 or more a single
 * figure. */
Test(e2e_loop_period, no_bare_rate_under_10_samples_in_the_table,
     .timeout = 300)
{
	char *dir = e2e_tmpdir(), cell[64];
	struct e2e_result r;
	json_t *j, *o;
	size_t i;
	int few = 0;

	sim_need();
	j = sampled(dir, "sim", E2E_PROG("loops-shared"), "100", &r);
	json_array_foreach(json_object_get(j, "loops"), i, o) {
		json_t *e;
		size_t k;
		long most = 0;
		const char *name = json_string_value(json_object_get(o, "name"));
		if (!json_is_true(json_object_get(o, "hot")))
			continue;
		json_array_foreach(json_object_get(o, "per"), k, e)
			if (json_integer_value(json_object_get(e, "samples")) > most)
				most = (long)json_integer_value(
					json_object_get(e, "samples"));
		cr_assert_not_null(rate_cell(r.out, name, cell, sizeof cell),
				   "no row for %s: %s", name, r.out);
		if (most >= 10) {
			cr_expect(strspn(cell, "0123456789.e+") == strlen(cell),
				  "%s: %ld samples, rate '%s'", name, most, cell);
			continue;
		}
		few++;
		cr_expect(strcmp(cell, "-") == 0 || strncmp(cell, ">=", 2) == 0 ||
				  strchr(cell + 1, '-'),
			  "%s: %ld samples, a bare rate '%s': %s", name, most,
			  cell, r.out);
	}
	cr_expect(strstr(r.out, "under 10 samples there only the interval"),
		  "%s", r.out);
	json_decref(j);
	e2e_cleanup(&r, dir);
	if (!few)
		cr_skip_test("every hot loop had 10 samples or more this time: "
			     "the interval was not shown");
}
