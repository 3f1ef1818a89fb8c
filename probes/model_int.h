/* Internal to probes/model*.c: the steps of rl_probe_machine. */
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
	double core_best;      /* the best rate read so far, and the */
	double core_second;    /* second best: the reference (one reading
				  too high, from a clock window read low,
				  cannot move it) */
	unsigned core_chains;  /* chains that fill the units (0: 10) */
	double compute_core;   /* the rate read around the compute roofs:
				  the lowest but one (-1: none read yet) */
	double compute_low;    /* the lowest */
};

void probe_progress(struct probe_ctx *c, const char *what, double units);
/* Reads the core's rate now (remembering the best two); and whether a
 * rate is whole against the best reading but one (core_rate.c). */
double probe_core_read(struct probe_ctx *c);
int probe_core_whole(const struct probe_ctx *c, double rate);
/* The reason a figure measured at `rate` may read low, into buf. */
void probe_core_doubt(const struct probe_ctx *c, double rate, char *buf,
		      size_t len);
int probe_compute_roofs(struct probe_ctx *c, char *err, size_t errlen);
int probe_bw_roofs(struct probe_ctx *c, char *err, size_t errlen);
/* model_core.c: the compute roofs again where the core was shared
 * around them, waiting at most cap_s for it to run whole. */
int probe_compute_again(struct probe_ctx *c, double cap_s, char *err,
			size_t errlen);

#endif
