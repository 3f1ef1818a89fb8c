/* The text roofline of --plot against a fixed report (tests/lib/report.h's
 * fixture): roofs, letters, legend, the no-model note. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

TestSuite(render_plot, .init = rl_test_charts_init,
	  .fini = rl_test_charts_fini);

static char *plot(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char err[128] = "";
	rl_report_choose_chart(&rl_test_charts_report); /* rows changed */
	cr_assert_eq(rl_render_plot(f, &rl_test_charts_report, err, sizeof err),
		     0, "%s", err);
	fclose(f);
	if (getenv("RLPROF_SHOW_PLOT"))
		fputs(buf, stderr);
	return buf;
}

/* The line of the plot area that holds `label` on its axis, or NULL. */
static const char *axis_line(const char *text, const char *label)
{
	char key[32];
	snprintf(key, sizeof key, "%s |", label);
	return strstr(text, key);
}

Test(render_plot, draws_roofs_letters_and_a_legend)
{
	char *s = plot();
	/* 20 rows of 60 columns between the axis and the bottom rule */
	cr_assert(strstr(s, "+-----"));
	size_t rows = 0;
	for (const char *p = s; (p = strstr(p, " |")); p++)
		rows++;
	cr_assert_eq(rows, 20);
	/* decades: y 1..1000, x 0.01..100 */
	cr_assert(axis_line(s, "1000"));
	cr_assert(axis_line(s, "   1"));
	cr_assert(strstr(s, "0.01"));
	cr_assert(strstr(s, "flop/byte"));
	/* the 1000 row is the top row; the f32 peak at 400 a few rows down */
	cr_assert(strchr(axis_line(s, "1000"), '\n') - axis_line(s, "1000") == 66);
	cr_assert(strstr(s, "======"), "peak");
	cr_assert(strstr(s, "------"), "ceiling");
	cr_assert(strchr(s, '/'), "DRAM slope");
	/* regions: A triad counted, a declared; D dot; e declared only */
	cr_assert(strstr(s, "  A triad"));
	cr_assert(strstr(s, "AI 0.0625, 2.2 GFLOP/s; a declared AI 0.0833"));
	cr_assert(strstr(s, "(88% of DRAM)"));
	cr_assert(strstr(s, "  E declared only        e declared AI 0.125"));
	cr_assert(strstr(s, "  F idle                 not on the plot"));
	cr_assert(strstr(s, "/ DRAM 40 GB/s"));
	cr_assert(strstr(s, "= avx512-fma f64 200 GFLOP/s"));
	cr_assert(strstr(s, "- single-chain scalar f64 3.4 GFLOP/s"));
	cr_assert(strstr(s, "- scalar f64 25 GFLOP/s"));
	/* letters on the grid: A, D, B and the declared-only e */
	const char *grid_end = strstr(s, "+-----");
	for (const char *l = "ABDe"; *l; l++) {
		const char *at = strchr(s, *l);
		while (at && at < grid_end && at[-1] != ' ' && at[-1] != '|' &&
		       at[-1] != '.' && at[-1] != '/' && at[-1] != '-' &&
		       at[-1] != '=')
			at = strchr(at + 1, *l);
		cr_assert(at && at < grid_end, "letter %c on the grid", *l);
	}
	free(s);
}

Test(render_plot, without_a_model_points_and_a_note)
{
	rl_test_charts_report.machine = NULL;
	char *s = plot();
	cr_assert(strstr(s, "no machine model: run rlprof probe"));
	cr_assert_null(strstr(s, "==="));
	cr_assert_null(strstr(s, "GB/s"));
	cr_assert(strstr(s, "  A triad"));
	free(s);
}

/* A roof below the axis range (12 decades at most, set by a point far
 * above it) is left out, not written past the grid (which the SANITIZE=1
 * build reports as an out-of-bounds index). */
Test(render_plot, a_roof_below_the_axis_range_is_left_out)
{
	rl_test_charts_report.rows[1].gflops =
		1e16; /* every roof drops off the axis */
	rl_test_charts_report.rows[1].flops =
		1e16 * 1e9 * rl_test_charts_report.rows[1].time_s;
	char *s = plot();
	cr_assert(strstr(s, "  B horner64"));
	cr_assert(strstr(s, "= avx512-fma f64 200 GFLOP/s"));
	cr_assert_null(strstr(s, "==="), "%s", s);
	size_t rows = 0;
	for (const char *p = s; (p = strstr(p, " |")); p++)
		rows++;
	cr_assert_eq(rows, 20);
	free(s);
}

/* Names reach the terminal escaped: no control character, no escape
 * sequence, and the legend stays aligned; an infinite rate is no point. */
Test(render_plot, names_are_escaped_and_infinities_left_out)
{
	free(rl_test_charts_report.rows[5].region);
	rl_test_charts_report.rows[5].region = strdup("idle\x1b[2J\tnow");
	rl_test_charts_report.rows[4].gflops_expected = INFINITY;
	char *s = plot();
	cr_assert_null(strchr(s, '\x1b'), "%s", s);
	cr_assert_null(strchr(s, '\t'), "%s", s);
	cr_assert(strstr(s, "  F idle\\x1b[2J\\tnow     not on the plot"), "%s", s);
	cr_assert(strstr(s, "  E declared only        not on the plot"), "%s", s);
	cr_assert_null(strstr(s, "inf"), "%s", s);
	free(s);
}
