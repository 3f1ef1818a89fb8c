/*
 * The CI gate knows noise (issue 26): rlprof run --repeat 5 keeps per
 * region the fastest, the median and the spread of its timing runs;
 * rlprof check --max-regression calls a region slower only beyond
 * the threshold plus the runs' noise. A run passes against itself; one
 * whose "scaled" region takes four times as long fails, naming that
 * region. Also unit checks of the comparison rule.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "tests/lib/run.h"

#define PROG E2E_PROG("e2e_repeat")

static struct rl_report_region region(double t, double runs, double min,
				      double median, double spread)
{
	struct rl_report_region r = {0};
	r.region = (char *)"x";
	r.time_s = t;
	r.runs = runs;
	r.time_min_s = min;
	r.time_median_s = median;
	r.spread_pct = spread;
	return r;
}

Test(ci_gate, beyond_both_threshold_and_noise)
{
	struct rl_time_cmp c;
	struct rl_report_region a = region(1.2, 5, 1.0, 1.1, 30);
	struct rl_report_region b = region(1.3, 5, 1.2, 1.3, 10);

	/* +20 % of the fastest runs: over 10 %, within a's 30 % noise */
	rl_compare_time(&a, &b, 10, &c);
	cr_expect_float_eq(c.change_pct, 20, 1e-9);
	cr_expect_float_eq(c.noise_pct, 30, 1e-9);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
	cr_expect(c.noisy, "a spread over the threshold is noisy");
	/* twice as slow: beyond both */
	b = region(2.2, 5, 2.0, 2.1, 10);
	rl_compare_time(&a, &b, 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE);
	cr_expect_not(c.noisy);
	/* without repeats: the threshold alone, single times */
	a = region(1.0, 0, NAN, NAN, NAN);
	b = region(1.2, 0, NAN, NAN, NAN);
	rl_compare_time(&a, &b, 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE);
	cr_expect(isnan(c.noise_pct));
	/* +14.6 % against 7.3 % noise (measured here: a build started
	 * between two sets of runs): beyond 10 %, within 10 % plus the
	 * noise: not failed, said noisy */
	a = region(1.0, 5, 1.0, 1.02, 7.3);
	b = region(1.2, 5, 1.146, 1.17, 5.9);
	rl_compare_time(&a, &b, 10, &c);
	cr_expect_float_eq(c.change_pct, 14.6, 1e-9);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
	cr_expect(c.noisy, "beyond the threshold within its noise is noisy");
	/* +18 % against 7.3 %: beyond 10 % plus the noise */
	b = region(1.2, 5, 1.18, 1.19, 2);
	rl_compare_time(&a, &b, 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE);
	/* quiet runs: a change within the threshold is the same, not noisy */
	a = region(1.0, 5, 1.0, 1.01, 2);
	b = region(1.05, 5, 1.03, 1.05, 3);
	rl_compare_time(&a, &b, 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
	cr_expect_not(c.noisy);
}

static void run_repeat(const char *out, const char *factor)
{
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "--repeat", "5", "-o", out, PROG, factor,
			      NULL};
	struct e2e_result r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
}

static struct e2e_result check(const char *cur, const char *base)
{
	const char *argv[] = {E2E_RLPROF, "check", cur, "--max-regression",
			      "10", "--baseline", base, NULL};
	return e2e_run(argv);
}

/* the percentage the gate prints for a region ("region 'x' takes
 * 13.4% more time"), or -1 when it names no change for it */
static double change_of(const char *out, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof key, "region '%s' takes ", name);
	p = strstr(out, key);
	return p ? strtod(p + strlen(key), NULL) : -1;
}

/* No time is asserted here (the machine is shared): an unchanged
 * program is shown by a run against itself (a change of exactly 0, so
 * the gate must pass), and the slow program's region sleeps 4x as long,
 * a change of +300% that no load can hide, while its fixed region
 * changes by far less. */
Test(ci_gate, unchanged_run_passes_a_4x_slower_region_fails,
     .timeout = 300)
{
	char *dir = e2e_tmpdir();
	char a[512], slow[512];
	struct e2e_result r;
	char *json;
	double scaled, steady;

	e2e_need(E2E_RLPROF);
	e2e_need(PROG);
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(slow, sizeof slow, "%s/slow", dir);
	run_repeat(a, "1");
	run_repeat(slow, "4");

	/* report.json keeps the 5 runs of each region */
	json = e2e_file(a, "report.json");
	cr_assert_not_null(json);
	cr_expect_not_null(strstr(json, "\"repeat\":{\"runs\":5,"), "%s", json);
	free(json);
	for (int k = 2; k <= 5; k++) {
		char p[600];
		snprintf(p, sizeof p, "%s/repeat/%d/raw", a, k);
		cr_expect_eq(access(p, F_OK), 0, "no timing run %d: %s", k, p);
	}

	r = check(a, a);
	cr_expect_eq(r.status, 0, "a run failed the gate against itself:\n%s%s",
		     r.out, r.err);
	cr_expect_null(strstr(r.out, "fail:"), "%s", r.out);
	e2e_free(&r);

	r = check(slow, a);
	if (r.status == 0 && strstr(r.out, "noisy: region 'scaled'")) {
		/* the gate itself says it cannot tell: a wake-up delayed by
		 * load spread the runs more than 4x (a missing capability on
		 * this loaded machine, not a pass) */
		e2e_rmtree(dir);
		cr_skip_test("the machine is too loaded to tell 4x from its "
			     "noise: %s", r.out);
	}
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	scaled = change_of(r.out, "scaled");
	steady = change_of(r.out, "steady");
	cr_expect_not_null(strstr(r.out, "fail: region 'scaled' takes"),
			   "%s", r.out);
	cr_expect_geq(scaled, 150, "4x the sleep shows as +%.1f%%:\n%s",
		      scaled, r.out);
	cr_expect_lt(steady, scaled / 2,
		     "the fixed region changed as much as the scaled one:\n%s",
		     r.out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}
