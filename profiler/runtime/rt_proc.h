/*
 * The process as the kernel tells it (rt_proc.c), read by process scope
 * (rt_scope.c) at the begin and end of a call while the process has
 * several threads; raw system calls, no allocation.
 */
#ifndef RL_RT_PROC_H
#define RL_RT_PROC_H

#include <stdint.h>
#include <time.h>

/* Inside librlprof only: called directly, not through the PLT, whose
 * first call runs the dynamic linker's resolver (code the simulator
 * would count in the regions open around the caller). */
#define RL_RT_PROC_HIDDEN __attribute__((visibility("hidden")))

/* Nanoseconds on clock (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
 * CLOCK_MONOTONIC); 0 when unreadable. */
RL_RT_PROC_HIDDEN uint64_t rl_rt_proc_clock_ns(clockid_t clock);

/* The CPUs the process may run on (its affinity mask), 0 when
 * unreadable; read once. */
RL_RT_PROC_HIDDEN uint32_t rl_rt_proc_cpus(void);

/* Page faults and context switches of the process (RUSAGE_SELF, exited
 * threads included) or of the calling thread (RUSAGE_THREAD); 0 when
 * unreadable. */
RL_RT_PROC_HIDDEN void rl_rt_proc_usage(int who, uint64_t *faults,
					uint64_t *csw);

/* Calls fn(arg, tid, ns) for every thread of the process with the
 * nanoseconds it ran (its CPU clock), 0 when unreadable. */
RL_RT_PROC_HIDDEN void
rl_rt_proc_walk_threads(void (*fn)(void *, uint32_t, uint64_t), void *arg);

#endif
