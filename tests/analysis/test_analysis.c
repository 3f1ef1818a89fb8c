/* analysis.c: roofline arithmetic against hand-computed values. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "common/rl_error.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

#define DATA RL_SOURCE_DIR "/tests/data/results/"
#define BIT(c) (UINT64_C(1) << (c))
#define EPS 1e-9

static void build(struct rl_process_results *procs, size_t n,
		  const struct rl_machine *m, struct rl_report *rep)
{
	struct rl_run_results run = {.procs = procs, .n_procs = n,
					     .exit_status = -1};
	char err[256] = "";

	cr_assert_eq(rl_report_build(&run, m, rep, err, sizeof err), 0, "%s",
		     err);
}

Test(analysis, attainable_and_bound_are_the_roofline)
{
	cr_assert_float_eq(rl_attainable_gflops(100, 50, 0.5), 25, EPS);
	cr_assert_float_eq(rl_attainable_gflops(100, 50, 4), 100, EPS);
	cr_assert(isnan(rl_attainable_gflops(100, NAN, 4)));
	cr_assert(isnan(rl_attainable_gflops(NAN, 50, 4)));
	cr_assert_eq(rl_bound_of(100, 50, 1.99), RL_BOUND_MEMORY);
	cr_assert_eq(rl_bound_of(100, 50, 2.0), RL_BOUND_COMPUTE); /* ridge */
	cr_assert_eq(rl_bound_of(100, 50, 3), RL_BOUND_COMPUTE);
	cr_assert_eq(rl_bound_of(100, 50, NAN), RL_BOUND_UNKNOWN);
	cr_assert_eq(rl_bound_of(0, 50, 1), RL_BOUND_UNKNOWN);
}

/* good.json: triad in two threads (1 s and 1.5 s), "init, setup" in one. */
Test(analysis, sums_threads_and_takes_the_longest_time)
{
	struct rl_process_results p;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;
	const struct rl_region_row *t;
	char err[512];

	cr_assert_eq(rl_results_load(DATA "good.json", &p, err, sizeof err), 0,
		     "%s", err);
	build(&p, 1, m, &rep);
	cr_assert_eq(rep.n_summed, 2);
	cr_assert_eq(rep.n_rows, 5);
	t = &rep.rows[0];
	cr_assert_str_eq(t->region, "triad");
	cr_assert_str_eq(rep.rows[1].region, "init, setup");
	cr_assert_eq(t->pid, 0);
	cr_assert_eq(t->tid, 0);
	cr_assert_eq(t->n_threads, 2);
	cr_assert_eq(t->calls, 20);
	cr_assert_float_eq(t->time_s, 1.5, EPS);
	cr_assert_float_eq(t->flops, 4e9, 1);
	cr_assert_float_eq(t->flops_f64, 4e9, 1);
	cr_assert_float_eq(t->flops_f32, 0, EPS);
	cr_assert_str_eq(t->precision, "f64");
	cr_assert_float_eq(t->dram_read_bytes, 32e9, 1);
	cr_assert_float_eq(t->dram_write_bytes, 16e9, 1);
	cr_assert_float_eq(t->dram_bytes, 48e9, 1);
	cr_assert_float_eq(t->level_bytes[3], 48e9, 1);
	cr_assert(isnan(t->level_bytes[0]));
	cr_assert_float_eq(t->ai, 1.0 / 12, EPS);
	cr_assert_float_eq(t->gflops, 4.0 / 1.5, EPS);
	cr_assert_float_eq(t->gbs, 32, EPS);
	cr_assert_float_eq(t->flops_expected, 4e9, 1);
	cr_assert_float_eq(t->bytes_expected, 48e9, 1);
	cr_assert_float_eq(t->ai_expected, 1.0 / 12, EPS);
	cr_assert_float_eq(t->gflops_expected, 4.0 / 1.5, EPS);
	/* 2 threads: DRAM moved 48 GB/s x 1/12 = 4 GFLOP/s < peak 100 */
	cr_assert_eq(t->basis, RL_BASIS_COUNTED);
	cr_assert_eq(t->bound, RL_BOUND_MEMORY);
	cr_assert_str_eq(t->bound_roof, "DRAM");
	cr_assert_float_eq(t->roof_gflops, 4, EPS);
	cr_assert_float_eq(t->roof_pct, 100 * (4.0 / 1.5) / 4, 1e-9);
	cr_assert_float_eq(t->scaled_ratio, 1, EPS);
	cr_assert_not(t->simulated);
	cr_assert_not(t->has_system_wide);
	cr_assert_str_eq(t->method,
			 "flops: perf fp_arith_inst_retired 256b x4, "
			 "per-thread; bytes: perf offcore dram x64, "
			 "per-thread; roofs: the triad's (this machine model "
			 "has no read-only or fill points: rlprof probe "
			 "--force); ceiling: the best peak (flops by width not "
			 "counted)");
	/* no flops: held against the bandwidth roof (data movement) */
	cr_assert_str_eq(rep.rows[1].method,
			 "flops: perf fp_arith_inst_retired 256b x4, "
			 "per-thread; bytes: perf offcore dram x64, "
			 "per-thread; roofs: no flops: the bytes moved per "
			 "second against each level's bandwidth for the "
			 "region's read/write mix; the level nearest its roof "
			 "binds");
	cr_assert_not_null(t->diagnosis);

	/* no flops at all: AI 0, no roofline, but a bandwidth roof: its
	 * GB/s against the DRAM roof for its mix (data movement) */
	cr_assert_float_eq(rep.rows[1].ai, 0, EPS);
	cr_assert(isnan(rep.rows[1].flops_expected));
	cr_assert_null(rep.rows[1].precision);
	cr_assert_eq(rep.rows[1].bound, RL_BOUND_MEMORY);
	cr_assert_eq(rep.rows[1].basis, RL_BASIS_COUNTED);
	cr_assert(rep.rows[1].data_movement);
	cr_assert_str_eq(rep.rows[1].bound_roof, "DRAM");
	cr_assert(isnan(rep.rows[1].roof_gflops));
	cr_assert_float_eq(rep.rows[1].roof_pct,
			   rep.rows[1].gbs / rep.rows[1].roof_gbs * 100, 1e-9);

	/* per-thread rows, grouped by summed row (triad's two threads,
	 * then init's one): one thread each, 1-thread roofs (DRAM 30) */
	cr_assert_eq(rep.rows[0].thread_first, 2);
	cr_assert_eq(rep.rows[0].thread_count, 2);
	cr_assert_eq(rep.rows[1].thread_first, 4);
	cr_assert_eq(rep.rows[1].thread_count, 1);
	cr_assert_str_eq(rep.rows[2].region, "triad");
	cr_assert_eq(rep.rows[2].tid, 100);
	cr_assert_eq(rep.rows[2].pid, 100);
	cr_assert_eq(rep.rows[2].n_threads, 1);
	cr_assert_str_eq(rep.rows[3].region, "triad");
	cr_assert_eq(rep.rows[3].tid, 101);
	cr_assert_float_eq(rep.rows[3].time_s, 1.5, EPS);
	cr_assert_float_eq(rep.rows[3].roof_gflops, 30.0 / 12, EPS);
	cr_assert_float_eq(rep.rows[3].roof_pct, 100 * (2.0 / 1.5) / 2.5,
			   1e-9);
	cr_assert_str_eq(rep.rows[4].region, "init, setup");
	cr_assert_eq(rep.rows[4].tid, 100);

	cr_assert_str_eq(rep.backend, "perf");
	cr_assert_eq(rep.n_warnings, 1);
	cr_assert_str_eq(rep.warnings[0].kind, "open-at-exit");
	rl_report_release(&rep);
	rl_results_release(&p);
	free(m);
}

Test(analysis, right_of_the_ridge_is_compute_bound)
{
	struct rl_test_one o;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;

	rl_test_one_init(&o, 1,
		 BIT(RL_C_FLOPS_F64_512) | BIT(RL_C_DRAM_READ_BYTES) |
			 BIT(RL_C_DRAM_WRITE_BYTES),
		 "fma", 1.0);
	rl_test_one_set(&o, RL_C_FLOPS_F64_512, 40e9);
	rl_test_one_set(&o, RL_C_DRAM_READ_BYTES, 6e9);
	rl_test_one_set(&o, RL_C_DRAM_WRITE_BYTES, 4e9);
	build(&o.proc, 1, m, &rep);
	/* AI 4 > ridge 50/30: the f64 peak of 1 thread binds */
	cr_assert_float_eq(rep.rows[0].ai, 4, EPS);
	cr_assert_eq(rep.rows[0].bound, RL_BOUND_COMPUTE);
	cr_assert_str_eq(rep.rows[0].bound_roof, "avx2-fma f64");
	cr_assert_float_eq(rep.rows[0].roof_gflops, 50, EPS);
	cr_assert_float_eq(rep.rows[0].roof_pct, 80, EPS);
	rl_report_release(&rep);
	free(m);
}

Test(analysis, the_lowest_level_roof_binds)
{
	struct rl_test_one o;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;

	rl_test_one_init(&o, 1,
		 BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES) |
			 BIT(RL_C_L2_READ_BYTES) | BIT(RL_C_L2_WRITE_BYTES),
		 "tiled", 2.0);
	rl_test_one_set(&o, RL_C_FLOPS_F64_256, 20e9);
	rl_test_one_set(&o, RL_C_DRAM_BYTES, 1e9);
	rl_test_one_set(&o, RL_C_L2_READ_BYTES, 150e9);
	rl_test_one_set(&o, RL_C_L2_WRITE_BYTES, 50e9);
	build(&o.proc, 1, m, &rep);
	/* DRAM: AI 20 x 30 = 600 > 50; L2: AI 0.1 x 100 = 10 < 50 */
	cr_assert(isnan(rep.rows[0].dram_read_bytes));
	cr_assert_float_eq(rep.rows[0].dram_bytes, 1e9, 1);
	cr_assert_float_eq(rep.rows[0].level_bytes[1], 200e9, 1);
	cr_assert_float_eq(rep.rows[0].level_ai[1], 0.1, EPS);
	cr_assert_float_eq(rep.rows[0].level_ai[3], 20, EPS);
	cr_assert(isnan(rep.rows[0].level_ai[0]));
	cr_assert_eq(rep.rows[0].bound, RL_BOUND_MEMORY);
	cr_assert_str_eq(rep.rows[0].bound_roof, "L2");
	cr_assert_float_eq(rep.rows[0].roof_gflops, 10, EPS);
	cr_assert_float_eq(rep.rows[0].gflops, 10, EPS);
	cr_assert_float_eq(rep.rows[0].roof_pct, 100, EPS);
	cr_assert_str_eq(rep.rows[0].method,
			 "flops: test; bytes: test; cache bytes: L2 "
			 "(per-thread); roofs: the triad's (read/write split "
			 "not counted); ceiling: the best peak (flops by width "
			 "not counted)");
	cr_assert_str_eq(rep.rows[0].roof_label, "L2 triad");
	rl_report_release(&rep);
	free(m);
}

Test(analysis, declared_basis_without_counters)
{
	struct rl_process_results p;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;
	const struct rl_region_row *s, *q;
	char err[512];

	cr_assert_eq(rl_results_load(DATA "time_only.json", &p, err,
				     sizeof err),
		     0, "%s", err);
	build(&p, 1, m, &rep);
	s = &rep.rows[0];
	q = &rep.rows[1];
	cr_assert(isnan(s->flops) && isnan(s->dram_bytes) && isnan(s->ai));
	cr_assert(isnan(s->gflops) && isnan(s->gbs));
	cr_assert(isnan(s->flops_f64) && isnan(s->flops_f32));
	cr_assert(isnan(s->scaled_ratio));
	cr_assert_null(s->precision);
	cr_assert_float_eq(s->ai_expected, 0.25, EPS);
	cr_assert_float_eq(s->gflops_expected, 4, EPS);
	/* 1 thread, declared bytes against the DRAM stream roof: 0.25 x 24 */
	cr_assert_eq(s->basis, RL_BASIS_DECLARED);
	cr_assert_eq(s->bound, RL_BOUND_MEMORY);
	cr_assert_str_eq(s->bound_roof, "DRAM");
	cr_assert_float_eq(s->roof_gflops, 6, EPS);
	cr_assert_float_eq(s->roof_pct, 100 * 4.0 / 6, 1e-9);
	cr_assert_str_eq(s->method, "time only: no counters (declared "
				    "figures from RL_REGION_EXPECT); roofs: "
				    "declared figures against the triad "
				    "(STREAM, 24 B/element) roofs and the best "
				    "peak");
	cr_assert_str_eq(s->roof_label, "DRAM triad");
	/* nothing declared, nothing counted: only calls and time */
	cr_assert_eq(q->calls, 2);
	cr_assert_float_eq(q->time_s, 1, EPS);
	cr_assert(isnan(q->flops_expected) && isnan(q->ai_expected));
	cr_assert(isnan(q->roof_gflops) && isnan(q->roof_pct));
	cr_assert_eq(q->bound, RL_BOUND_UNKNOWN);
	cr_assert_eq(q->basis, RL_BASIS_NONE);
	cr_assert_null(q->bound_roof);
	cr_assert_str_eq(q->method, "time only: no counters");
	rl_report_release(&rep);
	rl_results_release(&p);
	free(m);
}

Test(analysis, no_machine_model_means_no_bound)
{
	struct rl_process_results p;
	struct rl_report rep;
	char err[512];

	cr_assert_eq(rl_results_load(DATA "good.json", &p, err, sizeof err), 0,
		     "%s", err);
	build(&p, 1, NULL, &rep);
	cr_assert_null(rep.machine);
	cr_assert_float_eq(rep.rows[0].ai, 1.0 / 12, EPS);
	cr_assert_eq(rep.rows[0].bound, RL_BOUND_UNKNOWN);
	cr_assert_eq(rep.rows[0].basis, RL_BASIS_NONE);
	cr_assert(isnan(rep.rows[0].roof_gflops));
	cr_assert(isnan(rep.rows[0].roof_pct));
	rl_report_release(&rep);
	rl_results_release(&p);
}

Test(analysis, precision_by_dominance)
{
	struct rl_test_one o;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;
	uint64_t prov = BIT(RL_C_FLOPS_F64_SCALAR) | BIT(RL_C_FLOPS_F32_256) |
			BIT(RL_C_DRAM_BYTES);

	rl_test_one_init(&o, 1, prov, "mix", 1.0);
	rl_test_one_set(&o, RL_C_FLOPS_F64_SCALAR, 50e9);
	rl_test_one_set(&o, RL_C_FLOPS_F32_256, 50e9);
	rl_test_one_set(&o, RL_C_DRAM_BYTES, 1e9);
	build(&o.proc, 1, m, &rep);
	cr_assert_str_eq(rep.rows[0].precision, "mixed");
	cr_assert_str_eq(rep.rows[0].bound_roof, "avx2-fma f64");
	rl_report_release(&rep);

	rl_test_one_set(&o, RL_C_FLOPS_F64_SCALAR, 5e9);
	rl_test_one_set(&o, RL_C_FLOPS_F32_256, 95e9);
	build(&o.proc, 1, m, &rep);
	cr_assert_str_eq(rep.rows[0].precision, "f32");
	cr_assert_str_eq(rep.rows[0].bound_roof, "avx2-fma f32");
	cr_assert_float_eq(rep.rows[0].roof_gflops, 100, EPS);
	rl_report_release(&rep);

	rl_test_one_init(&o, 1, BIT(RL_C_FLOPS_ANY) | BIT(RL_C_DRAM_BYTES), "any",
		 1.0);
	rl_test_one_set(&o, RL_C_FLOPS_ANY, 10e9);
	rl_test_one_set(&o, RL_C_DRAM_BYTES, 10e9);
	build(&o.proc, 1, m, &rep);
	cr_assert_float_eq(rep.rows[0].flops, 10e9, 1);
	cr_assert(isnan(rep.rows[0].flops_f32));
	cr_assert(isnan(rep.rows[0].flops_f64));
	cr_assert_null(rep.rows[0].precision);
	/* unknown precision: compared with the f64 peak (documented) */
	cr_assert_float_eq(rep.rows[0].roof_gflops, 30, EPS);
	rl_report_release(&rep);
	free(m);
}

Test(analysis, multiplexing_and_system_wide_are_warned)
{
	struct rl_test_one o;
	struct rl_report rep;
	int mux = 0, sys = 0;

	rl_test_one_init(&o, 1, BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES),
		 "mux", 1.0);
	rl_test_one_set(&o, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(&o, RL_C_DRAM_BYTES, 1e9);
	o.reg.counters[RL_C_FLOPS_F64_256].running_ns = 500;
	o.proc.scope[RL_C_DRAM_BYTES] = RL_SCOPE_SYSTEM;
	o.proc.method[RL_C_DRAM_BYTES] = (char *)"uncore imc";
	build(&o.proc, 1, NULL, &rep);
	cr_assert_float_eq(rep.rows[0].scaled_ratio, 0.5, EPS);
	cr_assert(rep.rows[0].has_system_wide);
	cr_assert_str_eq(rep.rows[0].method,
			 "flops: test; bytes: uncore imc (system-wide)");
	for (size_t i = 0; i < rep.n_warnings; i++) {
		const struct rl_warning *w = &rep.warnings[i];
		if (strcmp(w->kind, "multiplexed") == 0) {
			mux++;
			cr_assert(strstr(w->message, "'mux'"));
			cr_assert(strstr(w->message, "50%"), "%s", w->message);
		}
		if (strcmp(w->kind, "system-wide") == 0) {
			sys++;
			cr_assert_str_eq(w->message,
					 "dram bytes are system-wide: they "
					 "include every process on the socket");
		}
	}
	cr_assert_eq(mux, 1);
	cr_assert_eq(sys, 1);
	rl_report_release(&rep);
}

Test(analysis, a_counter_missing_in_one_process_is_unknown_in_the_sum)
{
	struct rl_test_one a, b;
	struct rl_process_results procs[2];
	struct rl_report rep;

	rl_test_one_init(&a, 10, BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES), "k",
		 1.0);
	rl_test_one_set(&a, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(&a, RL_C_DRAM_BYTES, 2e9);
	rl_test_one_init(&b, 11, BIT(RL_C_FLOPS_F64_256), "k", 3.0);
	rl_test_one_set(&b, RL_C_FLOPS_F64_256, 5e9);
	procs[0] = a.proc;
	procs[1] = b.proc;
	build(procs, 2, NULL, &rep);
	cr_assert_eq(rep.n_summed, 1);
	cr_assert_eq(rep.rows[0].n_threads, 2);
	cr_assert_float_eq(rep.rows[0].flops, 6e9, 1);
	cr_assert_float_eq(rep.rows[0].time_s, 3, EPS);
	cr_assert(isnan(rep.rows[0].dram_bytes));
	cr_assert(isnan(rep.rows[0].ai));
	cr_assert_eq(rep.rows[1].pid, 10);
	cr_assert_float_eq(rep.rows[1].ai, 0.5, EPS);
	cr_assert(isnan(rep.rows[2].dram_bytes));
	rl_report_release(&rep);
}

Test(analysis, roofs_of_the_nearest_thread_count)
{
	struct rl_test_one o[7];
	struct rl_process_results procs[7];
	struct rl_machine *m = calloc(1, sizeof *m);
	struct rl_report rep;

	cr_assert_not_null(m);
	m->cores = 8;
	rl_test_machine_add_bw(m, "DRAM", 1, 10, 10);
	rl_test_machine_add_bw(m, "DRAM", 2, 20, 20);
	rl_test_machine_add_bw(m, "DRAM", 4, 40, 40);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 1, 100);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 4, 400);
	for (int i = 0; i < 7; i++) {
		rl_test_one_init(&o[i], 100 + i,
			 BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES), "p",
			 1.0);
		rl_test_one_set(&o[i], RL_C_FLOPS_F64_256, 1e9);
		rl_test_one_set(&o[i], RL_C_DRAM_BYTES, 10e9);
		procs[i] = o[i].proc;
	}
	build(procs, 7, m, &rep);
	/* 7 threads, roofs at 1, 2, 4: the 4-thread DRAM roof, AI 0.1 */
	cr_assert_eq(rep.rows[0].n_threads, 7);
	cr_assert_float_eq(rep.rows[0].roof_gflops, 4, EPS);
	/* one thread: the 1-thread roof */
	cr_assert_float_eq(rep.rows[1].roof_gflops, 1, EPS);
	rl_report_release(&rep);

	/* more threads than cores, no 2-thread peak: the roofs are all of
	 * one count, the nearest with a DRAM roof and a peak (1 thread),
	 * never the 2-thread DRAM roof beside the 1-thread peak */
	m->cores = 2;
	build(procs, 3, m, &rep);
	cr_assert_eq(rep.rows[0].roof_threads, 1);
	cr_assert_float_eq(rep.rows[0].roof_gflops, 1, EPS);
	rl_report_release(&rep);

	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 2, 200);
	build(procs, 3, m, &rep); /* now the 2-core roofs */
	cr_assert_eq(rep.rows[0].roof_threads, 2);
	cr_assert_float_eq(rep.rows[0].roof_gflops, 2, EPS);
	rl_report_release(&rep);
	free(m);
}

Test(analysis, an_unknown_scaled_value_stays_unknown)
{
	struct rl_test_one o;
	struct rl_report rep;

	rl_test_one_init(&o, 1, BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES), "n",
		 1.0);
	rl_test_one_set(&o, RL_C_FLOPS_F64_256, 1e9);
	o.reg.counters[RL_C_DRAM_BYTES].scaled = NAN;
	build(&o.proc, 1, NULL, &rep);
	cr_assert_float_eq(rep.rows[0].flops, 1e9, 1);
	cr_assert(isnan(rep.rows[0].dram_bytes));
	cr_assert(isnan(rep.rows[0].gbs));
	cr_assert(isnan(rep.rows[0].ai));
	rl_report_release(&rep);
}

Test(analysis, a_thread_that_could_not_count_is_unknown_not_zero)
{
	struct rl_test_one a, b;
	struct rl_thread_results thr[2];
	struct rl_report rep;

	rl_test_one_init(&a, 1, BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES), "k",
		 1.0);
	rl_test_one_set(&a, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(&a, RL_C_DRAM_BYTES, 1e9);
	rl_test_one_init(&b, 2, 0, "k", 2.0); /* counters stay 0, enabled_ns 0 */
	thr[0] = a.thr;
	thr[1] = b.thr;
	a.proc.threads = thr;
	a.proc.n_threads = 2;
	build(&a.proc, 1, NULL, &rep);
	cr_assert_eq(rep.n_rows, 3);
	cr_assert(isnan(rep.rows[0].flops), "%g", rep.rows[0].flops);
	cr_assert(isnan(rep.rows[0].ai));
	cr_assert_float_eq(rep.rows[1].flops, 1e9, 1);
	cr_assert(isnan(rep.rows[2].flops));
	cr_assert(isnan(rep.rows[2].dram_bytes));
	cr_assert_float_eq(rep.rows[2].time_s, 2, EPS);
	rl_report_release(&rep);
}

Test(analysis, simulated_counts_give_a_bound_but_no_percentage)
{
	struct rl_test_one o;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;

	rl_test_one_init(&o, 1, BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES), "s",
		 1.0);
	o.proc.scope[RL_C_FLOPS_F64_256] = RL_SCOPE_SIMULATED;
	o.proc.scope[RL_C_DRAM_BYTES] = RL_SCOPE_SIMULATED;
	rl_test_one_set(&o, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(&o, RL_C_DRAM_BYTES, 10e9);
	build(&o.proc, 1, m, &rep);
	cr_assert(rep.rows[0].simulated);
	cr_assert_eq(rep.rows[0].basis, RL_BASIS_COUNTED);
	cr_assert_eq(rep.rows[0].bound, RL_BOUND_MEMORY);
	cr_assert_float_eq(rep.rows[0].roof_gflops, 3, EPS); /* 0.1 x 30 */
	cr_assert_float_eq(rep.rows[0].gflops, 1, EPS);
	cr_assert(isnan(rep.rows[0].roof_pct));
	rl_report_release(&rep);
	free(m);
}

/* Declared flops near DBL_MAX over a microsecond: the rate overflows.
 * It is unknown (with everything derived from it), never "inf". */
Test(analysis, an_overflowing_rate_is_unknown)
{
	struct rl_test_one o;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;

	rl_test_one_init(&o, 1, 0, "huge", 1e-6);
	o.reg.expected_flops = 1e308;
	o.reg.expected_bytes = 8;
	o.reg.expect_calls = 1;
	build(&o.proc, 1, m, &rep);
	cr_assert(isnan(rep.rows[0].gflops_expected));
	cr_assert(isnan(rep.rows[0].ai_expected) ||
		  isfinite(rep.rows[0].ai_expected));
	cr_assert(isnan(rep.rows[0].roof_pct));
	cr_assert_null(strstr(rep.rows[0].diagnosis, "inf"), "%s",
		       rep.rows[0].diagnosis);
	rl_report_release(&rep);
	free(m);
}

/* A region of process scope (an OpenMP STREAM Scale begun on the main
 * thread outside the parallel loop): one record, on the main thread, whose
 * counts cover the 2 threads that ran. It is placed against the 2-thread
 * roofs (DRAM moved 48 GB/s: roof 4.8 GFLOP/s at AI 0.1), not the
 * 1-thread ones (30 GB/s: 3.0), in its summed row and its thread's row. */
Test(analysis, process_scope_is_placed_against_the_threads_that_ran)
{
	struct rl_test_one o;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report rep;

	rl_test_one_init(&o, 100, BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_DRAM_BYTES),
		 "scale", 1.0);
	rl_test_one_set(&o, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(&o, RL_C_DRAM_BYTES, 10e9);
	o.reg.scope_calls = 1;
	o.reg.scope_threads = 2;
	o.reg.scope_time_ns = o.reg.time_ns;
	build(&o.proc, 1, m, &rep);
	cr_assert_eq(rep.rows[0].n_threads, 2);
	cr_assert_float_eq(rep.rows[0].roof_gflops, 4.8, 1e-9);
	cr_assert_float_eq(rep.rows[0].roof_pct, 100 / 4.8, 1e-9);
	cr_assert_eq(rep.rows[0].thread_count, 1);
	cr_assert_float_eq(rep.rows[1].roof_gflops, 4.8, 1e-9);
	rl_report_release(&rep);

	o.reg.scope_threads = 1; /* one thread ran: the 1-thread roof */
	build(&o.proc, 1, m, &rep);
	cr_assert_eq(rep.rows[0].n_threads, 1);
	cr_assert_float_eq(rep.rows[0].roof_gflops, 3.0, 1e-9);
	rl_report_release(&rep);
	free(m);
}
