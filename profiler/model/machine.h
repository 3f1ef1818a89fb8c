/*
 * The machine model: this machine's roofs as measured by rlprof's probes
 * (probes/), cached as JSON in $XDG_CACHE_HOME/rlprof/ (or
 * ~/.cache/rlprof/) keyed by CPU model, core count and memory size.
 * Schema (version RL_MACHINE_VERSION) documented in README.md.
 *
 * Byte conventions of a bandwidth roof: "stream" counts 24 B per triad
 * element (what the code names), "moved" 32 B (write-allocate included:
 * what the hardware and the counters see), "nt" is the non-temporal-store
 * triad at 24 B (no write-allocate happens). The report compares counted
 * bytes against "moved" roofs and declared bytes against "stream" roofs.
 */
#ifndef RL_MACHINE_H
#define RL_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#define RL_MACHINE_FORMAT "rlprof-machine"
#define RL_MACHINE_VERSION 1
#define RL_MACHINE_MAX_BW 32
#define RL_MACHINE_MAX_COMPUTE 96

struct rl_bw_roof {
	char level[8];          /* "L1", "L2", "L3", "DRAM" */
	unsigned threads;
	double stream_gbs;      /* 24 B/element convention */
	double moved_gbs;       /* 32 B/element (write-allocate) */
	double nt_gbs;          /* non-temporal triad, 24 B/element; 0 if not
				   measured */
	double spread_pct;      /* (median - best) / best of the trials */
	uint64_t working_set_bytes; /* the sweep point the roof comes from */
	char method[128];       /* "triad avx512 best of 20, 3x64 MiB" */
};

struct rl_compute_roof {
	char name[32];          /* "avx512-fma", "avx2-fma", "sse2", "scalar" */
	char kind[16];          /* "peak", "single-chain", "scalar", "add-only" */
	char precision[4];      /* "f32", "f64" */
	unsigned threads;
	double gflops;          /* measured */
	double theoretical_gflops; /* cores x GHz x units x lanes x 2; 0 n/a */
	unsigned chains;        /* chains needed to saturate (peak) */
	double latency_cycles;  /* single-chain FMA latency; 0 n/a */
	char method[128];
	/* appended: the clock measured while this ISA's FMA ports are busy
	 * (dependent integer adds beside FMA chains on `threads` cores: see
	 * probes/probe.h), and the theoretical peak at that clock; 0
	 * unknown / n/a (files
	 * written before these fields, scalar and add-only roofs) */
	double load_clock_ghz;
	double theoretical_load_gflops;
};

struct rl_machine {
	int version;
	char cpu_model[128];
	char isa[64];           /* "avx512 avx2 fma sse2" as detected */
	unsigned cores;         /* logical CPUs used by the probes */
	uint64_t mem_bytes;
	double clock_ghz;       /* measured from a dependent add chain */
	double nominal_ghz;     /* TSC / cpuinfo, 0 unknown */
	char caches[128];       /* geometry as found and as trusted */
	char probed_at[32];     /* ISO 8601 UTC */
	int quick;              /* 1 if measured with --quick */
	double probe_seconds;
	struct rl_bw_roof bw[RL_MACHINE_MAX_BW];
	size_t n_bw;
	struct rl_compute_roof compute[RL_MACHINE_MAX_COMPUTE];
	size_t n_compute;
};

int rl_machine_load(const char *path, struct rl_machine *m, char *err,
		    size_t errlen);
int rl_machine_save(const char *path, const struct rl_machine *m, char *err,
		    size_t errlen);
/* The cache file for this machine (creates no directory). */
int rl_machine_cache_path(char *buf, size_t len, char *err, size_t errlen);

/* The model for this machine: the cached one when it exists and parses,
 * else (allow_probe != 0) a quick probe, cached for next time. Prints
 * nothing; *probed is set to 1 when it had to probe. */
int rl_machine_obtain(struct rl_machine *m, int allow_probe, int *probed,
		      char *err, size_t errlen);

/* Lookups used by the report; NULL when the model has no such roof. */
const struct rl_bw_roof *rl_machine_bw(const struct rl_machine *m,
				       const char *level, unsigned threads);
const struct rl_compute_roof *rl_machine_peak(const struct rl_machine *m,
					      const char *precision,
					      unsigned threads);
/* ridge = peak / bandwidth, flop/byte */
double rl_ridge(double peak_gflops, double bw_gbs);

#endif
