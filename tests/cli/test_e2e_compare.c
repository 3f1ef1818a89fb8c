/*
 * rlprof compare end to end (issue 38, section 3): two programs run
 * interleaved, each region tested. The verdicts and exit statuses are
 * asserted, never a time: an unchanged program holds (e2e_repeat, whose
 * regions sleep, so load hardly moves them), a region sleeping twice as
 * long fails, ten times the work fails, and under -b sim 1% more flops
 * fails whatever the times (e2e_work PCT does PCT % of its work).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define SLEEPS E2E_PROG("e2e_repeat")
#define WORK E2E_PROG("e2e_work")

/* rlprof compare -o DIR/out -r 25 [-b extra] [more...] -- a [aa] -- b
 * [ba]; more: NULL or options ending in NULL (at most 4). */
static struct e2e_result compare_with(const char *dir, const char *extra,
				      const char *const *more, const char *a,
				      const char *aa, const char *b,
				      const char *ba)
{
	char out[512];
	const char *argv[20];
	int n = 0;

	e2e_need(E2E_RLPROF);
	e2e_need(a);
	snprintf(out, sizeof out, "%s/out", dir);
	argv[n++] = E2E_RLPROF;
	argv[n++] = "compare";
	argv[n++] = "-o";
	argv[n++] = out;
	/* 25%: wide enough for a loaded machine's wake-ups, far from 2x */
	argv[n++] = "-r";
	argv[n++] = "25";
	if (extra) {
		argv[n++] = "-b";
		argv[n++] = extra;
	}
	for (int i = 0; more && more[i] && i < 4; i++)
		argv[n++] = more[i];
	/* NULL b: a against itself, both without arguments */
	argv[n++] = "--";
	argv[n++] = a;
	if (aa)
		argv[n++] = aa;
	argv[n++] = "--";
	argv[n++] = b ? b : a;
	if (ba)
		argv[n++] = ba;
	argv[n] = NULL;
	return e2e_run(argv);
}

static struct e2e_result compare(const char *dir, const char *extra,
				 const char *a, const char *aa, const char *b,
				 const char *ba)
{
	return compare_with(dir, extra, NULL, a, aa, b, ba);
}

/* The machine too loaded for the gate to tell: it says so itself, with
 * its own status; a missing capability here, not a pass. */
static void skip_if_unsure(struct e2e_result *r, char *dir)
{
	const char *line = strstr(r->out, "not enough evidence: ");

	if (r->status == 3 && line) {
		char why[400];
		snprintf(why, sizeof why, "%.*s", (int)strcspn(line, "\n"),
			 line);
		e2e_cleanup(r, dir);
		cr_skip_test("the machine is too loaded to decide: %s", why);
	}
}

/* One look (--max-runs as --runs): the fixed design, 95% bounds. */
static const char *const one_look[] = {"--max-runs", "10", NULL};

Test(e2e_compare, unchanged_holds_twice_as_slow_fails, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r = compare_with(dir, NULL, one_look, SLEEPS, "1",
					   SLEEPS, "1");

	skip_if_unsure(&r, dir);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "all 2 checks hold\n") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "(medians of 10 and 10 runs, interleaved;") !=
			  NULL, "%s", r.out);
	e2e_free(&r);

	r = compare_with(dir, NULL, one_look, SLEEPS, "1", SLEEPS, "2");
	skip_if_unsure(&r, dir);
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "fail: region 'scaled' takes ") != NULL,
		  "%s", r.out);
	cr_expect(strstr(r.out, "more time than in the old program (medians "
				"of 10 and 10 runs") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "fail: region 'steady'"), "%s", r.out);
	cr_expect(strstr(r.out, "1 of 2 checks failed\n") != NULL, "%s", r.out);
	e2e_cleanup(&r, dir);
}

/* Runs until decided: at 3 runs a side no rank test reaches 98.75%
 * (20 arrangements: p >= 5%), so the first of the 4 looks (3, 6, 12, 24
 * runs) never decides and compare runs 3 more each; the verdict then
 * says at which look, each bound at 98.75% so that the 4 hold at 95%. */
Test(e2e_compare, runs_more_until_the_runs_decide, .timeout = 300)
{
	static const char *const looks[] = {"--runs", "3", "--max-runs",
					    "24", NULL};
	char *dir = e2e_tmpdir();
	struct e2e_result r = compare_with(dir, NULL, looks, SLEEPS, "1",
					   SLEEPS, "1");

	cr_expect(strstr(r.err, "rlprof: undecided after 3 runs a side: 3 "
				"more each\n") != NULL,
		  "%s", r.err);
	skip_if_unsure(&r, dir);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "98.8% bounds") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, " of 4; bounds: Hodges-Lehmann change, Moses "
				"interval, 98.8% each, so that all 4 looks "
				"hold at 95%)") != NULL,
		  "%s", r.out);
	cr_expect_null(strstr(r.out, "(medians of 3 and 3 runs"), "%s", r.out);
	e2e_cleanup(&r, dir);
}

Test(e2e_compare, max_runs_below_runs_is_refused, .timeout = 60)
{
	static const char *const bad[] = {"--runs", "20", "--max-runs", "10",
					  NULL};
	char *dir = e2e_tmpdir();
	struct e2e_result r = compare_with(dir, NULL, bad, WORK, "100", WORK,
					   "100");

	cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "rlprof: --max-runs 10 is below --runs 20: "
				"give --max-runs 20 or more\n") != NULL,
		  "%s", r.err);
	e2e_cleanup(&r, dir);
}

Test(e2e_compare, ten_times_the_work_fails, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r = compare(dir, NULL, WORK, "100", WORK, "1000");

	skip_if_unsure(&r, dir);
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "fail: region 'work' takes ") != NULL, "%s",
		  r.out);
	e2e_cleanup(&r, dir);
}

/* Under the simulator 1% more flops is reported every time: the counts
 * are exact, whatever the times did; the same program counts the same. */
Test(e2e_compare, sim_one_percent_more_flops_fails, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;

	sim_need();
	r = compare(dir, "sim", WORK, "100", WORK, "101");
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "fail: region 'work' does other work than in "
				"the old program (counted by the simulator, "
				"exact): f64 flops +1.00% (") != NULL,
		  "%s", r.out);
	e2e_free(&r);

	r = compare(dir, "sim", WORK, "100", WORK, "100");
	cr_expect_null(strstr(r.out, "does other work"), "%s", r.out);
	cr_expect_neq(r.status, 2, "%s%s", r.out, r.err);
	e2e_cleanup(&r, dir);
}

Test(e2e_compare, bad_input_exits_2, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r = compare(dir, NULL, WORK, "100", "/nonexistent",
				      "1");

	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "rlprof: the new program: cannot run "
				"'/nonexistent'") != NULL, "%s", r.err);
	e2e_free(&r);
	/* a program that fails: said, with its log */
	r = compare(dir, NULL, WORK, "100", E2E_PROG("e2e_exit"), "3");
	cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "of the new program '") != NULL &&
			  strstr(r.err, "compare needs both programs to run "
					"and succeed") != NULL,
		  "%s", r.err);
	e2e_free(&r);
	r = compare(dir, "perf", WORK, "100", WORK, "100");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "compare takes -b time or -b sim") != NULL,
		  "%s", r.err);
	e2e_free(&r);
	{
		const char *argv[] = {E2E_RLPROF, "compare", "--", WORK, NULL};
		r = e2e_run(argv);
		cr_expect_eq(r.status, 2);
		cr_expect(strstr(r.err, "compare needs two programs") != NULL,
			  "%s", r.err);
	}
	e2e_cleanup(&r, dir);
}

/* A program of several threads: the simulator interleaves them
 * differently each run in caches they share, so its bytes move (here
 * 8300 then 11176 L1 bytes in one region) while its flops stay exact:
 * the flops are compared, the bytes not, and the gate says so. */
Test(e2e_compare, sim_threads_compare_flops_not_bytes, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;

	sim_need();
	r = compare(dir, "sim", E2E_PROG("sim_threads"), NULL, NULL, NULL);
	cr_expect_null(strstr(r.out, "does other work"), "%s", r.out);
	cr_expect(strstr(r.out, "note: counted flops compared, bytes not: the "
				"program ran several threads") != NULL,
		  "%s", r.out);
	cr_expect_neq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect_neq(r.status, 2, "%s%s", r.out, r.err);
	e2e_cleanup(&r, dir);
}
