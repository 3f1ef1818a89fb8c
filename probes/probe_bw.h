/* Internal to probes/probe_bw*.c: the bandwidth probe's state and the
 * parts its sweep (probe_bw_sweep.c) and its level measurements
 * (probe_bw.c) share. */
#ifndef RL_PROBE_BW_H
#define RL_PROBE_BW_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probe_steps.h"
#include "probes/recording.h"

#define MAX_LEVELS 8

struct bw_ctx {
	struct probe_ctx *c;
	struct rl_triad_pool *pool;
	struct rl_probe_recording *rec;
	struct rl_level_claim claims[MAX_LEVELS];
	size_t n_claims;
	size_t max_elems;
	struct rl_core_rate core_after; /* read right after the last
					   one-thread measurement */
	int have_after;                 /* and nothing ran since */
};

/* The widest ISA the triad kernels may use here. */
enum rl_isa probe_bw_isa(const struct rl_cpu *cpu);
/* The largest claimed level each thread has to itself (0 none known). */
uint64_t probe_bw_private_bytes(const struct bw_ctx *b);
/* Runs one measurement and records every trial (sweep: 1 for a point of
 * the sweep). */
int probe_bw_run(struct bw_ctx *b, const struct rl_triad_params *p, int sweep,
		 uint64_t bytes, int rec_op, struct rl_triad_result *r,
		 char *err, size_t errlen);
/* A one-thread job's elements the pool's other workers touch meanwhile. */
size_t probe_bw_ahead_elems(const struct bw_ctx *b, enum rl_stream_op op);
/* The triad sweep on `threads` threads into s; every point's trials
 * recorded (step 1 of probe_bw.c). */
int probe_bw_sweep(struct bw_ctx *b, unsigned threads,
		   struct rl_probe_sweep *s, char *err, size_t errlen);

#endif
