/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the sim backend tests: run `rlprof run -b sim` on a program
 * and read the per-region counters back from the raw results files
 * (integers, exact) with jansson.
 */
#ifndef RL_TESTS_LIB_SIM_H
#define RL_TESTS_LIB_SIM_H

#include <dirent.h>
#include <jansson.h>
#include <stdint.h>

#include "formats/counter_ids.h"
#include "tests/lib/run.h"

#define SIM_TOOL RL_BUILD_DIR "/libexec/rlprof/rlprofsim-amd64-linux"
/* The geometry sim_run passes when the test gives none: without a machine
 * model (tests run with --no-probe) rlprof run requires one. */
#define SIM_TEST_CACHES "48K:12,1M:8,32M:16"
#define SIM_MAX_ROWS 64

struct sim_row {
	char name[64];
	long long tid;       /* -1: summed over threads */
	uint64_t calls;
	double expected_flops, expected_bytes;
	uint64_t c[RL_COUNTER_COUNT];
	uint64_t provided;   /* bit c: counter c present */
};

struct sim_run {
	struct e2e_result res;
	char *dir;          /* output directory (removed by sim_run_free) */
	char note[512];
	struct sim_row row[SIM_MAX_ROWS]; /* summed rows, then per thread */
	int n;
};

/* Skips when the sim backend cannot run here (a sanitized build, no
 * Valgrind, the simulator not built). */
void sim_need(void);

/* The row of region name and thread tid (-1: summed) of r, added (zeroed)
 * when there is none. */
struct sim_row *sim_row_get(struct sim_run *r, const char *name,
			    long long tid);

/* Reads r->dir's raw results files into r->row. */
void sim_load(struct sim_run *r);

/* rlprof run -b sim [extra options] -o DIR PROGRAM ARGS; args NULL-ended;
 * --sim-caches SIM_TEST_CACHES unless opts has --sim-caches */
void sim_run(struct sim_run *r, const char *const *opts,
	     const char *const *prog);

/* Frees r and removes its output directory. */
void sim_run_free(struct sim_run *r);

/* The region's DRAM bytes, read plus written. */
uint64_t sim_dram(const struct sim_row *w);

#endif
