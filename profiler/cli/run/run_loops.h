/* rlprof run --loops (run_loops.c): before the run, the counted program's
 * loops found and their spans written for the simulator; after it, the
 * counts per loop of every process summed, inclusive up the nest,
 * printed under the table and written to DIR/loops.json. */
#ifndef RL_RUN_LOOPS_H
#define RL_RUN_LOOPS_H

#include "cli/run/run.h"

/* Each step takes the run it reads (const) and the loops' state it fills
 * (run->loops: NULL without --loops, or where --loops cannot work). */

/* With --loops: *loops made (the program's loops found); with -b sim
 * also *spans_path (the file for the simulator's --sim-loops) set, else
 * NULL, with a warning when --loops cannot count. 0, or a negative RL_E*
 * code with the message in err. */
int rl_run_loops_prepare(const struct rl_run *run, struct rl_run_loops **loops,
			 const char **spans_path, char *err, size_t errlen);

/* Called by run_spawn.c: right before the program is spawned (the same
 * thread), the sampler of its loops armed by its exec; once it started,
 * and once it ended (or its spawn failed): the timed run (native, or a
 * hardware backend's) is sampled for the time per loop
 * (loop_samples.h). */
void rl_run_loops_before_spawn(const struct rl_run *run,
			       struct rl_run_loops *x);
void rl_run_loops_started(const struct rl_run *run, struct rl_run_loops *x);
void rl_run_loops_ended(struct rl_run_loops *x);

/* After the run, before the report: reads the counts per loop of every
 * process and the samples, chooses the hot loops (rows of the report)
 * and writes DIR/loops.json, which the report reads
 * (results/results_loops.c). */
void rl_run_loops_collect(const struct rl_run *run, struct rl_run_loops *x);
/* After the report: the table of the loops. */
void rl_run_loops_report(const struct rl_run_loops *x);

void rl_run_loops_release(struct rl_run_loops **loops);

#endif
