/* rlprof run --loops: a loop's total with the functions it calls (issue
 * 39, Advisor's "total"). tests/programs/loops/calls.c's steps loop does
 * no flop itself: every flop of the run is in the functions its body
 * calls (kernel's loop, step's straight code, kernel again two calls
 * deep). The simulator follows the calls made from inside a loop and
 * charges what they count to the loop's with_calls, so the steps loop
 * totals all of them: 100 steps x (3 x 2 x 1000 + 2) flops. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/loops.h"
#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define STEPS 100
#define N 1000
#define STEP_FLOPS (3.0 * 2 * N + 2)

static double flops_of(json_t *o, const char *set)
{
	return rl_test_json_num(json_object_get(o, set), "flops");
}

/* rlprof run -b sim --sim-timing sim OPT -o dir/out prog 100 (OPT:
 * --loop-calls, or --loops; env: NULL or the environment to add);
 * loops.json parsed, the steps loop (main's) in *steps and kernel's in
 * *kernel. */
static json_t *run_opt(const char *opt, const char *prog,
		       const char *const *env, const char *dir,
		       struct e2e_result *r, json_t **steps, json_t **kernel)
{
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "sim",
			      "--sim-timing", "sim", opt, "-o", NULL,
			      prog, "100", NULL};
	char out[512], *text;
	json_error_t je;
	json_t *j, *o;
	size_t i;

	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev");
	sim_need();
	e2e_need(prog);
	snprintf(out, sizeof out, "%s/out", dir);
	argv[9] = out;
	*r = e2e_run_in(NULL, argv, env);
	cr_assert_eq(r->status, 0, "%s\n%s", r->out, r->err);
	text = e2e_file(out, "loops.json");
	j = json_loads(text, 0, &je);
	cr_assert_not_null(j, "loops.json: %s", je.text);
	*steps = *kernel = NULL;
	json_array_foreach(json_object_get(j, "loops"), i, o) {
		const char *fn = json_string_value(json_object_get(o, "function"));
		if (strcmp(fn, "main") == 0)
			*steps = o;
		else if (strcmp(fn, "kernel") == 0 || strstr(fn, "kernel._omp"))
			*kernel = o;
	}
	cr_assert(*steps && *kernel, "%s", text);
	free(text);
	return j;
}

static json_t *run_calls(const char *prog, const char *const *env,
			 const char *dir, struct e2e_result *r, json_t **steps,
			 json_t **kernel)
{
	return run_opt("--loop-calls", prog, env, dir, r, steps, kernel);
}

/* Totals with the calls only where asked (--loop-calls: the simulator
 * then ends its blocks at calls, which costs): --loops alone writes no
 * with_calls and prints no such section, and counts each loop as
 * before. */
Test(e2e_loop_calls, totals_with_calls_only_where_asked, .timeout = 240)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *steps, *kernel;
	json_t *j = run_opt("--loops", E2E_PROG("loops-calls"), NULL, dir, &r,
			    &steps, &kernel);

	cr_expect_null(json_object_get(steps, "with_calls"));
	cr_expect_null(json_object_get(kernel, "with_calls"));
	cr_expect_eq(flops_of(steps, "inclusive"), 0);
	cr_expect_eq(flops_of(kernel, "inclusive"), STEPS * 3.0 * 2 * N,
		     "%g", flops_of(kernel, "inclusive"));
	cr_expect_null(strstr(r.out, "with the functions they call"), "%s",
		       r.out);
	json_decref(j);
	e2e_cleanup(&r, dir);
}

Test(e2e_loop_calls, a_loop_calling_all_the_work_totals_it, .timeout = 240)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *steps, *kernel;
	json_t *j = run_calls(E2E_PROG("loops-calls"), NULL, dir, &r, &steps,
			      &kernel);
	const char *line;

	/* the loop itself: no flop; with its calls: every flop they did */
	cr_expect_eq(flops_of(steps, "inclusive"), 0);
	cr_expect_eq(flops_of(steps, "with_calls"), STEPS * STEP_FLOPS, "%g",
		     flops_of(steps, "with_calls"));
	/* kernel's loop calls nothing: its total is its inclusive counts */
	cr_expect_eq(flops_of(kernel, "with_calls"), flops_of(kernel, "inclusive"));
	cr_expect_eq(flops_of(kernel, "inclusive"), STEPS * 3.0 * 2 * N);
	/* ~100% of the program's flops (main's one add after the loop is
	 * the rest) */
	cr_expect_geq(flops_of(steps, "with_calls") /
			      flops_of(j, "total"), 0.999);
	/* the table says so */
	line = strstr(r.out, "\nloops with the functions they call");
	cr_assert_not_null(line, "%s", r.out);
	line = strstr(line, "(main)");
	cr_assert_not_null(line, "%s", r.out);
	cr_expect(strstr(line, " 100.0% ") &&
			  strstr(line, " 100.0% ") < strchr(line, '\n'),
		  "%s", r.out);
	json_decref(j);
	e2e_cleanup(&r, dir);
}

/* The same program with its kernel an OpenMP loop on 2 threads: the
 * worker's share of each kernel runs on its own stack while the first
 * thread waits inside GOMP_parallel, called from the steps loop's
 * callees, and is in the steps loop's total all the same. */
Test(e2e_loop_calls, an_openmp_team_works_inside_the_call, .timeout = 240)
{
	const char *env[] = {"OMP_NUM_THREADS=2", NULL};
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *steps, *kernel;
	json_t *j = run_calls(E2E_PROG("loops-calls-omp"), env, dir, &r,
			      &steps, &kernel);

	cr_expect_eq(flops_of(steps, "with_calls"), STEPS * STEP_FLOPS, "%g",
		     flops_of(steps, "with_calls"));
	cr_expect_eq(flops_of(kernel, "inclusive"), STEPS * 3.0 * 2 * N);
	json_decref(j);
	e2e_cleanup(&r, dir);
}
