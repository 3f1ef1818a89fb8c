/*
 * What the compatibility shims (librlprof-likwid.so, librlprof-papihl.so)
 * keep per thread beside librlprof's own figures: for each region name,
 * whether it is open in this thread, its accumulated time and its call
 * count, which LIKWID's and PAPI's APIs give back to the program
 * (LIKWID_MARKER_GET) or use to decide a return code. librlprof does the
 * measuring; these are only the answers the foreign API owes its caller.
 *
 * Every function acts on the calling thread's table; nothing is shared
 * between threads, so nothing is locked. Names are copied and found by
 * a hash, in constant time however many there are.
 *
 * The shims' own work is never the program's: each takes its name lookup
 * outside the rlprof region, reads its clock last on entry (after
 * rl_region_begin) and first on exit (before rl_region_end), and does
 * nothing else in between. Regions nest, so what a shim does after one
 * region's end is still inside its parents: its bookkeeping there is
 * integer work only (time in nanoseconds), never a floating-point
 * operation the simulated PMU would count as the parents' flops.
 */
#ifndef RL_COMPAT_REGIONS_H
#define RL_COMPAT_REGIONS_H

#include <time.h>

#define RL_COMPAT_HIDDEN __attribute__((visibility("hidden")))

struct rl_compat_region {
	char *name;
	int open;        /* started and not stopped in this thread */
	struct timespec t0; /* CLOCK_MONOTONIC at the start */
	long long time_ns; /* accumulated over completed start/stop pairs */
	int count;       /* completed start/stop pairs */
};

/* The calling thread's entry for name; created (closed, zero) when create
 * is set. NULL when absent and not created, or out of memory. */
RL_COMPAT_HIDDEN struct rl_compat_region *rl_compat_find(const char *name,
							  int create);

/* CLOCK_MONOTONIC, as the clock gives it: no arithmetic, so that a shim
 * may read it inside an rlprof region without adding to its counts
 * (the shims' own work is never the program's). */
RL_COMPAT_HIDDEN void rl_compat_clock(struct timespec *ts);

/* b - a in nanoseconds: integer arithmetic only, so that it may run
 * inside an enclosing region without adding to its flops. */
RL_COMPAT_HIDDEN long long rl_compat_elapsed_ns(const struct timespec *a,
						const struct timespec *b);

/* Number of regions the calling thread has entered (open or not). */
RL_COMPAT_HIDDEN int rl_compat_count(void);

#endif
