/*
 * The region clock: the time stamp counter where it is invariant (CPUID
 * leaf 0x80000007, EDX bit 8: constant rate, runs in every C-state),
 * calibrated against CLOCK_MONOTONIC, else clock_gettime(CLOCK_MONOTONIC)
 * in nanoseconds. Regions add up ticks (integers, no system call); ticks
 * become nanoseconds only when results are written.
 *
 * RLPROF_CLOCK=monotonic forces clock_gettime (tests, or a machine whose
 * TSC is not trusted).
 */
#include "runtime/rt_env.h"
#include "runtime/rt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define RL_HAVE_TSC 1
#endif

/* How long the start-up calibration spins: 1 ms gives the rate within
 * about 1e-4 (clock_gettime resolves to tens of ns); the final write
 * recalibrates over the whole run. */
#define RL_CALIBRATE_NS 1000000u

uint64_t rl_rt_mono_ns(void)
{
	struct timespec ts;
	rl_rt_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool tsc_invariant(void)
{
#ifdef RL_HAVE_TSC
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return false;
	if (!__get_cpuid(0x80000007u, &a, &b, &c, &d))
		return false;
	return (d >> 8) & 1;
#else
	return false;
#endif
}

/* ns per tick as a 32.32 fixed-point multiplier from two (tick, ns)
 * points; 0 when the points are unusable. */
static uint64_t mult_from(uint64_t dticks, uint64_t dns)
{
	if (dticks == 0 || dns == 0)
		return 0;
	unsigned __int128 m = ((unsigned __int128)dns << 32) / dticks;
	return m > UINT64_MAX ? 0 : (uint64_t)m;
}

void rl_rt_clock_init(void)
{
	const char *force = rl_rt_env(RL_ENV_CLOCK);
	struct rl_clock *k = &rl_rt.clock;
	memset(k, 0, sizeof *k);
	k->mult = (uint64_t)1 << 32; /* ticks are ns */
	if ((force && strcmp(force, "monotonic") == 0) || !tsc_invariant())
		return;
#ifdef RL_HAVE_TSC
	uint64_t t0 = rl_rt_mono_ns(), c0 = __builtin_ia32_rdtsc(), t1, c1;
	do {
		t1 = rl_rt_mono_ns();
	} while (t1 - t0 < RL_CALIBRATE_NS);
	c1 = __builtin_ia32_rdtsc();
	uint64_t m = mult_from(c1 - c0, t1 - t0);
	if (!m)
		return;
	k->tsc = true;
	k->mult = m;
	k->tick0 = c0;
	k->ns0 = t0;
#endif
}

void rl_rt_clock_refine(void)
{
	struct rl_clock *k = &rl_rt.clock;
	if (!k->tsc)
		return;
	uint64_t now = rl_rt_mono_ns(), c = rl_rt_ticks();
	/* over 100 ms the whole run beats the start-up spin */
	if (now - k->ns0 < 100000000u || c <= k->tick0)
		return;
	uint64_t m = mult_from(c - k->tick0, now - k->ns0);
	if (m)
		k->mult = m;
}

uint64_t rl_rt_ticks_to_ns(uint64_t ticks)
{
	return (uint64_t)(((unsigned __int128)ticks * rl_rt.clock.mult) >> 32);
}
