/*
 * Time per loop (rlprof run --loops): where a running program is, sampled
 * from outside it. rlprof opens a software CPU-clock sampling event
 * (perf_event_open, PERF_COUNT_SW_CPU_CLOCK: it works on virtual machines
 * without a PMU) on the started program, inherited by the threads it
 * creates, user space only, one sample per RL_LOOP_SAMPLE_PERIOD_NS of CPU
 * time, and a thread
 * of rlprof drains the ring buffer while the program runs. Each sample's
 * address is mapped to the program's file (its load bias read from
 * /proc/PID/maps) and to the innermost loop holding it (inspect/loops.h).
 * Prints nothing.
 */
#ifndef RL_LOOP_SAMPLES_H
#define RL_LOOP_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "inspect/loops.h"

struct rl_loop_sampler;

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

/* Frees what rl_loop_sampler_stop() gave. */
void rl_loop_samples_free(struct rl_loop_samples *s);

/* One sample per this much of a thread's CPU time: 4 kHz, so that a
 * program of 10 ms still gets 40 samples (a sample costs about a
 * microsecond: well under 1%). */
#define RL_LOOP_SAMPLE_PERIOD_NS 250000u

/* Opens the sampler before the program is spawned, on rlprof's calling
 * thread, armed by exec: the program spawned next from this thread
 * inherits the events and is sampled from its first instruction (a
 * program of a few milliseconds is no longer gone before rlprof
 * attaches); rlprof's own threads never exec and give none. Then
 * rl_loop_sampler_attach() with the program's pid once spawned, or
 * rl_loop_sampler_discard() when the spawn failed. 0, or a negative
 * RL_E* code with why in err. */
int rl_loop_sampler_open(const char *program, const struct rl_loops *loops,
			 struct rl_loop_sampler **out, char *err,
			 size_t errlen);
/* 0, or RL_ENOMEM (s freed then). */
int rl_loop_sampler_attach(struct rl_loop_sampler *s, pid_t pid, char *err,
			   size_t errlen);
void rl_loop_sampler_discard(struct rl_loop_sampler *s);

/* Starts sampling pid (just spawned: running program). 0, or a negative
 * RL_E* code with why in err (no perf_event_open, not allowed, ...). */
int rl_loop_sampler_start(pid_t pid, const char *program,
			  const struct rl_loops *loops,
			  struct rl_loop_sampler **out, char *err,
			  size_t errlen);

/* After the program ended: the last samples read, the sampler closed and
 * freed, the counts into out (free out->self). */
int rl_loop_sampler_stop(struct rl_loop_sampler *s,
			 struct rl_loop_samples *out);

/* loop_samples_file.c: the samples of one run kept as a file, for an
 * MPI job's native timing ranks to hand to the simulated ranks (rlprof
 * run --loops -- mpirun ...: each rank of the simulated job pairs the
 * native rank's samples with its counts, as one process does). JSON:
 *   {"format": "rlprof-loop-samples", "version": 1, "program": PATH,
 *    "loops": N, "total": ..., "elsewhere": ..., "lost": ...,
 *    "cpu_ns": ..., "period_ns": ..., "threads": ...,
 *    "self": [[ID, SAMPLES], ...],
 *    "per_thread": [{"tid": TID, "self": [[ID, SAMPLES], ...]}, ...]}
 * (ids with samples only); s NULL: not sampled, and why:
 *   {"format": "rlprof-loop-samples", "version": 1, "program": PATH,
 *    "missing": WHY}
 * 0 or a negative RL_E* code with why in err. */
int rl_loop_samples_save(const struct rl_loop_samples *s, const char *missing,
			 const char *program, const char *path, char *err,
			 size_t errlen);
/* Reads path into out (free with rl_loop_samples_free); refused
 * (RL_EFORMAT) when its program's loops are not n_loops; RL_ENOTSUP with
 * the "missing" reason in err when the run was not sampled. */
int rl_loop_samples_load(const char *path, uint64_t n_loops,
			 struct rl_loop_samples *out, char *err,
			 size_t errlen);

#endif
