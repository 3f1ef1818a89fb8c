/*
 * The program's clock functions, counted (rt_clock_reads.c): defined once
 * here, included by librlprof (rt_clock_reads.c) and by the preloaded
 * shims (profiler/compat/clock_interpose.c), which come before librlprof
 * in the symbol lookup order of a program that does not link it (a
 * preload's dependencies load after the C library). Each counts the read
 * on the calling thread and takes the time from the C library.
 */
#ifndef RL_CLOCK_INTERPOSE_H
#define RL_CLOCK_INTERPOSE_H

#include <sys/time.h>
#include <time.h>

#ifndef RL_CLOCK_EXPORT
#define RL_CLOCK_EXPORT
#endif

/* librlprof's counted reads (rt_clock_reads.c). */
int rl_clock_reads_gettime(clockid_t id, struct timespec *ts);
int rl_clock_reads_gettimeofday(struct timeval *tv, void *tz);
time_t rl_clock_reads_time(time_t *t);

RL_CLOCK_EXPORT int clock_gettime(clockid_t id, struct timespec *ts)
{
	return rl_clock_reads_gettime(id, ts);
}

RL_CLOCK_EXPORT int gettimeofday(struct timeval *restrict tv,
				 void *restrict tz)
{
	return rl_clock_reads_gettimeofday(tv, tz);
}

RL_CLOCK_EXPORT time_t time(time_t *t)
{
	return rl_clock_reads_time(t);
}

#endif
