/* render_compare.c: rlprof compare's table from fixed comparisons, over
 * the hand-written reports of tests/data/reports/ (base: triad, dgemm,
 * init; slow: triad, dgemm, setup), so that init is gone and setup new. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_file.h"
#include "render/render_compare.h"

#define REPORTS RL_SOURCE_DIR "/tests/data/reports/"

static char *table(const struct rl_time_cmp *tc,
		   const struct rl_compare_runs *runs)
{
	struct rl_report_file a, b;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(out);
	cr_assert_eq(rl_report_file_load(REPORTS "base", &a, err, sizeof err),
		     0, "%s", err);
	cr_assert_eq(rl_report_file_load(REPORTS "slow", &b, err, sizeof err),
		     0, "%s", err);
	rl_render_compare_table(out, &a, &b, tc, runs);
	fclose(out);
	rl_report_file_release(&a);
	rl_report_file_release(&b);
	return text;
}

static struct rl_time_cmp cmp(double a, double b, double ch, double lo,
			      double hi, enum rl_change v, bool unsure)
{
	struct rl_time_cmp c = {.a_s = a, .b_s = b, .change_pct = ch,
				.lo_pct = lo, .hi_pct = hi, .n_a = 10,
				.n_b = 10, .tested = true, .verdict = v,
				.unsure = unsure, .confidence = 0.95};
	return c;
}

Test(render_compare, rows_gone_new_and_the_runs_line)
{
	struct rl_time_cmp tc[3] = {
		cmp(1.0, 1.25, 25.0, 20.0, 31.0, RL_CHANGE_WORSE, false),
		cmp(0.002, 0.00204, 2.0, -1.5, 5.5, RL_CHANGE_NONE, true),
		cmp(NAN, NAN, NAN, NAN, NAN, RL_CHANGE_NONE, false),
	};
	struct rl_compare_runs runs = {.n_old = 10, .n_new = 10,
				       .confidence = 0.95, .look = 1,
				       .looks = 1};
	char *t = table(tc, &runs);

	cr_expect_str_eq(
		t,
		"region                          old        new     change "
		"         95% bounds  verdict\n"
		"triad                           1 s     1.25 s     +25.0%    "
		"+20.0%..+31.0%    slower\n"
		"dgemm                          2 ms    2.04 ms      +2.0%     "
		"-1.5%..+5.5%     unsure\n"
		"init                              -          -          -      "
		"   -..-         gone\n"
		"setup                             -          -          -      "
		"   -..-         new\n"
		"(medians of 10 and 10 runs, interleaved; bounds: "
		"Hodges-Lehmann change, Moses interval, 95% each)\n");
	free(t);
}

Test(render_compare, a_later_look_and_unbounded_bounds)
{
	struct rl_time_cmp tc[3] = {
		cmp(1.0, 1.25, 25.0, -100.0, INFINITY, RL_CHANGE_BETTER,
		    false),
		cmp(0.002, 0.002, 0.0, -1.0, 1.0, RL_CHANGE_NONE, false),
		cmp(NAN, NAN, NAN, NAN, NAN, RL_CHANGE_NONE, false),
	};
	struct rl_compare_runs runs = {.n_old = 20, .n_new = 19,
				       .confidence = 1 - 0.05 / 3, .look = 2,
				       .looks = 3};
	char *t = table(tc, &runs);
	char *second = strchr(t, '\n') + 1;

	cr_expect(strncmp(t,
			  "region                          old        new     "
			  "change        98.3% bounds  verdict\n",
			  (size_t)(second - t)) == 0,
		  "%s", t);
	cr_expect(strncmp(second,
			  "triad                           1 s     1.25 s     "
			  "+25.0%   -100.0%..inf       faster\n",
			  strlen("triad                           1 s     1.25 s "
				 "    +25.0%   -100.0%..inf       faster\n")) == 0,
		  "%s", t);
	cr_expect(strstr(t, "same\n"), "%s", t);
	cr_expect(strstr(t, "(medians of 20 and 19 runs, interleaved, at look "
			    "2 of 3; bounds: Hodges-Lehmann change, Moses "
			    "interval, 98.3% each, so that all 3 looks hold "
			    "at 95%)\n"),
		  "%s", t);
	free(t);
}
