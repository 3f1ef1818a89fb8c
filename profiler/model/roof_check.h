/*
 * The roof check of one `rlprof run` (issue 23): a short all-thread DRAM
 * triad taken just before and just after the timing run, compared with
 * the machine model's DRAM triad roof. Where the machine now moves more
 * than the roof, the roof is stale (probed under load, or the machine
 * changed); where it moves much less, the machine was busy around the run.
 * rlprof run measures it (cli/run/run_roof_check.c) and writes it into
 * DIR/run.json ("roof_check"); the report reads it back (results_dir.c)
 * and the analysis warns and uses it in the self-check.
 */
#ifndef RL_MODEL_ROOF_CHECK_H
#define RL_MODEL_ROOF_CHECK_H

#include <stdbool.h>
#include <stdint.h>

/* above the roof by more than this: stale */
#define RL_ROOF_CHECK_STALE 1.05
/* below this fraction of it: the machine was busy */
#define RL_ROOF_CHECK_BUSY 0.70

struct rl_roof_check {
	bool taken;              /* at least one triad was measured */
	double before_gbs;       /* best triad before the timing run, GB/s
				    at 24 B/element (STREAM); 0 not taken */
	double after_gbs;        /* the same after it */
	double roof_gbs;         /* the model's DRAM triad roof compared,
				    same convention and thread count */
	unsigned threads;
	uint64_t working_set_bytes; /* per triad, all threads */
	double seconds;          /* both triads, allocation included */
	char probed_at[32];      /* the model's probe time */
	char why_not[192];       /* when not taken: why ("" when taken) */
};

#endif
