/* rlprof run --loops (run_loops.c): before the run, the counted program's
 * loops found and their spans written for the simulator; after it, the
 * counts per loop of every process summed, inclusive up the nest,
 * printed under the table and written to DIR/loops.json. */
#ifndef RL_RUN_LOOPS_H
#define RL_RUN_LOOPS_H

#include "cli/run/run.h"

/* With --loops and -b sim: *spans_path (the file for the simulator's
 * --sim-loops) set; else NULL, with a warning when --loops cannot count.
 * 0, or a negative RL_E* code with the message in err. */
int rl_run_loops_prepare(struct rl_run *run, const char **spans_path,
			 char *err, size_t errlen);

/* Called by run_spawn.c once the program started, and once it ended: the
 * timed run (native, or a hardware backend's) is sampled for the time
 * per loop (loop_samples.h). */
/* Right before the program is spawned (the same thread): the sampler of
 * its loops armed by its exec (loop_samples.h). */
void rl_run_loops_before_spawn(struct rl_run *run);
void rl_run_loops_started(struct rl_run *run);
void rl_run_loops_ended(struct rl_run *run);

/* After the run, before the report: reads the counts per loop of every
 * process and the samples, chooses the hot loops (rows of the report)
 * and writes DIR/loops.json, which the report reads
 * (results/results_loops.c). */
void rl_run_loops_collect(struct rl_run *run);
/* After the report: the table of the loops. */
void rl_run_loops_report(struct rl_run *run);

void rl_run_loops_release(struct rl_run *run);

#endif
