/*
 * rlprof run --loops: the figures of a run's loops (counts per loop of
 * every process and thread, the samples of the timed run) and what is
 * made of them: sums up the nest, the hot rule, a loop's sampled time.
 * Filled by cli/run/run_loops.c, printed by render/render_loop_table.c
 * and written to DIR/loops.json by render/render_loops_file.c.
 */
#ifndef RL_LOOP_FIGURES_H
#define RL_LOOP_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "formats/sim_protocol.h"
#include "inspect/loops.h"

/* The samples of one timed run per loop (cli/run/loop_samples.h takes
 * them). */
#define RL_LOOP_SAMPLE_THREADS 256

struct rl_loop_samples {
	uint64_t *self;     /* per loop id: 0 outside loops in the program's
			       code, i + 1 loop i */
	uint64_t n_loops;   /* ids: n + 1 */
	uint64_t total;     /* every sample */
	uint64_t elsewhere; /* in other code (libraries, the kernel's
			       return path) */
	uint64_t lost;      /* samples the kernel dropped (buffer full) */
	uint64_t cpu_ns;    /* the event's CPU time, every thread */
	uint64_t period_ns;
	unsigned threads;   /* threads that were sampled */
	/* per thread (the first RL_LOOP_SAMPLE_THREADS sampled): its kernel
	 * thread id and its samples per loop id (as self), NULL when none
	 * fell in the program's code */
	unsigned n_thread;
	pid_t tid[RL_LOOP_SAMPLE_THREADS];
	uint64_t *thread_self[RL_LOOP_SAMPLE_THREADS];
};

/* Per process and thread (the simulator's "thread" lines): its counts per
 * id, self and inclusive, and the native thread whose samples are paired
 * with it (-1 none). */
struct rl_loop_thread {
	long pid, tid;
	uint64_t (*self)[RS_NSLOTS], (*incl)[RS_NSLOTS];
	int sampled;
	uint64_t *samples_incl;
};

/* The regions a loop ran in (the simulator's loop-regions lines,
 * "<program>": none open). */
struct rl_loop_regions {
	char **v;
	size_t n;
};

struct rl_loop_figures {
	struct rl_loops l;
	uint64_t (*self)[RS_NSLOTS]; /* per id: 0 outside loops, i + 1 loop i */
	uint64_t (*incl)[RS_NSLOTS];
	/* per id: what the thread counted inside the calls made from the
	 * loop's own body until they returned (the simulator's "calls"
	 * lines), and with_calls: inclusive of nested loops and of those
	 * calls, the loop's "total" (rl_loops_with_calls) */
	uint64_t (*calls)[RS_NSLOTS];
	uint64_t (*with_calls)[RS_NSLOTS];
	bool calls_counted; /* --loop-calls: with_calls holds the calls' work;
			       else it is inclusive alone, not written */
	int levels;
	size_t n_files;
	bool counting;  /* spans given to the simulator */
	bool sampled;
	struct rl_loop_samples samples;
	uint64_t *samples_incl;
	char sample_why[512]; /* why no time per loop, when not sampled */
	bool *is_hot;   /* per loop: a row of the report */
	struct rl_loop_thread *thr;
	size_t n_thr;
	/* per id: the regions it ran in, NULL: not told */
	struct rl_loop_regions *in_region;
};

/* The flops of a count set; its DRAM bytes (the last level's boundary). */
uint64_t rl_loops_flops(const uint64_t *s);
uint64_t rl_loops_dram(const uint64_t *s, int levels);
/* Loop id's sampled time (inclusive) and its standard error in *err; 0
 * when not sampled. */
double rl_loops_time(const struct rl_loop_figures *x, size_t id, double *err);
bool rl_loops_sampled(const struct rl_loop_figures *x);
/* Every count of the run (all ids) into total[RS_NSLOTS]. */
void rl_loops_totals(const struct rl_loop_figures *x, uint64_t *total);
/* Loop i ran: it has counts or samples. */
bool rl_loops_ran(const struct rl_loop_figures *x, size_t i);
/* Which loops are rows, in words. */
void rl_loops_hot_rule(const struct rl_loop_figures *x, char *buf, size_t len);
/* Marks the hot loops in x->is_hot (allocated by the caller, l.n + 1). */
void rl_loops_choose_hot(struct rl_loop_figures *x);
/* incl = self summed up the nest (l's preorder), count sets and samples
 * per id. */
void rl_loops_inclusive(const struct rl_loops *l, uint64_t (*incl)[RS_NSLOTS],
			uint64_t (*self)[RS_NSLOTS]);
void rl_loops_samples_up(const struct rl_loops *l, uint64_t *incl);
/* x->with_calls from x->self and x->calls: a loop's counts, its nested
 * loops' and those of the calls made from any of them. A call's work is
 * counted once for the outermost loop of the nest it was made from
 * upwards, never again for the loops of the functions it ran (they are
 * in no loop's nest of the caller). */
void rl_loops_with_calls(struct rl_loop_figures *x);
/* Loop i's total adds something to its inclusive counts (it or a loop
 * nested in it made calls that counted). */
bool rl_loops_calls_count(const struct rl_loop_figures *x, size_t i);
/* Loop i's total is shown: its calls count and it holds at least the hot
 * rule's share of the run's flops or L1 bytes (at most the hot rule's
 * number of loops, the first in the nests' order: *shown counts them). */
bool rl_loops_total_shown(const struct rl_loop_figures *x, size_t i,
			  size_t *shown);
/* Loop id ran in region name (once per name); 0 or -1 (no memory). */
int rl_loops_add_in_region(struct rl_loop_figures *x, size_t id,
			   const char *name);

#endif
