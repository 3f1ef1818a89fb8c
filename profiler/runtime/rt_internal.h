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

#include "backend.h"
#include "results.h"

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

/* One open region on a thread's stack; followed by n_prov counter values
 * read at begin (stride rt.frame_size). */
struct rl_frame {
	uint32_t region;   /* index in the thread's region table */
	uint32_t counters_ok;
	uint64_t t0_ns;
	struct rl_counter_value v0[];
};

struct rl_thread {
	uint64_t tid;
	unsigned index;
	bool exited;
	bool counters_ok;           /* thread_open succeeded, reads work */
	bool backend_open;          /* thread_open succeeded: close it */
	void *backend_state;

	/* Region table: stats array + open-addressing hash of indices. */
	struct rl_region_stats *regions;
	size_t n_regions, cap_regions;
	uint32_t *hash;             /* index + 1, 0 = empty */
	size_t hash_cap;            /* power of two */

	/* Stack of open regions, frames of rt.frame_size bytes. */
	unsigned char *frames;
	size_t depth, cap_frames;

	void *altstack;             /* our sigaltstack, NULL if none */
	struct rl_counter_value scratch[RL_COUNTER_COUNT];
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
};

extern struct rl_rt rl_rt;

/* rt_state.c */
void rl_rt_init(void);
struct rl_thread *rl_rt_thread_new(void);
uint64_t rl_rt_now_ns(void);
uint64_t rl_rt_realtime_ns(void);

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
int rl_rt_region_index(struct rl_thread *t, const char *name, size_t len);
/* Close every open frame of t: the whole-program frame is completed, the
 * others counted as open at exit with a warning saying `why`. */
void rl_rt_close_all(struct rl_thread *t, const char *why, bool in_signal);
/* Complete the top frame of t (adds calls, time and counter deltas). */
void rl_rt_pop_complete(struct rl_thread *t);
void rl_rt_push(struct rl_thread *t, int region);
void rl_rt_thread_free_tables(struct rl_thread *t);
/* Set the calling thread's state pointer (thread exit, fork child). */
void rl_rt_self_set(struct rl_thread *t);
struct rl_thread *rl_rt_self_get(void);

/* Accumulate one interval b -> e into tot (exported for tests): value
 * and times add their deltas, with integer arithmetic only (no flops in
 * the profiled program's counts); tot->scaled is left alone: readers
 * compute it from the sums (rl_counter_scaled). */
void rl_counter_total_add(struct rl_counter_total *tot,
			  const struct rl_counter_value *b,
			  const struct rl_counter_value *e);

/* rt_flush.c */
/* Write the results file. sig = 0 at exit, the signal number otherwise. */
void rl_rt_flush(int sig);
void rl_rt_signals_install(void);
/* Give the calling thread an alternate signal stack (kept in *slot) unless
 * it has one; remove it again (before the thread exits). */
void rl_rt_altstack_add(void **slot);
void rl_rt_altstack_remove(void **slot);

#endif
