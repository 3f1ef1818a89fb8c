/*
 * The known-answer check of a hardware-counted run (selftest_run.c; the
 * kernels: counters/selftest/kat_kernels.h; here, above the counters,
 * for the cache file it reads and writes as JSON): before
 * the program, the kernels of kat_kernels.h run through the very backend
 * and events the run uses, on this thread (the CPUs the program inherits),
 * and each counter's count is compared with the kernels' known answer.
 * The result is cached per machine, kernel and event set.
 */
#ifndef RL_SELFTEST_RUN_H
#define RL_SELFTEST_RUN_H

#include <stddef.h>

#include "counters/backend.h"
#include "formats/selftest.h"

/* Runs the check through be (init with options, thread_open, a read
 * around each kernel, thread_close, fini) and fills st. Flops counters are
 * held to the answers of every kernel (a kernel of another width or
 * precision must count 0 on them); DRAM counters to the two triads (the
 * least of three tries each: uncore counters count other processes'
 * traffic too). Proxy and simulated counters are not held (said in
 * st->why). Returns 0, or the backend's error (err says it). */
int rl_selftest_run(const struct rl_backend *be, const char *options,
		    struct rl_selftest *st, char *err, size_t errlen);

/* Like rl_selftest_run, but first looks in the cache file named for this
 * machine (CPU model, kernel release), be, options and the events be's
 * init() reports (cache_dir "": $XDG_CACHE_HOME/rlprof, else
 * ~/.cache/rlprof; NULL: no cache), and stores what it ran there. */
int rl_selftest_cached(const struct rl_backend *be, const char *options,
		       const char *cache_dir, struct rl_selftest *st,
		       char *err, size_t errlen);

/* rl_selftest_cached with a launch's RLPROF_* settings (the perf
 * backend's resolved events) in this process's environment meanwhile. */
struct rl_launch;
int rl_selftest_for_launch(const struct rl_backend *be,
			   const struct rl_launch *l, const char *options,
			   const char *cache_dir, struct rl_selftest *st,
			   char *err, size_t errlen);

/* The check with the settings be's prepare_launch() would give a program
 * (rlprof counters --selftest). */
int rl_selftest_standalone(const struct rl_backend *be, const char *options,
			   const char *cache_dir, struct rl_selftest *st,
			   char *err, size_t errlen);

#endif
