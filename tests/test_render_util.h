/*
 * Fixtures of the renderer tests (test_render_csv.c, _json.c, _table.c):
 * a small machine model, and one results file of tests/data/results/
 * rendered in one format.
 */
#ifndef RL_TEST_RENDER_UTIL_H
#define RL_TEST_RENDER_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"

#define DATA RL_SOURCE_DIR "/tests/data/results/"

/* cpu (NULL: none), 2 cores; DRAM stream 24 / moved 30 GB/s at 1 thread
 * and, when dram_roofs is 2, 36 / 48 at 2; an avx2-fma f64 peak of
 * peak_1t GFLOP/s at 1 thread and peak_2t at 2 (0: no such peak). */
static inline void render_test_machine(struct rl_machine *m, const char *cpu,
				       int dram_roofs, double peak_1t,
				       double peak_2t)
{
	const double peaks[2] = {peak_1t, peak_2t};

	memset(m, 0, sizeof *m);
	m->cores = 2;
	if (cpu)
		snprintf(m->cpu_model, sizeof m->cpu_model, "%s", cpu);
	m->n_bw = (size_t)dram_roofs;
	for (int i = 0; i < dram_roofs; i++) {
		snprintf(m->bw[i].level, sizeof m->bw[i].level, "DRAM");
		m->bw[i].threads = (unsigned)i + 1;
		m->bw[i].stream_gbs = i ? 36 : 24;
		m->bw[i].moved_gbs = i ? 48 : 30;
	}
	for (int i = 0; i < 2; i++) {
		struct rl_compute_roof *c = &m->compute[m->n_compute];

		if (peaks[i] <= 0)
			continue;
		snprintf(c->name, sizeof c->name, "avx2-fma");
		snprintf(c->kind, sizeof c->kind, "peak");
		snprintf(c->precision, sizeof c->precision, "f64");
		c->threads = (unsigned)i + 1;
		c->gflops = peaks[i];
		m->n_compute++;
	}
}

/* The results file (a path) as run (whose procs it fills) placed
 * against m (may be NULL), rendered by format with opt: malloc'd text. */
static inline char *render_test_text(const char *format, const char *file,
				     struct rl_run_results run,
				     const struct rl_machine *m,
				     struct rl_render_options opt)
{
	const struct rl_renderer *rd = rl_renderer_find(format);
	struct rl_process_results p;
	struct rl_report rep;
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_not_null(rd, "no renderer '%s'", format);
	cr_assert_eq(rl_results_load(file, &p, err, sizeof err), 0, "%s", err);
	run.procs = &p;
	run.n_procs = 1;
	cr_assert_eq(rl_report_build(&run, m, &rep, err, sizeof err), 0, "%s",
		     err);
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	cr_assert_eq(rd->render(f, &rep, &opt, err, sizeof err), 0, "%s", err);
	fclose(f);
	rl_report_release(&rep);
	rl_results_release(&p);
	return text;
}

#endif
