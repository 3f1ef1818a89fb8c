/*
 * rlprof run --loops, inside: the state run_loops.c keeps between the
 * run's steps, and what the loops table (loop_table.c) reads of it.
 * Private to cli/run/.
 */
#ifndef RL_RUN_LOOPS_STATE_H
#define RL_RUN_LOOPS_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/run/loop_samples.h"
#include "formats/sim_protocol.h"
#include "inspect/loops.h"

struct rl_run_loops {
	struct rl_loops l;
	char spans[PATH_MAX + 32];
	uint64_t (*self)[RS_NSLOTS]; /* per id: 0 outside loops, i + 1 loop i */
	uint64_t (*incl)[RS_NSLOTS];
	int levels;
	size_t n_files;
	bool counting;  /* spans given to the simulator */
	struct rl_loop_sampler *sampler;
	bool armed;     /* sampler opened, the program not yet spawned */
	bool sampled;
	struct rl_loop_samples samples;
	uint64_t *samples_incl;
	char sample_why[512]; /* why no time per loop, when not sampled */
	bool *is_hot;   /* per loop: a row of the report (hot()) */
	/* per process and thread (the simulator's "thread" lines): its
	 * counts per id, self and inclusive, and the native thread whose
	 * samples are paired with it (-1 none) */
	struct thr_counts {
		long pid, tid;
		uint64_t (*self)[RS_NSLOTS], (*incl)[RS_NSLOTS];
		int sampled;
		uint64_t *samples_incl;
	} *thr;
	size_t n_thr;
	bool collected; /* rl_run_loops_collect ran and found something */
	/* per id: the regions it ran in (the simulator's loop-regions
	 * lines, "<program>": none open), NULL: not told */
	struct in_regions {
		char **v;
		size_t n;
	} *in_region;
};

#define MIN_SAMPLES 10 /* fewer: a time shown, no rate */

/* The flops of a count set; its DRAM bytes (the last level's boundary). */
uint64_t rl_loops_flops(const uint64_t *s);
uint64_t rl_loops_dram(const uint64_t *s, int levels);
/* Loop id's sampled time (inclusive) and its standard error in *err; 0
 * when not sampled. */
double rl_loops_time(const struct rl_run_loops *x, size_t id, double *err);
bool rl_loops_sampled(const struct rl_run_loops *x);
/* Every count of the run (all ids) into total[RS_NSLOTS]. */
void rl_loops_totals(const struct rl_run_loops *x, uint64_t *total);
/* Loop i ran: it has counts or samples. */
bool rl_loops_ran(const struct rl_run_loops *x, size_t i);
/* Which loops are rows, in words. */
void rl_loops_hot_rule(const struct rl_run_loops *x, char *buf, size_t len);

/* loop_table.c: the hot loops' table on stdout. */
void rl_loops_print_table(struct rl_run_loops *x);

#endif
