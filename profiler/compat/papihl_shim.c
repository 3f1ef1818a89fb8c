/*
 * librlprof-papihl.so: PAPI's high-level API (papi.h, -lpapi) answered by
 * rlprof. `rlprof run` preloads it in front of libpapi when the program
 * imports PAPI_hl_region_begin, so the program's regions become rlprof
 * regions of the same names, counted by rlprof's backend; PAPI's own
 * high-level event set (PAPI_EVENTS, its output directory) is never set
 * up. The rest of libpapi (the low-level API) stays libpapi's.
 *
 * Semantics, after PAPI's documentation (PAPI_hl_region_begin(3) ...):
 * - regions are thread-local and may nest;
 * - PAPI_hl_region_begin returns PAPI_OK;
 * - PAPI_hl_read inside a region returns PAPI_OK and records nothing
 *   apart: rlprof reports each region from begin to end (a read of a
 *   region not begun in this thread returns PAPI_ENOTRUN);
 * - PAPI_hl_region_end returns PAPI_OK; one without a begin in this
 *   thread returns PAPI_ENOTRUN (and rlprof records it as a warning);
 * - PAPI_hl_stop returns PAPI_OK, or PAPI_ENOEVNT when this thread began
 *   no region; counting goes on (rlprof's regions need no event set).
 * The name lookup is done before rl_region_begin and after rl_region_end:
 * the shim's own work is never the program's. Fortran programs (fpapi.h's
 * PAPIf_hl_*) call libpapi's papif_hl_*_ wrappers, which call these
 * functions through libpapi's PLT, so the preloaded shim answers them too.
 */
#include <stddef.h>

#include "compat/compat_regions.h"
#include "runtime/rlprof.h"

#define EXPORT __attribute__((visibility("default")))

/* papi.h's values (PAPI 5 to 7) */
#define RL_PAPI_OK 0
#define RL_PAPI_EINVAL (-1)
#define RL_PAPI_ENOMEM (-2)
#define RL_PAPI_ENOEVNT (-7)
#define RL_PAPI_ENOTRUN (-9)

EXPORT int PAPI_hl_region_begin(const char *region)
{
	struct rl_compat_region *r;

	if (!region)
		return RL_PAPI_EINVAL;
	if (!(r = rl_compat_find(region, 1)))
		return RL_PAPI_ENOMEM;
	r->open++;
	rl_region_begin(region);
	return RL_PAPI_OK;
}

EXPORT int PAPI_hl_read(const char *region)
{
	struct rl_compat_region *r = region ? rl_compat_find(region, 0) : NULL;

	if (!region)
		return RL_PAPI_EINVAL;
	return r && r->open ? RL_PAPI_OK : RL_PAPI_ENOTRUN;
}

EXPORT int PAPI_hl_region_end(const char *region)
{
	struct rl_compat_region *r;

	if (!region)
		return RL_PAPI_EINVAL;
	rl_region_end(region); /* first: the lookup is not the program's */
	r = rl_compat_find(region, 0);
	if (!r || !r->open)
		return RL_PAPI_ENOTRUN;
	r->open--;
	r->count++;
	return RL_PAPI_OK;
}

EXPORT int PAPI_hl_stop(void)
{
	return rl_compat_count() > 0 ? RL_PAPI_OK : RL_PAPI_ENOEVNT;
}
