/*
 * librlprof internals: the process-wide runtime state, per-thread state and
 * the helpers the runtime's files share. Not installed.
 *
 * Ownership and concurrency:
 *  - struct rl_rt (one, static) owns the thread registry, the warnings and
 *    the backend setup. rt.lock guards the registry, the warnings and every
 *    reallocation of a thread's region table or frame stack (so the exit or
 *    signal flush, holding the lock, never reads freed memory).
 *  - struct rl_thread is allocated at a thread's first region call and kept
 *    until process exit (its stats outlive the thread); only its own thread
 *    writes it, except at fork and the final flush.
 *  - Region names are copied (malloc) and owned by the thread's table.
 *  - Warning strings are malloc'd, except those made during a signal flush,
 *    which live in a static pool.
 */
#ifndef RL_RT_INTERNAL_H
#define RL_RT_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "counters/backend.h"
#include "runtime/results_write.h"
#include "formats/live.h"

#define RL_NAME_MAX 255          /* longer names are truncated */
#define RL_WHOLE_PROGRAM_NAME "<program>"
#define RL_EMPTY_NAME "<empty>"
#define RL_WARN_RESERVE 64       /* warning slots kept free for a signal */

enum rl_rt_state {
	RL_RT_UNINIT = 0,
	RL_RT_INACTIVE = 1,
	RL_RT_ACTIVE = 2,
	RL_RT_DONE = 3, /* results written: further calls are ignored */
};

/* A thread's table entry: the record and its name (inside the record). */
struct rl_region {
	struct rl_rec *rec;
	const char *name;
};

/* One open region on a thread's stack; followed by n_prov counter values
 * read at begin (stride rt.frame_size). */
struct rl_frame {
	struct rl_rec *rec;
	const char *name;  /* the pointer given to begin */
	uint32_t region;   /* index in the thread's region table */
	uint8_t counters_ok;
	uint8_t name_ro;   /* name lies in read-only data: an end with the
			      same pointer is the same name */
	uint8_t reentry;   /* the region was already open on this thread
			      (recursion): the call adds to calls only, its
			      outermost activation counts the rest */
	uint8_t scoped;    /* process scope: rt_scope.c has its snapshot */
	uint8_t cover;     /* another thread's call begun inside the main
			      thread's open process-scope call of the same
			      region: that call's slot + 1 (rt_scope.c) */
	uint32_t cover_gen; /* and the slot's generation then */
	uint64_t t0;       /* ticks */
	uint64_t mpi0;     /* the thread's mpi_ticks at begin */
	uint64_t clock0;   /* the thread's rl_rt_clock_reads at begin */
	struct rl_counter_value v0[];
};

/* The last region each begin site (the caller's return address) opened,
 * with the name pointer it gave: a begin from the same site with the
 * same read-only name needs no lookup. */
#define RL_SITE_SLOTS 128 /* a power of two: site_slot() takes the top 7 bits */
struct rl_site_slot {
	const void *site;
	const char *name;
	struct rl_rec *rec;
	uint32_t region;
	uint32_t name_ro;
};

struct rl_thread {
	/* hot: every begin and end */
	unsigned char *frames;      /* frames of rt.frame_size bytes */
	size_t depth, cap_frames;
	bool counters_ok;           /* thread_open succeeded, reads work */
	bool exited;
	void *backend_state;
	struct rl_site_slot sites[RL_SITE_SLOTS];

	uint64_t tid;
	unsigned index;
	bool backend_open;          /* thread_open succeeded: close it */

	/* Region table + open-addressing hash of indices, by name. */
	struct rl_region *regions;
	size_t n_regions, cap_regions;
	uint64_t *hash;             /* the name's hash << 32 | index + 1,
				       0 = empty: a probe reads a name only
				       where the hashes match, and growing
				       reads none */
	size_t hash_cap;            /* power of two */

	void *altstack;             /* our sigaltstack, NULL if none */
	struct rl_counter_value scratch[RL_COUNTER_COUNT];

	/* Where its next region record goes (rt_live.c). */
	struct rl_live_block *blk;
	size_t blk_next;            /* size of its next block */

	/* MPI calls (rt_mpi.c): ticks spent inside them, the calls open
	 * now (wrappers nest), when the outermost began, and the counts
	 * done inside them, subtracted from every read of the thread's
	 * counters when the backend cannot pause (mpi_excl_any) */
	uint64_t mpi_ticks, mpi_t0;
	uint64_t mpi_clock0; /* rl_rt_clock_reads when the MPI call began:
				the library's own clock reads (its progress
				engine waits by the clock) are not the
				program's */
	unsigned mpi_depth;
	bool mpi_excl_any, mpi_read_ok;
	struct rl_counter_value mpi_v0[RL_COUNTER_COUNT];
	uint64_t mpi_excl[RL_COUNTER_COUNT];
};

/* The region clock (rt_clock.c): ticks -> ns = ticks * mult >> 32. */
struct rl_clock {
	bool tsc;          /* ticks are TSC cycles, else CLOCK_MONOTONIC ns */
	uint64_t mult;
	uint64_t tick0, ns0; /* calibration start */
};

struct rl_warn_extra {
	uint64_t count;   /* occurrences; > 1 is said in the message */
	size_t base_len;  /* message length without the count suffix */
	size_t size;      /* bytes allocated for the message */
};

struct rl_rt {
	int state;                  /* enum rl_rt_state, read relaxed */
	pthread_mutex_t lock;       /* recursive */
	pthread_key_t key;

	const struct rl_backend *backend;
	struct rl_backend_setup setup;
	int prov[RL_COUNTER_COUNT]; /* provided counter ids, in order */
	size_t n_prov;
	size_t frame_size;

	char out_dir[4096];
	char program[1024];
	char run_id[40];            /* RLPROF_RUN_ID when valid, else "" */
	uint64_t start_ns;          /* CLOCK_REALTIME */
	bool whole_program;
	struct rl_thread *wp_thread; /* thread holding the <program> frame */

	struct rl_thread **threads;
	struct rl_thread_results *snap; /* same capacity, filled at flush */
	size_t n_threads, cap_threads;

	struct rl_warning *warnings;
	struct rl_warn_extra *warn_extra; /* parallel to warnings */
	size_t n_warnings, cap_warnings;

	int flushing;               /* set once by the first flush */
	struct rl_clock clock;

	/* The live file (rt_live.c). */
	char live_path[4096 + 64];
	struct rl_live_header *live;  /* mapped header, NULL: none */
	uint64_t live_end;            /* file bytes allocated */
	bool live_lost;               /* some records are in plain memory */
};

extern struct rl_rt rl_rt;

/* rt_state.c */
void rl_rt_init(void);
struct rl_thread *rl_rt_thread_new(void);
uint64_t rl_rt_realtime_ns(void);

/* n random hex digits and a NUL into buf (n <= 62): temporary and live
 * file names nobody can plant a link at beforehand. */
void rl_rt_random_hex(char *buf, size_t n);

/* rt_flush.c: gives the owner the permissions `need` on a file or folder
 * just created (fd, else path), whatever the program's umask; the other
 * bits stay as the umask left them. Async-signal-safe. */
void rl_rt_owner_may_use(int fd, const char *path, mode_t need);

/* rt_outdir.c: rl_rt.out_dir held open from start-up (hold: once, after
 * out_dir is set). out_at: the folder to open path relative to, with
 * *name the part to give it: the held folder and path's last part when
 * path lies directly in out_dir and the folder is still the one held,
 * else AT_FDCWD and path itself. Async-signal-safe. */
void rl_rt_out_hold(void);
int rl_rt_out_at(const char *path, const char **name);

/* rt_live.c: the live file (formats/live.h). open: at start and in a fork
 * child, after the backend is set up; a failure leaves records in plain
 * memory (lost if the process is killed) with a warning. */
void rl_rt_live_open(void);
/* Room for a record of `size` bytes in t's current block (a new block
 * when full); NULL when out of memory. publish() makes it visible. */
struct rl_rec *rl_rt_live_rec(struct rl_thread *t, size_t size);
void rl_rt_live_publish(struct rl_thread *t, struct rl_rec *r);
/* After the JSON results were written: the live file is not needed. */
void rl_rt_live_remove(void);
/* Removes the live file when it holds no record (only its header: the
 * disk was full at the first block); true when it did. */
bool rl_rt_live_drop_if_empty(void);

/* rt_clock.c */
void rl_rt_clock_init(void);
void rl_rt_clock_refine(void); /* at the final write: over the whole run */
uint64_t rl_rt_mono_ns(void);
uint64_t rl_rt_ticks_to_ns(uint64_t ticks);
static inline uint64_t rl_rt_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (__builtin_expect(rl_rt.clock.tsc, 1))
		return __builtin_ia32_rdtsc();
#endif
	return rl_rt_mono_ns();
}

/* rt_warn.c: add a warning (deduplicated by kind, region and tid: repeats
 * are counted in the message). in_signal: no malloc, static pool. */
void rl_rt_warn(const char *kind, const char *region, uint64_t tid,
		bool in_signal, const char *msg);
void rl_rt_warn_free_all(void);
int rl_rt_warn_reserve(void); /* make room for a signal flush's warnings */

/* Tiny string builder used for messages (no malloc, signal-safe). */
struct rl_sb {
	char *p;
	size_t cap, len;
};
void rl_sb_str(struct rl_sb *b, const char *s);
void rl_sb_u64(struct rl_sb *b, uint64_t v);
void rl_sb_name(struct rl_sb *b, const char *name); /* 'name', sanitized */

/* rt_region.c */
static inline struct rl_frame *rl_frame_at(struct rl_thread *t, size_t i)
{
	return (struct rl_frame *)(t->frames + i * rl_rt.frame_size);
}
static inline struct rl_rec_tail *rl_rec_tail(struct rl_rec *r)
{
	return rl_rec_tail_n(r, rl_rt.n_prov);
}
static inline char *rl_rec_name(struct rl_rec *r)
{
	return rl_rec_name_n(r, rl_rt.n_prov);
}
/* rt_table.c: region name -> its index in t's table (made when new);
 * -1 out of memory. */
int rl_rt_region_index(struct rl_thread *t, const char *name, size_t len);
/* The program's clock reads on this thread (rt_clock_reads.c), and the
 * runtime's own clock, not counted. */
extern __thread uint64_t rl_rt_clock_reads
	__attribute__((tls_model("initial-exec")));
int rl_rt_clock_gettime(clockid_t id, struct timespec *ts);
/* Set while this thread is inside a region call or the runtime's
 * start-up: a region call that finds it set (made from a signal handler
 * that interrupted one) is ignored and counted. */
extern __thread unsigned char rl_rt_in_call
	__attribute__((tls_model("initial-exec")));
/* How many region calls were ignored so. */
unsigned long rl_rt_refused_calls(void);
/* rl_region_begin without that check: the runtime's own calls (the
 * <program> region, begun from inside the start-up). */
void rl_rt_region_begin_internal(const char *name);
/* Close every open frame of t: the whole-program frame is completed, the
 * others counted as open at exit with a warning saying `why`. */
void rl_rt_close_all(struct rl_thread *t, const char *why, bool in_signal);
/* Complete the top frame of t (adds calls, time and counter deltas). */
void rl_rt_pop_complete(struct rl_thread *t);
void rl_rt_push(struct rl_thread *t, int region);
/* rt_table.c: t's region table, site slots and frame stack freed (its
 * records stay in the live file). */
void rl_rt_thread_free_tables(struct rl_thread *t);
/* Set the calling thread's state pointer (thread exit, fork child). */
void rl_rt_self_set(struct rl_thread *t);
struct rl_thread *rl_rt_self_get(void);
/* rt_table.c: region k of t as results (time in ns, open_at_exit =
 * begins never ended); name points into the record. */
void rl_rt_region_stats(const struct rl_thread *t, size_t k,
			struct rl_region_stats *out);

/* Accumulate one interval b -> e into tot (exported for tests): value
 * and times add their deltas, with integer arithmetic only (no flops in
 * the profiled program's counts); tot->scaled is left alone: readers
 * compute it from the sums (rl_counter_scaled). */
void rl_counter_total_add(struct rl_counter_total *tot,
			  const struct rl_counter_value *b,
			  const struct rl_counter_value *e);

/* rt_mpi.c: MPI calls. The mode (enum rl_mpi_calls): NONE until
 * librlprof-mpi's wrappers are loaded. */
int rl_rt_mpi_calls(void);
/* Are the counts done inside MPI calls subtracted from the thread's reads
 * (a backend that cannot pause, --mpi-calls out)? Then rl_rt_mpi_excl[c]
 * is what every thread did inside MPI calls, counter c (atomic adds):
 * rt_scope.c takes it out of the process's figures too. */
bool rl_rt_mpi_subtracting(void);
extern uint64_t rl_rt_mpi_excl[RL_COUNTER_COUNT];

/* rt_flush.c */
/* Write the results file. sig = 0 at exit, the signal number otherwise. */
void rl_rt_flush(int sig);
void rl_rt_signals_install(void);
/* Give the calling thread an alternate signal stack (kept in *slot) unless
 * it has one; remove it again (before the thread exits). */
void rl_rt_altstack_add(void **slot);
void rl_rt_altstack_remove(void **slot);

#endif
