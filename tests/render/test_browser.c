/*
 * report.html in a real browser: headless Chromium opens it from a file://
 * URL. The screenshot is not blank (much larger than one of an empty page:
 * a one-colour PNG compresses to almost nothing), the DOM after the inline
 * script ran holds the table rows with the region names as text, and the
 * sort works (report.html#sort=N[d]). Skipped when chromium is missing.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render.h"
#include "tests/lib/browser.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

extern const struct rl_renderer rl_renderer_html;

static void teardown(void)
{
	rl_test_charts_fini();
	rl_test_chromium_cleanup();
}

TestSuite(browser, .init = rl_test_charts_init, .fini = teardown,
	  .timeout = 180);

static long screenshot_bytes(const char *url, const char *png)
{
	char args[512];
	snprintf(args, sizeof args, "--screenshot='%s' --window-size=1200,900",
		 png);
	free(rl_test_chromium(args, url));
	struct stat st;
	cr_assert_eq(stat(png, &st), 0, "no screenshot %s", png);
	char *data = rl_test_slurp(png);
	cr_assert_eq(memcmp(data, "\x89PNG\r\n\x1a\n", 8), 0, "not a PNG");
	free(data);
	return (long)st.st_size;
}

Test(browser, screenshot_is_not_blank)
{
	rl_test_need_chromium();
	char *html = rl_test_report_render(&rl_renderer_html,
					   &rl_test_charts_report, ".html");
	char blank[256], url[512], png[256], blank_png[256];
	snprintf(blank, sizeof blank, "%s/blank.html", rl_test_chromium_dir());
	FILE *f = fopen(blank, "w");
	cr_assert(f);
	fputs("<!DOCTYPE html><html><body></body></html>\n", f);
	fclose(f);
	snprintf(blank_png, sizeof blank_png, "%s/blank.png", rl_test_chromium_dir());
	snprintf(url, sizeof url, "file://%s", blank);
	long empty = screenshot_bytes(url, blank_png);
	snprintf(png, sizeof png, "%s/report.png", rl_test_chromium_dir());
	snprintf(url, sizeof url, "file://%s", html);
	long full = screenshot_bytes(url, png);
	const char *keep = getenv("RLPROF_KEEP_CHARTS");
	if (keep && *keep) {
		char cmd[1024];
		snprintf(cmd, sizeof cmd, "cp '%s' '%s/browser.png'", png, keep);
		cr_assert_eq(system(cmd), 0);
	}
	cr_assert_gt(full, 20000, "screenshot of %ld bytes looks blank", full);
	cr_assert_gt(full, 5 * empty, "report %ld bytes vs empty page %ld", full,
		     empty);
	unlink(html);
	free(html);
}

static const char *after(const char *s, const char *needle)
{
	const char *p = strstr(s, needle);
	cr_assert(p, "'%s' not in the DOM", needle);
	return p;
}

Test(browser, dom_has_the_rows_and_the_script_ran)
{
	rl_test_need_chromium();
	char *html = rl_test_report_render(&rl_renderer_html,
					   &rl_test_charts_report, ".html");
	char url[512];
	snprintf(url, sizeof url, "file://%s", html);
	char *dom = rl_test_chromium("--dump-dom", url);
	after(dom, "data-sortable=\"1\"");
	after(dom, "<b>triad</b>");
	after(dom, "<b>horner64</b>");
	after(dom, "<b>declared only</b>");
	/* the evil name is text in the DOM, not an element */
	after(dom, "<b>&lt;script&gt;alert(1)&lt;/script&gt;&amp;\"'</b>");
	cr_assert_null(strstr(dom, "<script>alert"));
	/* the chart made it into the DOM with its points */
	after(dom, "class=\"point\"");
	after(dom, "<svg");
	free(dom);
	unlink(html);
	free(html);
}

Test(browser, sorts_by_a_column)
{
	rl_test_need_chromium();
	char *html = rl_test_report_render(&rl_renderer_html,
					   &rl_test_charts_report, ".html");
	char url[512];
	/* column 3 is GFLOP/s; "d" = descending; unknown values last */
	snprintf(url, sizeof url, "file://%s#sort=3d", html);
	char *dom = rl_test_chromium("--dump-dom", url);
	const char *table = after(dom, "id=\"rl-regions\"");
	const char *order[] = {"<b>horner64</b>", "<b>dot f32</b>",
			       "<b>&lt;script&gt;", "<b>triad</b>",
			       "<b>declared only</b>"};
	const char *prev = table;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		const char *p = after(table, order[i]);
		cr_assert_gt(p, prev, "%s out of order", order[i]);
		prev = p;
	}
	after(dom, "aria-sort=\"descending\"");
	free(dom);
	unlink(html);
	free(html);
}
