/*
 * Counts that stay true with threads, call sites, nesting and recursion
 * (issue 24), under the simulator, whose flop counts are exact:
 *  - the repro: region "kernel" (an OpenMP `parallel for`) called at top
 *    level and inside region "outer" counts every call's flops with 1 and
 *    with 2 threads (tests/omp/omp_callsite.c);
 *  - a recursive region counts once per outermost call, calls counts
 *    every entry and the report shows the depth;
 *  - the property: tests/omp/omp_prop.c runs seeds, each a small random
 *    program of regions at top level, nested, recursive, inside and
 *    around parallel regions of 1-4 threads, and writes the flops and
 *    calls each region did by the rules of the counts; every region's
 *    counted flops and calls equal them. RLPROF_PROP_SEEDS (default 300)
 *    sets how many (`make fuzz` runs more).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define CALLSITE_APP RL_BUILD_DIR "/tests/omp/omp_callsite"
#define PROP_APP RL_BUILD_DIR "/tests/omp/omp_prop"
#define PROP_BATCH 100 /* seeds per simulated process (Valgrind's start-up
			 is most of the cost) */

static void need(const char *app)
{
	e2e_need(E2E_RLPROF);
	sim_need();
	if (access(app, X_OK) != 0)
		cr_skip_test("'%s' was not built (no OpenMP in the compiler)",
			     app);
}

/* rlprof run -b sim of argv (after the program's path), threads OpenMP
 * threads (0: libgomp's default); the report.json loaded */
static json_t *run_sim(const char *out, const char *const *args,
		       const char *threads)
{
	const char *argv[24] = {E2E_RLPROF, "run",	    "-q",
				"--no-probe", "-b",	    "sim",
				"--sim-caches", SIM_TEST_CACHES, "--sim-timing",
				"sim",	      "-o",	    out};
	const char *env[4] = {"OMP_WAIT_POLICY=passive", NULL, NULL, NULL};
	char nt[64], path[600];
	size_t n = 12;
	json_error_t je;
	json_t *j;

	for (size_t i = 0; args[i] && n < 23; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (threads) {
		snprintf(nt, sizeof nt, "OMP_NUM_THREADS=%s", threads);
		env[1] = nt;
	}
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	cr_assert_eq(r.status, 0, "rlprof run: %s", r.err);
	e2e_free(&r);
	snprintf(path, sizeof path, "%s/report.json", out);
	j = json_load_file(path, 0, &je);
	cr_assert_not_null(j, "'%s': %s", path, je.text);
	return j;
}

static void callsite(const char *threads)
{
	need(CALLSITE_APP);
	char *dir = e2e_tmpdir(), out[512];
	const char *args[] = {CALLSITE_APP, "100000", "10", "4", NULL};
	json_t *rep, *k;

	snprintf(out, sizeof out, "%s/out", dir);
	rep = run_sim(out, args, threads);
	cr_assert_not_null(k = rl_test_json_region(rep, "kernel"));
	/* 10 calls at top level, 10 inside "outer": 20 x 100000 */
	cr_assert_eq(rl_test_json_need_num(k, "calls"), 20);
	cr_assert_eq(rl_test_json_need_num(k, "flops"), 2000000.0, "%s threads: kernel %.0f flops",
		     threads, rl_test_json_need_num(k, "flops"));
	cr_assert_eq(rl_test_json_need_num(rl_test_json_region(rep, "outer"), "flops"), 1000000.0);
	json_decref(rep);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_counts, callsite_one_thread, .timeout = 300)
{
	callsite("1");
}

/* the repro of issue 24: 2 threads gave half the nested calls' flops */
Test(e2e_counts, callsite_two_threads, .timeout = 300)
{
	callsite("2");
}

/* "rec" enters itself 4 deep, 100000 flops a level: it did 400000 in
 * one outermost call; calls counts the 4 entries, depth says 4 */
Test(e2e_counts, recursive_region_counts_once, .timeout = 300)
{
	need(CALLSITE_APP);
	char *dir = e2e_tmpdir(), out[512];
	const char *args[] = {CALLSITE_APP, "100000", "1", "4", NULL};
	json_t *rep, *k;

	snprintf(out, sizeof out, "%s/out", dir);
	rep = run_sim(out, args, "2");
	cr_assert_not_null(k = rl_test_json_region(rep, "rec"));
	cr_assert_eq(rl_test_json_need_num(k, "calls"), 4);
	cr_assert_eq(rl_test_json_need_num(k, "flops"), 400000.0, "rec %.0f flops",
		     rl_test_json_need_num(k, "flops"));
	cr_assert_eq(rl_test_json_need_num(k, "depth"), 4);
	cr_assert_null(json_object_get(rl_test_json_region(rep, "kernel"), "depth"),
		       "a region never entered twice has no depth");
	json_decref(rep);
	e2e_rmtree(dir);
	free(dir);
}

/* Threads that open the region the main thread holds open (process
 * scope) for their own share: rlprof-kernels' triad_mt on 3 threads, the
 * main thread doing the first share inside "triad_mt" and each worker
 * its own between begin and end of "triad_mt". Every element's 2 flops
 * count once: the workers' calls are left out of the main thread's
 * share of the others (they counted 1.5x on 2 threads before). */
Test(e2e_counts, threads_opening_the_main_threads_region_count_once,
     .timeout = 300)
{
	const char *kern = RL_BUILD_DIR "/bin/rlprof-kernels-sim";
	need(kern);
	char *dir = e2e_tmpdir(), out[512];
	const char *args[] = {kern,	   "--size",   "64K", "--repeat",
			      "2",	   "--kernels", "threads", "--threads",
			      "3",	   NULL};
	json_t *rep, *k;

	snprintf(out, sizeof out, "%s/out", dir);
	rep = run_sim(out, args, NULL);
	cr_assert_not_null(k = rl_test_json_region(rep, "triad_mt"));
	/* 2 repetitions x 3 threads */
	cr_expect_eq(rl_test_json_need_num(k, "calls"), 6);
	cr_expect_eq(rl_test_json_need_num(k, "flops"), 2.0 * 2 * 65536, "triad_mt %.0f flops",
		     rl_test_json_need_num(k, "flops"));
	json_decref(rep);
	e2e_rmtree(dir);
	free(dir);
}

/* rt_straddle: a thread's "x" begins before the main thread's "x" and
 * ends inside it (its 1000 flops there counted twice: warned, naming
 * the region); its "y" lies inside the main thread's "y" (counted once,
 * no warning for it). */
Test(e2e_counts, a_call_straddling_the_main_threads_call_is_warned_of,
     .timeout = 300)
{
	const char *prog = E2E_PROG("rt_straddle");
	need(prog);
	char *dir = e2e_tmpdir(), out[512];
	const char *args[] = {prog, NULL};
	json_t *rep;
	char *json;

	snprintf(out, sizeof out, "%s/out", dir);
	rep = run_sim(out, args, NULL);
	/* y: the worker's 1000 flops in its own y, and its x's 1000 inside
	 * the main thread's y: 2000, each flop once */
	cr_expect_eq(rl_test_json_need_num(rl_test_json_region(rep, "y"), "flops"), 2000.0, "y %.0f flops",
		     rl_test_json_need_num(rl_test_json_region(rep, "y"), "flops"));
	json_decref(rep);
	json = e2e_file(out, "report.json");
	cr_assert_not_null(json);
	cr_expect_not_null(strstr(json, "region 'x': a call on thread "),
			   "%s", json);
	cr_expect_null(strstr(json, "region 'y': a call on thread "), "%s",
		       json);
	free(json);
	e2e_rmtree(dir);
	free(dir);
}

/* Seeds first .. first+count-1 in one simulated process: every region's
 * flops and calls as the program says; returns the mismatches (each said
 * on stderr). */
static int prop_batch(long first, long count)
{
	char *dir = e2e_tmpdir(), out[512], want[512], a1[32], a2[32];
	const char *args[] = {PROP_APP, a1, a2, want, NULL};
	char name[64];
	unsigned long long flops, calls;
	int bad = 0, n = 0;
	json_t *rep, *k;
	FILE *f;

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(want, sizeof want, "%s/want.txt", dir);
	snprintf(a1, sizeof a1, "%ld", first);
	snprintf(a2, sizeof a2, "%ld", count);
	rep = run_sim(out, args, NULL);
	cr_assert_not_null(f = fopen(want, "r"), "%s: not written", want);
	while (fscanf(f, "%63s %llu %llu", name, &flops, &calls) == 3) {
		double got_f = -1, got_c = -1;
		n++;
		if ((k = rl_test_json_region(rep, name))) {
			got_c = rl_test_json_need_num(k, "calls");
			json_t *v = json_object_get(k, "flops");
			got_f = json_is_number(v) ? json_number_value(v) : 0;
		}
		if (got_f != (double)flops || got_c != (double)calls) {
			bad++;
			fprintf(stderr,
				"e2e_counts: seed region %s: %.0f flops in %.0f "
				"calls counted, %llu in %llu done\n",
				name, got_f, got_c, flops, calls);
		}
	}
	fclose(f);
	cr_assert_gt(n, 0, "no region in %s", want);
	json_decref(rep);
	e2e_rmtree(dir);
	free(dir);
	return bad;
}

Test(e2e_counts, property_every_region_exact, .timeout = 3600)
{
	need(PROP_APP);
	const char *e = getenv("RLPROF_PROP_SEEDS");
	long seeds = e && atol(e) > 0 ? atol(e) : 300;
	int bad = 0;

	for (long first = 0; first < seeds; first += PROP_BATCH)
		bad += prop_batch(first, seeds - first < PROP_BATCH
						 ? seeds - first
						 : PROP_BATCH);
	cr_assert_eq(bad, 0, "%d regions of %ld seeds miscounted (stderr)",
		     bad, seeds);
}
