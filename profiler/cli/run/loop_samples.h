/*
 * Time per loop (rlprof run --loops): where a running program is, sampled
 * from outside it. rlprof opens a software CPU-clock sampling event
 * (perf_event_open, PERF_COUNT_SW_CPU_CLOCK: it works on virtual machines
 * without a PMU) on the started program, inherited by the threads it
 * creates, user space only, one sample per period of a thread's CPU time,
 * and a thread of rlprof drains the ring buffer while the program runs.
 * The period adapts: fine while the program is short, coarse once it has
 * run long (RL_LOOP_SAMPLE_FINE_*), one period for every sample of a run. Each sample's
 * address is mapped to the program's file (its load bias read from
 * /proc/PID/maps) and to the innermost loop holding it (inspect/loops.h).
 * Prints nothing.
 */
#ifndef RL_LOOP_SAMPLES_H
#define RL_LOOP_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "analysis/loop_figures.h"
#include "inspect/loops.h"

struct rl_loop_sampler;

/* Frees what rl_loop_sampler_stop() gave. */
void rl_loop_samples_free(struct rl_loop_samples *s);

/* The period adapts to the program's length. It starts at
 * RL_LOOP_SAMPLE_FINE_NS of a thread's CPU time (10 kHz: a program of 10
 * ms gets 100 samples; longer where the kernel's
 * perf_event_max_sample_rate would throttle it), and once the fine stage
 * holds RL_LOOP_SAMPLE_FINE_MAX samples (0.1 s of CPU time, every
 * thread) a second event RL_LOOP_SAMPLE_COARSEN times coarser takes
 * over, so that a long run's samples and their cost stay bounded (1000 a
 * second of CPU time). A sample costs the program 1-3 us of CPU time on
 * a bare machine and about 20 us on a virtual machine whose timer
 * interrupts exit to the hypervisor (measured: a loop of 0.69 s of CPU
 * time took 1.07 s at 50 us, 0.75 s at 250 us, 0.71 s at 1 ms): the fine
 * stage costs at most FINE_MAX samples' worth, about 20 ms there, and
 * the coarse one 2% there. A run that coarsened is given at the coarse
 * period alone: each thread's fine samples are thinned to every
 * COARSEN-th, the samples a coarse sampler would have taken, so that
 * every sample of a run stands for the same time and a loop's time is
 * its samples x the period, its error sqrt(samples) x the period. */
#define RL_LOOP_SAMPLE_FINE_NS 100000u
#define RL_LOOP_SAMPLE_FINE_MAX 1000u
#define RL_LOOP_SAMPLE_COARSEN 10u

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
