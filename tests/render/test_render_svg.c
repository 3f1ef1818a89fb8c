/*
 * roofline.svg against hand-built reports: valid XML (xmllint), the
 * expected points, roofs and labels at the coordinates of the documented
 * axis mapping (svg_chart.h), escaping, the no-model case.
 * The machine and the report are tests/lib/'s, as in the other chart
 * tests (test_render_html.c, test_render_plot.c, test_browser.c).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"
#include "render/svg_chart.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

extern const struct rl_renderer rl_renderer_svg;

/* Output of a shell command (trimmed), malloc'd. */
static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	cr_assert(p, "cannot run %s", cmd);
	char buf[4096] = "";
	size_t n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	int st = pclose(p);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	cr_assert_eq(st, 0, "'%s' failed: %s", cmd, buf);
	return strdup(buf);
}

static int have_xmllint(void)
{
	return system("command -v xmllint >/dev/null 2>&1") == 0;
}

static char *xpath(const char *file, const char *expr)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "xmllint --xpath '%s' '%s' 2>&1", expr, file);
	return run(cmd);
}

static double xpath_num(const char *file, const char *expr)
{
	char *s = xpath(file, expr);
	double v = strtod(s, NULL);
	free(s);
	return v;
}

static long count(const char *file, const char *expr)
{
	char buf[512];
	snprintf(buf, sizeof buf, "count(%s)", expr);
	return lround(xpath_num(file, buf));
}

static size_t occurrences(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

TestSuite(render_svg, .init = rl_test_charts_init, .fini = rl_test_charts_fini);

Test(render_svg, is_valid_xml_with_a_point_per_region)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
	free(run(cmd));
	/* counted: triad, horner, evil, dot; declared: triad, horner, decl */
	cr_assert_eq(count(path, "//*[@class=\"point\"]"), 4);
	cr_assert_eq(count(path, "//*[@class=\"declared\"]"), 3);
	cr_assert_eq(count(path, "//*[@class=\"gap\"]"), 1);
	cr_assert_eq(count(path, "//*[@class=\"region\"]"), 5);
	cr_assert_eq(count(path, "//*[@class=\"label-region\"]"), 5);
	/* room for every name on this sparse chart: no numbers */
	cr_assert_eq(count(path, "//*[@class=\"label-region\"][string-length(.) > 2]"),
		     5);
	cr_assert_eq(count(path, "//*[@class=\"legend-region\"]"), 6);
	/* roofs: 4 slopes; f64 and f32 peaks; add-only, scalar, single-chain
	 * under f64 only (4 f64 regions, 1 f32) */
	cr_assert_eq(count(path, "//*[@class=\"roof-bw\"]"), 4);
	cr_assert_eq(count(path, "//*[@class=\"roof-peak\"]"), 2);
	cr_assert_eq(count(path, "//*[@class=\"roof-ceiling\"]"), 3);
	cr_assert_eq(count(path, "//*[@class=\"ridge\"]"), 8);
	cr_assert_eq(count(path, "//*[@class=\"label-roof\"]"), 9);
	unlink(path);
	free(path);
}

Test(render_svg, coordinates_follow_the_documented_mapping)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	/* Ranges: x from AI 0.0625 .. ridge 400/40 = 10 -> decades 0.01..100;
	 * y from 2.2 .. peak 400 -> 1..1000 (3.4 single-chain in range). */
	struct rl_chart c;
	rl_chart_layout(&c, &rl_test_charts_report, RL_CHART_PLOT_W,
			RL_CHART_PLOT_H);
	cr_assert_float_eq(c.x_lo, -2, 1e-9);
	cr_assert_float_eq(c.x_hi, 2, 1e-9);
	cr_assert_float_eq(c.y_lo, 0, 1e-9);
	cr_assert_float_eq(c.y_hi, 3, 1e-9);
	cr_assert_eq(c.threads, 2);
	cr_assert_eq(c.bytes_moved, 1);
	/* triad counted at AI 0.0625, 2.2 GFLOP/s */
	double x = RL_CHART_LEFT + RL_CHART_PLOT_W * (log10(0.0625) + 2) / 4;
	double y = RL_CHART_TOP + RL_CHART_PLOT_H * (3 - log10(2.2)) / 3;
	cr_assert_float_eq(xpath_num(path, "string((//*[@class=\"point\"])[1]/@cx)"),
			   x, 0.01);
	cr_assert_float_eq(xpath_num(path, "string((//*[@class=\"point\"])[1]/@cy)"),
			   y, 0.01);
	/* triad declared at 2/24 */
	x = RL_CHART_LEFT + RL_CHART_PLOT_W * (log10(2.0 / 24) + 2) / 4;
	cr_assert_float_eq(
		xpath_num(path, "string((//*[@class=\"declared\"])[1]/@cx)"), x,
		0.01);
	/* the f32 dot is a square centred at AI 0.25, 8 GFLOP/s */
	x = RL_CHART_LEFT + RL_CHART_PLOT_W * (log10(0.25) + 2) / 4;
	cr_assert_float_eq(
		xpath_num(path, "string(//*[local-name()=\"rect\"][@class=\"point\"]/@x)"),
		x - 4.5, 0.01);
	/* f64 peak (2 threads: 200, not the 1-thread 100) */
	y = RL_CHART_TOP + RL_CHART_PLOT_H * (3 - log10(200)) / 3;
	cr_assert_float_eq(
		xpath_num(path, "string((//*[@class=\"roof-peak\"])[1]/@y1)"), y,
		0.01);
	/* DRAM slope: 2-thread moved 40 GB/s, ends at the f32 ridge 10 */
	x = RL_CHART_LEFT + RL_CHART_PLOT_W * (log10(10.0) + 2) / 4;
	y = RL_CHART_TOP + RL_CHART_PLOT_H * (3 - log10(400)) / 3;
	cr_assert_float_eq(
		xpath_num(path, "string(//*[@data-level=\"DRAM\"]/@x2)"), x, 0.01);
	cr_assert_float_eq(
		xpath_num(path, "string(//*[@data-level=\"DRAM\"]/@y2)"), y, 0.01);
	/* it starts on the bottom edge, at AI 1/40 */
	x = RL_CHART_LEFT + RL_CHART_PLOT_W * (log10(1 / 40.0) + 2) / 4;
	cr_assert_float_eq(
		xpath_num(path, "string(//*[@data-level=\"DRAM\"]/@x1)"), x, 0.01);
	/* the DRAM / f64 ridge at 200/40 = 5 */
	char *ridge = rl_test_slurp(path);
	cr_assert(strstr(ridge, "ridge DRAM / avx512-fma f64: 5 flop/byte"));
	cr_assert(strstr(ridge, "DRAM 40 GB/s"));
	cr_assert(strstr(ridge, "avx512-fma f64 200 GFLOP/s"));
	cr_assert(strstr(ridge, "single-chain scalar f64 3.4 GFLOP/s"));
	cr_assert(strstr(ridge, "add-only avx512-add f64 100 GFLOP/s"));
	cr_assert(strstr(ridge, "scalar f64 25 GFLOP/s"));
	cr_assert_null(strstr(ridge, "scalar f32 25 GFLOP/s"));
	cr_assert(strstr(ridge, "32 B/element"));
	cr_assert(strstr(ridge, "f64 and f32 regions, each against its own peak"));
	free(ridge);
	unlink(path);
	free(path);
}

Test(render_svg, every_user_string_is_escaped)
{
	/* strings of the machine model come from a file too */
	snprintf(rl_test_charts_machine.compute[0].name,
		 sizeof rl_test_charts_machine.compute[0].name, "avx<512>&");
	snprintf(rl_test_charts_machine.compute[0].method,
		 sizeof rl_test_charts_machine.compute[0].method,
		 "a<b & \"c\"");
	snprintf(rl_test_charts_machine.bw[4].method,
		 sizeof rl_test_charts_machine.bw[4].method, "tri<ad>");
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	if (have_xmllint()) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
		free(run(cmd));
	}
	char *svg = rl_test_slurp(path);
	cr_assert_null(strstr(svg, "avx<512>"));
	cr_assert(strstr(svg, "avx&lt;512&gt;&amp;"));
	cr_assert(strstr(svg, "tri&lt;ad&gt;"));
	cr_assert_null(strstr(svg, "<script"));
	cr_assert_null(strstr(svg, "<9000>"));
	cr_assert(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;"));
	cr_assert(strstr(svg, "Test CPU &lt;9000&gt; &amp; co"));
	cr_assert_eq(occurrences(svg, "<svg"), 1);
	free(svg);
	unlink(path);
	free(path);
}

Test(render_svg, invalid_utf8_and_controls_stay_valid_xml)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	free(rl_test_charts_report.rows[0].region);
	rl_test_charts_report.rows[0].region =
		strdup("bad\xff\xfe utf8\x01 \xc3\xa9t\xc3\xa9 "
		       "\xe6\x97\xa5\xe6\x9c\xac");
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
	free(run(cmd));
	char *svg = rl_test_slurp(path);
	cr_assert(strstr(svg, "bad\xef\xbf\xbd\xef\xbf\xbd utf8\xef\xbf\xbd "
			      "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac"));
	free(svg);
	unlink(path);
	free(path);
}

Test(render_svg, without_a_model_axes_and_points_and_a_note)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	rl_test_charts_report.machine = NULL;
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	cr_assert_eq(count(path, "//*[@class=\"point\"]"), 4);
	cr_assert_eq(count(path, "//*[@class=\"roof-bw\"]"), 0);
	cr_assert_eq(count(path, "//*[@class=\"roof-peak\"]"), 0);
	cr_assert_geq(count(path, "//*[@class=\"tick-label\"]"), 6);
	char *svg = rl_test_slurp(path);
	cr_assert(strstr(svg, "no machine model: run rlprof probe"));
	free(svg);
	unlink(path);
	free(path);
}

/* Issue 40: every ceiling line drawn has its label, also one crowded
 * just under another's (the lower dashed ceiling had none), and the
 * regions' own roof segments have a key entry. */
Test(render_svg, every_ceiling_is_labelled_and_roof_segments_keyed)
{
	struct rl_machine *m = &rl_test_charts_machine;
	char *path, *svg;
	long lines, labels = 0;

	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	/* the f64 add-only and scalar ceilings crowded just under the
	 * 2-thread peak (200) */
	for (size_t i = 0; i < m->n_compute; i++)
		if (strcmp(m->compute[i].precision, "f64") == 0 &&
		    m->compute[i].threads == 2)
			m->compute[i].gflops =
				strcmp(m->compute[i].kind, "add-only") == 0 ? 190
				: strcmp(m->compute[i].kind, "scalar") == 0 ? 180
				: m->compute[i].gflops;
	path = rl_test_report_render(&rl_renderer_svg, &rl_test_charts_report,
				     ".svg");
	lines = count(path, "//*[@class=\"roof-ceiling\"]");
	cr_assert_eq(lines, 3, "the crowded ceilings are drawn");
	svg = rl_test_slurp(path);
	for (const char *p = svg; (p = strstr(p, "class=\"label-roof\"")); p++) {
		const char *gt = strchr(p, '>'), *end = gt ? strchr(gt, '<') : NULL;
		/* a ceiling's label: GFLOP/s, and no peak's (the peaks are
		 * "avx512-fma f64 ...") */
		if (end && memmem(gt, (size_t)(end - gt), "GFLOP/s", 7) &&
		    !memmem(gt, (size_t)(end - gt), ">avx512-fma f", 13))
			labels++;
	}
	cr_expect_eq(labels, lines, "%ld ceilings drawn, %ld labelled", lines,
		     labels);
	cr_expect_not_null(strstr(svg, "class=\"key-roof\""), "no key entry "
			   "for the regions' roof segments");
	cr_expect_not_null(strstr(svg, ">its own roof</text>"), "%s", svg);
	free(svg);
	unlink(path);
	free(path);
}

Test(render_svg, crowded_labels_become_numbers_in_the_legend)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	/* 30 regions on top of each other */
	rl_report_release(&rl_test_charts_report);
	memset(&rl_test_charts_report, 0, sizeof rl_test_charts_report);
	rl_test_charts_report.machine = &rl_test_charts_machine;
	rl_test_charts_report.rows =
		calloc(30, sizeof *rl_test_charts_report.rows);
	for (int i = 0; i < 30; i++) {
		char name[32];
		snprintf(name, sizeof name, "kernel_number_%02d", i);
		rl_test_charts_report.rows[i] = rl_test_report_row(
			name, "f64", 1 + 0.01 * i, 10 + 0.1 * i, NAN, NAN);
	}
	rl_test_charts_report.n_rows = rl_test_charts_report.n_summed = 30;
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	cr_assert_eq(count(path, "//*[@class=\"point\"]"), 30);
	cr_assert_eq(count(path, "//*[@class=\"legend-region\"]"), 30);
	/* some labels had no room for the name: numbers instead */
	cr_assert_gt(count(path, "//*[@class=\"label-region\"][string-length(.) <= 2]"),
		     0);
	unlink(path);
	free(path);
}

Test(render_svg, declared_only_shows_hollow_markers_on_stream_roofs)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	/* the time backend: nothing counted, every region declared */
	for (size_t i = 0; i < rl_test_charts_report.n_rows; i++) {
		struct rl_region_row *r = &rl_test_charts_report.rows[i];
		r->ai = r->gflops = r->gbs = r->flops = r->dram_bytes = NAN;
		r->basis = RL_BASIS_DECLARED;
	}
	rl_test_charts_report.rows[3].precision = "mixed";
	rl_test_charts_report.rows[3].ai_expected = 0.25;
	rl_test_charts_report.rows[3].gflops_expected = 8;
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
	free(run(cmd));
	cr_assert_eq(count(path, "//*[@class=\"point\"]"), 0);
	cr_assert_eq(count(path, "//*[@class=\"declared\"]"), 4);
	cr_assert_eq(count(path, "//*[@class=\"gap\"]"), 0);
	/* slopes at the stream (24 B) bandwidth: DRAM 32 GB/s */
	char *svg = rl_test_slurp(path);
	cr_assert(strstr(svg, "DRAM 32 GB/s"));
	cr_assert(strstr(svg, "24 B/element (STREAM convention)"));
	free(svg);
	/* the mixed row is a diamond centred at its declared point */
	struct rl_chart c;
	rl_chart_layout(&c, &rl_test_charts_report, RL_CHART_PLOT_W,
			RL_CHART_PLOT_H);
	cr_assert_float_eq(
		xpath_num(path, "string(//*[local-name()=\"path\"][@class=\"declared\"]/@data-cx)"),
		rl_chart_px_x(&c, 0.25), 0.01);
	cr_assert_float_eq(
		xpath_num(path, "string(//*[local-name()=\"path\"][@class=\"declared\"]/@data-cy)"),
		rl_chart_px_y(&c, 8), 0.01);
	unlink(path);
	free(path);
}

Test(render_svg, placer_tests_rotated_boxes_exactly)
{
	struct rl_placer p = {.x0 = 0, .y0 = 0, .x1 = 100, .y1 = 100};
	cr_assert_eq(rl_placer_add(&p, rl_rect_quad(10, 10, 0, 0, 0, 20, 10, -1)),
		     0);
	/* overlapping, touching-free, outside the box */
	struct rl_quad q = rl_rect_quad(25, 15, 0, 0, 0, 10, 10, -1);
	cr_assert_not(rl_placer_is_free(&p, &q, 1));
	q = rl_rect_quad(31, 10, 0, 0, 0, 10, 10, -1);
	cr_assert(rl_placer_is_free(&p, &q, 1));
	q = rl_rect_quad(95, 10, 0, 0, 0, 10, 10, -1);
	cr_assert_not(rl_placer_is_free(&p, &q, 1));
	/* a 45-degree box whose bounding box would overlap, itself does not */
	q = rl_rect_quad(26, 2, 3.14159265358979 / 4, 0, -1, 14, 1, -1);
	cr_assert(rl_placer_is_free(&p, &q, 1));
	q = rl_rect_quad(20, 2, 3.14159265358979 / 4, 0, -1, 14, 1, -1);
	cr_assert_not(rl_placer_is_free(&p, &q, 1));
	/* lines are ignored unless asked, and by their owner */
	cr_assert_eq(rl_placer_add(&p, rl_segment_quad(50, 50, 90, 90, 7)), 0);
	q = rl_rect_quad(65, 65, 0, 0, 0, 10, 10, -1);
	cr_assert_not(rl_placer_is_free(&p, &q, 1));
	cr_assert(rl_placer_is_free(&p, &q, 0));
	q.owner = 7;
	cr_assert(rl_placer_is_free(&p, &q, 1));
	free(p.q);
}

Test(render_svg, renderer_is_registered_with_its_file_name)
{
	cr_assert_str_eq(rl_renderer_svg.format, "svg");
	cr_assert_str_eq(rl_renderer_svg.file_name, "roofline.svg");
}

Test(render_svg, roofs_follow_the_thread_count_most_regions_ran_with)
{
	struct rl_machine m;
	struct rl_report r;
	struct rl_chart c;
	rl_test_machine_charts(&m);
	rl_test_report_charts(&r, &m);
	/* triad on 2 threads, the five others on 1: the 1-thread roofs */
	for (size_t i = 1; i < r.n_summed; i++)
		r.rows[i].n_threads = 1;
	rl_report_choose_chart(&r);
	rl_chart_layout(&c, &r, RL_CHART_PLOT_W, RL_CHART_PLOT_H);
	cr_assert_eq(c.threads, 1);
	cr_assert_eq(c.roof_threads, 1, "the DRAM slope is the 1-thread one");
	/* a tie goes to fewer threads */
	for (size_t i = 0; i < r.n_summed; i++)
		r.rows[i].n_threads = i % 2 ? 2 : 1;
	rl_report_choose_chart(&r);
	rl_chart_layout(&c, &r, RL_CHART_PLOT_W, RL_CHART_PLOT_H);
	cr_assert_eq(c.threads, 1);
	for (size_t i = 0; i < r.n_summed; i++)
		r.rows[i].n_threads = i == 0 ? 1 : 2;
	rl_report_choose_chart(&r);
	rl_chart_layout(&c, &r, RL_CHART_PLOT_W, RL_CHART_PLOT_H);
	cr_assert_eq(c.threads, 2);
	rl_report_release(&r);
}

static void free_rows(struct rl_region_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].region);
		free(rows[i].method);
		free(rows[i].diagnosis);
	}
	free(rows);
}

/* The fixture report with n regions "r1".."rn" spread over the chart: AI
 * from 0.01 to 100, GFLOP/s shuffled over 0.1 to 100 (free_rows). */
static struct rl_report spread_points(size_t n)
{
	struct rl_report many = rl_test_charts_report;
	char name[16];

	many.rows = calloc(n, sizeof *many.rows);
	cr_assert_not_null(many.rows);
	for (size_t i = 0; i < n; i++) {
		double t = (double)i / (double)(n - 1);
		snprintf(name, sizeof name, "r%zu", i + 1);
		many.rows[i] = rl_test_report_row(
			name, "f64", pow(10, -2 + 4 * t),
			pow(10,
			    -1 + 3 * (double)((i * 37) % n) / (double)(n - 1)),
			NAN, NAN);
	}
	many.n_rows = many.n_summed = n;
	return many;
}

/* Thousands of regions: the label search (quadratic) is done for the
 * first 100 only, the others are numbered beside their point. */
Test(render_svg, labels_of_many_regions_are_numbered)
{
	if (!have_xmllint())
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	struct rl_report many = spread_points(150);
	char *path = rl_test_report_render(&rl_renderer_svg, &many, ".svg");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
	free(run(cmd));
	cr_assert_eq(count(path, "//*[@class=\"label-region\"][.=\"150\"]"), 1);
	cr_assert_eq(count(path, "//*[@class=\"label-region\"][.=\"r101\" or "
				 ".=\"r150\"]"),
		     0);
	cr_assert_geq(count(path, "//*[@class=\"label-region\"][.=\"r1\"]"), 1);
	unlink(path);
	free(path);
	free_rows(many.rows, 150);
}

/* The height attribute of the <svg> element. */
static double svg_height(const char *svg)
{
	const char *h = strstr(svg, " height=\"");
	cr_assert_not_null(h);
	return strtod(h + 9, NULL);
}

/* 1234 regions, 9 of them with counted flops (every 150th from the 8th),
 * the others with nothing (the time backend): the legend lists 120, the
 * 9 points first, with their report numbers, then says how many it left
 * out; the chart stays a chart's height. */
Test(render_svg, legend_of_many_regions_is_capped_with_a_count)
{
	enum { N = 1234 };
	struct rl_report many = rl_test_charts_report;
	char name[16], want[64];
	many.rows = calloc(N, sizeof *many.rows);
	cr_assert_not_null(many.rows);
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "r%d", i + 1);
		many.rows[i] =
			i % 150 == 7 ? rl_test_report_row(name, "f64",
							  0.1 * (i / 150 + 1),
							  2 + i / 150, NAN, NAN)
				     : rl_test_report_row(name, NULL, NAN, NAN,
							  NAN, NAN);
	}
	many.n_rows = many.n_summed = N;
	char *path = rl_test_report_render(&rl_renderer_svg, &many, ".svg");
	char *svg = rl_test_slurp(path);
	if (have_xmllint()) {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
		free(run(cmd));
	}
	cr_assert_eq(occurrences(svg, "class=\"legend-region\""), 120);
	cr_assert_eq(occurrences(svg, "class=\"legend-region\""),
		     occurrences(svg, "<text class=\"legend-region\""));
	/* every point is listed, with its number, and carries its name */
	cr_assert_eq(occurrences(svg, "<g class=\"region\""), 9);
	for (int i = 7; i < N; i += 150) {
		snprintf(want, sizeof want, ">%d r%d</text>", i + 1, i + 1);
		cr_assert_eq(occurrences(svg, want), 1, "no legend entry %s", want);
		snprintf(want, sizeof want, "<title>r%d&#10;", i + 1);
		cr_assert_eq(occurrences(svg, want), 1, "no title %s", want);
	}
	/* then the first 111 without a point, in report order: r1..r112
	 * without r8 */
	cr_assert(strstr(svg, ">1 r1 (no point: no flops)<title>"));
	cr_assert(strstr(svg, ">112 r112 (no point: no flops)<title>"));
	cr_assert_null(strstr(svg, ">113 r113 "));
	cr_assert_null(strstr(svg, ">1234 r1234 "));
	cr_assert_eq(occurrences(svg, "class=\"legend-more\""), 2);
	cr_assert(strstr(svg, ">\xe2\x80\xa6 and 1,114 more regions not listed "
			      "here: report.json and report.csv have every "
			      "region.</text>"));
	cr_assert(strstr(svg, ">Not listed: 1,114 without a point (no flops or "
			      "no bytes).</text>"));
	double h = svg_height(svg);
	cr_assert_lt(h, 5000, "height %g", h);
	cr_assert_gt(h, 566 + 40 * 16, "height %g: room for 40 lines", h);
	free(svg);
	unlink(path);
	free(path);
	free_rows(many.rows, N);
}

/* More points than the legend lists: the points labelled by their
 * number come first, so every number on the chart is in the legend; the
 * points left out keep their names on the chart and in their <title>. */
Test(render_svg, capped_legend_lists_the_numbered_points_first)
{
	enum { N = 150 };
	struct rl_report many = spread_points(N);
	char want[64];
	char *path = rl_test_report_render(&rl_renderer_svg, &many, ".svg");
	char *svg = rl_test_slurp(path);
	cr_assert_eq(occurrences(svg, "class=\"legend-region\""), 120);
	cr_assert_eq(occurrences(svg, "<g class=\"region\""), N);
	size_t numbered = 0, named = 0;
	for (const char *p = svg; (p = strstr(p, "class=\"label-region\""));
	     p++) {
		const char *t = strchr(p, '>');
		cr_assert_not_null(t);
		long k = strtol(t + 1, NULL, 10);
		if (t[1] == 'r') {
			named++;
			continue;
		}
		cr_assert(k >= 1 && k <= N, "label %.20s", t + 1);
		numbered++;
		snprintf(want, sizeof want, ">%ld r%ld</text>", k, k);
		cr_assert(strstr(svg, want), "point %ld not in the legend", k);
	}
	cr_assert_eq(numbered + named, N);
	cr_assert_geq(numbered, 50, "r101..r150 are numbered");
	cr_assert_eq(named, N - numbered);
	cr_assert(strstr(svg, ">Not listed: 30 on the chart (hover a point "
			      "for its name).</text>"));
	cr_assert(strstr(svg, "\xe2\x80\xa6 and 30 more regions not listed "
			      "here"));
	for (int i = 0; i < N; i++) {
		snprintf(want, sizeof want, "<title>r%d&#10;", i + 1);
		cr_assert_eq(occurrences(svg, want), 1, "no title %s", want);
	}
	free(svg);
	unlink(path);
	free(path);
	free_rows(many.rows, N);
}

/* A few regions: every one listed, no line about regions left out. */
Test(render_svg, small_legend_lists_every_region_without_a_note)
{
	char *path = rl_test_report_render(&rl_renderer_svg,
					   &rl_test_charts_report, ".svg");
	char *svg = rl_test_slurp(path);
	cr_assert_eq(occurrences(svg, "<text class=\"legend-region\""), 6);
	cr_assert_null(strstr(svg, "legend-more"));
	cr_assert_null(strstr(svg, "not listed"));
	cr_assert_lt(svg_height(svg), 800);
	free(svg);
	unlink(path);
	free(path);
}
