/*
 * The chart places every row with flops where the table places it (issue
 * 39): a loop that ran in cache (flops, bytes at L2, none at DRAM) is a
 * point at its L2 intensity on the L2 roof it is held against, at its %
 * of that roof, in the SVG and the text plot; the legend said "(no
 * point: no flops)". A row with flops and no bytes at any level has no
 * point, and the legend says that, not "no flops".
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/svg_chart.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

#define BIT(c) (UINT64_C(1) << (c))

static const uint64_t counted = RL_TEST_SIM_LIKE;

/* Region "k": flops f64 flops at 256 bits in 0.1 s, dram bytes read at
 * DRAM, l2 bytes read at L2 (none counted there when 0), against the
 * default test machine (L2 100 GB/s moved, DRAM 30, peak 50, 1 thread). */
static void build_with(struct rl_test_one *o, struct rl_report *rep,
		       struct rl_machine *m, double flops, double dram,
		       double l2)
{
	struct rl_run_results run = {.procs = &o->proc, .n_procs = 1,
				     .exit_status = -1};
	char err[256] = "";
	uint64_t provided = counted;

	if (l2 > 0)
		provided |= BIT(RL_C_L2_READ_BYTES) | BIT(RL_C_L2_WRITE_BYTES);
	rl_test_one_init(o, 1, provided, "k", 0.1);
	o->proc.backend = (char *)"test";
	for (int c = RL_C_FLOPS_F64_SCALAR; c <= RL_C_FLOPS_F32_512; c++)
		rl_test_one_set(o, c, 0);
	rl_test_one_set(o, RL_C_FLOPS_F64_256, flops);
	rl_test_one_set(o, RL_C_FLOPS_FMA, 0);
	rl_test_one_set(o, RL_C_DRAM_READ_BYTES, dram);
	rl_test_one_set(o, RL_C_DRAM_WRITE_BYTES, 0);
	if (l2 > 0) {
		rl_test_one_set(o, RL_C_L2_READ_BYTES, l2);
		rl_test_one_set(o, RL_C_L2_WRITE_BYTES, 0);
	}
	cr_assert_eq(rl_report_build(&run, m, rep, err, sizeof err), 0, "%s",
		     err);
}

/* 200 M flops (2 GFLOP/s), no DRAM byte. */
static void build(struct rl_test_one *o, struct rl_report *rep,
		  struct rl_machine *m, double l2)
{
	build_with(o, rep, m, 200e6, 0, l2);
}

static double attr(const char *el, const char *name)
{
	return rl_test_svg_attr(el, name);
}

Test(chart_points, an_in_cache_loop_is_drawn_at_its_cache_roof)
{
	struct rl_machine *m = rl_test_machine_default();
	struct rl_test_one o;
	struct rl_report rep;
	struct rl_chart c;

	/* 800 MB at L2: intensity 0.25, L2 roof 0.25 x 100 = 25 GFLOP/s,
	 * 2 GFLOP/s is 8 % of it */
	build(&o, &rep, m, 800e6);
	const struct rl_region_row *row = &rep.rows[0];
	cr_assert_eq(row->bound, RL_BOUND_MEMORY);
	cr_assert_str_eq(row->bound_roof, "L2");
	cr_assert_float_eq(row->roof_pct, 8, 1e-6);
	cr_assert(isnan(row->ai), "no DRAM byte: no DRAM intensity");

	int level = -2;
	cr_assert_float_eq(rl_chart_point_ai(row, &level), 0.25, 1e-12);
	cr_assert_eq(level, 1, "drawn at L2's intensity");
	cr_assert_null(rl_chart_no_point(row, NULL));

	char *svg = rl_test_render_text("svg", &rep);
	cr_assert_null(strstr(svg, "no point"), "%s", svg);
	cr_assert(strstr(svg, "(at L2)"), "the legend says where");
	const char *pt = strstr(svg, "class=\"point\"");
	cr_assert_not_null(pt, "no point for k: %s", svg);
	while (*pt != '<')
		pt--;
	rl_chart_layout(&c, &rep, RL_CHART_PLOT_W, RL_CHART_PLOT_H);
	cr_assert_float_eq(attr(pt, "cx"), rl_chart_px_x(&c, 0.25), 0.01);
	cr_assert_float_eq(attr(pt, "cy"), rl_chart_px_y(&c, 2.0), 0.01);
	/* its roof segment is the L2 slope at that intensity: the point
	 * lies at 8 % of it */
	const char *rf = strstr(svg, "<line class=\"point-roof\"");
	cr_assert_not_null(rf);
	double x1 = attr(rf, "x1"), y1 = attr(rf, "y1"), x2 = attr(rf, "x2"),
	       y2 = attr(rf, "y2");
	double at = y1 + (y2 - y1) * (attr(pt, "cx") - x1) / (x2 - x1);
	cr_assert_float_eq(at, rl_chart_px_y(&c, 25.0), 0.05,
			   "the segment is not the L2 roof at 0.25 flop/B");
	free(svg);

	char *plot = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&plot, &len);
	cr_assert_eq(rl_render_plot(f, &rep, err, sizeof err), 0, "%s", err);
	fclose(f);
	cr_assert_null(strstr(plot, "not on the plot"), "%s", plot);
	cr_assert(strstr(plot, "AI 0.25 at L2, 2 GFLOP/s"), "%s", plot);
	free(plot);
	rl_report_release(&rep);
	free(m);
}

Test(chart_points, flops_without_bytes_say_so_not_no_flops)
{
	struct rl_machine *m = rl_test_machine_default();
	struct rl_test_one o;
	struct rl_report rep;
	const char *why = NULL;

	build(&o, &rep, m, 0);
	const struct rl_region_row *row = &rep.rows[0];
	cr_assert_str_eq(rl_chart_no_point(row, &why), "no bytes");
	cr_assert(strstr(why, "no bytes at any level"), "%s", why);
	char *svg = rl_test_render_text("svg", &rep);
	cr_assert(strstr(svg, "(no point: no bytes)"), "%s", svg);
	cr_assert_null(strstr(svg, "no point: no flops"));
	free(svg);
	rl_report_release(&rep);
	free(m);
}

/* A compute-bound point far right of every ridge (1 G flops over 2 kB of
 * DRAM: AI 5e5, 10 GFLOP/s under the 50 peak) sits at the right edge
 * with its intensity; the axis does not stretch to it. */
Test(chart_points, a_compute_bound_point_far_right_sits_at_the_edge)
{
	struct rl_machine *m = rl_test_machine_default();
	struct rl_test_one o;
	struct rl_report rep;
	int level;

	build_with(&o, &rep, m, 1e9, 2000, 0);
	cr_assert_eq(rep.rows[0].bound, RL_BOUND_COMPUTE);
	cr_assert_float_eq(rl_chart_point_ai(&rep.rows[0], &level), 5e5, 1e-6);
	cr_assert_eq(level, RL_LEVELS - 1);
	char *svg = rl_test_render_text("svg", &rep);
	cr_assert(strstr(svg, "k \xe2\x86\x92 AI 500000"), "%s", svg);
	cr_assert_null(strstr(svg, ">1e5</text>"), "the x axis reaches 1e5");
	free(svg);
	rl_report_release(&rep);
	free(m);
}
