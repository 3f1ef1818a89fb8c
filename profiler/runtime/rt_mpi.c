/* MPI calls out of the counts (rl_mpi_calls.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime/rl_mpi_calls.h"
#include "runtime/rt_internal.h"

/* 1: MPI calls are paused out of the counts; 0: kept in; -1: not read
 * yet (a benign race: every thread reads the same environment) */
static int excluding = -1;

static int mpi_out(void)
{
	int e = __atomic_load_n(&excluding, __ATOMIC_RELAXED);

	if (e < 0) {
		const char *v = getenv("RLPROF_MPI_CALLS");
		e = !(v && strcmp(v, "in") == 0);
		__atomic_store_n(&excluding, e, __ATOMIC_RELAXED);
	}
	return e;
}

static void pause_counts(int pause)
{
	if (__atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED) != RL_RT_ACTIVE ||
	    !rl_rt.backend || !rl_rt.backend->pause || !mpi_out())
		return;
	rl_rt.backend->pause(pause);
}

void rl_mpi_call_begin(void)
{
	pause_counts(1);
}

void rl_mpi_call_end(void)
{
	pause_counts(0);
}
