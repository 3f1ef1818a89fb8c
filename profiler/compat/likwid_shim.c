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
 */
#include <errno.h>
#include <stddef.h>

#include "compat_regions.h"
#include "rlprof.h"

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
	r->t0 = rl_compat_now();
	return 0;
}

EXPORT int likwid_markerStopRegion(const char *tag)
{
	double t1 = rl_compat_now();
	struct rl_compat_region *r;

	if (!tag)
		return -EINVAL;
	r = rl_compat_find(tag, 0);
	rl_region_end(tag);
	if (!r || !r->open)
		return -EFAULT;
	r->open = 0;
	r->time_s += t1 - r->t0;
	r->count++;
	return 0;
}

EXPORT int likwid_markerResetRegion(const char *tag)
{
	struct rl_compat_region *r = tag ? rl_compat_find(tag, 0) : NULL;

	if (!r)
		return -EFAULT;
	r->time_s = 0;
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
		*time = r ? r->time_s : 0.0;
	if (count)
		*count = r ? r->count : 0;
}
