/*
 * Per-process results: what the runtime measured, as written to
 * DIR/raw/rlprof-<pid>.json by librlprof and read back by the rlprof
 * command. The JSON schema (version RL_RESULTS_VERSION) is documented in
 * README.md ("Results file"); readers reject a newer version or a file that
 * does not parse with a message naming the file.
 *
 * Ownership: a loaded struct rl_process_results owns every string and array
 * in it; rl_results_release() frees them and leaves a zeroed struct.
 */
#ifndef RL_RESULTS_H
#define RL_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/counter_ids.h"

#define RL_RESULTS_FORMAT "rlprof-results"
/* 2: "scaled" is no longer written; readers compute it from the sums
 * (rl_counter_scaled). Version 1 files, with "scaled", still read. */
#define RL_RESULTS_VERSION 2

/* One counter summed over a region's calls in one thread. */
struct rl_counter_total {
	uint64_t value;      /* raw sum of per-call deltas */
	double scaled;       /* value * enabled / running (reader side:
				computed from the sums, or a version 1
				file's per-call sum); NAN: unknown. The
				runtime leaves it 0 and never writes it */
	uint64_t enabled_ns; /* sums of per-call deltas */
	uint64_t running_ns;
};

struct rl_region_stats {
	char *name;
	uint64_t calls;
	uint64_t time_ns;    /* wall time inside the region, summed */
	struct rl_counter_total *counters; /* RL_COUNTER_COUNT entries, only
				those whose bit is set in the process's
				provided meaningful (malloc'd, owned; see
				rl_region_counters), or NULL when the
				process provides no counter: a time-only
				region of 10^5 carries no 1 KB of zeros */
	double expected_flops, expected_bytes; /* RL_REGION_EXPECT sums */
	uint64_t expect_calls;                 /* 0: nothing declared */
	uint64_t open_at_exit;                 /* begins never ended */
	uint8_t time_native; /* time_ns from the native timing run (sim) */
	/* Process scope (profiler/runtime/rt_scope.c): calls begun on the
	 * main thread outside an OpenMP parallel region count the work of
	 * every thread of the process while they are open. */
	uint64_t scope_calls;   /* calls measured in process scope */
	uint64_t scope_time_ns; /* their wall time */
	uint64_t scope_cpu_ns;  /* CPU time of every thread during them */
	uint64_t scope_cpu_unknown_ns; /* wall time of those of them whose
				   CPU time was not measured (begun while
				   the process had one thread) */
	uint32_t scope_threads; /* most threads that ran during one call */
	uint64_t scope_all;     /* bit c: scope_counters[c] covers every
				   thread */
	struct rl_counter_total *scope_counters; /* RL_COUNTER_COUNT entries
				   counted over every thread during the
				   process-scope calls (malloc'd), or NULL;
				   counters[] stays the calling thread's. When
				   no other thread of the process has a region
				   of the same name, the reader puts them in
				   counters[] (results_scope.c) */
	uint8_t uncounted;   /* calls and time from the native timing run;
				the counting run stopped before they ended,
				so no counter of this region was measured */
};

struct rl_thread_results {
	uint64_t tid;       /* kernel thread id */
	unsigned index;     /* 0 = first thread that used a region */
	struct rl_region_stats *regions;
	size_t n_regions;
	/* Writer only, when regions is NULL: region k made on demand into
	 * *out (the runtime keeps its figures in another form). */
	void (*region_at)(const void *ctx, size_t k,
			  struct rl_region_stats *out);
	const void *ctx;
};

struct rl_warning {
	char *kind;    /* "end-mismatch", "end-without-begin", "open-at-exit",
			  "empty-name", "long-name", "backend", "signal",
			  "live-file" */
	char *region;  /* may be NULL */
	uint64_t tid;  /* 0 when not tied to a thread */
	char *message; /* one line, ready to print */
};

struct rl_process_results {
	int version;
	long pid, ppid;
	char *program;       /* argv[0] / /proc/self/exe */
	char *backend;       /* backend that ran in this process */
	char *backend_note;  /* setup.note, may be "" */
	uint64_t provided;   /* bit c: counter c measured */
	unsigned char scope[RL_COUNTER_COUNT];
	char *method[RL_COUNTER_COUNT];     /* NULL where not provided */
	char *extra_name[RL_EXTRA_MAX];     /* NULL where unused */
	uint64_t start_ns, end_ns;          /* CLOCK_REALTIME of the process */
	bool complete;       /* false: flushed from a fatal signal */
	int signal;          /* that signal, 0 when complete */
	struct rl_thread_results *threads;
	size_t n_threads;
	struct rl_warning *warnings;
	size_t n_warnings;
};

struct rl_mpi_results;

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
 * and the fields it would fill stay NULL / -1. */
#define RL_LOAD_NO_RUN_RECORD 1u
int rl_results_load_dir_flags(const char *dir, unsigned flags,
			      struct rl_run_results *out, char *err,
			      size_t errlen);
void rl_results_release(struct rl_process_results *r);
void rl_run_results_release(struct rl_run_results *r);
/* results_scope.c (called by rl_results_load): the process-scope counts
 * of a region (scope_counters) become its counts when no other thread of
 * the process has a region of that name; else the region is of thread
 * scope (its threads' own rows add up) and its scope fields are cleared. */
int rl_results_apply_scope(struct rl_process_results *p); /* 0 or RL_ENOMEM */

/* Writing (runtime side, libc only, async-signal-tolerant: no malloc). */
int rl_results_write_fd(int fd, const struct rl_process_results *r);

#endif
