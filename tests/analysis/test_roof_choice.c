/* One roof chooser (analysis/roof_choice.c): a report whose rows ran on 1,
 * 2 and 3 threads, on a model with DRAM roofs at 1, 2 and 4 threads but
 * peaks at 1 and 4 only. Each row's roofs are of one count (1, 1 and 4:
 * a row needs a DRAM roof and a peak), and the table, the JSON, the
 * self-check and the chart all name that roof, never the one nearest the
 * row's own thread count (the 2-thread DRAM roof, kept in doubt here). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/roof_choice.h"
#include "render/render.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

#define BIT(c) (UINT64_C(1) << (c))

static const uint64_t counted = RL_TEST_SIM_LIKE;

static const char *const names[3] = {"one", "two", "three"};

/* Four cores; DRAM (moved GB/s) 30 at 1 thread, 48 at 2 (in doubt), 64
 * at 4; f64 avx2-fma peaks 50 at 1 thread and 200 at 4. */
static struct rl_machine *model(void)
{
	struct rl_machine *m = rl_test_machine_new(4, "Test CPU");
	struct rl_bw_roof *b;

	m->loadavg1 = 0.05;
	rl_test_machine_add_bw(m, "DRAM", 1, 24, 30);
	b = rl_test_machine_add_bw(m, "DRAM", 2, 36, 48);
	snprintf(b->doubt, sizeof b->doubt, "trials spread 40%%");
	rl_test_machine_add_bw(m, "DRAM", 4, 48, 64);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 1, 50);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 4, 200);
	return m;
}

/* Thread t (0..2) runs regions t..2 ("three" on all three threads):
 * each region moves DRAM bytes at 2x the 4-thread roof for its time, so
 * every one of them is above whichever roof it is held against. */
struct run3 {
	struct rl_process_results proc;
	struct rl_thread_results thr[3];
	struct rl_region_stats reg[3][3];
	struct rl_counter_total counts[3][3][RL_COUNTER_COUNT];
};

static void run3_init(struct run3 *r)
{
	memset(r, 0, sizeof *r);
	for (int t = 0; t < 3; t++) {
		for (int k = t; k < 3; k++) {
			struct rl_region_stats *s = &r->reg[t][k - t];
			s->name = (char *)names[k];
			s->calls = 1;
			s->time_ns = 100000000; /* 0.1 s */
			s->expected_flops = s->expected_bytes = NAN;
			s->counters = r->counts[t][k - t];
			for (int c = 0; c < RL_COUNTER_COUNT; c++) {
				s->counters[c].enabled_ns = 1000;
				s->counters[c].running_ns = 1000;
			}
			s->counters[RL_C_FLOPS_F64_256].value = 1000000;
			s->counters[RL_C_FLOPS_F64_256].scaled = 1e6;
			/* 12.8 GB in 0.1 s: 128 GB/s per thread */
			s->counters[RL_C_DRAM_READ_BYTES].value = 12800000000u;
			s->counters[RL_C_DRAM_READ_BYTES].scaled = 12.8e9;
		}
		r->thr[t].tid = 100 + (uint64_t)t;
		r->thr[t].index = (unsigned)t;
		r->thr[t].regions = r->reg[t];
		r->thr[t].n_regions = (size_t)(3 - t);
	}
	r->proc.version = 1;
	r->proc.pid = 100;
	r->proc.program = (char *)"./t";
	r->proc.backend = (char *)"test";
	r->proc.backend_note = (char *)"";
	r->proc.provided = counted;
	r->proc.complete = true;
	r->proc.start_ns = UINT64_C(1796256000) * 1000000000u;
	r->proc.threads = r->thr;
	r->proc.n_threads = 3;
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (counted & BIT(c))
			r->proc.method[c] = (char *)"test";
}

static const struct rl_region_row *row_of(const struct rl_report *rep,
					  const char *name)
{
	for (size_t i = 0; i < rep->n_summed; i++)
		if (rep->rows[i].region && !strcmp(rep->rows[i].region, name))
			return &rep->rows[i];
	cr_assert_fail("no row '%s'", name);
	return NULL;
}

Test(roof_choice, every_output_names_the_roof_of_the_rows_one_thread_count)
{
	struct rl_machine *m = model();
	struct run3 r3;
	struct rl_report rep;
	char err[256] = "";

	run3_init(&r3);
	struct rl_run_results run = {.procs = &r3.proc, .n_procs = 1,
				     .exit_status = 0};
	cr_assert_eq(rl_report_build(&run, m, &rep, err, sizeof err), 0, "%s",
		     err);

	/* the analysis: one count per row, its DRAM roof at that count */
	static const unsigned want_threads[3] = {1, 1, 4};
	static const double want_gbs[3] = {30, 30, 64};
	for (int k = 0; k < 3; k++) {
		const struct rl_region_row *row = row_of(&rep, names[k]);
		cr_assert_eq(row->n_threads, (unsigned)k + 1, "%s", names[k]);
		cr_assert_eq(row->roof_threads, want_threads[k], "%s: %u",
			     names[k], row->roof_threads);
		cr_assert_not_null(row->roof_bw, "%s", names[k]);
		cr_assert_eq(row->roof_bw,
			     rl_roof_bw_at(m, "DRAM", want_threads[k]));
		cr_assert_float_eq(row->roof_bw->moved_gbs, want_gbs[k], 1e-9);
		cr_assert_str_eq(row->bound_roof, "DRAM");
		/* the self-check fires and names that roof's count; the
		 * doubt of the 2-thread roof (nearest "two"'s own count) is
		 * not its to name */
		cr_assert_not_null(row->check, "%s", names[k]);
		cr_assert(!strstr(row->check, "in doubt"), "%s: %s", names[k],
			  row->check);
	}

	/* the JSON names the same count */
	char *json = rl_test_render_text("json", &rep);
	json_error_t je;
	json_t *root = json_loads(json, 0, &je), *regions, *e;
	size_t i;
	cr_assert_not_null(root, "%s", je.text);
	regions = json_object_get(root, "regions");
	cr_assert(json_is_array(regions));
	int seen = 0;
	json_array_foreach(regions, i, e) {
		const char *name = json_string_value(json_object_get(e, "region"));
		for (int k = 0; name && k < 3; k++) {
			if (strcmp(name, names[k]) ||
			    json_object_get(e, "tid"))
				continue;
			seen++;
			cr_assert_eq(json_integer_value(
					     json_object_get(e, "roof_threads")),
				     want_threads[k], "%s", name);
			cr_assert_str_eq(json_string_value(json_object_get(
						 e, "bound_roof")),
					 "DRAM");
		}
	}
	cr_assert_geq(seen, 3);
	json_decref(root);
	free(json);

	/* the chart: each point's roof segment is held against that count's
	 * roof, and the drawn roofs are of the count most rows used (1) */
	cr_assert(rep.chart.chosen);
	cr_assert_eq(rep.chart.threads, 1);
	for (size_t s = 0; s < rep.chart.n_slope; s++)
		cr_assert_eq(rep.chart.slope[s]->threads, 1);
	char *svg = rl_test_render_text("svg", &rep);
	cr_assert(strstr(svg, ": 30 GB/s, 1 thread</title>"), "%s", svg);
	cr_assert(strstr(svg, ": 64 GB/s, 4 threads</title>"), "%s", svg);
	cr_assert(!strstr(svg, ": 48 GB/s, 2 threads</title>"));
	free(svg);

	/* the table: every row memory-bound at DRAM, above its roof */
	char *table = rl_test_render_text("table", &rep);
	cr_assert(strstr(table, "self-check: 3 regions above"), "%s", table);
	free(table);

	rl_report_release(&rep);
	free(m);
}

Test(roof_choice, nearest_count_ties_go_to_fewer_threads)
{
	struct rl_machine *m = model();

	cr_assert(rl_roof_nearer(1, 3, 2));
	cr_assert(!rl_roof_nearer(3, 1, 2));
	cr_assert_eq(rl_roof_bw_nearest(m, "DRAM", 3)->threads, 2);
	cr_assert_eq(rl_roof_peak_nearest(m, "f64", 2)->threads, 1);
	cr_assert_eq(rl_roof_threads(m, 2), 1, "a DRAM roof and a peak");
	cr_assert_eq(rl_roof_threads(m, 3), 4);
	cr_assert_null(rl_roof_bw_at(m, "L3", 1));
	free(m);
}
