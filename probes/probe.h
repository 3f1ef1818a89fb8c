/*
 * Roof probes: pure functions that measure this machine (parameters in,
 * measurements out, nothing printed). The rlprof command (cmd_probe.c) and
 * the machine model (profiler/machine/machine_file.c) call them.
 *
 *   cpu.c       CPUID features (with OS support via XGETBV), model name,
 *               logical CPUs, memory, cache geometry as claimed (sysfs,
 *               else CPUID leaf 4)
 *   triad*.c    STREAM triad a[i] = b[i] + s*c[i] in f64, plain and
 *               non-temporal stores, one file per ISA (per-object flags)
 *   rw_*.c      read-only stream (sum of a, b, c) and write-only fill
 *               (a = b = c = s, plain and non-temporal), one file per ISA
 *   pool.c      pinned worker threads that own (first-touch) their arrays
 *   fma*.c      K independent accumulator chains, per ISA and precision
 *   clock.c     core clock from a dependent chain of 1-cycle integer adds,
 *               alone and beside FMA chains (the clock under FMA load);
 *               the monotonic seconds every probe times itself with
 *   load_clock.c the clock under FMA load on several cores at once
 *   plateau.c   plateaus of sweep data
 *   levels.c    memory levels from a sweep and the claimed cache sizes,
 *               monotonic roofs
 *   derive.c    levels, roofs and doubts from a probe recording
 *               (recording.h): the live probe and `--replay` alike
 *   probe_machine.c the whole measurement: fills struct rl_machine, in
 *               steps (probe_steps.h): probe_fma.c and probe_core.c the
 *               compute roofs and the core's rate, probe_bw.c (with
 *               probe_bw_sweep.c, probe_bw.h) the bandwidth roofs
 *
 * Ownership: every struct here is caller-allocated; rl_triad_pool_open
 * allocates the pool, rl_triad_pool_close frees it.
 */
#ifndef RL_PROBE_H
#define RL_PROBE_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

struct rl_machine;

/* ---- CPU ------------------------------------------------------------- */

enum rl_isa { RL_ISA_SCALAR, RL_ISA_SSE2, RL_ISA_AVX2, RL_ISA_AVX512,
	      RL_ISA_COUNT };

#define RL_CPU_MAX_CACHES 8
#define RL_CPU_MAX_CPUS 1024

struct rl_cache_info {
	int level;               /* 1, 2, 3, ... */
	char type;               /* 'D' data, 'U' unified */
	uint64_t size_bytes;
	unsigned shared_cpus;    /* logical CPUs sharing it (0 unknown) */
	unsigned ways;           /* associativity (0 unknown) */
	unsigned line_bytes;     /* line size (0 unknown) */
};

struct rl_cpu {
	char model[128];
	unsigned logical_cpus;   /* CPUs this process may run on */
	int cpus[RL_CPU_MAX_CPUS]; /* their ids, from sched_getaffinity */
	uint64_t mem_bytes;      /* physical memory */
	double nominal_ghz;      /* from the model name or cpuinfo; 0 unknown */
	int sse2, avx, avx2, fma, avx512f; /* usable (CPUID and OS state) */
	struct rl_cache_info caches[RL_CPU_MAX_CACHES]; /* data/unified only */
	size_t n_caches;
	char cache_source[16];   /* "sysfs", "cpuid", "none" */
};

int rl_cpu_detect(struct rl_cpu *cpu, char *err, size_t errlen);
/* Only the feature flags (sse2 .. avx512f), from CPUID and XGETBV: cheap. */
void rl_cpu_features(struct rl_cpu *cpu);
int rl_isa_usable(const struct rl_cpu *cpu, enum rl_isa isa);
/* "scalar", "sse2", "avx2-fma", "avx512-fma" */
const char *rl_isa_name(enum rl_isa isa);
/* f64 lanes of one register (1, 2, 4, 8); f32 has twice as many
 * (scalar: 1). */
unsigned rl_isa_lanes(enum rl_isa isa, int f32);
/* 1 when the ISA's chain step is one FMA instruction (scalar: when the
 * CPU has FMA), 0 when it is a multiply and an add. */
int rl_isa_has_fma(const struct rl_cpu *cpu, enum rl_isa isa);

/* ---- triad ----------------------------------------------------------- */

/* a[i] = b[i] + s*c[i] for i < n; arrays 64-byte aligned. */
typedef void (*rl_triad_fn)(double *restrict a, const double *restrict b,
			    const double *restrict c, double s, size_t n);

/* Kernel of an ISA (nt != 0: non-temporal stores); NULL if not built. */
rl_triad_fn rl_triad_kernel(enum rl_isa isa, int nt);

/* The access-mix streams over the same three arrays: RL_OP_READ sums
 * a, b and c (returns the sum so the loads stay), RL_OP_FILL stores s
 * into all three (plain or non-temporal). 24 B per element either way
 * (read or written). RL_OP_UPDATE is a[i] += s*b[i] (daxpy's in-place
 * update: 24 B moved per element, a third of it written, no write-
 * allocate; c untouched, so it is given 1.5x the elements for the same
 * working set). */
enum rl_stream_op { RL_OP_TRIAD, RL_OP_READ, RL_OP_FILL, RL_OP_UPDATE };
typedef double (*rl_rw_fn)(double *restrict a, double *restrict b,
			   double *restrict c, double s, size_t n);
/* Read or fill kernel of an ISA; NULL if not built (scalar has no
 * non-temporal fill) or op is RL_OP_TRIAD. */
rl_rw_fn rl_rw_kernel(enum rl_isa isa, enum rl_stream_op op, int nt);
/* The read-only stream over `streams` streams at a time (1, 2, 4: each
 * array read as that many parts side by side, read_streams.h; 3: the
 * three-array kernel of rl_rw_kernel), the same 24 B per element; NULL
 * where that ISA has none here (scalar: only 3). A read roof is the best
 * of this family (probe_bw.c). */
rl_rw_fn rl_read_kernel(enum rl_isa isa, unsigned streams);
/* "triad", "read", "fill", "update" */
const char *rl_stream_op_name(enum rl_stream_op op);

#define RL_TRIAD_STREAM_BYTES 24 /* per element: read b, c; write a */
#define RL_TRIAD_MOVED_BYTES 32  /* + the write-allocate read of a */
#define RL_TRIAD_FLOPS 2

/* Backs [p, p + bytes) with zeroed pages in one call (Linux 5.14+
 * MADV_POPULATE_WRITE: about 2x faster than faulting them in one by one
 * on a VM here, 3.5 against 1.4 GB/s): the whole pages the range
 * touches, which the caller's mapping must hold. 0, or -1 where the
 * kernel refused it (the caller's writes then fault the pages in). */
int rl_populate_pages(void *p, size_t bytes);

struct rl_triad_pool;

/* Starts `threads` workers pinned to cpus[0..threads-1]; each may hold
 * up to max_elems f64 elements per array (address space is reserved, the
 * pages are touched by the worker when first used). */
int rl_triad_pool_open(struct rl_triad_pool **pool, unsigned threads,
		       const int *cpus, size_t max_elems, char *err,
		       size_t errlen);
void rl_triad_pool_close(struct rl_triad_pool *pool);

struct rl_triad_params {
	enum rl_isa isa;
	int nt;                 /* non-temporal stores */
	enum rl_stream_op op;   /* RL_OP_TRIAD (0) or a read / fill stream */
	unsigned threads;       /* first `threads` workers of the pool */
	size_t elems;           /* per thread, per array */
	unsigned trials;        /* timed trials (after warm-up) */
	double min_trial_s;     /* repeat the kernel so a trial lasts this */
	int whole_passes;       /* 1: never time in chunks: best wall time of
				   whole trials, as STREAM does (bench) */
	int private_level;      /* 1: the arrays sit in a cache each thread
				   has to itself: a trial's rate is the sum
				   of each thread's own rate (a preempted
				   thread lowers only its own), not the
				   threads' wall time */
	int beyond_caches;      /* 1: the arrays are several times the last
				   level (DRAM): no warm-up pass right after
				   another such job (pool.c) */
	unsigned streams;       /* RL_OP_READ: 1, 2 or 4 streams at a time
				   (rl_read_kernel); 0 or 3: the
				   three-array kernel */
	size_t ahead_elems;     /* the pool's other workers touch their own
				   arrays this far (at most elems) while
				   the job's threads touch theirs, before
				   any pass: pages a later job on more
				   threads needs (0: none) */
};

struct rl_triad_result {
	double best_s, median_s;     /* one trial (all reps) */
	unsigned reps;               /* kernel passes per trial */
	double best_gbs, median_gbs; /* 24 B/element convention */
	double spread_pct;           /* (best - median) / best * 100 */
	uint64_t working_set_bytes;  /* 24 B x elems x threads */
	int chunked;                 /* best_s from the best time of each
					3 x 512 KiB chunk (one pass per
					trial: see pool.c) */
	unsigned n_trials;           /* each timed trial's rate, in the */
	double trial_gbs[63];        /* order run (24 B/element) */
	unsigned warmup_passes;      /* untimed passes before the trials
					(calibration included) */
};

int rl_triad_pool_run(struct rl_triad_pool *p,
		      const struct rl_triad_params *q,
		      struct rl_triad_result *r, char *err, size_t errlen);

/* Result check: runs the kernel once on small arrays and compares with
 * the formula (used by the tests). Returns the number of wrong elements. */
size_t rl_triad_check(enum rl_isa isa, int nt, size_t n);

/* ---- FMA chains ------------------------------------------------------ */

#define RL_FMA_MAX_CHAINS 32

/* K independent chains acc = acc*x + y (add-only: acc = acc + y), iters
 * steps each, accumulators start at seed + k; their sum is returned so
 * the work cannot be dropped. */
typedef double (*rl_chain_fn)(long iters, double seed);

/* Kernel for ISA/precision/chains (1..RL_FMA_MAX_CHAINS); add_only
 * selects the add chain; NULL if not available. The step is the ISA's
 * own (see rl_isa_has_fma). */
rl_chain_fn rl_chain_kernel(enum rl_isa isa, int f32, int add_only,
			    unsigned chains);

/* The step of a chain: the ISA's own, one FMA, or a multiply then an
 * add (the ceiling of code built without FMA); RL_CHAIN_MUL: two dependent
 * multiplies, acc = (acc * x) * (1/x), one chain only (chain_mul_*.c:
 * the ceiling of a product reduction the compiler may not reorder). */
enum rl_chain_op { RL_CHAIN_OWN, RL_CHAIN_FMA, RL_CHAIN_MULADD, RL_CHAIN_MUL };
#define RL_MUL_CHAIN_X 0.999999
/* As rl_chain_kernel with the step chosen (add_only ignores op); NULL
 * where that step cannot run here (FMA needs the CPU's FMA). */
rl_chain_fn rl_chain_kernel_op(enum rl_isa isa, enum rl_chain_op op,
			       int f32, int add_only, unsigned chains);
/* The ceiling's name for an ISA width and step: "scalar", "scalar-fma",
 * "sse2", "sse-fma", "avx2", "avx2-fma", "avx512", "avx512-fma". */
const char *rl_ceiling_name(enum rl_isa isa, int fma);
/* Register width in bits: 64 (scalar), 128, 256, 512. */
unsigned rl_isa_width_bits(enum rl_isa isa);

struct rl_chain_params {
	enum rl_isa isa;
	int f32;
	int add_only;
	enum rl_chain_op op;       /* RL_CHAIN_OWN (0) unless chosen */
	unsigned chains;
	unsigned threads;          /* run on cpus[0..threads-1] at once */
	const int *cpus;
	long iters;                /* steps per chain per trial */
	unsigned trials;
};

struct rl_chain_result {
	double best_gflops, median_gflops; /* all threads together: per
					      trial the sum of each thread's
					      own rate (see chains.c) */
	double best_s;
	double checksum;                   /* sum of the accumulators */
};

int rl_probe_chains(const struct rl_chain_params *p,
		    struct rl_chain_result *r, char *err, size_t errlen);

/* Flops per step of one chain of an ISA/precision (lanes x 2, add-only:
 * lanes). */
double rl_chain_flops_per_step(enum rl_isa isa, int f32, int add_only);

/* ---- clock ----------------------------------------------------------- */

/* Seconds on CLOCK_MONOTONIC (clock.c): what every probe times with. */
double rl_probe_now_s(void);

/* The core's rate now (core_rate.c), over a few tens of microseconds on
 * `cpu` (-1: where the caller runs; the calling thread is pinned there
 * meanwhile and its affinity restored): `fma`, independent scalar FMA
 * steps (adds where fma is 0) per cycle with `chains` chains (0: 10);
 * `read`, bytes per cycle of the read kernel over 12 KiB (0 when no
 * kernel is given). Returns 0, or -1 (all 0) when it cannot measure. */
struct rl_core_rate {
	double fma;
	double read;
};
/* Pins the calling thread to `cpu`, its affinity before kept in *was:
 * 1, or 0 (nothing changed) when it cannot; rl_unpin_self restores. */
int rl_pin_self(int cpu, cpu_set_t *was);
void rl_unpin_self(const cpu_set_t *was);
int rl_probe_core_rate(int cpu, int fma, unsigned chains, rl_rw_fn read,
		       struct rl_core_rate *out);
/* The units are whole. The rate a core has to itself, from the best
 * rate read (0 when unknown): the whole number that rate lies within
 * RL_CORE_RATE_SLACK of, else the next whole number above it (a rate
 * between two whole numbers was shared). A rate counts as "whole" (the
 * core ran alone enough) unless it lies more than RL_CORE_RATE_SHARED
 * below that number: another thread then took a fifth of the core or
 * more, which cut the L1 roofs by up to half on the Xeon guest, where
 * a tenth did not move them beyond their noise (1 when nothing is
 * known). */
#define RL_CORE_RATE_SLACK 0.10
#define RL_CORE_RATE_SHARED 0.20
/* A read stream from L1 has no whole number; its rate varies by this
 * much with nobody else on the core (76 or 96 bytes per cycle on the
 * Xeon guest), so its share is counted from there: shared below
 * (1 - SHARED) x (1 - SPREAD) of the best read but one. */
#define RL_CORE_READ_SPREAD 0.20
unsigned rl_core_whole_rate(double best);
/* The share of that whole number a rate read is (1 when nothing is
 * known or nothing was read), and whether it counts as whole. */
double rl_core_fma_share(double rate, double best);
int rl_core_rate_whole(double rate, double best);

/* Core clock in GHz from a dependent chain of 1-cycle integer adds (best
 * of `trials` runs of `adds` adds) on the calling thread. */
double rl_probe_clock_ghz(long adds, unsigned trials);

/* Core clock under an ISA's FMA load: a kernel of C independent FMA
 * chains of that ISA and precision (C = 16 for AVX-512, 12 for AVX2: at
 * least latency x units) with A dependent 1-cycle integer adds (register
 * operand) per step, A = rl_load_clock_adds(C, units): the adds are the
 * critical path by one cycle per step, so they count cycles while the
 * FMA ports are busy C / (units x A) of the time (16 chains, 2 units:
 * A = 9, 89 %). Clock = adds / elapsed time, best of `trials` runs of
 * `iters` steps after a warm-up (the frequency licence has settled), on
 * the calling thread. Returns 0 when the ISA has no such kernel here;
 * *chains and *adds (may be NULL) receive C and A. */
typedef unsigned long (*rl_load_kernel_fn)(long iters, unsigned adds,
					   unsigned long one, double *sum);
/* The load kernel of a vector FMA ISA (AVX2, AVX-512) and its chain
 * count; NULL where the ISA has none or cannot run here. */
rl_load_kernel_fn rl_load_kernel(enum rl_isa isa, int f32, unsigned *chains);
double rl_probe_load_clock_ghz(enum rl_isa isa, int f32, unsigned units,
			       long iters, unsigned trials, unsigned *chains,
			       unsigned *adds);
/* The same on `threads` pinned threads (cpus[0..threads-1], NULL: not
 * pinned) at once, trials starting together: a trial's clock is the mean
 * of each thread's own adds / time; the best trial is returned (0 when no
 * kernel or a thread could not start). */
double rl_probe_load_clock_all_ghz(enum rl_isa isa, int f32, unsigned units,
				   long iters, unsigned trials,
				   unsigned threads, const int *cpus);
/* Integer adds per step that keep the add chain critical next to
 * `chains` FMA chains on `units` FMA units: ceil(chains / units) + 1
 * (units 0 counts as 1). */
unsigned rl_load_clock_adds(unsigned chains, unsigned units);
/* Clock from a dependent add chain: adds / seconds / 1e9 (0 when either
 * is not positive). */
double rl_clock_ghz_from_adds(double adds, double seconds);
/* Theoretical peak: cores x GHz x units x lanes x 2 flops (FMA) per lane
 * (0 when any factor is not positive). */
double rl_theoretical_gflops(unsigned cores, double ghz, double units,
			     unsigned lanes);

/* ---- plateaus -------------------------------------------------------- */

struct rl_sweep_point {
	uint64_t bytes;   /* working set per thread */
	double gbs;       /* measured bandwidth (any convention) */
};

struct rl_plateau {
	size_t first, last;  /* sweep indices of the plateau */
	size_t best;         /* index of the representative point */
	double gbs;          /* its bandwidth */
};

/* Splits a sweep (growing sizes) into plateaus: a new plateau starts
 * where bandwidth falls by more than drop_frac below the running plateau
 * level; transition points (between two plateaus, or two points still
 * falling by more than drop_frac / 2) belong to neither;
 * two neighbouring plateaus within drop_frac of each other are one (a
 * noisy point split it). Returns the number of plateaus written
 * (<= max). */
size_t rl_find_plateaus(const struct rl_sweep_point *pts, size_t n,
			double drop_frac, struct rl_plateau *out, size_t max);

/* 1 when the sweep may stop: at least expected_plateaus plateaus, the
 * last one runs to the end of the sweep, and the last three points agree
 * within drop_frac / 2 (bandwidth has stopped falling). */
int rl_sweep_done(const struct rl_sweep_point *pts, size_t n,
		  size_t expected_plateaus, double drop_frac);
/* The same with `points` last points instead of three (--quick: 2). */
int rl_sweep_done_n(const struct rl_sweep_point *pts, size_t n,
		    size_t expected_plateaus, double drop_frac, size_t points);

/* Names memory levels from the plateaus: the first is L1, then L2, L3,
 * ...; the last is DRAM when dram_reached (the sweep stopped because
 * bandwidth stopped falling). levels[i] receives "L1".. or "DRAM". */
void rl_name_levels(size_t n_plateaus, int dram_reached,
		    char (*levels)[8]);

/* ---- memory levels (levels.c) ---------------------------------------- */

/* A cache level as claimed (sysfs / CPUID), data or unified. */
struct rl_level_claim {
	int level;               /* 1, 2, 3, ... */
	uint64_t bytes;          /* per instance */
	unsigned ways, line_bytes, shared_cpus; /* 0 unknown */
	int absurd;              /* cannot be true here: no boundary from it */
};

/* The claimed levels 1, 2, ... in order (data cache where split);
 * returns how many. */
size_t rl_level_claims(const struct rl_cpu *cpu, struct rl_level_claim *out,
		       size_t max);
/* What one of `threads` threads can fill of a claimed level (a shared
 * instance is split); 0 when the claim is absurd or absent. */
uint64_t rl_claim_per_thread(const struct rl_level_claim *c,
			     unsigned threads);

struct rl_found_level {
	char name[8];            /* "L1".."L9", "DRAM" */
	int level;               /* 1.. for caches, 0 DRAM */
	size_t first, last;      /* sweep indices of its plateau(s) */
	size_t roof;             /* the sweep point its roof is measured at */
	double gbs;              /* the sweep's bandwidth there */
	uint64_t effective_bytes; /* caches: where its plateau ends */
};

/* Levels of a sweep (growing sizes per thread). claims[i]: the claimed
 * size of level i+1 per thread (0: absent or absurd, the plateaus
 * decide); n_claims 0: nothing claimed, plateaus are L1, L2, ... in
 * order. in_memory: the sweep ended in memory (bandwidth stopped falling
 * or the memory cap): its last plateau, else its last point, is DRAM.
 * See levels.c for the rules. Returns the number of levels written. */
size_t rl_detect_levels(const struct rl_sweep_point *pts, size_t n,
			const uint64_t *claims, size_t n_claims,
			int in_memory, double drop_frac,
			struct rl_found_level *out, size_t max);

/* 0 when gbs[0] >= gbs[1] >= ... (values <= 0 skipped on the left),
 * else the index (>= 1) of the first value above its predecessor. */
int rl_roofs_monotonic(const double *gbs, size_t n);

/* ---- the whole model ------------------------------------------------- */

struct rl_probe_options {
	int quick;          /* fewer trials and sweep points */
	unsigned threads;   /* 0: every CPU this process may use */
	/* called with progress text ("triad sweep 1 thread: 3 MiB") and a
	 * fraction 0..1; may be NULL */
	void (*progress)(void *ctx, const char *what, double fraction);
	void *progress_ctx;
	/* the one-thread L1 read roof of the model this probe replaces
	 * (same machine), in bytes per cycle of its clock; 0 none. A floor
	 * for the core's read rate (probe_core.c): a probe lying wholly
	 * inside a stretch where the host slowed the core's loads sees
	 * nothing faster to compare with */
	double prior_read_bpc;
};

/* Sweep points kept for `rlprof probe --levels` (one per thread count). */
#define RL_PROBE_MAX_SWEEP 48
struct rl_probe_sweep {
	unsigned threads;
	size_t n;
	struct rl_sweep_point pts[RL_PROBE_MAX_SWEEP];
	char level[RL_PROBE_MAX_SWEEP][8]; /* "" for a transition point */
};

struct rl_probe_recording;
struct rl_probe_extra {
	struct rl_probe_sweep sweeps[2];
	size_t n_sweeps;
	unsigned fma_units[RL_ISA_COUNT]; /* inferred, 0 unknown */
	/* the caller's (may be NULL): receives every bandwidth point the
	 * probe measured, with the claims (recording.h); kept across the
	 * reset rl_probe_machine does to the rest of this struct */
	struct rl_probe_recording *recording;
};

int rl_probe_machine(const struct rl_probe_options *o, struct rl_machine *m,
		     struct rl_probe_extra *extra, char *err, size_t errlen);

#endif
