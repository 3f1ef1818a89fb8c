/*
 * Command-side event resolution: which hardware events rlprof counts on
 * which CPU (tables as data, one per microarchitecture, in uarch.c), and
 * how their names become perf_event_attr encodings (libpfm4 in pfm.c, the
 * kernel's sysfs PMU descriptions in sysfs.c), put together in resolve.c
 * as the rl_perf_event_spec list that the command hands to the runtime in
 * RLPROF_PERF_EVENTS.
 *
 * Nothing here prints. Functions return 0 or a negative RL_E* code and
 * fill err. Tables are static const data; nothing here allocates except
 * libpfm4's own formatted strings, which are freed before returning.
 */
#ifndef RL_EVENTS_H
#define RL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters/perf_spec.h"

/* The CPU as /proc/cpuinfo (CPUID) names it. */
struct rl_cpu_id {
	char vendor[16];   /* "GenuineIntel", "AuthenticAMD" */
	unsigned family, model, stepping;
};

/* One event of a table: what it adds to, its libpfm4 name, and the same
 * event as sysfs-style terms for the core PMU, from the vendor document
 * named in cite. Either pfm or terms may be NULL (not both). When pfm is
 * set, terms is the encoding it must produce (tests check both agree). */
struct rl_event_row {
	const char *counter; /* rl_counter json name, e.g. "flops_f64_256" */
	const char *pfm;     /* libpfm4 name without PMU prefix */
	const char *terms;   /* "event=0xc7,umask=0x10" */
	double weight;       /* flops per count (lanes; FMA = 2 by the event)
				or bytes per count */
	const char *name;    /* name in the report */
	const char *cite;    /* vendor document for terms */
};

/* A memory-controller (uncore) event: per PMU instance whose directory
 * name starts with pmu_prefix, system-wide on one cpu per socket. */
struct rl_dram_row {
	const char *counter;     /* "dram_read_bytes", ... */
	const char *pmu_prefix;  /* "uncore_imc_", "amd_umc_" */
	const char *sysfs_event; /* events/<name> to prefer, or NULL */
	const char *terms;       /* fallback encoding through format/ */
	double weight;           /* bytes per count when no .scale/.unit */
	const char *name;
	const char *cite;
};

struct rl_uarch {
	const char *id;          /* "skx", "zen4" */
	const char *pretty;      /* "Intel Skylake-SP / Cascade Lake" */
	const char *pfm_pmu;     /* libpfm4 4.13 PMU name, NULL: raw only */
	bool amd_merge;          /* flops event needs the kernel's MERGE pairing
				    (AMD Zen 2+, Linux >= 5.6) */
	const struct rl_event_row *flops;
	size_t n_flops;
	const struct rl_dram_row *dram;
	size_t n_dram;
	const struct rl_event_row *proxy; /* per-thread DRAM proxy */
	size_t n_proxy;
	const char *note;        /* what the figures mean on this CPU */
	/* used instead of flops when one of their counters is unknown to
	 * this rlprof (Zen 5 packed figures need flops_f*_packed) */
	const struct rl_event_row *flops_fallback;
	size_t n_flops_fallback;
};

/* Tables (uarch.c). */
size_t rl_uarch_count(void);
const struct rl_uarch *rl_uarch_at(size_t i);
const struct rl_uarch *rl_uarch_find(const char *id);
/* The table for a CPU, or NULL when rlprof has none for it. */
const struct rl_uarch *rl_uarch_of(const struct rl_cpu_id *cpu);
/* Fills cpu from the text of /proc/cpuinfo (path may be another file). */
int rl_cpu_id_read(const char *path, struct rl_cpu_id *cpu, char *err,
		   size_t errlen);

/* libpfm4 (pfm.c): encode "pmu::EVENT:UMASK" (pmu NULL: host default)
 * into s->type/config/config1/config2. Events of a PMU other than the
 * host's are encoded too (LIBPFM_ENCODE_INACTIVE). */
int rl_pfm_encode(const char *pmu, const char *event,
		  struct rl_perf_event_spec *s, char *err, size_t errlen);

/* sysfs PMU descriptions (sysfs.c). */
#define RL_SYSFS_FORMAT_MAX 16
struct rl_sysfs_field {
	char name[32];
	int config;             /* 0: config, 1: config1, 2: config2 */
	unsigned lo[4], hi[4];  /* bit ranges, lo..hi inclusive */
	unsigned n_ranges;
};
struct rl_sysfs_pmu {
	char dir[512];          /* .../devices/<name> */
	char name[64];
	uint32_t type;
	int cpus[64];           /* cpumask: one cpu per socket for uncore */
	size_t n_cpus;          /* 0: no cpumask file (core PMU) */
	struct rl_sysfs_field fields[RL_SYSFS_FORMAT_MAX];
	size_t n_fields;
};
int rl_sysfs_pmu_load(const char *dir, struct rl_sysfs_pmu *p, char *err,
		      size_t errlen);
/* "event=0x04,umask=0x03" (a term without value is 1) -> config words. */
int rl_sysfs_encode(const struct rl_sysfs_pmu *p, const char *terms,
		    uint64_t cfg[3], char *err, size_t errlen);
/* events/<name> of a PMU: its terms, and its .scale (1 when absent) and
 * .unit ("" when absent). RL_ENOENT when the event file is missing. */
int rl_sysfs_event_read(const struct rl_sysfs_pmu *p, const char *event,
			char *terms, size_t termslen, double *scale,
			char *unit, size_t unitlen, char *err, size_t errlen);
/* Bytes in one unit ("MiB" -> 1048576, "B"/"Bytes" -> 1); 0 unknown. */
double rl_sysfs_unit_bytes(const char *unit);
/* Parses a cpu list "0,18" or "0-3,8". Returns the count or RL_EFORMAT. */
int rl_cpulist_parse(const char *text, int *cpus, size_t max);

/* Where and under which rules resolve.c runs (tests fake all of it). */
struct rl_events_host {
	struct rl_cpu_id cpu;
	const char *sysfs_root;  /* "/sys/bus/event_source/devices" */
	int kernel_major, kernel_minor;
	bool system_allowed;     /* may open system-wide (uncore) events */
	const char *system_why;  /* why not, when !system_allowed */
};
int rl_events_host_detect(struct rl_events_host *h, char *err,
			  size_t errlen);
/* The events rlprof counts on host h with these backend options
 * ("events=A,B;dram=proxy"), as specs; note says what was chosen and what
 * is missing, in '; '-separated clauses. */
int rl_events_resolve_host(const struct rl_events_host *h,
			   const char *options,
			   struct rl_perf_event_spec *specs, size_t max,
			   size_t *n, char *note, size_t notelen);
/* The same for this machine: the perf backend's rl_perf_resolver() when
 * this file is linked in (it installs itself at load). */
int rl_perf_events_resolve(const char *options,
			   struct rl_perf_event_spec *specs, size_t max,
			   size_t *n, char *note, size_t notelen);

#endif
