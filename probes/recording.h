/*
 * A probe recording: everything the bandwidth probe measured on one
 * machine (every sweep point and level measurement, per operation and
 * thread count, with every trial's figure) and what the machine claims
 * (cache sizes from sysfs or CPUID, memory, CPUs). The levels, the
 * bandwidth roofs and their doubts are derived from a recording by pure
 * arithmetic (derive.c): the live probe measures, records and derives;
 * `rlprof probe --replay FILE` derives from a stored recording without
 * measuring, so every machine the project has met stays in the tests
 * (probes/machines/). The file format (JSON, "rlprof-probe-recording",
 * version RL_REC_VERSION) is read and written by
 * profiler/machine/probe_recording.c and documented there and in
 * docs/formats.md ("Probe recording").
 *
 * Conventions: bytes = working set per thread (three f64 arrays, 24 B
 * per element); GB/s = all threads together, 24 B per element moved by
 * the operation (triad: read b, c, write a; read: a, b, c; fill: write
 * a, b, c), the write-allocate reads not counted.
 */
#ifndef RL_PROBE_RECORDING_H
#define RL_PROBE_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"

#define RL_REC_FORMAT "rlprof-probe-recording"
#define RL_REC_VERSION 1
#define RL_REC_MAX_POINTS 400
#define RL_REC_MAX_TRIALS 48
#define RL_REC_MAX_LEVELS 6

/* The operations a point measures. */
enum rl_rec_op {
	RL_REC_TRIAD,    /* a = b + s*c, plain stores */
	RL_REC_TRIAD_NT, /* the same, non-temporal stores */
	RL_REC_READ,     /* sum of a, b, c */
	RL_REC_FILL,     /* a = b = c = s, plain stores */
	RL_REC_FILL_NT,  /* the same, non-temporal stores */
	RL_REC_UPDATE,   /* a += s*b in place (daxpy's access), 1.5x the
			    elements: the same working set */
	RL_REC_N_OPS
};
/* "triad", "triad_nt", "read", "fill", "fill_nt"; NULL out of range */
/* A size in bytes as the derivation's reasons write it: "1.5 MiB",
 * "32 KiB", "2 GiB" (three significant digits). */
void rl_rec_size_text(char *buf, size_t len, double bytes);

const char *rl_rec_op_name(int op);
/* The op of a name; -1 when unknown. */
int rl_rec_op_parse(const char *name);

struct rl_rec_point {
	unsigned threads;
	int op;                  /* enum rl_rec_op */
	int sweep;               /* 1: a working-set sweep point (triad);
				    0: a level measurement */
	uint64_t bytes;          /* working set per thread */
	double best_gbs;         /* best trial, all threads together */
	unsigned n_trials;
	double trials[RL_REC_MAX_TRIALS]; /* each trial's GB/s, in order */
	int core_shared;         /* 1: a one-thread level measurement taken
				    only while the core ran below its own
				    rate (another thread on it, or the host
				    slowing it: probes/core_rate.c): may
				    read low */
};

struct rl_probe_recording {
	char machine[64];        /* a short name ("amd-zen4-kvm-2vcpu") */
	char cpu_model[128];
	unsigned cpus;           /* CPUs the probe ran on */
	uint64_t mem_bytes;
	char cache_source[16];   /* "sysfs", "cpuid", "none" */
	struct rl_cache_info caches[RL_CPU_MAX_CACHES]; /* as claimed */
	size_t n_caches;
	char isa[16];            /* kernel ISA name ("avx512-fma") */
	int quick;
	double loadavg1;         /* when the probe began; -1 unknown */
	double loadavg1_end;     /* when it ended; -1 unknown */
	double core_rate;        /* the best rate of the first CPU's core
				    read (scalar FMAs, or adds, per cycle:
				    probes/core_rate.c); -1 unknown */
	double core_read_prior;  /* the read reference taken from the model
				    the probe replaced, bytes per cycle;
				    -1 none */
	char recorded_at[32];    /* ISO 8601 UTC */
	char source[256];        /* how it was recorded ("rlprof probe
				    --levels --json of commit ...") */
	size_t n;
	struct rl_rec_point pts[RL_REC_MAX_POINTS];
};

/* Adds one trial figure to the point (threads, op, sweep, bytes),
 * creating it; returns the point or NULL when the recording is full.
 * best_gbs follows the trials. */
struct rl_rec_point *rl_rec_add(struct rl_probe_recording *r,
				unsigned threads, int op, int sweep,
				uint64_t bytes, double gbs);
/* The point, or NULL. */
const struct rl_rec_point *rl_rec_find(const struct rl_probe_recording *r,
				       unsigned threads, int op, int sweep,
				       uint64_t bytes);
/* The same point, to change (a mark such as core_shared), or NULL. */
struct rl_rec_point *rl_rec_edit(struct rl_probe_recording *r,
				 unsigned threads, int op, int sweep,
				 uint64_t bytes);
/* The thread counts that have sweep points, ascending; returns how many
 * (<= max). */
size_t rl_rec_thread_counts(const struct rl_probe_recording *r,
			    unsigned *out, size_t max);

/* ---- derivation (derive.c): pure arithmetic ---------------------------- */

/* One memory level on one thread count: where its roof is measured and
 * what the sweep says of its capacity. */
struct rl_rec_level {
	char name[8];            /* "L1".."L9", "DRAM" */
	int level;               /* 1.. for caches, 0 DRAM */
	uint64_t claim;          /* claimed capacity per thread (0 none) */
	uint64_t lo, hi;         /* the window, per thread, the roof is
				    measured in (hi 0: no upper bound) */
	uint64_t at;             /* the working set a level measurement
				    uses (inside the window) */
	uint64_t effective;      /* caches: the largest sweep point still
				    at this level's bandwidth (0 not
				    seen) */
	int shrunk;              /* 1: the sweep shows the level ending
				    well before its claim: measured inside
				    what the sweep shows */
	char note[160];          /* said beside the level ("" none) */
};

struct rl_rec_roof {
	char level[8];
	unsigned threads;
	uint64_t bytes;              /* per thread, where the triad's best
					came from */
	double gbs[RL_REC_N_OPS];    /* best; 0 not measured */
	double spread_pct[RL_REC_N_OPS]; /* (best - median) / best */
	unsigned trials[RL_REC_N_OPS];
	int from_sweep;              /* the triad came from sweep points
					only (no level measurement) */
	char doubt[192];             /* "" when none: the reason */
};

#define RL_REC_MAX_ROOFS 16
struct rl_rec_derived {
	struct {
		unsigned threads;
		size_t n;
		struct rl_rec_level lv[RL_REC_MAX_LEVELS];
	} t[2];
	size_t n_t;
	struct rl_rec_roof roofs[RL_REC_MAX_ROOFS];
	size_t n_roofs;
	size_t n_doubts;
};

/* The level windows of one thread count from the claims and that
 * count's sweep points (no level measurements needed): L1 inside L1's
 * claim, Lk from twice L(k-1)'s claim to Lk's claim per thread (the
 * thread's share of a shared cache), DRAM from four times the last
 * level for all threads; a level the sweep shows ending well before its
 * claim (below half of it) is measured inside what the sweep shows.
 * Returns the number of levels written (caches, then DRAM when the sweep
 * reached it). */
size_t rl_rec_levels(const struct rl_probe_recording *r, unsigned threads,
		     struct rl_rec_level *out, size_t max);

/* Levels for every thread count, roofs from the level measurements (else
 * the sweep points) inside each window, and doubts: a triad or read roof
 * above the level's before it, an all-thread roof below the one-thread
 * roof of the same level, a spread of more than RL_REC_DOUBT_SPREAD %,
 * each with its reason (the load average when it was high). Returns 0,
 * or RL_EINVAL when the recording has no sweep (message in err). */
#define RL_REC_DOUBT_SPREAD 15.0
int rl_rec_derive(const struct rl_probe_recording *r,
		  struct rl_rec_derived *d, char *err, size_t errlen);

/* The roofs and levels of a derivation into a machine model: bandwidth
 * roofs (doubts and methods included), cache levels (claimed and
 * effective) and the caches line; the rest of the model is untouched. */
void rl_rec_fill_model(const struct rl_probe_recording *r,
		       const struct rl_rec_derived *d, struct rl_machine *m);

#endif
