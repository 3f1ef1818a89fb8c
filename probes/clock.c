/* Core clock from a dependent chain of 1-cycle integer adds: every add
 * waits for the previous one, so the chain runs at one add per cycle
 * whatever the nominal or TSC frequency says (turbo included). The adds
 * take a register operand: recent Intel cores fold add-immediate chains
 * at rename (a chain of `add $1` measured 20 "GHz" on a Xeon), which a
 * register addend defeats. */
#include <math.h>
#include <time.h>

#include "probes/probe.h"

double rl_probe_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define ADD8 "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t" \
	     "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"

/* 64 dependent adds per iteration; the loop counter runs beside them. */
static unsigned long add_chain(long iters, unsigned long one)
{
	unsigned long x = 0;
	__asm__ volatile("1:\n\t" ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
			 "dec %1\n\t"
			 "jnz 1b\n\t"
			 : "+r"(x), "+r"(iters)
			 : "r"(one)
			 : "cc");
	return x;
}

/* The addend comes through a volatile so the compiler cannot know it. */
static volatile unsigned long addend = 1;

double rl_probe_clock_ghz(long adds, unsigned trials)
{
	long iters = adds / 64 > 0 ? adds / 64 : 1;
	double best = 0;
	add_chain(iters / 4 + 1, addend); /* warm-up: let the clock ramp */
	for (unsigned t = 0; t < trials; t++) {
		double t0 = rl_probe_now_s();
		unsigned long x = add_chain(iters, addend);
		double dt = rl_probe_now_s() - t0;
		if (dt > 0 && x == (unsigned long)iters * 64) {
			double ghz = iters * 64.0 / dt / 1e9;
			if (ghz > best)
				best = ghz;
		}
	}
	return best;
}

double rl_clock_ghz_from_adds(double adds, double seconds)
{
	return adds > 0 && seconds > 0 ? adds / seconds / 1e9 : 0;
}

unsigned rl_load_clock_adds(unsigned chains, unsigned units)
{
	if (units < 1)
		units = 1;
	return (chains + units - 1) / units + 1;
}

double rl_theoretical_gflops(unsigned cores, double ghz, double units,
			     unsigned lanes)
{
	if (cores < 1 || !(ghz > 0) || !(units > 0) || lanes < 1)
		return 0;
	return cores * ghz * units * lanes * 2;
}

/* The clock while FMA ports are busy: see probe.h. The adds are the
 * critical path (one more per step than the FMAs need cycles), so adds /
 * time is the clock; any stall only lowers it, so the best trial is the
 * closest. */
double rl_probe_load_clock_ghz(enum rl_isa isa, int f32, unsigned units,
			       long iters, unsigned trials, unsigned *chains,
			       unsigned *adds)
{
	unsigned c = 0;
	rl_load_kernel_fn fn = rl_load_kernel(isa, f32, &c);
	unsigned a = rl_load_clock_adds(c, units);
	if (chains)
		*chains = c;
	if (adds)
		*adds = a;
	if (!fn || a > 17 || iters < 1)
		return 0;
	double sum = 0, best = 0;
	/* warm-up: several ms of this load, so the frequency licence the
	 * FMAs ask for is in force before the first timed trial */
	fn(iters * 8, a, addend, &sum);
	for (unsigned t = 0; t < trials; t++) {
		double t0 = rl_probe_now_s();
		unsigned long n = fn(iters, a, addend, &sum);
		double dt = rl_probe_now_s() - t0;
		if (n != (unsigned long)iters * a || !isfinite(sum))
			continue;
		double ghz = rl_clock_ghz_from_adds((double)n, dt);
		if (ghz > best)
			best = ghz;
	}
	return best;
}
