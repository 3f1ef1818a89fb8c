/*
 * Process scope (rt_scope.c): a region begun on the main thread outside an
 * OpenMP parallel region counts the work of every thread of the process
 * while it is open (OpenMP workers of a parallel region inside it, threads
 * started inside it). Regions begun on other threads, or inside a
 * parallel region, count their own thread as before; the two kinds nest.
 *
 * What "every thread" gets, per backend: the counters of a backend with
 * read_process() (the simulator); task_clock_ns, page_faults and
 * context_switches from the process's CPU clock and getrusage(); for every
 * backend, the CPU time of all threads and how many threads ran (from
 * /proc/self/task/<tid>/schedstat). They are kept as the other threads'
 * share (the process's delta less the calling thread's own, "others" in
 * the results file) beside the thread's own counts; the reader adds them,
 * so a region's total is the sum over all its calls wherever made (top
 * level, nested in another region at any depth, on other threads).
 * Other counters stay the calling thread's, and the report says so when
 * other threads ran. A region entered again while open on the same
 * thread is a call only (rt_region.c): no second snapshot.
 *
 * A call of the same region on another thread, begun and ended inside
 * the main thread's process-scope call (threads that open the region the
 * main thread has open: rlprof-kernels' triad_mt), counts in that
 * thread's row; its counts are left out of the main thread's "others", so
 * every thread's work is counted once. One that straddles the edge of
 * the main thread's call is warned of (kind "scope-straddle").
 *
 * RLPROF_SCOPE=thread turns process scope off.
 */
#ifndef RL_RT_SCOPE_H
#define RL_RT_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/rt_internal.h"

/* Process scope is the main thread's only; its kernel thread id (the
 * pid), 0 until the first region. */
extern uint64_t rl_scope_main_tid;

bool rl_scope_begin_slow(struct rl_thread *t, const struct rl_rec *rec);
void rl_scope_end_slow(struct rl_thread *t, const struct rl_frame *f,
		       uint64_t dt_ticks, bool ok);

/* At the begin of a region's outermost activation on thread t, record rec
 * (before the thread's own counters are read): true when the call is of
 * process scope (a snapshot taken, the frame's `scoped`). One compare on
 * other threads. Every depth of the main thread's stack qualifies, up to
 * RL_SCOPE_DEPTH process-scope calls open at once (past that a warning,
 * kind "scope-deep", and thread scope). */
static inline bool rl_scope_begin(struct rl_thread *t,
				  const struct rl_rec *rec)
{
	if (__builtin_expect(t->tid == rl_scope_main_tid ||
				     rl_scope_main_tid == 0,
			     0))
		return rl_scope_begin_slow(t, rec);
	return false;
}

/* At its end (after the thread's own counters were read): when the frame
 * is of process scope, adds the call to the record's scope figures
 * (calls, wall and CPU time over one window, threads that ran, and the
 * other threads' share of each counter where known: the process's delta
 * less the thread's own), kept beside the record in rt_scope.c. */
static inline void rl_scope_end(struct rl_thread *t, const struct rl_frame *f,
				uint64_t dt_ticks, bool ok)
{
	if (__builtin_expect(f->scoped, 0))
		rl_scope_end_slow(t, f, dt_ticks, ok);
}

/* On a thread other than the main one, at the begin of a region's
 * outermost activation: when the main thread has a process-scope call of
 * the same region open, the frame is marked (f->cover) so that its
 * counts are left out of that call's "others" at its end. One atomic
 * load when no process-scope call is open. */
void rl_scope_cover_begin_slow(struct rl_thread *t, struct rl_frame *f);
void rl_scope_cover_end_slow(struct rl_thread *t, const struct rl_frame *f);
extern uint32_t rl_scope_open_calls;

static inline void rl_scope_cover_begin(struct rl_thread *t,
					struct rl_frame *f)
{
	f->cover = 0;
	if (__builtin_expect(
		    __atomic_load_n(&rl_scope_open_calls, __ATOMIC_ACQUIRE) != 0,
		    0) &&
	    t->tid != rl_scope_main_tid)
		rl_scope_cover_begin_slow(t, f);
}

/* At its end, after the thread's counters were read into t->scratch. */
static inline void rl_scope_cover_end(struct rl_thread *t,
				      const struct rl_frame *f)
{
	if (__builtin_expect(
		    f->cover ||
			    __atomic_load_n(&rl_scope_open_calls,
					    __ATOMIC_RELAXED) != 0,
		    0) &&
	    t->tid != rl_scope_main_tid)
		rl_scope_cover_end_slow(t, f);
}

/* In a fork child, before its open frames are begun again: no
 * process-scope call is open, no figures kept, the calling thread is the
 * main one. */
void rl_scope_after_fork(void);

/* The scope figures of rec into out (rl_rt_region_stats); nothing when
 * rec had no process-scope call. out->scope_counters points into
 * rt_scope.c's table (not to be freed). */
void rl_scope_stats(const struct rl_rec *rec, struct rl_region_stats *out);

#endif
