/*
 * The results file of one process (DIR/raw/rlprof-<pid>.json): the
 * figures librlprof writes (runtime/results_write.c) and the rlprof
 * command reads back (results/results_read.c). The JSON schema (version
 * RL_RESULTS_VERSION) is documented in README.md ("Results file").
 *
 * Ownership: a loaded struct rl_process_results owns every string and array
 * in it; rl_results_release() (results/run_results.h) frees them.
 */
#ifndef RL_FORMATS_RESULTS_H
#define RL_FORMATS_RESULTS_H

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
	uint64_t depth;      /* recursion: most calls open at once on the
				thread (0: never entered while open). Only
				the outermost counts: calls counts every
				entry, time and counters the outermost */
	uint8_t time_native; /* time_ns from the native timing run (sim) */
	/* Process scope (profiler/runtime/rt_scope.c): calls begun on the
	 * main thread outside an OpenMP parallel region count the work of
	 * every thread of the process while they are open. */
	uint64_t scope_calls;   /* calls measured in process scope */
	uint64_t scope_time_ns; /* their wall time (for the calls with a CPU
				   time: over the same window as it) */
	uint64_t scope_cpu_ns;  /* CPU time of every thread during them */
	uint64_t scope_cpu_unknown_ns; /* wall time of those of them whose
				   CPU time was not measured (begun while
				   the process had one thread) */
	uint32_t scope_threads; /* most threads that ran during one call */
	uint32_t scope_cpus;    /* CPUs the process could use (its affinity
				   mask), 0 unknown: busy threads never
				   exceed them */
	uint64_t scope_all;     /* bit c: scope_counters[c] covers every
				   thread */
	struct rl_counter_total *scope_counters; /* RL_COUNTER_COUNT entries
				   (malloc'd), or NULL: the other threads'
				   share during the process-scope calls
				   ("others"; counters[] is the calling
				   thread's own). The reader adds them to
				   counters[] (results_scope.c). A file that
				   has "counters" instead (written before
				   "others") holds the process's totals */
	bool scope_totals;      /* scope_counters are such totals */
	uint8_t uncounted;   /* calls and time from the native timing run;
				the counting run stopped before they ended,
				so no counter of this region was measured */
	uint8_t work_differs; /* the same calls in the timing and the
				counting run, not the same work: the region
				took about as long under the simulator as
				natively while the rest of the program ran
				many times slower (work that follows the
				clock; results_native.c): no rate from it */
	/* MPI calls (librlprof-mpi's PMPI wrappers, "mpi_ns" in the file):
	 * wall time the thread spent inside MPI calls made while the region
	 * was open (its outermost calls, like time_ns). mpi_known false: not
	 * measured (no wrapper in the process, or a file without it) */
	bool mpi_known;
	uint64_t mpi_ns;
	/* The program's clock reads (clock_gettime, gettimeofday, time) on
	 * the thread while the region was open ("clock_reads" in the file,
	 * written where not 0): the same calls with other clock reads in the
	 * two runs of -b sim did other work. clock_known false: not counted
	 * (a file of a process whose "clock_reads_counted" is not true). */
	bool clock_known;
	uint64_t clock_reads;
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

/* The identity of one `rlprof run` (RLPROF_RUN_ID): 32 random hex
 * digits, carried by every live and results file of the run, so that the
 * files of another or an earlier run found in DIR are named and left out,
 * never merged. */
#define RL_RUN_ID_LEN 32

/* 1 when s is a run identity as rlprof writes it (1 to RL_RUN_ID_LEN
 * lowercase hex digits), else 0. */
static inline int rl_run_id_valid(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++)
		if (n >= RL_RUN_ID_LEN ||
		    !((s[n] >= '0' && s[n] <= '9') ||
		      (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n > 0;
}

struct rl_process_results {
	int version;
	long pid, ppid;
	char run_id[RL_RUN_ID_LEN + 1]; /* "" when not said (an older file) */
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
	/* MPI calls in this process ("mpi_calls" in the file): 0 no PMPI
	 * wrapper (not an MPI program under rlprof, or a file without it),
	 * else how their work was treated: */
	uint8_t mpi_calls;
	/* Every region's clock reads were counted ("clock_reads_counted"):
	 * the runtime's own results and those recovered from its live file;
	 * each region's clock_known says the same. */
	bool clock_reads_counted;
};

enum rl_mpi_calls {
	RL_MPI_CALLS_NONE = 0,
	RL_MPI_CALLS_OUT = 1,    /* kept out of the counts (paused or
				    subtracted) */
	RL_MPI_CALLS_IN = 2,     /* kept in (--mpi-calls in) */
};

#endif
