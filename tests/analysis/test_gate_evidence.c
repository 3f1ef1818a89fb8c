/*
 * The CI gate decides on evidence (issue 38, section 3): the test of
 * shift_test.h on chosen run times, rl_compare_times' verdicts, the exact
 * comparison of simulated work (work_cmp.h), and rlprof check on reports
 * written here with those times: an unchanged program passes, a 2x
 * slower one fails even with one outlier among its baseline's runs,
 * overlapping noise says "not enough evidence" with exit status 3 (the
 * gate before this said pass, or "noisy" with status 0), and 1% more
 * flops under the simulator fails whatever the times.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/shift_test.h"
#include "analysis/work_cmp.h"
#include "tests/lib/run.h"

#define N(v) (sizeof(v) / sizeof *(v))

/* Known values of the exact null distribution of U: n = m = 5 has 252
 * arrangements, 12 with U <= 4 and 7 with U <= 3. */
Test(gate_evidence, mann_whitney_exact_distribution)
{
	cr_expect_float_eq(rl_mann_whitney_cdf(5, 5, 4), 12.0 / 252, 1e-12);
	cr_expect_float_eq(rl_mann_whitney_cdf(5, 5, 3), 7.0 / 252, 1e-12);
	cr_expect_float_eq(rl_mann_whitney_cdf(5, 5, 25), 1, 1e-12);
	/* symmetric: P(U <= 20) = 1 - P(U <= 4) */
	cr_expect_float_eq(rl_mann_whitney_cdf(5, 5, 20), 1 - 12.0 / 252,
			   1e-12);
	cr_expect_eq(rl_mann_whitney_critical(5, 5, 0.05), 4);
	cr_expect_eq(rl_mann_whitney_critical(5, 5, 0.025), 2);
	cr_expect_eq(rl_mann_whitney_critical(6, 6, 0.05), 7);
	/* too few runs: even U = 0 is more likely than 5% */
	cr_expect_eq(rl_mann_whitney_critical(2, 2, 0.05), -1);
	cr_expect_eq(rl_mann_whitney_critical(1, 9, 0.05), -1);
	cr_expect_eq(rl_mann_whitney_critical(3, 3, 0.05), 0);
	/* the largest allowed: 100 a side, against the normal
	 * approximation's 5% point (nm/2 - 1.645 sd = 4327) */
	long k = rl_mann_whitney_critical(100, 100, 0.05);
	cr_expect(k >= 4310 && k <= 4340, "k = %ld", k);
}

static const double base7[] = {1.00, 1.01, 0.99, 1.02, 1.00, 1.01, 0.98};

Test(gate_evidence, unchanged_program_holds)
{
	const double b[] = {1.01, 0.99, 1.00, 1.03, 1.00, 0.98, 1.02};
	struct rl_time_cmp c;

	rl_compare_times(base7, N(base7), b, N(b), 10, &c);
	cr_expect(c.tested);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
	cr_expect_not(c.unsure, "[%g, %g]", c.lo_pct, c.hi_pct);
	cr_expect(c.lo_pct < 0 && c.hi_pct > 0 && c.hi_pct < 10,
		  "[%g, %g]", c.lo_pct, c.hi_pct);
	cr_expect_eq(c.n_a, 7);
	cr_expect_eq(c.n_b, 7);
}

/* The case: one outlier among the baseline's runs made their
 * spread 194%, and a 2x slower kernel passed. */
Test(gate_evidence, twice_as_slow_fails_despite_an_outlier)
{
	const double a[] = {1.00, 1.01, 0.99, 1.02, 1.00, 1.01, 2.94};
	const double b[] = {2.00, 2.03, 1.98, 2.01, 2.02, 1.99, 2.04};
	struct rl_time_cmp c;

	rl_compare_times(a, N(a), b, N(b), 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE, "%+g [%g, %g]", c.change_pct,
		     c.lo_pct, c.hi_pct);
	cr_expect_float_eq(c.change_pct, 100, 3);
	cr_expect_gt(c.lo_pct, 90);
	/* an outlier in the new program's runs too */
	const double b2[] = {2.00, 2.03, 1.98, 2.01, 2.02, 1.99, 9.0};
	rl_compare_times(a, N(a), b2, N(b2), 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE);
	/* five runs a side: an outlier below the slow side's runs (spread
	 * 71%) still fails */
	const double a5[] = {1.00, 1.01, 0.99, 1.02, 1.70};
	const double b5[] = {2.00, 2.03, 1.98, 2.01, 2.02};
	rl_compare_times(a5, N(a5), b5, N(b5), 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE);
	/* five a side, the outlier beyond them all (spread 194%): the rank
	 * test cannot reach 95% (p = 0.075), and the gate says so; never
	 * a pass */
	const double a5o[] = {1.00, 1.01, 0.99, 1.02, 2.94};
	rl_compare_times(a5o, N(a5o), b5, N(b5), 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
	cr_expect(c.unsure, "[%g, %g]", c.lo_pct, c.hi_pct);
	cr_expect_float_eq(c.change_pct, 100, 3);
}

Test(gate_evidence, overlapping_noise_is_not_enough_evidence)
{
	const double a[] = {1.00, 1.30, 0.90, 1.20, 1.10};
	const double b[] = {1.15, 1.40, 1.00, 1.30, 1.20};
	struct rl_time_cmp c;

	rl_compare_times(a, N(a), b, N(b), 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
	cr_expect(c.unsure, "+%g [%g, %g]", c.change_pct, c.lo_pct, c.hi_pct);
	/* the same runs against themselves: still not within 10% */
	rl_compare_times(a, N(a), a, N(a), 10, &c);
	cr_expect(c.unsure, "[%g, %g]", c.lo_pct, c.hi_pct);
	/* but within 50% they are */
	rl_compare_times(a, N(a), b, N(b), 50, &c);
	cr_expect_not(c.unsure);
	cr_expect_eq(c.verdict, RL_CHANGE_NONE);
}

Test(gate_evidence, too_few_runs_and_single_runs)
{
	const double a[] = {1.0, 1.01}, b[] = {2.0, 2.02};
	const double one_a = 1.0, one_b = 1.25;
	struct rl_time_cmp c;

	/* two a side cannot bound anything at 95% */
	rl_compare_times(a, N(a), b, N(b), 10, &c);
	cr_expect(c.tested);
	cr_expect(c.unsure);
	cr_expect(isinf(c.hi_pct));
	/* one run a side: untested, at face value */
	rl_compare_times(&one_a, 1, &one_b, 1, 10, &c);
	cr_expect_not(c.tested);
	cr_expect_eq(c.verdict, RL_CHANGE_WORSE);
	cr_expect_float_eq(c.change_pct, 25, 1e-9);
	cr_expect(isnan(c.lo_pct));
	/* a faster program is faster */
	rl_compare_times(b, N(b), base7, N(base7), 10, &c);
	cr_expect_eq(c.verdict, RL_CHANGE_BETTER);
}

static struct rl_report_region sim_region(double f64, double l1)
{
	struct rl_report_region r = {0};

	r.region = (char *)"x";
	r.flops = f64;
	r.flops_f64 = f64;
	r.flops_f32 = 0;
	r.level_bytes[0] = l1;
	r.level_bytes[1] = r.level_bytes[2] = NAN;
	r.level_bytes[3] = 1e6;
	r.simulated = true;
	return r;
}

Test(gate_evidence, simulated_work_compared_exactly)
{
	struct rl_report_region a = sim_region(2e6, 3e7),
				b = sim_region(2.02e6, 3e7);
	struct rl_work_diff d[RL_WORK_FIGURES];
	char line[160];

	cr_expect(rl_work_comparable(&a, &b));
	cr_assert_eq(rl_work_compare(&a, &b, true, d), 1);
	cr_expect_str_eq(d[0].what, "f64 flops");
	cr_expect_float_eq(d[0].change_pct, 1, 1e-9);
	rl_work_diff_format(line, sizeof line, &d[0]);
	cr_expect_str_eq(line, "f64 flops +1.00% (2e+06 -> 2.02e+06)");
	/* the same work: nothing */
	cr_expect_eq(rl_work_compare(&a, &a, true, d), 0);
	/* one byte more at L1 is reported too */
	b = sim_region(2e6, 3e7 + 1);
	cr_expect_eq(rl_work_compare(&a, &b, true, d), 1);
	cr_expect_str_eq(d[0].what, "L1 bytes");
	/* several threads: the bytes are not compared, the flops are */
	cr_expect_eq(rl_work_compare(&a, &b, false, d), 0);
	b.flops_f64 = b.flops = 2e6 + 1;
	cr_expect_eq(rl_work_compare(&a, &b, false, d), 1);
	/* hardware counts are not compared exactly */
	b.simulated = false;
	cr_expect_not(rl_work_comparable(&a, &b));
}

/* A report.json with one region "k", its runs' times and, when flops is
 * not NAN, counted flops under the simulator. */
static void write_report(const char *dir, const double *t, size_t n,
			 double flops)
{
	char path[600], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	fprintf(f, "{\"format\": \"rlprof-report\", \"version\": 2, "
		   "\"backend\": \"%s\", \"backend_reason\": null, "
		   "\"backend_note\": null, \"command\": \"./k\", "
		   "\"exit_status\": 0, \"machine\": null, \"counters\": [], "
		   "\"warnings\": [], \"regions\": [{\"region\": \"k\", "
		   "\"n_threads\": 1, \"threads\": [], \"method\": \"test\", "
		   "\"diagnosis\": null, \"calls\": 1, \"time_s\": %.9g",
		isnan(flops) ? "time" : "sim", t[0]);
	if (!isnan(flops))
		fprintf(f, ", \"flops\": %.17g, \"flops_f64\": %.17g, "
			   "\"level_bytes\": {\"L1\": 8e6, \"DRAM\": 4e6}, "
			   "\"simulated\": true",
			flops, flops);
	if (n > 1) {
		fprintf(f, ", \"repeat\": {\"runs\": %zu, \"times_s\": [", n);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "%s%.9g", i ? ", " : "", t[i]);
		fprintf(f, "]}");
	}
	fprintf(f, "}]}\n");
	fclose(f);
	snprintf(path, sizeof path, "%s/report.json", dir);
	e2e_put_file(path, text, 0644);
	free(text);
}

static struct e2e_result check(const char *cur, const char *base)
{
	const char *argv[] = {E2E_RLPROF, "check", cur, "--max-regression",
			      "10", "--baseline", base, NULL};
	e2e_need(E2E_RLPROF);
	return e2e_run(argv);
}

Test(gate_evidence, check_decides_on_chosen_runs, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char a[512], b[512];
	const double same[] = {1.01, 0.99, 1.00, 1.03, 1.00, 0.98, 1.02};
	const double slow[] = {2.00, 2.03, 1.98, 2.01, 2.02, 1.99, 2.04};
	const double out7[] = {1.00, 1.01, 0.99, 1.02, 1.00, 1.01, 2.94};
	const double na[] = {1.00, 1.30, 0.90, 1.20, 1.10};
	const double nb[] = {1.15, 1.40, 1.00, 1.30, 1.20};
	struct e2e_result r;

	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	cr_assert(mkdir(a, 0777) == 0 && mkdir(b, 0777) == 0);

	write_report(a, base7, N(base7), NAN);
	write_report(b, same, N(same), NAN);
	r = check(b, a);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_expect_str_eq(r.out, "all 1 checks hold\n");
	e2e_free(&r);

	write_report(a, out7, N(out7), NAN);
	write_report(b, slow, N(slow), NAN);
	r = check(b, a);
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "fail: region 'k' takes 9") &&
			  strstr(r.out, "more time than in the baseline "
					"(medians of 7 and 7 runs: 1.01 s -> "
					"2.01 s; at least +"),
		  "%s", r.out);
	e2e_free(&r);

	write_report(a, na, N(na), NAN);
	write_report(b, nb, N(nb), NAN);
	r = check(b, a);
	cr_expect_eq(r.status, 3, "not enough evidence has its own status: "
				  "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "not enough evidence: region 'k' changed by "
				"+") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "not enough evidence: 0 of 1 checks") == NULL &&
			  strstr(r.out, "not enough evidence: 1 of 1 checks "
					"could not be decided\n") != NULL,
		  "%s", r.out);
	cr_expect_null(strstr(r.out, "fail:"), "%s", r.out);
	e2e_cleanup(&r, dir);
}

/* Under the simulator 1% more flops fails, whatever the times (here the
 * same ones, a pass on time alone). */
Test(gate_evidence, check_reports_one_percent_more_flops, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char a[512], b[512];
	struct e2e_result r;

	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	cr_assert(mkdir(a, 0777) == 0 && mkdir(b, 0777) == 0);
	write_report(a, base7, N(base7), 4e9);
	write_report(b, base7, N(base7), 4.04e9);
	r = check(b, a);
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "fail: region 'k' does other work than in the "
				"baseline (counted by the simulator, exact): "
				"f64 flops +1.00% (4e+09 -> 4.04e+09)\n") !=
			  NULL,
		  "%s", r.out);
	e2e_free(&r);
	/* the same counts: the time decides */
	write_report(b, base7, N(base7), 4e9);
	r = check(b, a);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	e2e_cleanup(&r, dir);
}

/* rlprof compare's looks: each bound at its share of the 5% (Bonferroni).
 * 3 runs a side, every new run slower than every old one: at 95% the
 * bounds exist (P(U = 0) = 1/20) and the slowdown is shown; at 98.75%
 * (4 looks) no arrangement of 6 runs is that unlikely, so the runs bound
 * nothing and the region is undecided, the confidence kept for the
 * message. */
Test(gate_evidence, each_look_at_its_share_of_the_error)
{
	static const double a[] = {1.00, 1.01, 1.02}, b[] = {2.00, 2.01, 2.02};
	struct rl_time_cmp tc;

	rl_compare_times_at(a, N(a), b, N(b), 10, 0.95, &tc);
	cr_assert(tc.tested);
	cr_expect_eq(tc.verdict, RL_CHANGE_WORSE);
	cr_expect_float_eq(tc.confidence, 0.95, 1e-12);
	rl_compare_times_at(a, N(a), b, N(b), 10, 1 - 0.05 / 4, &tc);
	cr_assert(tc.tested);
	cr_expect_neq(tc.verdict, RL_CHANGE_WORSE);
	cr_expect(tc.unsure);
	cr_expect(isinf(tc.hi_pct));
	cr_expect_float_eq(tc.confidence, 0.9875, 1e-12);
	/* rl_compare_times is the 95% one */
	rl_compare_times(a, N(a), b, N(b), 10, &tc);
	cr_expect_eq(tc.verdict, RL_CHANGE_WORSE);
}
