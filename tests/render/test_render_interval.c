/*
 * Every timed figure with its interval (issue 38, section 2): with
 * rlprof run --repeat, a region's time, GFLOP/s, GB/s and % of roof carry
 * their median and a 90% interval of the median over the runs (with
 * fewer than 5 runs, their range) in JSON and CSV, a "spread" column in
 * the table that fits 100 columns, an error bar on the chart; the counts
 * say they have none. On the charts' report with chosen run times.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "render/render.h"
#include "tests/lib/report.h"

TestSuite(interval, .init = rl_test_charts_init, .fini = rl_test_charts_fini);

static struct rl_region_row timed_row(const double *t, unsigned n)
{
	struct rl_region_row row;

	memset(&row, 0, sizeof row);
	row.time_s = t[0];
	row.gflops = 2.0;
	row.gbs = 4.0;
	row.roof_pct = 50.0;
	row.repeat_times_s = t;
	row.repeat_n_times = n;
	return row;
}

Test(interval, median_and_order_statistic_bounds)
{
	const double t5[] = {1.0, 1.1, 0.9, 1.3, 1.0};
	const double t10[] = {1.0, 1.1, 0.9, 1.3, 1.0,
			      0.95, 1.05, 2.5, 0.5, 1.02};
	const double t3[] = {1.0, 1.2, NAN};
	struct rl_region_row row = timed_row(t5, 5);
	struct rl_row_interval iv;

	rl_row_interval(&row, &iv);
	cr_assert_eq(iv.kind, RL_INTERVAL_MEDIAN90);
	cr_expect_eq(iv.runs, 5);
	cr_expect_float_eq(iv.time_s.median, 1.0, 1e-12);
	/* 5 runs: the fastest and the slowest (93.75% of the median) */
	cr_expect_float_eq(iv.time_s.lo, 0.9, 1e-12);
	cr_expect_float_eq(iv.time_s.hi, 1.3, 1e-12);
	/* the rates: the row's counts over each time, bounds reversed */
	cr_expect_float_eq(iv.gflops.median, 2.0, 1e-12);
	cr_expect_float_eq(iv.gflops.lo, 2.0 / 1.3, 1e-12);
	cr_expect_float_eq(iv.gflops.hi, 2.0 / 0.9, 1e-12);
	cr_expect_float_eq(iv.gbs.hi, 4.0 / 0.9, 1e-12);
	cr_expect_float_eq(iv.roof_pct.lo, 50.0 / 1.3, 1e-12);

	/* 10 runs: the second fastest and slowest, so one outlier on each
	 * side (0.5 and 2.5) is outside */
	row = timed_row(t10, 10);
	rl_row_interval(&row, &iv);
	cr_expect_eq(iv.kind, RL_INTERVAL_MEDIAN90);
	cr_expect_float_eq(iv.time_s.lo, 0.9, 1e-12);
	cr_expect_float_eq(iv.time_s.hi, 1.3, 1e-12);
	cr_expect_float_eq(iv.time_s.median, 1.01, 1e-12);

	/* 2 usable runs: their range, said as such */
	row = timed_row(t3, 3);
	rl_row_interval(&row, &iv);
	cr_expect_eq(iv.kind, RL_INTERVAL_RANGE);
	cr_expect_eq(iv.runs, 2);
	cr_expect_float_eq(iv.time_s.lo, 1.0, 1e-12);
	cr_expect_float_eq(iv.time_s.hi, 1.2, 1e-12);

	/* no runs kept: none, and an unknown rate stays unknown */
	row = timed_row(t5, 5);
	row.gflops = NAN;
	rl_row_interval(&row, &iv);
	cr_expect(isnan(iv.gflops.median) && isnan(iv.gflops.lo));
	row.repeat_times_s = NULL;
	rl_row_interval(&row, &iv);
	cr_expect_eq(iv.kind, RL_INTERVAL_NONE);
}

/* The charts' first region ("triad", counted) timed 5 times. */
static void give_runs(struct rl_report *r)
{
	static const double t[] = {1.0, 1.1, 0.9, 1.3, 1.0};
	struct rl_region_row *row = &r->rows[0];

	r->repeat_times = malloc(sizeof t);
	cr_assert_not_null(r->repeat_times);
	for (size_t i = 0; i < 5; i++)
		r->repeat_times[i] = t[i] * row->time_s;
	row->repeat_times_s = r->repeat_times;
	row->repeat_n_times = 5;
	row->repeat_runs = 5;
	row->time_min_s = 0.9 * row->time_s;
	row->time_median_s = row->time_s;
	row->time_spread_pct = 100.0 * (1.3 - 0.9) / 0.9;
}

static char *render(const char *format, unsigned width)
{
	struct rl_render_options opt = {0};
	const struct rl_renderer *rend = rl_renderer_find(format);
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(rend);
	cr_assert_not_null(f);
	opt.width = width;
	cr_assert_eq(rend->render(f, &rl_test_charts_report, &opt, err,
				  sizeof err),
		     0, "%s", err);
	fclose(f);
	return text;
}

Test(interval, json_and_csv_carry_each_figure_with_its_bounds)
{
	char *json, *csv, *line;

	give_runs(&rl_test_charts_report);
	json = render("json", 0);
	cr_expect(strstr(json, "\"interval\":{\"kind\":\"median90\",\"time_s\":"
			       "{\"median\":") != NULL,
		  "%s", json);
	cr_expect(strstr(json, "\"counts\":\"the profiling run's: no "
			       "interval\"") != NULL, "%s", json);
	cr_expect(strstr(json, "\"times_s\":[") != NULL, "%s", json);
	free(json);

	csv = render("csv", 0);
	cr_expect(strstr(csv, ",mpi_s,interval,time_median_s,time_lo_s,"
			      "time_hi_s,gflops_median,gflops_lo,gflops_hi,"
			      "gbs_median,gbs_lo,gbs_hi,roof_pct_median,"
			      "roof_pct_lo,roof_pct_hi\n") != NULL,
		  "%s", csv);
	line = strstr(csv, "\ntriad,,");
	cr_assert_not_null(line, "%s", csv);
	cr_expect(strstr(line, ",median90,") != NULL &&
			  strstr(line, ",median90,") < strchr(line + 1, '\n'),
		  "%s", line);
	free(csv);
}

Test(interval, table_spread_column_fits_100_columns)
{
	char *table;
	const char *p, *head;

	give_runs(&rl_test_charts_report);
	table = render("table", 100);
	head = strstr(table, "region");
	cr_assert_not_null(head, "%s", table);
	cr_expect(strstr(head, " spread ") != NULL &&
			  strstr(head, " spread ") < strchr(head, '\n'),
		  "%s", table);
	cr_expect(strstr(table, "-10/+30%") != NULL, "%s", table);
	for (p = table; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		cr_expect_leq(n, 100, "a line of %zu bytes: %.*s", n, (int)n,
			      p);
		p += n + (nl != NULL);
	}
	cr_expect(strstr(table, "spread: the time's 90% interval") != NULL,
		  "%s", table);
	free(table);
}

Test(interval, chart_draws_an_error_bar_only_where_there_are_runs)
{
	char *svg = render("svg", 0);

	cr_expect_null(strstr(svg, "error-bar"), "no runs, no bar");
	free(svg);
	give_runs(&rl_test_charts_report);
	svg = render("svg", 0);
	cr_expect(strstr(svg, "<path class=\"error-bar\"") != NULL, "%s", svg);
	cr_expect(strstr(svg, "GFLOP/s over 5 runs: median ") != NULL, "%s",
		  svg);
	free(svg);
}
