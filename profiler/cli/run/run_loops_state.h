/*
 * rlprof run --loops, inside: the state run_loops.c keeps between the
 * run's steps: the figures of the loops (analysis/loop_figures.h) and
 * what the run needs to make them. Private to cli/run/.
 */
#ifndef RL_RUN_LOOPS_STATE_H
#define RL_RUN_LOOPS_STATE_H

#include <limits.h>
#include <stdbool.h>

#include "analysis/loop_figures.h"
#include "cli/run/loop_samples.h"

struct rl_run_loops {
	struct rl_loop_figures f;
	char spans[PATH_MAX + 32];
	struct rl_loop_sampler *sampler;
	bool armed;     /* sampler opened, the program not yet spawned */
	bool collected; /* rl_run_loops_collect ran and found something */
};

#endif
