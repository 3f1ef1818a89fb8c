/*
 * MPI calls (rl_mpi_calls.h): their time, per region, and their work out
 * of the counts.
 *
 * Time: the thread's ticks inside its outermost MPI call add to
 * t->mpi_ticks; a region's record takes the growth while it is open
 * (rt_region.c), so its mpi_ns is the time of the MPI calls made while
 * it was open, by the runtime's clock.
 *
 * Work: with RLPROF_MPI_CALLS unset or "out", a backend that can pause
 * (the simulator) stops counting the thread for the call; another one
 * (perf, papi, likwid) has the thread's counters read at the call's entry
 * and exit, and the difference is subtracted from every later read of
 * the thread's counters (rt_region.c) and, summed over threads, from the
 * process's figures (rt_scope.c). The bookkeeping lies between the two
 * reads (or inside the pause), so it is in no count either.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_env.h"
#include "runtime/rl_mpi_calls.h"
#include "runtime/rt_internal.h"

uint64_t rl_rt_mpi_excl[RL_COUNTER_COUNT];

/* 1: MPI calls kept out of the counts; 0: kept in; -1: not read yet
 * (a benign race: every thread reads the same environment) */
static int excluding = -1;
static int wrapped; /* librlprof-mpi is loaded */

static int mpi_out(void)
{
	int e = __atomic_load_n(&excluding, __ATOMIC_RELAXED);

	if (e < 0) {
		const char *v = rl_rt_env(RL_ENV_MPI_CALLS);
		e = !(v && strcmp(v, "in") == 0);
		__atomic_store_n(&excluding, e, __ATOMIC_RELAXED);
	}
	return e;
}

int rl_rt_mpi_calls(void)
{
	if (!__atomic_load_n(&wrapped, __ATOMIC_RELAXED))
		return RL_MPI_CALLS_NONE;
	return mpi_out() ? RL_MPI_CALLS_OUT : RL_MPI_CALLS_IN;
}

void rl_mpi_calls_present(void)
{
	__atomic_store_n(&wrapped, 1, __ATOMIC_RELAXED);
	if (rl_rt.live) /* the live file was opened before the wrapper */
		rl_rt.live->mpi_calls = (uint32_t)rl_rt_mpi_calls();
}

static bool active(void)
{
	return __atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED) ==
		       RL_RT_ACTIVE &&
	       rl_rt.backend;
}

bool rl_rt_mpi_subtracting(void)
{
	return active() && !rl_rt.backend->pause && rl_rt.n_prov &&
	       mpi_out();
}

/* The thread's counters into v (by counter id); false when unreadable. */
static bool read_now(struct rl_thread *t, struct rl_counter_value *v)
{
	return t->counters_ok &&
	       rl_rt.backend->read(t->backend_state, v) == 0;
}

void rl_mpi_call_begin(void)
{
	struct rl_thread *t;

	if (!active())
		return;
	if (rl_rt.backend->pause && mpi_out())
		rl_rt.backend->pause(1);
	t = rl_rt_self_get();
	/* a thread that never began a region has no region to charge */
	if (!t || t->exited || t->mpi_depth++ > 0)
		return;
	t->mpi_read_ok = rl_rt_mpi_subtracting() && read_now(t, t->mpi_v0);
	t->mpi_clock0 = rl_rt_clock_reads;
	t->mpi_t0 = rl_rt_ticks();
}

void rl_mpi_call_end(void)
{
	struct rl_thread *t;

	if (!active())
		return;
	t = rl_rt_self_get();
	if (t && !t->exited && t->mpi_depth > 0 && --t->mpi_depth == 0) {
		t->mpi_ticks += rl_rt_ticks() - t->mpi_t0;
		rl_rt_clock_reads = t->mpi_clock0;
		if (t->mpi_read_ok && read_now(t, t->scratch)) {
			for (size_t k = 0; k < rl_rt.n_prov; k++) {
				int c = rl_rt.prov[k];
				uint64_t b = t->mpi_v0[c].value,
					 e = t->scratch[c].value;
				uint64_t d = e > b ? e - b : 0;

				t->mpi_excl[c] += d;
				__atomic_fetch_add(&rl_rt_mpi_excl[c], d,
						   __ATOMIC_RELAXED);
			}
			t->mpi_excl_any = true;
		}
		t->mpi_read_ok = false;
	}
	if (rl_rt.backend->pause && mpi_out())
		rl_rt.backend->pause(0);
}
