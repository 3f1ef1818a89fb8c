/* Internal to probes/probe_*.c: the steps of rl_probe_machine. */
#ifndef RL_PROBE_MODEL_INT_H
#define RL_PROBE_MODEL_INT_H

#include "formats/machine.h"
#include "probes/probe.h"

struct probe_ctx {
	const struct rl_probe_options *o;
	const struct rl_cpu *cpu;
	unsigned threads;
	double clock_ghz;
	struct rl_machine *m;
	struct rl_probe_extra *extra;
	double done, total; /* progress units */
	/* the core's rate (core_rate.c), read on the first CPU, where the
	 * one-thread measurements run */
	int core_cpu;          /* that CPU; -1 while the calling thread is
				  pinned there (the bandwidth probe) */
	unsigned core_chains;  /* chains that fill the units (0: 10) */
	rl_rw_fn core_read_fn; /* the L1 read stream (NULL: FMA only) */
	/* the best two rates read of each: the reference is the second (one
	 * reading too high, from a clock window read low, cannot move it) */
	double fma_best, fma_second, read_best, read_second;
	/* the FMA rates read around the compute roofs */
	double compute_fma[16];
	size_t n_compute_fma;
};

void probe_progress(struct probe_ctx *c, const char *what, double units);

/* The 1-minute load average (/proc/loadavg), -1 when unreadable: read
 * when the probe starts (probe_machine.c) and when its bandwidth part ends
 * (probe_bw.c). */
double probe_loadavg1(void);
/* Reads the core's rate now, remembering the best two of each rate. */
struct rl_core_rate probe_core_read(struct probe_ctx *c);
/* The share of its own rate the core ran at in a reading: the FMA rate
 * against the whole number of the reference, and with_read, the lower of
 * that and the read rate against its reference (1 where nothing is
 * known); "whole" when the share is at least 1 - RL_CORE_RATE_SHARED. */
double probe_core_share(const struct probe_ctx *c,
			const struct rl_core_rate *r, int with_read);
int probe_core_whole(const struct probe_ctx *c, const struct rl_core_rate *r,
		     int with_read);
int probe_compute_roofs(struct probe_ctx *c, char *err, size_t errlen);
int probe_bw_roofs(struct probe_ctx *c, char *err, size_t errlen);
/* probe_core.c: the compute roofs again where the core was shared
 * around them, waiting at most cap_s for it to run whole. */
int probe_compute_again(struct probe_ctx *c, double cap_s, char *err,
			size_t errlen);

#endif
