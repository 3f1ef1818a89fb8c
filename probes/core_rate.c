/* Whether a CPU's core runs at its whole rate right now: independent
 * scalar FMA chains (adds where the CPU has no FMA), and a read stream
 * from L1, per cycle of a dependent integer add chain, each timed for
 * tens of microseconds on that CPU.
 *
 * Why: a VM's vCPU may sit on a host core whose other hardware thread
 * runs someone else's work. The guest sees no steal time and the clock
 * (a latency-bound chain) does not move, but every throughput-bound
 * kernel loses the issue slots the other thread takes: on the Xeon guest
 * of probes/machines/ such phases lasted 0.2 s to over a second and cut
 * the L1 roofs by up to half and the FMA peaks by a quarter to a third,
 * all together; in other stretches only the loads slowed. The FMA units
 * are whole, so a core that issues 1.55 independent FMAs per cycle is
 * sharing two units with someone; a read stream has no such number, but
 * one that reads a fifth below the best the probe saw is shared too.
 * The probe measures what it has to measure again at a moment when the
 * core runs whole (probe_bw.c, probe_core.c), and where it never does,
 * says so. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "probes/probe.h"

#define STEPS 16384 /* per chain: 27 us at 10 chains, 2 units, 3 GHz */

/* Three arrays of 512 f64 (12 KiB: inside any L1d) for the read
 * stream; one pass reads each 64-byte line once. */
#define READ_ELEMS 512
#define READ_PASSES 256 /* per window: 3 MiB, about 11 us at 100 B/cycle */
static _Alignas(64) double ra[READ_ELEMS], rb[READ_ELEMS], rc[READ_ELEMS];

int rl_pin_self(int cpu, cpu_set_t *was)
{
	cpu_set_t set;
	if (pthread_getaffinity_np(pthread_self(), sizeof *was, was))
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return !pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

void rl_unpin_self(const cpu_set_t *was)
{
	pthread_setaffinity_np(pthread_self(), sizeof *was, was);
}

int rl_probe_core_rate(int cpu, int fma, unsigned chains, rl_rw_fn read,
		       struct rl_core_rate *out)
{
	memset(out, 0, sizeof *out);
	if (chains < 1 || chains > RL_FMA_MAX_CHAINS)
		chains = 10;
	rl_chain_fn fn = rl_chain_kernel_op(RL_ISA_SCALAR, RL_CHAIN_FMA, 0,
					    !fma, chains);
	if (!fn)
		return -1;
	cpu_set_t was;
	int pinned = cpu >= 0 && rl_pin_self(cpu, &was);
	/* the clock before and after two short windows of each stream, the
	 * best of each: an interrupt only lowers one window, and a clock
	 * read low would make the rates read high (above whole: see
	 * below) */
	double ghz = rl_probe_clock_ghz(64 * 1024, 2), best = 0, rd = 0;
	double sum = 0;
	for (int t = 0; t < 2; t++) {
		double t0 = rl_probe_now_s();
		sum += fn(STEPS, 1.0);
		double dt = rl_probe_now_s() - t0;
		if (dt > 0 && chains * (double)STEPS / dt > best)
			best = chains * (double)STEPS / dt;
	}
	if (read) {
		sum += read(ra, rb, rc, 1.0, READ_ELEMS); /* into L1 */
		for (int t = 0; t < 2; t++) {
			double t0 = rl_probe_now_s();
			for (int k = 0; k < READ_PASSES; k++)
				sum += read(ra, rb, rc, 1.0, READ_ELEMS);
			double dt = rl_probe_now_s() - t0;
			double bps = 3.0 * sizeof(double) * READ_ELEMS *
				     READ_PASSES / dt;
			if (dt > 0 && bps > rd)
				rd = bps;
		}
	}
	double after = rl_probe_clock_ghz(64 * 1024, 2);
	if (after > ghz)
		ghz = after;
	if (pinned)
		rl_unpin_self(&was);
	if (!isfinite(sum) || !(ghz > 0))
		return -1;
	out->fma = best / (ghz * 1e9);
	out->read = rd / (ghz * 1e9);
	return 0;
}

unsigned rl_core_whole_rate(double best)
{
	if (!(best > 0))
		return 0;
	/* near a whole number: that one; between two: the core alone
	 * issues at least the next one */
	double n = round(best);
	if (n >= 1 && fabs(best - n) <= RL_CORE_RATE_SLACK * n)
		return (unsigned)n;
	return (unsigned)ceil(best);
}

double rl_core_fma_share(double rate, double best)
{
	unsigned w = rl_core_whole_rate(best);
	/* nothing known, or nothing read: nothing to say */
	return w && rate > 0 ? rate / w : 1;
}

int rl_core_rate_whole(double rate, double best)
{
	return rl_core_fma_share(rate, best) >= 1 - RL_CORE_RATE_SHARED;
}
