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
 *
 * Access-mix roofs (the analysis holds a region against the bandwidth for
 * its own read/write mix): beside the triad, each level is measured with a
 * read-only stream (read_gbs) and a write-only fill (write_gbs, plain
 * stores, "moved": the write-allocate reads included; write_nt_gbs with
 * non-temporal stores, no write-allocate). In the "moved" convention the
 * points sit at these write fractions w = written / (read + written)
 * bytes: read-only 0, triad 1/4, nt triad 1/3, fill 1/2, nt fill 1; and
 * the in-place update a += s*b (update_gbs: daxpy's access, each line
 * read then written, no write-allocate) at 1/3.
 *
 * Cache levels (levels[]): what sysfs/CPUID claim (size, ways, line) and
 * what the probe measured (effective capacity: where the level's plateau
 * ends in the triad sweep). The simulated PMU takes its default geometry
 * from here; the analysis and the self-check compare a region's working
 * set with it.
 *
 * Compute ceilings: one per (ISA width, FMA or not, kind, precision,
 * thread count). width_bits 64 (scalar), 128, 256, 512; fma 1 when the
 * chain step is one FMA, 0 when it is a multiply and an add. Names:
 * "scalar", "scalar-fma", "sse2", "sse-fma" (128-bit FMA), "avx2",
 * "avx2-fma", "avx512", "avx512-fma".
 */
#ifndef RL_FORMATS_MACHINE_H
#define RL_FORMATS_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#define RL_MACHINE_FORMAT "rlprof-machine"
#define RL_MACHINE_VERSION 2
#define RL_MACHINE_MAX_BW 32
#define RL_MACHINE_MAX_COMPUTE 160
#define RL_MACHINE_MAX_LEVELS 6

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
	/* appended for access-mix roofs (see the top); 0 = not measured */
	double read_gbs;        /* read-only stream: bytes read per second */
	double write_gbs;       /* fill, plain stores: written + write-
				   allocate bytes per second ("moved") */
	double write_nt_gbs;    /* fill, non-temporal stores: bytes written
				   per second */
	double update_gbs;      /* in-place update a += s*b (daxpy's access,
				   w = 1/3, no write-allocate): bytes moved
				   per second; 0 = not measured (older
				   models) */
	/* appended: why this roof is in doubt ("" when it is not): it
	 * contradicted physics or the other roofs (above the level before
	 * it, trials spread too wide, all threads below one) after being
	 * measured again; kept, named by rlprof probe and the self-check */
	char doubt[192];
};

/* One cache level as claimed and as measured (see the top). */
struct rl_cache_level {
	char level[8];          /* "L1", "L2", "L3", "L4" */
	uint64_t claimed_bytes; /* per instance, from sysfs or CPUID; 0 n/a */
	unsigned ways;          /* associativity; 0 unknown */
	unsigned line_bytes;    /* 0 unknown */
	unsigned shared_cpus;   /* logical CPUs sharing one instance; 0 n/a */
	char source[16];        /* "sysfs", "cpuid", "none" */
	/* where this level's plateau ends in the triad sweep: the working
	 * set per thread on one thread, and summed over all threads on all
	 * cores; 0 when the sweep did not see this level's plateau */
	uint64_t effective_bytes;
	uint64_t effective_all_bytes;
	/* appended: what the probe says of this level ("" nothing): e.g.
	 * that the sweep shows it ending well before its claim, so its roof
	 * was measured inside what the sweep shows */
	char note[160];
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
	/* appended: the ISA ceiling this roof belongs to (see the top);
	 * width_bits 0 in files written before these fields */
	unsigned width_bits;    /* 64 scalar, 128, 256, 512 */
	int fma;                /* 1: one FMA per step; 0: multiply + add */
	/* appended: why the figure may read low ("" none; absent in older
	 * files): measured while the core was shared (probes/core_rate.c) */
	char doubt[192];
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
	/* appended */
	struct rl_cache_level levels[RL_MACHINE_MAX_LEVELS];
	size_t n_levels;
	double loadavg1;        /* 1-minute load average when probed; -1
				   unknown (the self-check compares it) */
};

#endif
