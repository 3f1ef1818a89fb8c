/*
 * rlprof run --repeat N (report_repeat.c): a region's time is the median
 * of its N timing runs, and its rates, its % of roof, its self-check and
 * its diagnosis follow from that median, with the runs' interval around
 * it; the profiling run's own time is kept as the first of the runs. One
 * slow or fast run moves neither the figure nor the verdict. Built by
 * hand: a model, one region, the other runs' times as
 * rl_repeat_runs_read gives them.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/report.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

/* One core, DRAM triad 22.5 GB/s STREAM (30 moved), f64 peak 40. */
static struct rl_machine *model(void)
{
	struct rl_machine *m = rl_test_machine_new(1, "Test CPU");
	struct rl_compute_roof *c;

	snprintf(m->probed_at, sizeof m->probed_at, "2026-12-01T00:00:00Z");
	m->loadavg1 = 0.05;
	rl_test_machine_add_bw(m, "DRAM", 1, 22.5, 30);
	c = rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 1, 40);
	c->width_bits = 256;
	c->fma = 1;
	return m;
}

/* The other runs' times of region "k" (n of them), as read from disk. */
static void runs_of_k(struct rl_repeat_runs *rr, const double *t, size_t n)
{
	memset(rr, 0, sizeof *rr);
	rr->n_runs = n;
	rr->n_regions = rr->cap = 1;
	rr->names = malloc(sizeof *rr->names);
	rr->times = malloc(n * sizeof *rr->times);
	cr_assert(rr->names && rr->times);
	cr_assert_not_null(rr->names[0] = strdup("k"));
	cr_assert_eq(rl_name_index_put(&rr->ix, rr->names[0], 0), 0);
	memcpy(rr->times, t, n * sizeof *t);
}

/* Region "k" (24 GB read, 8 GB written: the triad's mix; 1 GFLOP of
 * 256-bit FMAs), its profiling run taking time_s, placed with the other
 * runs rr (NULL: none). */
static const struct rl_region_row *build(struct rl_report *rep,
					 const struct rl_machine *m,
					 struct rl_test_one *o, double time_s,
					 const struct rl_repeat_runs *rr)
{
	struct rl_run_results run = {.procs = &o->proc, .n_procs = 1,
				     .exit_status = -1};
	char err[256] = "";

	rl_test_one_init(o, 1, RL_TEST_SIM_LIKE, "k", time_s);
	rl_test_one_triad_mix(o);
	cr_assert_eq(rl_report_build_runs(&run, m, rr, rep, err, sizeof err),
		     0, "%s", err);
	cr_assert_eq(rep->n_summed, 1);
	return &rep->rows[0];
}

/* Runs of 0.9 s (the profiling run), 1.3 s and 1.2 s: the row's time is
 * 1.2 s, its rates and % of roof those of 1.2 s (32 GB over 1.2 s =
 * 26.7 GB/s: 88.9% of the 30 moved), the table prints 1.20 s with its
 * range around it, and the interval's median is the row's figure. */
Test(repeat_median, the_figure_read_is_the_runs_median)
{
	static const double other[2] = {1.3, 1.2};
	struct rl_machine *m = model();
	struct rl_repeat_runs rr;
	struct rl_report rep;
	struct rl_test_one o;
	struct rl_row_interval iv;
	const struct rl_region_row *r;
	char *table;

	runs_of_k(&rr, other, 2);
	r = build(&rep, m, &o, 0.9, &rr);
	cr_assert_eq(r->repeat_runs, 3);
	cr_assert_float_eq(r->time_s, 1.2, 1e-12);
	cr_assert_float_eq(r->time_median_s, 1.2, 1e-12);
	cr_assert_float_eq(r->time_min_s, 0.9, 1e-12);
	cr_assert_eq(r->repeat_n_times, 3);
	cr_assert_float_eq(r->repeat_times_s[0], 0.9, 1e-12); /* profiling */
	cr_assert_float_eq(r->repeat_times_s[1], 1.3, 1e-12);
	cr_assert_float_eq(r->gflops, 1 / 1.2, 1e-9);
	cr_assert_float_eq(r->gbs, 32 / 1.2, 1e-9);
	cr_assert_float_eq(r->roof_pct, 32 / 1.2 / 30 * 100, 1e-6);
	cr_assert_null(r->check, "%s", r->check);
	cr_assert(strstr(r->diagnosis, "89%"), "%s", r->diagnosis);
	rl_row_interval(r, &iv);
	cr_assert_eq(iv.kind, RL_INTERVAL_RANGE);
	cr_assert_float_eq(iv.roof_pct.median, r->roof_pct, 1e-9);
	cr_assert_float_eq(iv.roof_pct.hi, 32 / 0.9 / 30 * 100, 1e-6);
	cr_assert_float_eq(iv.roof_pct.lo, 32 / 1.3 / 30 * 100, 1e-6);
	table = rl_test_render_text("table", &rep);
	cr_assert(strstr(table, "1.20 s  -25/+8%"), "%s", table);
	free(table);
	rl_report_release(&rep);

	/* without the other runs: the profiling run's own 0.9 s */
	r = build(&rep, m, &o, 0.9, NULL);
	cr_assert_eq(r->repeat_runs, 0);
	cr_assert_float_eq(r->time_s, 0.9, 1e-12);
	cr_assert_float_eq(r->roof_pct, 32 / 0.9 / 30 * 100, 1e-6);
	rl_report_release(&rep);
	rl_repeat_runs_release(&rr);
	free(m);
}

/* One fast run does not put a region above its roof: a profiling run of
 * 0.8 s (40 GB/s, 133% of the roof) is a finding alone; with runs of
 * 1.1 s and 1.15 s the median (1.1 s, 97%) places it, without one. */
Test(repeat_median, one_fast_run_makes_no_finding)
{
	static const double other[2] = {1.1, 1.15};
	struct rl_machine *m = model();
	struct rl_repeat_runs rr;
	struct rl_report rep;
	struct rl_test_one o;
	const struct rl_region_row *r;

	r = build(&rep, m, &o, 0.8, NULL);
	cr_assert_not_null(r->check);
	rl_report_release(&rep);
	runs_of_k(&rr, other, 2);
	r = build(&rep, m, &o, 0.8, &rr);
	cr_assert_float_eq(r->roof_pct, 32 / 1.1 / 30 * 100, 1e-6);
	cr_assert_null(r->check, "%s", r->check);
	rl_report_release(&rep);
	rl_repeat_runs_release(&rr);
	free(m);
}

/* A region the other runs did not time, and runs that timed no region
 * of this report, leave the row as the profiling run timed it; a
 * folder without repeat/ reads as no runs. */
Test(repeat_median, runs_without_the_region_change_nothing)
{
	static const double other[1] = {NAN};
	struct rl_machine *m = model();
	struct rl_repeat_runs rr;
	struct rl_report rep;
	struct rl_test_one o;
	const struct rl_region_row *r;

	runs_of_k(&rr, other, 1);
	r = build(&rep, m, &o, 0.9, &rr);
	cr_assert_eq(r->repeat_runs, 0);
	cr_assert_null(r->repeat_times_s);
	cr_assert_float_eq(r->time_s, 0.9, 1e-12);
	rl_report_release(&rep);
	rl_repeat_runs_release(&rr);
	cr_assert_eq(rl_repeat_runs_read(&rr, "/nonexistent"), 0);
	cr_assert_eq(rr.n_runs, 0);
	rl_repeat_runs_release(&rr);
	free(m);
}
