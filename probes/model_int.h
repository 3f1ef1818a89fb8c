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
};

void probe_progress(struct probe_ctx *c, const char *what, double units);
int probe_compute_roofs(struct probe_ctx *c, char *err, size_t errlen);
int probe_bw_roofs(struct probe_ctx *c, char *err, size_t errlen);

#endif
