/*
 * The roof check of one `rlprof run` (issue 23): a short all-thread DRAM
 * triad taken just before and just after the timing run, compared with
 * the machine model's DRAM triad roof. Where the machine now moves more
 * than the roof, the roof is stale (probed under load, or the machine
 * changed); where it moves much less, the machine was busy around the run.
 * Beside each triad, the core's clock (dependent integer adds, as the
 * model's clock_ghz): compute ceilings hold at the clock they were
 * measured at, and a host's turbo or a frequency governor moves it (on
 * the Xeon guest a whole quick probe ran at 3.5 GHz where others ran at
 * 3.0, and read every clock-bound roof 17-21% higher).
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
/* the clock around the run off the model's by more than this fraction:
 * the report warns (the clock steps by 100-200 MHz from one moment to
 * the next on a shared host: 3.0 to 3.2 GHz is 7%) */
#define RL_CLOCK_CHECK_MOVED 0.10

/* Issue 38: the roofs paired with the timing runs. Short DRAM samples
 * (the triad, and the read-only stream of 1-4 streams, rotating), on the
 * all-thread count of the model's DRAM roof and on 1 thread, taken before
 * the first timing run, after it and after the repetitions of --repeat
 * (at most RL_PAIR_POINTS points, RL_PAIR_BUDGET_S in all). Every sample
 * is kept; the paired roof of an operation and thread count is the best
 * of its samples (a roof is an upper bound), the others give its spread
 * (analysis/roof_choice.c). Rates in the 24 B/element convention: the
 * triad's stream_gbs, the read's read_gbs. */
#define RL_PAIR_POINTS 6
#define RL_PAIR_BUDGET_S 0.4 /* all points together, the first touch
				 expected at 3 GB/s per thread (given 3x
				 that, and 50 ms, before it is given up);
				 issue 38: <= 0.5 s */
#define RL_PAIR_MAX_SAMPLES 32
enum rl_pair_op { RL_PAIR_TRIAD, RL_PAIR_READ };
struct rl_pair_sample {
	enum rl_pair_op op;
	unsigned threads;
	unsigned streams;  /* read: streams at a time (1-4); triad 0 */
	unsigned after_run; /* 0 before the first timing run, K after the
			       K-th (1 the profiling run, 2.. --repeat's) */
	double gbs;        /* 24 B/element */
};

struct rl_roof_check {
	bool taken;              /* at least one triad was measured */
	double before_gbs;       /* best triad before the timing run, GB/s
				    at 24 B/element (STREAM); 0 not taken */
	double after_gbs;        /* the same after it */
	double roof_gbs;         /* the model's DRAM triad roof compared,
				    same convention and thread count */
	unsigned threads;
	uint64_t working_set_bytes; /* per triad, all threads */
	double before_ghz;       /* the core's clock before the timing run,
				    GHz; 0 not read (read whenever a model
				    with a clock was found outside an MPI
				    rank, the triad taken or not) */
	double after_ghz;        /* the same after it */
	double seconds;          /* both triads, allocation and clock
				    readings included */
	char probed_at[32];      /* the model's probe time */
	char why_not[192];       /* when not taken: why ("" when taken) */
	/* issue 38: every paired sample, in the order taken */
	struct rl_pair_sample samples[RL_PAIR_MAX_SAMPLES];
	unsigned n_samples;
	unsigned n_points;       /* sample points taken (before, between and
				    after the timing runs) */
	unsigned timing_runs;    /* the timing runs they were taken around */
	unsigned n_points_empty; /* of the points, those with no sample: a
				    pass over its time (a busy machine) or
				    its threads not to be had */
	double pair_seconds;     /* the samples' cost, allocation included */
};

/* "triad", "read" */
static inline const char *rl_pair_op_name(enum rl_pair_op op)
{
	return op == RL_PAIR_READ ? "read" : "triad";
}

#endif
