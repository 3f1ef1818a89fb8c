/*
 * Process scope end to end (profiler/runtime/rt_scope.h): tests/omp/
 * omp_triad.c has region "outer" on the master thread around a 2-thread
 * `parallel for` triad of N elements, and region "inner" entered by each
 * thread inside the parallel region. "outer" counts the work of both
 * threads; "inner" keeps one row per thread; the two nest. Two calls of
 * "outer" cover both ways a call begins: with one thread (the runtime
 * reads nothing more at begin) and with libgomp's pool running.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define OMP_APP RL_BUILD_DIR "/tests/omp/omp_triad"
#define N_ELEMS 40000
#define N_STR "40000"

static const char *const omp_env[] = {"OMP_WAIT_POLICY=passive", NULL};

static void need_omp(void)
{
	e2e_need(E2E_RLPROF);
	if (access(OMP_APP, X_OK) != 0)
		cr_skip_test("'%s' was not built (no OpenMP in the compiler)",
			     OMP_APP);
}

/* CALLS of "outer": the first begins with one thread (libgomp starts its
 * pool inside it), the others with the pool there */
static struct e2e_result run(const char *out, const char *backend,
			     const char *calls)
{
	/* --sim-caches: with --no-probe there may be no machine model,
	 * which -b sim then requires (the other backends ignore it) */
	const char *argv[] = {E2E_RLPROF, "run",	 "-q", "--no-probe",
			      "-b",	  backend,	 "--sim-caches",
			      SIM_TEST_CACHES,	 "-o", out,
			      OMP_APP,	  N_STR,	 calls, NULL};
	return e2e_run_in(NULL, argv, omp_env);
}

static json_t *load(const char *path)
{
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je);
	cr_assert_not_null(j, "'%s': %s", path, je.text);
	return j;
}

/* outer: process scope, 2 threads ran; inner: thread scope, 2 rows */
static json_t *check_scopes(const char *out)
{
	char path[600];
	json_t *rep, *outer, *inner;

	snprintf(path, sizeof path, "%s/report.json", out);
	rep = load(path);
	outer = rl_test_json_need_region(rep, "outer");
	inner = rl_test_json_need_region(rep, "inner");
	cr_assert_str_eq(json_string_value(json_object_get(outer, "scope")),
			 "process");
	cr_assert_eq(rl_test_json_need_num(outer, "threads_ran"), 2);
	cr_assert_eq(rl_test_json_need_num(outer, "n_threads"), 2, "the table shows 2 threads");
	cr_assert_str_eq(json_string_value(json_object_get(inner, "scope")),
			 "thread");
	cr_assert_eq(json_array_size(json_object_get(inner, "threads")), 2,
		     "inner keeps one row per thread");
	return rep;
}

Test(e2e_omp, sim_outer_counts_every_thread_exactly, .timeout = 300)
{
	need_omp();
	sim_need();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = run(out, "sim", "2");
	json_t *rep, *inner, *th, *e;
	size_t i;

	cr_assert_eq(r.status, 0, "%s", r.err);
	rep = check_scopes(out);
	/* counted = declared, exactly: both threads' flops in outer */
	cr_assert_eq(rl_test_json_need_num(rl_test_json_need_region(rep, "outer"), "flops"), 4.0 * N_ELEMS);
	cr_assert_eq(rl_test_json_need_num(rl_test_json_need_region(rep, "outer"), "flops_expected"), 4.0 * N_ELEMS);
	cr_assert_str_eq(json_string_value(json_object_get(
				 rl_test_json_need_region(rep, "outer"), "counted_threads")),
			 "all");
	inner = rl_test_json_need_region(rep, "inner");
	cr_assert_eq(rl_test_json_need_num(inner, "flops"), 4.0 * N_ELEMS);
	th = json_object_get(inner, "threads");
	json_array_foreach (th, i, e) /* schedule(static): half each */
		cr_assert_eq(rl_test_json_need_num(e, "flops"), 2.0 * N_ELEMS);
	cr_assert(strstr(r.out, "outer: process scope"), "%s", r.out);
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* The raw results file of the run (one process). */
static json_t *raw(const char *out)
{
	char path[900], rawdir[600];
	struct dirent *de;
	DIR *d;

	snprintf(rawdir, sizeof rawdir, "%s/raw", out);
	d = opendir(rawdir);
	cr_assert_not_null(d);
	path[0] = '\0';
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "rlprof-", 7) == 0)
			snprintf(path, sizeof path, "%s/%s", rawdir, de->d_name);
	closedir(d);
	cr_assert(path[0], "no results file in %s", rawdir);
	return load(path);
}

static uint64_t task_clock(json_t *counters)
{
	json_t *v = json_object_get(json_object_get(counters, "task_clock_ns"),
				    "value");
	cr_assert(json_is_integer(v), "no task_clock_ns");
	return (uint64_t)json_integer_value(v);
}

Test(e2e_omp, perf_task_clock_summed_over_threads)
{
	need_omp();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = run(out, "perf", "2");
	json_t *rep, *res, *th, *t, *reg;
	uint64_t outer = 0, inner_sum = 0;
	size_t i, k;

	if (r.status != 0 && strstr(r.err, "does not work here"))
		cr_skip_test("backend perf does not work here: %s", r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	rep = check_scopes(out);
	res = raw(out);
	th = json_object_get(res, "threads");
	json_array_foreach (th, i, t)
		json_array_foreach (json_object_get(t, "regions"), k, reg) {
			const char *n = json_string_value(json_object_get(reg, "name"));
			if (strcmp(n, "outer") == 0) /* its own + the
							other threads' */
				outer = task_clock(json_object_get(reg,
								   "counters")) +
					task_clock(json_object_get(
						json_object_get(reg, "scope"),
						"others"));
			else if (strcmp(n, "inner") == 0)
				inner_sum += task_clock(json_object_get(reg, "counters"));
		}
	/* both threads' inner calls lie inside outer: the process's task
	 * clock over outer holds both */
	cr_assert_gt(inner_sum, 0);
	cr_assert_geq(outer, inner_sum, "outer %llu < inner sum %llu",
		      (unsigned long long)outer, (unsigned long long)inner_sum);
	json_decref(res);
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_omp, scope_thread_turns_it_off)
{
	need_omp();
	char *dir = e2e_tmpdir(), out[512], path[600];
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, OMP_APP, N_STR, NULL};
	const char *env[] = {"OMP_WAIT_POLICY=passive", "RLPROF_SCOPE=thread",
			     NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	json_t *rep;

	cr_assert_eq(r.status, 0, "%s", r.err);
	snprintf(path, sizeof path, "%s/report.json", out);
	rep = load(path);
	cr_assert_str_eq(json_string_value(json_object_get(rl_test_json_need_region(rep, "outer"),
							   "scope")),
			 "thread");
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* -b time, CALLS calls of outer: the table's line says 2 threads ran;
 * busy threads are known from the second call on (the first, begun with
 * one thread, read no CPU clock at begin: that keeps a region of a
 * program without threads at ~20 ns) */
static void time_calls(const char *calls)
{
	need_omp();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = run(out, "time", calls);
	json_t *rep, *outer;

	cr_assert_eq(r.status, 0, "%s", r.err);
	rep = check_scopes(out);
	outer = rl_test_json_need_region(rep, "outer");
	if (strcmp(calls, "1") == 0)
		cr_assert_null(json_object_get(outer, "busy_threads"));
	else {
		double busy = rl_test_json_need_num(outer, "busy_threads");
		/* CPU and wall time over one window: never more than the
		 * threads that ran */
		cr_assert(busy > 0 && busy <= rl_test_json_need_num(outer, "threads_ran"),
			  "busy threads %g", busy);
	}
	/* a CPU total over the calls would leave out the first */
	cr_assert_null(json_object_get(outer, "cpu_s"));
	cr_assert(strstr(r.out, "outer: process scope (begun on the main "
				"thread outside a parallel region): 2 threads "
				"ran while it was open"),
		  "%s", r.out);
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_omp, time_outer_shows_two_active_threads)
{
	time_calls("2");
}

Test(e2e_omp, time_single_call_begun_with_one_thread)
{
	time_calls("1");
}
