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
 * /proc/self/task/<tid>/schedstat). They are kept beside the thread's own
 * counts (scope_counters); the reader uses them unless other threads
 * entered a region of the same name (then the threads' own rows add up,
 * as before). Other counters stay the calling thread's, and the report
 * says so when other threads ran.
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

void rl_scope_begin_slow(struct rl_thread *t, size_t depth,
			 const struct rl_rec *rec);
void rl_scope_end_slow(struct rl_thread *t, size_t depth, uint64_t dt_ticks,
		       bool ok);

/* At a region's begin, frame index `depth` of thread t, record rec (before
 * the thread's own counters are read). One compare on other threads. */
static inline void rl_scope_begin(struct rl_thread *t, size_t depth,
				  const struct rl_rec *rec)
{
	if (__builtin_expect(t->tid == rl_scope_main_tid ||
				     rl_scope_main_tid == 0,
			     0))
		rl_scope_begin_slow(t, depth, rec);
}

/* At its end (after the thread's own counters were read): when the frame
 * was of process scope, adds the call to the record's scope figures
 * (calls, wall and CPU time, threads that ran, counters over every thread
 * where known), kept beside the record in rt_scope.c. */
static inline void rl_scope_end(struct rl_thread *t, size_t depth,
				uint64_t dt_ticks, bool ok)
{
	if (__builtin_expect(t->tid == rl_scope_main_tid, 0))
		rl_scope_end_slow(t, depth, dt_ticks, ok);
}

/* The scope figures of rec into out (rl_rt_region_stats); nothing when
 * rec had no process-scope call. out->scope_counters points into
 * rt_scope.c's table (not to be freed). */
void rl_scope_stats(const struct rl_rec *rec, struct rl_region_stats *out);

#endif
