/*
 * librlprof-likwid.so: LIKWID's marker API (likwid-marker.h built with
 * -DLIKWID_PERFMON, linked with -llikwid) answered by rlprof. `rlprof run`
 * preloads it in front of liblikwid when the program imports the marker
 * functions, so the program's regions become rlprof regions of the same
 * names, counted by rlprof's backend; liblikwid's own marker code (and the
 * perfmon setup it would do) never runs.
 *
 * Semantics, after LIKWID's documentation (likwid.h):
 * - regions are per thread: START and STOP must be called in the thread
 *   that runs the code (in an OpenMP parallel region, in each thread);
 * - START of a region already started in this thread returns -EFAULT and
 *   changes nothing; STOP of one not started returns -EFAULT (rlprof
 *   records the stray end as a warning);
 * - GET gives this thread's accumulated time (seconds) and call count;
 *   *nr_events is set to 0: rlprof's counts are in its report, not in a
 *   LIKWID event group;
 * - RESET sets this thread's time and count of the region to 0 (for GET;
 *   rlprof's report still has every call);
 * - INIT, THREADINIT, SWITCH (next group) and CLOSE do nothing: rlprof
 *   measures without them and writes its results at exit. Regions count
 *   even without INIT.
 * Between rl_region_begin and rl_region_end the shim only reads the clock
 * (compat_regions.h): a region that only sleeps has 0 flops. What STOP
 * does after rl_region_end is inside the enclosing regions, so it keeps
 * the time in integer nanoseconds: no floating-point operation of the
 * shim's is ever counted, parents included. Only GET, which the program
 * asks for, turns it into seconds (one division, the program's).
 * Fortran programs (LIKWID's likwid module) call liblikwid's
 * likwid_marker*_ wrappers, which call these functions through liblikwid's
 * PLT, so the preloaded shim answers them too.
 */
#include <errno.h>
#include <stddef.h>

#include "compat/compat_regions.h"
#include "runtime/rlprof.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT void likwid_markerInit(void) {}
EXPORT void likwid_markerThreadInit(void) {}
EXPORT void likwid_markerNextGroup(void) {}
EXPORT void likwid_markerClose(void) {}

EXPORT int likwid_markerRegisterRegion(const char *tag)
{
	if (!tag)
		return -EINVAL;
	return rl_compat_find(tag, 1) ? 0 : -ENOMEM;
}

EXPORT int likwid_markerStartRegion(const char *tag)
{
	struct rl_compat_region *r;

	if (!tag)
		return -EINVAL;
	if (!(r = rl_compat_find(tag, 1)))
		return -ENOMEM;
	if (r->open)
		return -EFAULT;
	r->open = 1;
	rl_region_begin(tag);
	rl_compat_clock(&r->t0); /* last on entry */
	return 0;
}

EXPORT int likwid_markerStopRegion(const char *tag)
{
	struct timespec t1;
	struct rl_compat_region *r;

	rl_compat_clock(&t1); /* first on exit: no lookup, no arithmetic */
	if (!tag)
		return -EINVAL;
	rl_region_end(tag);
	r = rl_compat_find(tag, 0);
	if (!r || !r->open)
		return -EFAULT;
	r->open = 0;
	r->time_ns += rl_compat_elapsed_ns(&r->t0, &t1);
	r->count++;
	return 0;
}

EXPORT int likwid_markerResetRegion(const char *tag)
{
	struct rl_compat_region *r = tag ? rl_compat_find(tag, 0) : NULL;

	if (!r)
		return -EFAULT;
	r->time_ns = 0;
	r->count = 0;
	return 0;
}

EXPORT void likwid_markerGetRegion(const char *tag, int *nr_events,
				   double *events, double *time, int *count)
{
	struct rl_compat_region *r = tag ? rl_compat_find(tag, 0) : NULL;

	(void)events;
	if (nr_events)
		*nr_events = 0;
	if (time)
		*time = r ? (double)r->time_ns / 1e9 : 0.0;
	if (count)
		*count = r ? r->count : 0;
}
