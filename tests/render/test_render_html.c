/* report.html against a hand-built report: self-contained, escaped, the
 * table, per-thread rows, machine and methods, the chart inline. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"
#include "render/render_ranks.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

extern const struct rl_renderer rl_renderer_html;

/* the charts fixture of tests/lib/ */

TestSuite(render_html, .init = rl_test_charts_init,
	  .fini = rl_test_charts_fini);

static size_t occurrences(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static char *render(void)
{
	char *path = rl_test_report_render(&rl_renderer_html,
					   &rl_test_charts_report, ".html");
	char *html = rl_test_slurp(path);
	unlink(path);
	free(path);
	return html;
}

Test(render_html, names_that_look_like_markup_stay_text)
{
	free(rl_test_charts_report.rows[1].region);
	rl_test_charts_report.rows[1].region =
		strdup("h\xc3\xb6rner \xe2\x88\x91 \xe6\x97\xa5");
	char *html = render();
	cr_assert_null(strstr(html, "<script>alert"));
	cr_assert_eq(occurrences(html, "<script"), 1, "only rlprof's own script");
	cr_assert_geq(occurrences(html, "&lt;script&gt;alert(1)&lt;/script&gt;"
					"&amp;&quot;&#39;"), 3, "table, chart, legend");
	cr_assert(strstr(html, "<b>h\xc3\xb6rner \xe2\x88\x91 \xe6\x97\xa5</b>"));
	cr_assert(strstr(html, "<meta charset=\"utf-8\">"));
	cr_assert(strstr(html, "Test CPU &lt;9000&gt; &amp; co"));
	free(html);
}

Test(render_html, is_self_contained)
{
	char *html = render();
	/* the only URL is the SVG namespace name, which is never fetched */
	cr_assert_eq(occurrences(html, "http"),
		     occurrences(html, "http://www.w3.org/2000/svg"));
	cr_assert_eq(occurrences(html, "http://www.w3.org/2000/svg"), 1);
	cr_assert_null(strstr(html, " src="));
	cr_assert_null(strstr(html, "<link"));
	cr_assert_null(strstr(html, "@import"));
	cr_assert_eq(occurrences(html, "<svg"), 1, "the chart is inline");
	cr_assert(strstr(html, "</html>\n"));
	free(html);
}

Test(render_html, has_a_sortable_table_with_thread_rows)
{
	char *html = render();
	cr_assert_eq(occurrences(html, "<tbody class=\"rl-region\" data-index="), 6);
	cr_assert(strstr(html, "<tbody class=\"rl-region\" data-index=\"6\">"));
	cr_assert_eq(occurrences(html, "<tr class=\"summed\">"), 6);
	cr_assert_eq(occurrences(html, "<tr class=\"thread\">"), 2);
	cr_assert_eq(occurrences(html, "<details><summary>per thread"), 1,
		     "only triad has threads");
	cr_assert_eq(occurrences(html, "<details><summary>method</summary>"), 6);
	cr_assert(strstr(html, "per thread (2)"));
	cr_assert(strstr(html, "<td>100</td><td>101</td>"));
	cr_assert(strstr(html, "<th data-type=\"num\">GFLOP/s</th>"));
	cr_assert(strstr(html, "<th data-type=\"num\">counted / declared</th>"));
	cr_assert(strstr(html, "addEventListener('click'"));
	/* triad: counted 0.0625 vs declared 0.0833: ratio 0.75 */
	cr_assert(strstr(html, "<td data-v=\"0.75\">0.75</td>"), "ratio cell");
	cr_assert(strstr(html, "88% <span class=\"muted\">of DRAM</span>"));
	/* unknown figures are "-", never 0 */
	cr_assert(strstr(html, "<td data-v=\"\" class=\"muted\">-</td>"));
	cr_assert(strstr(html, "region &#39;triad&#39; was open at exit"));
	cr_assert(strstr(html, "flops: sim (simulated); dram_bytes: sim cache model"));
	free(html);
}

Test(render_html, shows_the_machine_and_how_it_was_measured)
{
	char *html = render();
	cr_assert(strstr(html, "<h2>Machine</h2>"));
	cr_assert(strstr(html, "3.4 GHz measured"));
	cr_assert(strstr(html, "triad avx512 best of 20"));
	cr_assert(strstr(html, "single-chain chains, median of 21"));
	cr_assert_eq(occurrences(html, "<td class=\"t\" data-v=\"DRAM\">DRAM</td>"), 2);
	free(html);
}

Test(render_html, without_a_model_says_so)
{
	rl_test_charts_report.machine = NULL;
	char *html = render();
	cr_assert_geq(occurrences(html, "no machine model: run rlprof probe"), 2);
	cr_assert_null(strstr(html, "<h3>Bandwidth roofs</h3>"));
	free(html);
}

Test(render_html, parses_as_html)
{
	if (system("command -v xmllint >/dev/null 2>&1") != 0)
		cr_skip_test("xmllint is missing (apt-get install libxml2-utils)");
	char *path = rl_test_report_render(&rl_renderer_html,
					   &rl_test_charts_report, ".html");
	char cmd[512];
	/* libxml2's HTML parser does not know SVG tags: ignore those only */
	snprintf(cmd, sizeof cmd,
		 "xmllint --html --noout '%s' 2>&1 | grep -v 'Tag [a-z]* invalid' "
		 "| grep -E 'error|warning' | head -3", path);
	FILE *p = popen(cmd, "r");
	char buf[1024] = "";
	size_t n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = '\0';
	pclose(p);
	cr_assert_str_eq(buf, "", "xmllint --html: %s", buf);
	unlink(path);
	free(path);
}

Test(render_html, renderer_is_registered_with_its_file_name)
{
	cr_assert_str_eq(rl_renderer_html.format, "html");
	cr_assert_str_eq(rl_renderer_html.file_name, "report.html");
}

/* A figure that overflowed to infinity (sums of damaged counts) is shown
 * as unknown, never as "inf" (which would also break the sort). */
Test(render_html, infinite_figures_are_dashes)
{
	rl_test_charts_report.rows[0].flops = INFINITY;
	rl_test_charts_report.rows[0].roof_pct = INFINITY;
	rl_test_charts_report.rows[1].time_s = INFINITY;
	char *html = render();
	cr_assert_null(strstr(html, "inf"), "an inf in the page");
	free(html);
}

/* An MPI job of 2 ranks and 1500 regions: the aggregate table lists all
 * 1500, the region x rank table (3000 rows) 2000, then says how many more
 * there are and that report.json has them. */
Test(render_html, mpi_rank_rows_are_counted_past_2000)
{
	enum { NREG = 1500 };
	struct rl_rank_agg *aggs = calloc(NREG, sizeof *aggs);
	struct rl_rank_row *rows = calloc(2 * NREG, sizeof *rows);
	char *hosts[2] = {NULL, NULL}, *missing[2] = {NULL, NULL};
	struct rl_report_ranks k = {.size = 2, .n_present = 2, .hosts = hosts,
				    .missing_why = missing, .rows = rows,
				    .n_rows = 2 * NREG, .aggs = aggs,
				    .n_aggs = NREG};
	struct rl_report rep = {.ranks = &k};
	char *text = NULL;
	size_t len = 0, n = 0;
	FILE *f;

	cr_assert(aggs && rows);
	for (size_t i = 0; i < NREG; i++) {
		aggs[i] = (struct rl_rank_agg){.region = "r", .n_ranks = 2,
					       .slowest_rank = 1};
		for (long q = 0; q < 2; q++)
			rows[2 * i + (size_t)q] = (struct rl_rank_row){
				.region = "r", .rank = q, .n_threads = 1,
				.calls = 1, .time_s = 1};
	}
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	rl_ranks_html(f, &rep);
	fclose(f);
	for (const char *p = text;
	     (p = strstr(p, "<tr><td class=\"t\">r</td>")); p++)
		n++;
	cr_expect_eq(n, NREG + 2000, "%zu rows", n);
	cr_expect_not_null(strstr(text, "and 1000 more rows: report.json "
					"(\"mpi\") has every one"), "%s",
			   text + len - 300);
	free(text);
	free(aggs);
	free(rows);
}
