/*
 * The tests' one report builder: reports to render, built either from a
 * results file of tests/data/results/ placed against a machine model by
 * the real analysis (rl_report_build), or by hand for the charts (every
 * case a chart draws), released with the real rl_report_release; and the
 * renderers' output as text or in a file.
 */
#ifndef RL_TESTS_LIB_REPORT_H
#define RL_TESTS_LIB_REPORT_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "results/run_results.h"
#include "render/render.h"

#define DATA RL_SOURCE_DIR "/tests/data/results/"

/* A region name every renderer has to escape. */
#define EVIL_NAME "<script>alert(1)</script>&\"'"

/* The counters the simulated PMU provides, for a process built by hand:
 * every width of both precisions' flops, flops_fma, DRAM read and write
 * bytes. */
#define RL_TEST_BIT(c) (UINT64_C(1) << (c))
#define RL_TEST_SIM_LIKE                                                    \
	(RL_TEST_BIT(RL_C_FLOPS_F64_SCALAR) | RL_TEST_BIT(RL_C_FLOPS_F64_128) | \
	 RL_TEST_BIT(RL_C_FLOPS_F64_256) | RL_TEST_BIT(RL_C_FLOPS_F64_512) |   \
	 RL_TEST_BIT(RL_C_FLOPS_F32_SCALAR) |                               \
	 RL_TEST_BIT(RL_C_FLOPS_F32_128) | RL_TEST_BIT(RL_C_FLOPS_F32_256) |   \
	 RL_TEST_BIT(RL_C_FLOPS_F32_512) | RL_TEST_BIT(RL_C_FLOPS_FMA) |       \
	 RL_TEST_BIT(RL_C_DRAM_READ_BYTES) |                                \
	 RL_TEST_BIT(RL_C_DRAM_WRITE_BYTES))

/* The number in attribute name of the SVG or HTML element that starts at
 * el (up to its '>'), NAN when it has none. */
double rl_test_svg_attr(const char *el, const char *name);

/* A one-thread, one-region process built by hand for rl_report_build:
 * process pid (thread pid) of "./t" counted by "perf" with the counters
 * of bit mask provided (method "test"), region name called once for
 * time_s; rl_test_one_set fills a counter. */
struct rl_test_one {
	struct rl_process_results proc;
	struct rl_thread_results thr;
	struct rl_region_stats reg;
	struct rl_counter_total counts[RL_COUNTER_COUNT]; /* reg's */
};
void rl_test_one_init(struct rl_test_one *o, long pid, uint64_t provided,
		      const char *name, double time_s);
/* Counter c of the region: v counted over all of its enabled time. */
void rl_test_one_set(struct rl_test_one *o, int c, double v);
/* The region's counters as a triad's mix (w = 1/4): 24 GB read, 8 GB
 * written, 1 GFLOP of 256-bit f64 FMAs, every other flop counter 0. */
void rl_test_one_triad_mix(struct rl_test_one *o);

/* The results file (a path) as run (whose procs it fills) placed
 * against m (may be NULL), rendered by format with opt: malloc'd text. */
char *rl_test_report_text(const char *format, const char *file,
			  struct rl_run_results run, const struct rl_machine *m,
			  struct rl_render_options opt);

/* The charts' report against m (rl_test_machine_charts): six regions:
 * triad (counted 0.0625 vs declared 0.0833, arrow), horner (counted =
 * declared), EVIL_NAME, an f32 dot, a declared-only one, one with
 * nothing; then two per-thread rows of triad; one warning (triad open at
 * exit). Released with rl_report_release. */
void rl_test_report_charts(struct rl_report *r, const struct rl_machine *m);

/* A chart's row of two threads, 10 calls in 0.5 s: counted ai and gflops
 * (NAN: not counted), declared ai_e and gflops_e (NAN: none); region,
 * method and diagnosis malloc'd (rl_report_release frees them). */
struct rl_region_row rl_test_report_row(const char *name, const char *prec,
					double ai, double gflops, double ai_e,
					double gflops_e);

/* The charts' machine and report as a suite's fixture:
 * TestSuite(name, .init = rl_test_charts_init, .fini = rl_test_charts_fini)
 * (each test runs in its own process and may change them). */
extern struct rl_machine rl_test_charts_machine;
extern struct rl_report rl_test_charts_report;
void rl_test_charts_init(void);
void rl_test_charts_fini(void);

/* Renders r with rend into a temporary file named ...suffix; returns its
 * malloc'd path. RLPROF_KEEP_CHARTS=DIR keeps a copy there to look at. */
char *rl_test_report_render(const struct rl_renderer *rend,
			    const struct rl_report *r, const char *suffix);

/* rep rendered by the renderer of format with default options: malloc'd
 * text; fails the test when the renderer fails. */
char *rl_test_render_text(const char *format, const struct rl_report *rep);

/* The bytes of file path (malloc'd, NUL-terminated); fails the test when
 * it cannot be read. */
char *rl_test_slurp(const char *path);

/* text as a results file (written to a temporary file, removed after)
 * read into *r by rl_results_load: its status, err filled. */
int rl_test_results_from_text(const char *text, struct rl_process_results *r,
			      char *err, size_t errlen);

/* ---- reading report.json as rlprof wrote it (the end-to-end tests) ---- */

/* dir/report.json parsed (json_decref it); fails the test when it
 * cannot be read or parsed. */
json_t *rl_test_json_report(const char *dir);
/* The row of rows (report.json's "regions", or its "mpi" "regions" or
 * "per_rank") whose "region" is name and, when rank >= 0, whose "rank"
 * is rank: NULL when none; the need_ form fails the test instead. */
json_t *rl_test_json_row(json_t *rows, const char *name, long rank);
json_t *rl_test_json_need_row(json_t *rows, const char *name, long rank);
/* The summed row of region name in rep, NULL when none / failing. */
json_t *rl_test_json_region(json_t *rep, const char *name);
json_t *rl_test_json_need_region(json_t *rep, const char *name);
/* The ranks' summary row of name (rep's "mpi" "regions"), NULL none. */
json_t *rl_test_json_mpi_region(json_t *rep, const char *name);
/* o's number at key: NAN when absent or null (a figure not measured is
 * left out); the need_ form fails the test when it is not a number. */
double rl_test_json_num(const json_t *o, const char *key);
double rl_test_json_need_num(const json_t *o, const char *key);

#endif
