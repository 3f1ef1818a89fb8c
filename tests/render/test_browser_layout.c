/*
 * report.html fits a 1400 px window with no overlapping chart label
 * (issue 39): headless Chromium opens a copy of the report with
 * tests/data/browser/layout_check.js appended, which writes its verdict
 * into <body data-layout="...">: "ok", or a line per element that reaches
 * past the window's edge and per pair of chart texts whose boxes (as
 * drawn, rotation included) overlap. The reports: a --loops run of a C++
 * program, the demo's kernels, and a hand-built one with the long
 * demangled names of real C++ loops. Skipped without chromium or, for the
 * runs, the simulator.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"
#include "tests/lib/browser.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define CHECK_JS RL_SOURCE_DIR "/tests/data/browser/layout_check.js"
#define MODEL RL_SOURCE_DIR "/tests/data/chart/machine.json"
#define WIDTH "1400"

extern const struct rl_renderer rl_renderer_html;

static void teardown(void)
{
	rl_test_charts_fini();
	rl_test_chromium_cleanup();
}

TestSuite(browser_layout, .init = rl_test_charts_init, .fini = teardown,
	  .timeout = 240);

/* The verdict of the layout check on report html at WIDTH px. */
static char *layout_verdict(const char *html)
{
	char *page = rl_test_slurp(html), *js = rl_test_slurp(CHECK_JS);
	char path[1024], url[1100];
	char *end = strstr(page, "</body>");
	FILE *f;

	cr_assert_not_null(end, "%s has no </body>", html);
	snprintf(path, sizeof path, "%s.check.html", html);
	cr_assert_not_null(f = fopen(path, "w"));
	fprintf(f, "%.*s<script>%s</script>%s", (int)(end - page), page, js,
		end);
	cr_assert_eq(fclose(f), 0);
	free(page);
	free(js);
	snprintf(url, sizeof url, "file://%s", path);
	char *dom = rl_test_chromium("--window-size=" WIDTH ",900 --dump-dom",
				     url);
	const char *v = strstr(dom, "data-layout=\"");
	cr_assert_not_null(v, "the check did not run: %.2000s", dom);
	v += strlen("data-layout=\"");
	char *verdict = strndup(v, strcspn(v, "\""));
	/* the attribute's entities back to text, for the message */
	static const char *const ent[][2] = {
		{"&quot;", "\""}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}};
	for (size_t k = 0; k < 4; k++)
		for (char *e; (e = strstr(verdict, ent[k][0]));)
			memmove(e + 1, e + strlen(ent[k][0]),
				strlen(e + strlen(ent[k][0])) + 1),
				*e = ent[k][1][0];
	cr_assert(strstr(dom, "data-layout-width=\"" WIDTH "\"") ||
			  strstr(dom, "data-layout-width=\"1385\""),
		  "the window was not " WIDTH " px wide");
	free(dom);
	unlink(path);
	return verdict;
}

static void expect_fits(const char *html)
{
	char *verdict = layout_verdict(html);
	cr_expect_str_eq(verdict, "ok", "%s at " WIDTH " px:\n%s", html,
			 verdict);
	free(verdict);
}

/* rlprof run -b sim [args...] -o dir/out against the chart fixture's
 * model; returns dir/out/report.html (malloc'd). */
static char *sim_report_html(const char *dir, const char *const *args)
{
	const char *argv[32] = {E2E_RLPROF, "run", "-q", "-b", "sim"};
	const char *env[] = {"RLPROF_MACHINE=" MODEL, NULL};
	char out[512], *html;
	size_t n = 5;

	snprintf(out, sizeof out, "%s/out", dir);
	argv[n++] = "-o";
	argv[n++] = out;
	for (size_t i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	e2e_need(E2E_RLPROF);
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
	e2e_free(&r);
	cr_assert(asprintf(&html, "%s/report.html", out) > 0);
	return html;
}

Test(browser_layout, a_loops_run_fits_1400_px)
{
	const char *args[] = {"--loops", E2E_PROG("loops-stl"), "3000000",
			      NULL};
	rl_test_need_chromium();
	sim_need();
	if (access(args[1], X_OK) != 0)
		cr_skip_test("g++ is not installed: loops-stl not built");
	char *dir = e2e_tmpdir(), *html = sim_report_html(dir, args);
	expect_fits(html);
	free(html);
	e2e_rmtree(dir);
	free(dir);
}

Test(browser_layout, the_demo_kernels_fit_1400_px)
{
	const char *args[] = {"--sim-caches", "32K:8,256K:8,1M:16",
			      RL_BUILD_DIR "/bin/rlprof-kernels-sim", "--size",
			      "512K", "--repeat", "1", "--matmul-n", "64",
			      NULL};
	rl_test_need_chromium();
	sim_need();
	e2e_need(args[2]);
	char *dir = e2e_tmpdir(), *html = sim_report_html(dir, args);
	expect_fits(html);
	free(html);
	e2e_rmtree(dir);
	free(dir);
}

/* The charts' report with the names of real C++ loops, demangled: long
 * and without a space to break at. */
Test(browser_layout, long_cxx_loop_names_fit_1400_px)
{
	static const char *const names[] = {
		"loop LagrangeLeapFrog.cc:1124 (std::vector<double,std::"
		"allocator<double>>::operator[])",
		"loop hydro_kernels.hpp:88 (hydro::Domain::"
		"CalcMonotonicQGradientsForElems<double,std::integral_constant"
		"<int,3>>)",
		"GridInit::calculate_macro_xs_for_every_nuclide_and_material_"
		"index_without_spaces",
	};
	struct rl_report *r = &rl_test_charts_report;
	rl_test_need_chromium();
	for (size_t i = 0; i < 3 && i < r->n_summed; i++) {
		free(r->rows[i].region);
		cr_assert_not_null(r->rows[i].region = strdup(names[i]));
	}
	char *html = rl_test_report_render(&rl_renderer_html, r, ".html");
	expect_fits(html);
	unlink(html);
	free(html);
}
