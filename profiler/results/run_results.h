/*
 * Per-process results read back by the rlprof command (the file format
 * is formats/results.h, written by librlprof), and a whole run's results
 * merged. Readers reject a newer version or a file that does not parse
 * with a message naming the file.
 *
 * Ownership: a loaded struct rl_process_results owns every string and array
 * in it; rl_results_release() frees them and leaves a zeroed struct.
 */
#ifndef RL_RESULTS_H
#define RL_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/results.h"
#include "results/roof_check.h"

struct rl_mpi_results;

/* rlprof run --loops: a hot loop of the program made a row of the report
 * (DIR/loops.json read by results_loops.c): region records named `name`
 * carry its counts (inclusive of nested loops) and sampled time. */
#define RL_LOOP_MIN_SAMPLES 10 /* fewer: no % of roof (sampling error) */
/* The floating-point chains a loop's machine code carries from one
 * iteration to the next (loops.json's "chains", inspect/loop_chains.h):
 * the evidence the diagnosis needs before it names a chain. known 0:
 * not read (a region, an older loops.json). */
struct rl_chain_evidence {
	bool known;
	unsigned add, mul, madd;
};

struct rl_loop_meta {
	char *name;          /* the rows' region name: "loops.c:19 (nest3)",
				"nest3+0x1c" without a line table */
	char *function;
	char *file;          /* NULL without -g (as the line table has it) */
	char *source;        /* that file's absolute path where rlprof run
				found it, NULL when it did not */
	long line;           /* 0 without */
	char *parent;        /* the region it ran in, NULL not known */
	uint64_t samples;    /* CPU-clock samples in it (all threads) */
	double period_s;     /* one sample stands for that much CPU time;
				NAN: not sampled */
	char *no_time;       /* why not sampled, or NULL */
	struct rl_chain_evidence chains;
	char *inlined;       /* where it was inlined, innermost first:
				"sum into twice at shared_lines.c:37; ...",
				NULL when not inlined */
	char *enclosing;     /* the name of the loop it is nested in, NULL
				outermost */
};

/* rlprof run --loops: where the run's sampled CPU time went (every
 * thread, every rank: loops.json's "sampling"). The hot-loop rule's 1% is
 * of samples, all of them: loops, the program's code outside its loops,
 * and other code (shared libraries: libgomp's waits, libc; the loader).
 * samples 0: not sampled. */
struct rl_loop_time {
	uint64_t samples;    /* all */
	uint64_t outside;    /* in the program's code, outside its loops */
	uint64_t other;      /* in other code */
	double period_s;     /* CPU time a sample stands for, 0 unknown */
};

/* All processes of one `rlprof run`, as loaded from DIR. */
struct rl_run_results {
	struct rl_process_results *procs;
	size_t n_procs;
	char *backend_requested; /* from DIR/run.json: "auto", "perf", ... */
	char *backend_reason;    /* why auto chose what it chose, may be NULL */
	char *command;           /* the profiled command line, may be NULL */
	int exit_status;         /* as rlprof run returned it, -1 unknown */
	int sim_timing_native;   /* 1: some simulated region's time_ns was
				    replaced by DIR/raw-native's (a native
				    timing run of the same program) */
	/* rlprof run --count-with (NULL when not used): the counted build,
	 * the ISA of the timed build ("avx512", ...; NULL unknown) and where
	 * that ISA came from (option, GNU property note, the program's code,
	 * or why unknown) */
	char *count_with;
	char *timed_isa;
	char *timed_isa_source;
	bool timed_no_fma;      /* run.json says the timed build's code has
				   no FMA at its widest width (timed_fma
				   false); false when it has or is not
				   known */
	struct rl_mpi_results *mpi; /* the ranks of an MPI run, NULL when
				       not one (results_ranks.h) */
	struct rl_roof_check roof_check; /* run.json's "roof_check" (the DRAM
					    triad around the timing run);
					    zero when absent */
	/* rlprof run --loops (results_loops.c): the hot loops whose records
	 * were added to the processes, and the rule that chose them */
	struct rl_loop_meta *loops;
	size_t n_loops;
	char *loops_rule;
	struct rl_loop_time loops_time;
	struct rl_selftest *selftest; /* run.json's "selftest" (the
					 known-answer check), NULL none */
};

/* The scaled count of a counter from its sums: value * enabled / running
 * when it ran, the raw value when the backend has no times (both 0), 0
 * when it was enabled but never ran (nothing measured). */
double rl_counter_scaled(uint64_t value, uint64_t enabled_ns,
			 uint64_t running_ns);

/* s->counters made (zeroed) when it is NULL: 0 or RL_ENOMEM. */
int rl_region_counters(struct rl_region_stats *s);

/* Reading (profiler side, uses a JSON library). */
int rl_results_load(const char *path, struct rl_process_results *out,
		    char *err, size_t errlen);
int rl_results_load_dir(const char *dir, struct rl_run_results *out,
			char *err, size_t errlen);
/* As rl_results_load_dir; with RL_LOAD_NO_RUN_RECORD, DIR/run.json is not
 * read (rlprof run could not write it: what is there is not this run's),
 * and the fields it would fill stay NULL / -1. run_id (NULL: the one
 * DIR/run.json names, if any) is the run whose results are taken: a
 * results file of another run is left out with a warning naming it. */
#define RL_LOAD_NO_RUN_RECORD 1u
/* With RL_LOAD_NO_LOOPS, DIR/loops.json is not read (the ranks of an MPI
 * run: their native times are merged first, as one run's are). */
#define RL_LOAD_NO_LOOPS 2u
int rl_results_load_dir_flags(const char *dir, unsigned flags,
			      const char *run_id, struct rl_run_results *out,
			      char *err, size_t errlen);
/* A warning of kind, not tied to a region or thread, appended to process
 * p (strings copied); 0 or RL_ENOMEM, p unchanged then. */
int rl_results_add_warning(struct rl_process_results *p, const char *kind,
			   const char *message);
/* One warning appended to a list of *n (strings copied; kind and
 * message NULL read as ""): 0, or RL_ENOMEM with the list unchanged. */
int rl_warning_append(struct rl_warning **list, size_t *n, const char *kind,
		      const char *region, uint64_t tid, const char *message);
/* The same for region (NULL: none) on thread tid (0: none). */
int rl_results_add_region_warning(struct rl_process_results *p,
				  const char *kind, const char *region,
				  uint64_t tid, const char *message);
void rl_results_release(struct rl_process_results *r);
/* results_loops.c (called by rl_results_load_dir_flags): the hot loops
 * of DIR/loops.json as region records of the process (and thread) they
 * ran in, their names and placement in out->loops. Nothing when DIR has
 * no loops.json; one that cannot be read is a warning of the first
 * process. 0 or RL_ENOMEM. */
int rl_results_add_loops(const char *dir, struct rl_run_results *out);
void rl_loop_meta_release(struct rl_loop_meta *m, size_t n);
/* An MPI rank's hot loops (from) into the run's (out): a loop of the same
 * name is one, its samples summed. 0 or RL_ENOMEM. */
int rl_results_take_loops(struct rl_run_results *out,
			  struct rl_run_results *from);
void rl_run_results_release(struct rl_run_results *r);
/* results_scope.c (called by rl_results_load): the other threads' share
 * of a region's process-scope calls (scope_counters) is added to its
 * counts. In a file written before "others" (scope_totals), the
 * process's totals become its counts when no other thread of the process
 * has a region of that name; else its scope fields are cleared. */
int rl_results_apply_scope(struct rl_process_results *p); /* 0 or RL_ENOMEM */

#endif
