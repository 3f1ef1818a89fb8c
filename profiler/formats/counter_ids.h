/*
 * The counters rlprof knows, as one X-macro table.
 *
 * Each entry: X(ID, "json_name", "unit", kind). A backend provides a subset
 * (a bitmask over enum rl_counter); a counter it does not provide is never
 * written, so the report leaves it empty rather than showing 0.
 *
 * Byte counters are named by the boundary they cross:
 *   l1_*   register <-> L1   (every load and store the core issues)
 *   l2_*   L1 <-> L2
 *   l3_*   L2 <-> last level
 *   dram_* last level <-> DRAM (write-allocate reads included)
 */
#ifndef RL_COUNTER_IDS_H
#define RL_COUNTER_IDS_H

#include <stdint.h>

enum rl_counter_kind {
	RL_KIND_FLOPS,   /* floating-point operations, FMA = 2 */
	RL_KIND_BYTES,   /* bytes crossing a memory boundary */
	RL_KIND_CYCLES,  /* core or reference cycles, instructions */
	RL_KIND_SOFT,    /* software events: ns, faults, switches */
	RL_KIND_EXTRA,   /* user-requested raw events (--events) */
	RL_KIND_FLOPS_PART, /* a part of the flops the FLOPS counters already
			       hold (never added to them) */
};

#define RL_COUNTERS(X)                                                     \
	X(FLOPS_F64_SCALAR, "flops_f64_scalar", "flop", RL_KIND_FLOPS)     \
	X(FLOPS_F64_128, "flops_f64_128", "flop", RL_KIND_FLOPS)           \
	X(FLOPS_F64_256, "flops_f64_256", "flop", RL_KIND_FLOPS)           \
	X(FLOPS_F64_512, "flops_f64_512", "flop", RL_KIND_FLOPS)           \
	X(FLOPS_F32_SCALAR, "flops_f32_scalar", "flop", RL_KIND_FLOPS)     \
	X(FLOPS_F32_128, "flops_f32_128", "flop", RL_KIND_FLOPS)           \
	X(FLOPS_F32_256, "flops_f32_256", "flop", RL_KIND_FLOPS)           \
	X(FLOPS_F32_512, "flops_f32_512", "flop", RL_KIND_FLOPS)           \
	X(FLOPS_F16, "flops_f16", "flop", RL_KIND_FLOPS)                   \
	X(FLOPS_ANY, "flops_any", "flop", RL_KIND_FLOPS)                   \
	X(FLOPS_FMA, "flops_fma", "flop", RL_KIND_FLOPS_PART)              \
	X(DRAM_READ_BYTES, "dram_read_bytes", "B", RL_KIND_BYTES)          \
	X(DRAM_WRITE_BYTES, "dram_write_bytes", "B", RL_KIND_BYTES)        \
	X(DRAM_BYTES, "dram_bytes", "B", RL_KIND_BYTES)                    \
	X(L1_READ_BYTES, "l1_read_bytes", "B", RL_KIND_BYTES)              \
	X(L1_WRITE_BYTES, "l1_write_bytes", "B", RL_KIND_BYTES)            \
	X(L2_READ_BYTES, "l2_read_bytes", "B", RL_KIND_BYTES)              \
	X(L2_WRITE_BYTES, "l2_write_bytes", "B", RL_KIND_BYTES)            \
	X(L3_READ_BYTES, "l3_read_bytes", "B", RL_KIND_BYTES)              \
	X(L3_WRITE_BYTES, "l3_write_bytes", "B", RL_KIND_BYTES)            \
	X(CYCLES, "cycles", "cycle", RL_KIND_CYCLES)                       \
	X(INSTRUCTIONS, "instructions", "instr", RL_KIND_CYCLES)           \
	X(REF_CYCLES, "ref_cycles", "cycle", RL_KIND_CYCLES)               \
	X(TASK_CLOCK_NS, "task_clock_ns", "ns", RL_KIND_SOFT)              \
	X(PAGE_FAULTS, "page_faults", "fault", RL_KIND_SOFT)               \
	X(CONTEXT_SWITCHES, "context_switches", "switch", RL_KIND_SOFT)    \
	X(EXTRA0, "extra0", "event", RL_KIND_EXTRA)                        \
	X(EXTRA1, "extra1", "event", RL_KIND_EXTRA)                        \
	X(EXTRA2, "extra2", "event", RL_KIND_EXTRA)                        \
	X(EXTRA3, "extra3", "event", RL_KIND_EXTRA)                        \
	X(EXTRA4, "extra4", "event", RL_KIND_EXTRA)                        \
	X(EXTRA5, "extra5", "event", RL_KIND_EXTRA)                        \
	X(EXTRA6, "extra6", "event", RL_KIND_EXTRA)                        \
	X(EXTRA7, "extra7", "event", RL_KIND_EXTRA)

enum rl_counter {
#define RL_COUNTER_ENUM(id, name, unit, kind) RL_C_##id,
	RL_COUNTERS(RL_COUNTER_ENUM)
#undef RL_COUNTER_ENUM
	RL_COUNTER_COUNT
};

#define RL_EXTRA_MAX 8 /* RL_C_EXTRA0 .. RL_C_EXTRA7 */

/* Flop weights are already applied by the backend: a FLOPS_* counter holds
 * flops (lanes x ops, FMA = 2), never instructions. FLOPS_FMA is the part
 * of those flops done by fused multiply-adds (2 per lane), whatever the
 * width or precision: it tells which compute ceiling (with or without
 * FMA) a region is held against, and is never added to the flop total. */

/* How a counter's figure was obtained; a backend sets one per counter. */
enum rl_scope {
	RL_SCOPE_THREAD = 0,  /* counted for the calling thread only */
	RL_SCOPE_SYSTEM = 1,  /* uncore / socket-wide: every process counts */
	RL_SCOPE_PROXY = 2,   /* per-thread proxy (e.g. LLC misses x 64 B) */
	RL_SCOPE_SIMULATED = 3, /* simulated PMU (Valgrind tool) */
};

const char *rl_counter_name(enum rl_counter c);   /* "flops_f64_scalar" */
const char *rl_counter_unit(enum rl_counter c);   /* "flop" */
enum rl_counter_kind rl_counter_kind_of(enum rl_counter c);
/* The counters of kind k as a bit mask (bit c: counter c). */
uint64_t rl_counter_kind_mask(enum rl_counter_kind k);
int rl_counter_from_name(const char *name);       /* -1 when unknown */
const char *rl_scope_name(enum rl_scope s);       /* "thread", "system", ... */
int rl_scope_from_name(const char *name);         /* -1 when unknown */

/* ---- what the runtime's files carry of a backend ----------------------
 * A counter read and a backend's description of what it counts: the
 * backend fills them (counters/backend.h), the live file stores them
 * (formats/live.h), the results file writes them out. */

#define RL_METHOD_MAX 128

/* One counter read (as perf_event's read_format with TOTAL_TIME_*). */
struct rl_counter_value {
	uint64_t value;      /* raw count (flops already weighted by lanes) */
	uint64_t enabled_ns; /* time the counter was enabled */
	uint64_t running_ns; /* time it was really counting; < enabled when
				multiplexed: scale value by enabled/running */
};

/* What a backend's init() provides, filled by the backend. */
struct rl_backend_setup {
	uint64_t provided;                       /* bit c: counter c counted */
	unsigned char scope[RL_COUNTER_COUNT];   /* enum rl_scope per counter */
	char method[RL_COUNTER_COUNT][RL_METHOD_MAX]; /* e.g. "perf
				FP_ARITH_INST_RETIRED.256B_PACKED_DOUBLE x4" */
	char extra_name[RL_EXTRA_MAX][64];       /* names of --events columns */
	char note[512];   /* backend-wide facts for the report, e.g. the
			     simulated cache geometry and region bounds */
};

#endif
