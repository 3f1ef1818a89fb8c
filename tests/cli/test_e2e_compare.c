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

/* rlprof compare -o DIR/out -r 25 [-b extra] -- a [aa] -- b [ba]. */
static struct e2e_result compare(const char *dir, const char *extra,
				 const char *a, const char *aa, const char *b,
				 const char *ba)
{
	char out[512];
	const char *argv[16];
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

Test(e2e_compare, unchanged_holds_twice_as_slow_fails, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r = compare(dir, NULL, SLEEPS, "1", SLEEPS, "1");

	skip_if_unsure(&r, dir);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "all 2 checks hold\n") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "(medians of 10 and 10 runs, interleaved;") !=
			  NULL, "%s", r.out);
	e2e_free(&r);

	r = compare(dir, NULL, SLEEPS, "1", SLEEPS, "2");
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
