/*
 * Event tables, one per microarchitecture, as data. Each line names the
 * libpfm4 event (checked against libpfm4 4.13 by tests/counters/test_events.c) and
 * the same encoding as terms, with the vendor document it comes from.
 *
 * Weights: FP_ARITH_INST_RETIRED counts instructions, once per
 * instruction and twice for FMA (the event does the x2 itself), so the
 * weight is the number of lanes: f64 1/2/4/8, f32 1/4/8/16, f16 1/8/16/32
 * for scalar/128/256/512 bits. AMD's RETIRED_SSE_AVX_FLOPS already counts
 * flops (FMA = 2), so its weight is 1. Memory-controller CAS commands move
 * one 64-byte line each.
 */
#include "counters/events/events.h"

#include <stdio.h>
#include <string.h>

#include "common/rl_error.h"

#define N(a) (sizeof(a) / sizeof *(a))

/* Intel perfmon event files (github.com/intel/perfmon), <cpu>_core.json,
 * FP_ARITH_INST_RETIRED, EventCode 0xC7; same code and umasks from
 * Skylake to Granite Rapids. */
#define FPA_CITE "Intel perfmon core events: FP_ARITH_INST_RETIRED EventCode 0xC7"
#define FPA(ctr, um, umhex, w)                                             \
	{ctr, "FP_ARITH_INST_RETIRED:" um, "event=0xc7,umask=" umhex, w,   \
	 "FP_ARITH_INST_RETIRED." um, FPA_CITE}
#define FPA_128_256                                                        \
	FPA("flops_f64_scalar", "SCALAR_DOUBLE", "0x01", 1),               \
	FPA("flops_f32_scalar", "SCALAR_SINGLE", "0x02", 1),               \
	FPA("flops_f64_128", "128B_PACKED_DOUBLE", "0x04", 2),             \
	FPA("flops_f32_128", "128B_PACKED_SINGLE", "0x08", 4),             \
	FPA("flops_f64_256", "256B_PACKED_DOUBLE", "0x10", 4),             \
	FPA("flops_f32_256", "256B_PACKED_SINGLE", "0x20", 8)
#define FPA_512                                                            \
	FPA("flops_f64_512", "512B_PACKED_DOUBLE", "0x40", 8),             \
	FPA("flops_f32_512", "512B_PACKED_SINGLE", "0x80", 16)

/* Sapphire Rapids perfmon (SPR/events/sapphirerapids_core.json):
 * FP_ARITH_INST_RETIRED2 EventCode 0xCF, AVX512-FP16. */
#define FPH_CITE "Intel perfmon SPR core events: FP_ARITH_INST_RETIRED2 EventCode 0xCF"
#define FPH(um, umhex, w)                                                  \
	{"flops_f16", "FP_ARITH_INST_RETIRED2:" um, "event=0xcf,umask=" umhex, \
	 w, "FP_ARITH_INST_RETIRED2." um, FPH_CITE}

static const struct rl_event_row intel_client_flops[] = {FPA_128_256};
static const struct rl_event_row intel_avx512_flops[] = {FPA_128_256,
							 FPA_512};
static const struct rl_event_row intel_fp16_flops[] = {
	FPA_128_256, FPA_512,
	FPH("SCALAR_HALF", "0x01", 1), FPH("128B_PACKED_HALF", "0x04", 8),
	FPH("256B_PACKED_HALF", "0x08", 16),
	FPH("512B_PACKED_HALF", "0x10", 32),
};
/* Granite Rapids: libpfm4 4.13 has no gnr PMU; the same events, raw. */
#define FPR(ctr, um, umhex, w)                                             \
	{ctr, NULL, "event=0xc7,umask=" umhex, w,                          \
	 "FP_ARITH_INST_RETIRED." um,                                      \
	 "Intel perfmon GNR/events/graniterapids_core.json EventCode 0xC7"}
static const struct rl_event_row intel_gnr_flops[] = {
	FPR("flops_f64_scalar", "SCALAR_DOUBLE", "0x01", 1),
	FPR("flops_f32_scalar", "SCALAR_SINGLE", "0x02", 1),
	FPR("flops_f64_128", "128B_PACKED_DOUBLE", "0x04", 2),
	FPR("flops_f32_128", "128B_PACKED_SINGLE", "0x08", 4),
	FPR("flops_f64_256", "256B_PACKED_DOUBLE", "0x10", 4),
	FPR("flops_f32_256", "256B_PACKED_SINGLE", "0x20", 8),
	FPR("flops_f64_512", "512B_PACKED_DOUBLE", "0x40", 8),
	FPR("flops_f32_512", "512B_PACKED_SINGLE", "0x80", 16),
	{"flops_f16", NULL, "event=0xcf,umask=0x01", 1,
	 "FP_ARITH_INST_RETIRED2.SCALAR_HALF",
	 "Intel perfmon GNR core events EventCode 0xCF umask 0x01"},
	{"flops_f16", NULL, "event=0xcf,umask=0x04", 8,
	 "FP_ARITH_INST_RETIRED2.128B_PACKED_HALF",
	 "Intel perfmon GNR core events EventCode 0xCF umask 0x04"},
	{"flops_f16", NULL, "event=0xcf,umask=0x08", 16,
	 "FP_ARITH_INST_RETIRED2.256B_PACKED_HALF",
	 "Intel perfmon GNR core events EventCode 0xCF umask 0x08"},
	{"flops_f16", NULL, "event=0xcf,umask=0x10", 32,
	 "FP_ARITH_INST_RETIRED2.512B_PACKED_HALF",
	 "Intel perfmon GNR core events EventCode 0xCF umask 0x10"},
};

/* Alder/Raptor Lake P-cores (Golden/Raptor Cove, PMU cpu_core): libpfm4
 * 4.13 has no adl PMU, so raw; no AVX-512 on these parts. */
#define FPC(ctr, um, umhex, w)                                             \
	{ctr, NULL, "event=0xc7,umask=" umhex, w,                          \
	 "FP_ARITH_INST_RETIRED." um,                                      \
	 "Intel perfmon ADL/events/alderlake_goldencove_core.json EventCode 0xC7"}
static const struct rl_event_row intel_hybrid_flops[] = {
	FPC("flops_f64_scalar", "SCALAR_DOUBLE", "0x01", 1),
	FPC("flops_f32_scalar", "SCALAR_SINGLE", "0x02", 1),
	FPC("flops_f64_128", "128B_PACKED_DOUBLE", "0x04", 2),
	FPC("flops_f32_128", "128B_PACKED_SINGLE", "0x08", 4),
	FPC("flops_f64_256", "256B_PACKED_DOUBLE", "0x10", 4),
	FPC("flops_f32_256", "256B_PACKED_SINGLE", "0x20", 8),
};

/* Per-thread DRAM proxies (core events, counted for the thread only). */
static const struct rl_event_row intel_proxy[] = {
	{"dram_read_bytes", "LONGEST_LAT_CACHE:MISS", "event=0x2e,umask=0x41",
	 64, "LONGEST_LAT_CACHE.MISS",
	 "Intel SDM Vol. 3B, architectural event LLC Misses (0x2E/0x41)"},
	{"dram_write_bytes", "L2_LINES_OUT:NON_SILENT", "event=0xf2,umask=0x02",
	 64, "L2_LINES_OUT.NON_SILENT",
	 "Intel perfmon SKX core events: L2_LINES_OUT EventCode 0xF2 umask 0x02"},
};
static const struct rl_event_row intel_spr_proxy[] = {
	{"dram_read_bytes", "LONGEST_LAT_CACHE:MISS", "event=0x2e,umask=0x41",
	 64, "LONGEST_LAT_CACHE.MISS",
	 "Intel SDM Vol. 3B, architectural event LLC Misses (0x2E/0x41)"},
	{"dram_write_bytes", "L2_LINES_OUT:NON_SILENT", "event=0x26,umask=0x02",
	 64, "L2_LINES_OUT.NON_SILENT",
	 "Intel perfmon SPR core events: L2_LINES_OUT EventCode 0x26 umask 0x02"},
};
static const struct rl_event_row intel_raw_proxy[] = {
	{"dram_read_bytes", NULL, "event=0x2e,umask=0x41", 64,
	 "LONGEST_LAT_CACHE.MISS",
	 "Intel SDM Vol. 3B, architectural event LLC Misses (0x2E/0x41)"},
};
/* AMD: the kernel's generic cache-misses event (perf_event_open(2),
 * PERF_COUNT_HW_CACHE_MISSES); on Zen it counts L2 misses, so L3 hits are
 * included: an upper bound of DRAM reads. */
static const struct rl_event_row amd_proxy[] = {
	{"dram_read_bytes", "perf::PERF_COUNT_HW_CACHE_MISSES", NULL, 64,
	 "cache-misses",
	 "perf_event_open(2): PERF_COUNT_HW_CACHE_MISSES"},
};

/* Intel memory controllers: the kernel publishes CAS_COUNT as
 * events/cas_count_{read,write} with .scale 6.103515625e-5 and .unit MiB
 * (= 64 B per count); terms are the fallback where the file is missing. */
static const struct rl_dram_row skx_dram[] = {
	{"dram_read_bytes", "uncore_imc_", "cas_count_read",
	 "event=0x04,umask=0x03", 64, "UNC_M_CAS_COUNT.RD x 64 B",
	 "Intel Xeon Scalable uncore PM guide (336274): IMC CAS_COUNT 0x04 RD 0x03"},
	{"dram_write_bytes", "uncore_imc_", "cas_count_write",
	 "event=0x04,umask=0x0c", 64, "UNC_M_CAS_COUNT.WR x 64 B",
	 "Intel Xeon Scalable uncore PM guide (336274): IMC CAS_COUNT 0x04 WR 0x0C"},
};
static const struct rl_dram_row icx_dram[] = {
	{"dram_read_bytes", "uncore_imc_free_running_", "read", NULL, 64,
	 "IMC free-running DDR read bytes",
	 "Intel 3rd Gen Xeon Scalable uncore PM guide: free-running DDR counters"},
	{"dram_write_bytes", "uncore_imc_free_running_", "write", NULL, 64,
	 "IMC free-running DDR write bytes",
	 "Intel 3rd Gen Xeon Scalable uncore PM guide: free-running DDR counters"},
	{"dram_read_bytes", "uncore_imc_", "cas_count_read",
	 "event=0x04,umask=0x0f", 64, "UNC_M_CAS_COUNT.RD x 64 B",
	 "Intel perfmon ICX uncore events: UNC_M_CAS_COUNT.RD 0x04 umask 0x0F"},
	{"dram_write_bytes", "uncore_imc_", "cas_count_write",
	 "event=0x04,umask=0x30", 64, "UNC_M_CAS_COUNT.WR x 64 B",
	 "Intel perfmon ICX uncore events: UNC_M_CAS_COUNT.WR 0x04 umask 0x30"},
};
static const struct rl_dram_row spr_dram[] = {
	{"dram_read_bytes", "uncore_imc_", "cas_count_read",
	 "event=0x05,umask=0xcf", 64, "UNC_M_CAS_COUNT.RD x 64 B",
	 "Intel perfmon SPR uncore events: UNC_M_CAS_COUNT.RD 0x05 umask 0xCF"},
	{"dram_write_bytes", "uncore_imc_", "cas_count_write",
	 "event=0x05,umask=0xf0", 64, "UNC_M_CAS_COUNT.WR x 64 B",
	 "Intel perfmon SPR uncore events: UNC_M_CAS_COUNT.WR 0x05 umask 0xF0"},
};
/* Granite Rapids: CAS_COUNT_SCH0/SCH1; only what the kernel publishes. */
static const struct rl_dram_row gnr_dram[] = {
	{"dram_read_bytes", "uncore_imc_", "cas_count_read", NULL, 64,
	 "UNC_M_CAS_COUNT_SCH{0,1}.RD x 64 B (kernel event)",
	 "Intel perfmon GNR uncore events: UNC_M_CAS_COUNT_SCH0/SCH1 0x05/0x06"},
	{"dram_write_bytes", "uncore_imc_", "cas_count_write", NULL, 64,
	 "UNC_M_CAS_COUNT_SCH{0,1}.WR x 64 B (kernel event)",
	 "Intel perfmon GNR uncore events: UNC_M_CAS_COUNT_SCH0/SCH1 0x05/0x06"},
};
/* Client cores: the integrated memory controller's free-running
 * data_reads/data_writes (64 B per count, published with .scale/.unit). */
static const struct rl_dram_row client_dram[] = {
	{"dram_read_bytes", "uncore_imc_free_running_", "data_read", NULL, 64,
	 "IMC free-running data_read (all requests)",
	 "Intel client uncore (Tiger Lake and later): free-running DRAM read counter"},
	{"dram_write_bytes", "uncore_imc_free_running_", "data_write", NULL, 64,
	 "IMC free-running data_write (all requests)",
	 "Intel client uncore (Tiger Lake and later): free-running DRAM write counter"},
	{"dram_read_bytes", "uncore_imc", "data_reads", NULL, 64,
	 "IMC data_reads (free-running, all requests)",
	 "Intel client uncore: UNC_IMC_DRAM_DATA_READS free-running counter"},
	{"dram_write_bytes", "uncore_imc", "data_writes", NULL, 64,
	 "IMC data_writes (free-running, all requests)",
	 "Intel client uncore: UNC_IMC_DRAM_DATA_WRITES free-running counter"},
};

/* AMD Zen 2/3: RETIRED_SSE_AVX_FLOPS (PMCx003) counts flops with no
 * precision split (AMD PPR 17h model 31h, doc 55803; 19h model 01h, doc
 * 56176); Zen 4 adds BF16 MAC in bit 4 (PPR 19h model 11h, doc 55901). */
static const struct rl_event_row zen23_flops[] = {
	{"flops_any", "RETIRED_SSE_AVX_FLOPS:ANY", "event=0x03,umask=0x0f", 1,
	 "RETIRED_SSE_AVX_FLOPS.ANY (all precisions, FMA = 2)",
	 "AMD PPR 17h/19h: PMCx003 FpRetSseAvxOps, umask 0x0F"},
};
static const struct rl_event_row zen4_flops[] = {
	{"flops_any", "RETIRED_SSE_AVX_FLOPS:ANY", "event=0x03,umask=0x1f", 1,
	 "RETIRED_SSE_AVX_FLOPS.ANY (all precisions incl. BF16, FMA = 2)",
	 "AMD PPR 19h model 11h (55901): PMCx003 FpRetSseAvxOps, umask 0x1F"},
};
/* Zen 5: precision bits 7:5 of the umask (AMD PPR 1Ah model 02h, doc
 * 57238, PMCx003); libpfm4 4.13 has no Zen 5 PMU, so raw. The packed
 * figures have no width split: they need the *_packed counters. */
#define Z5(ctr, umhex, nm)                                                 \
	{ctr, NULL, "event=0x03,umask=" umhex, 1,                          \
	 "RETIRED_SSE_AVX_FLOPS." nm,                                      \
	 "AMD PPR 1Ah model 02h (57238): PMCx003 FpRetSseAvxOps, umask " umhex}
static const struct rl_event_row zen5_flops[] = {
	Z5("flops_f64_scalar", "0x8f", "DP_SCALAR"),
	Z5("flops_f64_packed", "0xaf", "DP_PACKED"),
	Z5("flops_f32_scalar", "0x4f", "SP_SCALAR"),
	Z5("flops_f32_packed", "0x6f", "SP_PACKED"),
};
static const struct rl_event_row zen5_any[] = {
	Z5("flops_any", "0x0f", "ANY"),
};
/* Zen 2/3 data fabric: DRAM channel beats (read+write together), the
 * Linux metric nps1_die_to_dram (tools/perf/pmu-events/arch/x86/amdzen2,
 * amdzen3: DF events 0x07 + 0x40 * channel, umask 0x38), 64 B each. */
#define DF(ev, ch)                                                         \
	{"dram_bytes", "amd_df", NULL, "event=" ev ",umask=0x38", 64,      \
	 "DF DRAM channel " ch " x 64 B (approximate, NPS1 only)",         \
	 "AMD PPR 17h/19h data fabric: DramChannelDataControllerN, umask 0x38"}
static const struct rl_dram_row zen23_dram[] = {
	DF("0x07", "0"), DF("0x47", "1"), DF("0x87", "2"), DF("0xc7", "3"),
	DF("0x107", "4"), DF("0x147", "5"), DF("0x187", "6"), DF("0x1c7", "7"),
};
/* Zen 4/5 unified memory controllers (Linux amd_umc PMU, 6.10+): CAS_CMD
 * event 0x0A, rdwrmask 1 = read, 2 = write. */
static const struct rl_dram_row zen45_dram[] = {
	{"dram_read_bytes", "amd_umc_", NULL, "event=0x0a,rdwrmask=0x1", 64,
	 "UMC CAS_CMD.RD x 64 B",
	 "AMD PPR 19h model 11h (55901) / 1Ah (57238): UMC PMC event 0x0A, RdWrMask 1"},
	{"dram_write_bytes", "amd_umc_", NULL, "event=0x0a,rdwrmask=0x2", 64,
	 "UMC CAS_CMD.WR x 64 B",
	 "AMD PPR 19h model 11h (55901) / 1Ah (57238): UMC PMC event 0x0A, RdWrMask 2"},
};

#define T(a) a, N(a)
static const struct rl_uarch rl_uarchs[] = {
	{"skl", "Intel Skylake-class client core", "skl", false,
	 T(intel_client_flops), T(client_dram), T(intel_proxy),
	 "FP_ARITH counts instructions x lanes (FMA twice); masked lanes count",
	 NULL, 0},
	{"skx", "Intel Skylake-SP", "skx", false, T(intel_avx512_flops),
	 T(skx_dram), T(intel_proxy),
	 "FP_ARITH counts instructions x lanes (FMA twice); AVX-512 masked lanes count as full",
	 NULL, 0},
	{"clx", "Intel Cascade Lake-SP", "clx", false, T(intel_avx512_flops),
	 T(skx_dram), T(intel_proxy),
	 "FP_ARITH counts instructions x lanes (FMA twice); AVX-512 masked lanes count as full",
	 NULL, 0},
	{"icl", "Intel Ice Lake / Tiger Lake / Rocket Lake client", "icl",
	 false, T(intel_avx512_flops), T(client_dram), T(intel_proxy),
	 "FP_ARITH counts instructions x lanes (FMA twice); AVX-512 masked lanes count as full",
	 NULL, 0},
	{"icx", "Intel Ice Lake-SP", "icx", false, T(intel_avx512_flops),
	 T(icx_dram), T(intel_proxy),
	 "FP_ARITH counts instructions x lanes (FMA twice); AVX-512 masked lanes count as full",
	 NULL, 0},
	{"spr", "Intel Sapphire / Emerald Rapids", "spr", false,
	 T(intel_fp16_flops), T(spr_dram), T(intel_spr_proxy),
	 "FP_ARITH counts instructions x lanes (FMA twice); FP16 via FP_ARITH_INST_RETIRED2; AMX not counted",
	 NULL, 0},
	{"adl", "Intel Alder / Raptor Lake (hybrid)", NULL, false,
	 T(intel_hybrid_flops), T(client_dram), T(intel_raw_proxy),
	 "raw encodings on the P-core PMU (cpu_core): a thread counts only while it runs on a P-core; E-core work is not counted",
	 NULL, 0},
	{"gnr", "Intel Granite Rapids", NULL, false, T(intel_gnr_flops),
	 T(gnr_dram), T(intel_raw_proxy),
	 "raw encodings (libpfm4 4.13 has no gnr); AMX not counted",
	 NULL, 0},
	{"zen2", "AMD Zen 2", "amd64_fam17h_zen2", true, T(zen23_flops),
	 T(zen23_dram), T(amd_proxy),
	 "no f32/f64 split on Zen 2 (flops_any); DRAM from data-fabric channels: approximate, NPS1 only, read+write together",
	 NULL, 0},
	{"zen3", "AMD Zen 3", "amd64_fam19h_zen3", true, T(zen23_flops),
	 T(zen23_dram), T(amd_proxy),
	 "no f32/f64 split on Zen 3 (flops_any); DRAM from data-fabric channels: approximate, NPS1 only, read+write together",
	 NULL, 0},
	{"zen4", "AMD Zen 4", "amd64_fam19h_zen4", true, T(zen4_flops),
	 T(zen45_dram), T(amd_proxy),
	 "no f32/f64 split on Zen 4 (flops_any, umask 0x1F includes BF16 MAC)",
	 NULL, 0},
	{"zen5", "AMD Zen 5", NULL, true, T(zen5_flops), T(zen45_dram),
	 T(amd_proxy),
	 "raw encodings (libpfm4 4.13 has no Zen 5); FLOPS_DP reported at half the expected count on some parts (LIKWID #767); UMC counts overcount in NPS4 (LIKWID #717)",
	 T(zen5_any)},
};

size_t rl_uarch_count(void) { return N(rl_uarchs); }

const struct rl_uarch *rl_uarch_at(size_t i)
{
	return i < N(rl_uarchs) ? &rl_uarchs[i] : NULL;
}

const struct rl_uarch *rl_uarch_find(const char *id)
{
	for (size_t i = 0; i < N(rl_uarchs); i++)
		if (strcmp(rl_uarchs[i].id, id) == 0)
			return &rl_uarchs[i];
	return NULL;
}

static bool model_in(unsigned model, const unsigned *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == model)
			return true;
	return false;
}

const struct rl_uarch *rl_uarch_of(const struct rl_cpu_id *cpu)
{
	static const unsigned skl[] = {0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6};
	static const unsigned icl[] = {0x7d, 0x7e, 0x8c, 0x8d, 0xa7};
	static const unsigned icx[] = {0x6a, 0x6c};
	static const unsigned spr[] = {0x8f, 0xcf};
	static const unsigned gnr[] = {0xad, 0xae};
	static const unsigned adl[] = {0x97, 0x9a, 0xb7, 0xba, 0xbf};
	unsigned m = cpu->model;

	if (strcmp(cpu->vendor, "GenuineIntel") == 0 && cpu->family == 6) {
		if (m == 0x55)
			return rl_uarch_find(cpu->stepping >= 5 ? "clx" : "skx");
		if (model_in(m, skl, N(skl)))
			return rl_uarch_find("skl");
		if (model_in(m, icl, N(icl)))
			return rl_uarch_find("icl");
		if (model_in(m, icx, N(icx)))
			return rl_uarch_find("icx");
		if (model_in(m, spr, N(spr)))
			return rl_uarch_find("spr");
		if (model_in(m, gnr, N(gnr)))
			return rl_uarch_find("gnr");
		if (model_in(m, adl, N(adl)))
			return rl_uarch_find("adl");
		return NULL;
	}
	if (strcmp(cpu->vendor, "AuthenticAMD") != 0)
		return NULL;
	if (cpu->family == 0x17)
		return m >= 0x30 ? rl_uarch_find("zen2") : NULL;
	if (cpu->family == 0x19) {
		if (m <= 0x0f || (m >= 0x20 && m <= 0x5f))
			return rl_uarch_find("zen3");
		return rl_uarch_find("zen4");
	}
	if (cpu->family == 0x1a)
		return rl_uarch_find("zen5");
	return NULL;
}

int rl_cpu_id_read(const char *path, struct rl_cpu_id *cpu, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int seen = 0;

	memset(cpu, 0, sizeof *cpu);
	if (!f)
		return rl_fail(err, errlen, RL_EIO, "cannot read '%s'", path);
	while (fgets(line, sizeof line, f) && seen != 15) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		if (strncmp(line, "vendor_id", 9) == 0) {
			sscanf(colon + 1, " %15s", cpu->vendor);
			seen |= 1;
		} else if (strncmp(line, "cpu family", 10) == 0) {
			sscanf(colon + 1, " %u", &cpu->family);
			seen |= 2;
		} else if (strncmp(line, "model\t", 6) == 0 ||
			   strncmp(line, "model ", 6) == 0) {
			if (sscanf(colon + 1, " %u", &cpu->model) == 1)
				seen |= 4;
		} else if (strncmp(line, "stepping", 8) == 0) {
			sscanf(colon + 1, " %u", &cpu->stepping);
			seen |= 8;
		}
	}
	fclose(f);
	if ((seen & 7) != 7)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "no vendor, family and model in '%s'", path);
	return 0;
}
