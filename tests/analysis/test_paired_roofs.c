/* The roofs paired with the timing runs (issue 38: roof_choice.c's
 * rl_roof_pair, the method line in analysis_roof.c, the self-check's
 * causes in analysis_check.c), on a hand-made model and hand-made samples
 * as run.json's roof_check.paired holds them. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/report.h"
#include "analysis/roof_choice.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

#define BIT(c) (UINT64_C(1) << (c))

/* One core. DRAM on 1 thread: triad 22.5 GB/s (STREAM; 30 moved),
 * read-only 40, fill 20; f64 peak 40 (avx2-fma). Probed idle, not
 * --quick. */
static struct rl_machine *model(void)
{
	struct rl_machine *m = rl_test_machine_new(1, "Test CPU");
	struct rl_bw_roof *b;
	struct rl_compute_roof *c;

	snprintf(m->probed_at, sizeof m->probed_at, "2026-12-01T00:00:00Z");
	m->loadavg1 = 0.05;
	b = rl_test_machine_add_bw(m, "DRAM", 1, 22.5, 30);
	b->read_gbs = 40;
	b->write_gbs = 20;
	snprintf(b->doubt, sizeof b->doubt, "trials spread 30%%");
	c = rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 1, 40);
	c->width_bits = 256;
	c->fma = 1;
	return m;
}

static const uint64_t counted =
	BIT(RL_C_FLOPS_F64_SCALAR) | BIT(RL_C_FLOPS_F64_128) |
	BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_FLOPS_F64_512) |
	BIT(RL_C_FLOPS_FMA) | BIT(RL_C_DRAM_READ_BYTES) |
	BIT(RL_C_DRAM_WRITE_BYTES);

/* The triad samples (GB/s, 24 B/element) on 1 thread, after runs 0, 1,
 * ... */
static void triads(struct rl_roof_check *rc, const double *gbs, unsigned n)
{
	memset(rc, 0, sizeof *rc);
	for (unsigned i = 0; i < n; i++)
		rc->samples[rc->n_samples++] = (struct rl_pair_sample){
			RL_PAIR_TRIAD, 1, 0, i, gbs[i]};
	rc->n_points = n;
	rc->timing_runs = n ? n - 1 : 0;
}

/* A region reading 24 GB and writing 8 GB (the triad's mix, w = 1/4)
 * with 1 GFLOP of 256-bit FMAs in time_s, placed with the samples rc. */
static const struct rl_region_row *place(struct rl_report *rep,
					 const struct rl_machine *m,
					 struct rl_test_one *o, double time_s,
					 const struct rl_roof_check *rc)
{
	struct rl_run_results run = {.procs = &o->proc, .n_procs = 1,
				     .exit_status = -1};
	char err[256] = "";

	rl_test_one_init(o, 1, counted, "k", time_s);
	o->proc.backend = (char *)"test";
	o->proc.start_ns = UINT64_C(1796256000) * 1000000000u;
	rl_test_one_triad_mix(o);
	run.roof_check = *rc;
	cr_assert_eq(rl_report_build(&run, m, rep, err, sizeof err), 0, "%s",
		     err);
	return &rep->rows[0];
}

/* One case: the model, the samples, the report and its region. */
struct pcase {
	struct rl_machine *m;
	struct rl_roof_check rc;
	struct rl_report rep;
	struct rl_test_one o;
};

/* The model's region placed with n triad samples gbs (see place). */
static struct rl_region_row *pcase_place(struct pcase *c, const double *gbs,
					 unsigned n, double time_s)
{
	if (!c->m)
		c->m = model();
	triads(&c->rc, gbs, n);
	return (struct rl_region_row *)place(&c->rep, c->m, &c->o, time_s,
					     &c->rc);
}

static void pcase_end(struct pcase *c)
{
	rl_report_release(&c->rep);
	free(c->m);
}

static void expect_in(const char *text, const char *part)
{
	cr_assert_not_null(text);
	cr_assert(strstr(text, part), "'%s' lacks '%s'", text, part);
}

/* 32 GB/s of the triad's mix: 107% of the model's 30 moved, 89% of the
 * best of two samples (27 GB/s STREAM, 36 moved): placed against the
 * paired roof, said in the method line, no finding. */
Test(paired_roofs, placement_uses_the_best_sample)
{
	static const double gbs[2] = {24, 27};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 2, 1.0);

	cr_assert_eq(c.rep.n_pair, 1);
	cr_assert_eq(c.rep.model, c.m);
	cr_assert_neq(c.rep.machine, c.m);
	cr_assert_eq(r->bound, RL_BOUND_MEMORY);
	cr_assert_float_eq(r->roof_gbs, 36, 1e-9);
	cr_assert_float_eq(r->roof_pct, 32.0 / 36 * 100, 1e-6);
	cr_assert_null(r->check, "%s", r->check);
	expect_in(r->place_note, "DRAM roof paired: 2 samples around the 1 "
				 "timing run, 1 thread: triad best 27.0 GB/s "
				 "(model 22.5), update and fill scaled with "
				 "the triad");
	/* the paired roof is measured again: its doubt is gone */
	cr_assert_str_empty(r->roof_bw->doubt);
	expect_in(r->roof_bw->method, "paired");
	/* the model is left as it was */
	cr_assert_float_eq(c.m->bw[0].stream_gbs, 22.5, 1e-9);
	rl_report_release(&c.rep);

	/* without samples: the model's roof, 107%, a finding */
	r = pcase_place(&c, gbs, 0, 1.0);
	cr_assert_eq(c.rep.n_pair, 0);
	cr_assert_eq(c.rep.machine, c.m);
	cr_assert_float_eq(r->roof_gbs, 30, 1e-9);
	cr_assert_not_null(r->check);
	cr_assert_null(strstr(r->place_note, "paired"), "%s", r->place_note);
	pcase_end(&c);
}

/* A roof never rests on a single pass: one sample leaves the model's. */
Test(paired_roofs, one_sample_is_no_roof)
{
	static const double gbs[1] = {27};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 1, 1.0);

	cr_assert_eq(c.rep.n_pair, 0);
	cr_assert_float_eq(r->roof_gbs, 30, 1e-9);
	pcase_end(&c);
}

/* Samples of 20 and 24 GB/s (spread 17%): the region at 36 GB/s is 113%
 * of the paired 32 moved; the roof moved, the self-check says so and
 * no longer blames the model's probe. */
Test(paired_roofs, the_self_check_says_the_roof_moved)
{
	static const double gbs[2] = {20, 24};
	struct pcase c = {.m = model()};
	const struct rl_region_row *r;

	c.m->quick = 1; /* probe-load would name it: not with a paired roof */
	r = pcase_place(&c, gbs, 2, 32.0 / 36);
	cr_assert_float_eq(r->roof_gbs, 32, 1e-9);
	cr_assert_not_null(r->check);
	cr_assert_str_eq(r->check_cause, "roof-moved");
	expect_in(r->check, "the roof moved: the DRAM triad on 1 thread read "
			    "20.0-24.0 GB/s over 2 samples around the timing "
			    "runs (the model's 22.5)");
	cr_assert_null(strstr(r->check, "--quick"), "%s", r->check);
	cr_assert_null(strstr(r->check, "in doubt"), "%s", r->check);
	pcase_end(&c);
}

/* Samples within 2% of each other and of the model: above the paired
 * roof with neither moved is a defect of rlprof; with the region's runs,
 * one of them within the roof, the region moved. */
Test(paired_roofs, the_self_check_says_which_moved)
{
	static const double gbs[3] = {22.2, 22.5, 22.6};
	struct pcase c = {0};
	double times[3];
	/* 36 GB/s against 22.6 * 4/3 = 30.13 moved: 119% */
	struct rl_region_row *r = pcase_place(&c, gbs, 3, 32.0 / 36);

	cr_assert_not_null(r->check);
	cr_assert_str_eq(r->check_cause, "neither-moved");
	expect_in(r->check, "neither moved: the DRAM triad on 1 thread held "
			    "at 22.6 GB/s over 3 samples around the timing "
			    "runs (within 2%; the model's 22.5) and the region "
			    "was timed once");
	expect_in(r->check, "a defect of rlprof");

	/* its runs: 0.889 s, 1.3 s and 1.2 s; the slowest at 82% */
	times[0] = r->time_s;
	times[1] = 1.3;
	times[2] = 1.2;
	r->repeat_times_s = times;
	r->repeat_n_times = 3;
	free(r->check);
	r->check = NULL;
	cr_assert_eq(rl_self_check(&c.rep, r, c.rep.run_start_s), 0);
	cr_assert_str_eq(r->check_cause, "region-moved");
	expect_in(r->check, "the region moved: its time over 3 runs spans "
			    "889-1.3e+03 ms, and its slowest run sits at 82% "
			    "of the roof");

	/* all three runs as fast: the region held too */
	times[1] = times[2] = times[0];
	free(r->check);
	r->check = NULL;
	cr_assert_eq(rl_self_check(&c.rep, r, c.rep.run_start_s), 0);
	cr_assert_str_eq(r->check_cause, "neither-moved");
	expect_in(r->check, "so did the region (even its slowest of 3 runs "
			    "is at 119%)");
	r->repeat_times_s = NULL;
	pcase_end(&c);
}

/* The read samples pair the read point; figures per op and thread
 * count, best and lowest; another count's samples leave this roof. */
Test(paired_roofs, figures_per_operation_and_thread_count)
{
	struct rl_machine *m = model(), out;
	struct rl_roof_check rc;
	struct rl_pair_figure fig[RL_PAIR_MAX_FIGURES];
	const struct rl_pair_figure *f;
	size_t n;

	memset(&rc, 0, sizeof rc);
	rc.samples[rc.n_samples++] =
		(struct rl_pair_sample){RL_PAIR_READ, 1, 2, 0, 41};
	rc.samples[rc.n_samples++] =
		(struct rl_pair_sample){RL_PAIR_READ, 1, 4, 1, 44};
	rc.samples[rc.n_samples++] =
		(struct rl_pair_sample){RL_PAIR_TRIAD, 2, 0, 0, 50};
	rc.samples[rc.n_samples++] =
		(struct rl_pair_sample){RL_PAIR_TRIAD, 2, 0, 1, 52};
	n = rl_roof_pair(m, &rc, &out, fig, RL_PAIR_MAX_FIGURES, 0);
	cr_assert_eq(n, 2);
	f = rl_pair_find(fig, n, RL_PAIR_READ, 1);
	cr_assert_not_null(f);
	cr_assert_eq(f->n, 2);
	cr_assert_float_eq(f->best, 44, 1e-9);
	cr_assert_float_eq(f->lo, 41, 1e-9);
	cr_assert_float_eq(f->model, 40, 1e-9);
	cr_assert_float_eq(out.bw[0].read_gbs, 44, 1e-9);
	cr_assert_float_eq(out.bw[0].stream_gbs, 22.5, 1e-9); /* no triad */
	cr_assert_float_eq(out.bw[0].write_gbs, 20, 1e-9);
	/* no 2-thread roof in the model: its samples pair nothing */
	f = rl_pair_find(fig, n, RL_PAIR_TRIAD, 2);
	cr_assert_not_null(f);
	cr_assert_float_eq(f->model, 0, 1e-9);
	free(m);
}

/* Two samples below the model's (18 and 20 against 22.5): short single
 * passes on a noisy host, not evidence that the machine slowed down: the
 * model's roof stays, the method line says why, and the region at the
 * model's roof (30 GB/s moved) reads 100%, not 113% of the samples'. */
Test(paired_roofs, few_samples_below_the_model_keep_its_roof)
{
	static const double gbs[2] = {18, 20};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 2, 32.0 / 30);
	const struct rl_pair_figure *f;

	cr_assert_eq(c.rep.n_pair, 1);
	f = rl_pair_find(c.rep.pair, c.rep.n_pair, RL_PAIR_TRIAD, 1);
	cr_assert_not_null(f);
	cr_assert_eq(f->use, RL_PAIR_KEPT_FEW);
	cr_assert_float_eq(r->roof_gbs, 30, 1e-9);
	cr_assert_float_eq(r->roof_pct, 100, 1e-6);
	cr_assert_null(r->check, "%s", r->check);
	expect_in(r->place_note, "triad best 20.0 GB/s, below the model's "
				 "22.5, kept (2 samples; a roof is lowered on "
				 "3 within 10%)");
	cr_assert_null(strstr(r->place_note, "scaled with the triad"), "%s",
		       r->place_note);
	/* the model's roof, with its doubt: not measured again */
	cr_assert_str_eq(r->roof_bw->doubt, "trials spread 30%");
	pcase_end(&c);
}

/* Three samples that agree (21, 21.3, 21.5) 4% below the model's 22.5:
 * the same roof measured by shorter passes, not a slower machine; the
 * model's stays (lowering there moved a demo's region by 10 points). */
Test(paired_roofs, samples_close_below_the_model_keep_its_roof)
{
	static const double gbs[3] = {21, 21.3, 21.5};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 3, 32.0 / 28);

	cr_assert_eq(c.rep.pair[0].use, RL_PAIR_KEPT_CLOSE);
	cr_assert_float_eq(r->roof_gbs, 30, 1e-9);
	cr_assert_float_eq(r->roof_pct, 28.0 / 30 * 100, 1e-6);
	expect_in(r->place_note, "triad best 21.5 GB/s, 4% below the model's "
				 "22.5, kept (a roof is lowered from 10% "
				 "below, on 3 samples)");
	pcase_end(&c);
}

/* Three samples below the model's that spread 25% (15, 18, 20): kept. */
Test(paired_roofs, spread_samples_below_the_model_keep_its_roof)
{
	static const double gbs[3] = {15, 18, 20};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 3, 32.0 / 30);

	cr_assert_eq(c.rep.pair[0].use, RL_PAIR_KEPT_SPREAD);
	cr_assert_float_eq(r->roof_gbs, 30, 1e-9);
	expect_in(r->place_note, "triad 15.0-20.0 GB/s, below the model's "
				 "22.5, kept (3 samples spread 25%)");
	pcase_end(&c);
}

/* Three samples that agree within 10% (19, 19.5, 20), below the model's:
 * the machine gives less now; the roof is lowered to their best (26.7
 * moved) and a region at 25 GB/s reads 94% of it. */
Test(paired_roofs, agreeing_samples_below_the_model_lower_the_roof)
{
	static const double gbs[3] = {19, 19.5, 20};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 3, 32.0 / 25);

	cr_assert_eq(c.rep.pair[0].use, RL_PAIR_LOWERED);
	cr_assert_float_eq(r->roof_gbs, 20 * 32.0 / 24, 1e-9);
	cr_assert_float_eq(r->roof_pct, 25 / (20 * 32.0 / 24) * 100, 1e-6);
	cr_assert_null(r->check, "%s", r->check);
	expect_in(r->place_note, "triad best 20.0 GB/s (model 22.5; lowered: "
				 "3 samples within 10%), update and fill "
				 "scaled with the triad");
	pcase_end(&c);
}

/* The same agreeing samples, but the region moved 30 GB/s (113% of the
 * lowered 26.7): the run itself shows the machine gave more than the
 * samples, so the model's roof stands (100%), and the method line names
 * the region that refuted them. */
Test(paired_roofs, a_region_above_a_lowered_roof_refutes_it)
{
	static const double gbs[3] = {19, 19.5, 20};
	struct pcase c = {0};
	const struct rl_region_row *r = pcase_place(&c, gbs, 3, 32.0 / 30);

	cr_assert_eq(c.rep.pair[0].use, RL_PAIR_KEPT_REFUTED);
	cr_assert_str_eq(c.rep.pair[0].refuted_by, "k");
	cr_assert_float_eq(r->roof_gbs, 30, 1e-9);
	cr_assert_float_eq(r->roof_pct, 100, 1e-6);
	cr_assert_null(r->check, "%s", r->check);
	expect_in(r->place_note, "triad best 20.0 GB/s, below the model's "
				 "22.5, kept (region 'k' ran above it)");
	pcase_end(&c);
}
