/* rl_diagnose on constructed rows: one case per situation of the seeds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/report.h"
#include "tests/lib/machine.h"

static struct rl_machine machine;

static void setup(void)
{
	rl_test_machine_charts(&machine);
}

TestSuite(diagnosis, .init = setup);

/* A counted f64 row: 1e9 flops over 12e9 bytes in 1 s (AI 0.083). */
static struct rl_region_row counted(void)
{
	struct rl_region_row r = {0};
	r.region = "k";
	r.n_threads = 2;
	r.calls = 1;
	r.time_s = 1;
	r.flops = 1e9;
	r.flops_f64 = 1e9;
	r.flops_f32 = NAN;
	r.dram_bytes = 12e9;
	r.dram_read_bytes = r.dram_write_bytes = NAN;
	for (int l = 0; l < RL_LEVELS; l++)
		r.level_bytes[l] = r.level_ai[l] = NAN;
	r.ai = r.flops / r.dram_bytes;
	r.gflops = 1;
	r.gbs = 12;
	r.flops_expected = r.bytes_expected = r.ai_expected = NAN;
	r.gflops_expected = NAN;
	r.precision = "f64";
	r.bound = RL_BOUND_MEMORY;
	r.basis = RL_BASIS_COUNTED;
	r.bound_roof = "DRAM";
	r.roof_gflops = 1 / 0.92;
	r.roof_pct = 92;
	r.scaled_ratio = 1;
	return r;
}

static void expect(const struct rl_region_row *row,
		   const struct rl_machine *m, const char *want)
{
	char *d = rl_diagnose(row, m);
	cr_assert_not_null(d);
	cr_assert_str_eq(d, want);
	free(d);
}

static void expect_has(const struct rl_region_row *row,
		       const struct rl_machine *m, const char *part)
{
	char *d = rl_diagnose(row, m);
	cr_assert_not_null(d);
	cr_assert(strstr(d, part), "'%s' lacks '%s'", d, part);
	cr_assert_null(strchr(d, '\n'), "one line");
	free(d);
}

static void expect_not_has(const struct rl_region_row *row,
			   const struct rl_machine *m, const char *part)
{
	char *d = rl_diagnose(row, m);
	cr_assert(strstr(d, part) == NULL, "'%s' in '%s'", part, d);
	free(d);
}

Test(diagnosis, at_the_bandwidth_roof)
{
	struct rl_region_row r = counted();
	expect(&r, &machine,
	       "memory-bound at 92% of DRAM: raise AI: tiling, fusion, smaller "
	       "types");
}

Test(diagnosis, far_below_the_compute_roof)
{
	struct rl_region_row r = counted();
	r.bound = RL_BOUND_COMPUTE;
	r.bound_roof = "avx512-fma f64";
	r.gflops = 74;
	r.roof_pct = 37;
	expect(&r, &machine,
	       "37% of the compute roof: latency or too little parallelism: "
	       "independent accumulators, vectorisation");
}

Test(diagnosis, far_below_on_the_single_chain_ceiling)
{
	struct rl_region_row r = counted();
	r.bound = RL_BOUND_COMPUTE;
	r.bound_roof = "avx512-fma f64";
	r.gflops = 3.5; /* the fixture's single-chain f64 is 3.4 */
	r.roof_pct = 1.75;
	r.named_ceiling = &machine.compute[5]; /* set by the analysis */
	expect_has(&r, &machine, "1.8% of the compute roof, near the scalar "
				 "single-chain ceiling (3.4 GFLOP/s): if it is one "
				 "dependent chain");
	r.gflops = 24; /* the fixture's scalar f64 is 25 */
	r.named_ceiling = &machine.compute[4];
	expect_has(&r, &machine, "near the scalar ceiling (25 GFLOP/s): if it is "
				 "not vectorised");
	r.named_ceiling = NULL; /* none of the flops' width near */
	expect_not_has(&r, &machine, "near the");
}

Test(diagnosis, far_below_the_bandwidth_roof)
{
	struct rl_region_row r = counted();
	r.roof_pct = 30;
	r.gflops = 0.3; /* no ceiling near */
	r.n_threads = 1;
	expect_has(&r, &machine, "30% of the DRAM roof: latency or too little "
				 "parallelism: more threads");
	/* a region every CPU ran (a process-scope region around a parallel
	 * loop): no "more threads" */
	r.n_threads = machine.cores;
	expect_has(&r, &machine, "30% of the DRAM roof: latency: ");
	expect_not_has(&r, &machine, "more threads");
}

Test(diagnosis, above_the_roof_states_the_self_check)
{
	struct rl_region_row r = counted();
	r.roof_pct = 117;
	r.roof_label = "DRAM 33% write";
	r.check = "117% of DRAM 33% write, above it: likeliest cause: X";
	r.check_cause = "unexplained";
	expect(&r, &machine,
	       "self-check: 117% of DRAM 33% write, above it: likeliest cause: "
	       "X");
	expect_not_has(&r, &machine, "reused from cache");
	/* 105% is within the noise: no finding, at the roof */
	r.roof_pct = 105;
	r.check = NULL;
	expect_has(&r, &machine, "memory-bound at 105% of DRAM 33% write");
}

Test(diagnosis, counted_bytes_above_declared_is_write_allocate)
{
	struct rl_region_row r = counted();
	r.flops_expected = 1e9;
	r.bytes_expected = 9e9; /* 12 / 9 = 1.33: the triad's 32 vs 24 B */
	r.ai_expected = r.flops_expected / r.bytes_expected;
	expect(&r, &machine,
	       "memory-bound at 92% of DRAM: raise AI: tiling, fusion, smaller "
	       "types; counted 1.33\xc3\x97 the declared bytes: write-allocate "
	       "on stores; non-temporal stores would avoid it");
}

Test(diagnosis, counted_bytes_far_above_or_below_declared)
{
	struct rl_region_row r = counted();
	r.bytes_expected = 3e9;
	expect_has(&r, &machine, "counted 4.00\xc3\x97 the declared bytes: whole "
				 "cache lines or poor reuse");
	r.bytes_expected = 24e9;
	expect_has(&r, &machine, "counted 0.50\xc3\x97 the declared bytes: part of "
				 "the data came from cache");
}

Test(diagnosis, counted_flops_differ_from_declared)
{
	struct rl_region_row r = counted();
	r.flops_expected = 2e9;
	r.bytes_expected = 9e9; /* a bytes gap too: the flops one wins */
	expect(&r, &machine,
	       "memory-bound at 92% of DRAM: raise AI: tiling, fusion, smaller "
	       "types; counted flops 0.50\xc3\x97 declared: the declaration "
	       "overstates the work, or some arithmetic is not counted (an FMA "
	       "counted once, x87 or integer code)");
	r.flops_expected = 0.8e9;
	r.bytes_expected = 12e9;
	expect_has(&r, &machine, "counted flops 1.25\xc3\x97 declared: extra work");
}

Test(diagnosis, no_counts_time_backend)
{
	struct rl_region_row r = counted();
	r.flops = r.flops_f64 = r.dram_bytes = r.ai = r.gflops = r.gbs = NAN;
	r.flops_expected = 2e9;
	r.bytes_expected = 24e9;
	r.ai_expected = 2.0 / 24;
	r.gflops_expected = 2;
	r.basis = RL_BASIS_DECLARED;
	r.bound = RL_BOUND_UNKNOWN;
	r.roof_pct = NAN;
	expect(&r, &machine,
	       "no flop or byte counts (time backend): declared AI 0.083, roof "
	       "from declared figures");
	r.bound = RL_BOUND_MEMORY;
	r.roof_pct = 80;
	expect(&r, &machine,
	       "no flop or byte counts (time backend): declared AI 0.083, roof "
	       "from declared figures; memory-bound at 80% of DRAM: raise AI: "
	       "tiling, fusion, smaller types (declared figures)");
	r.ai_expected = NAN;
	expect_has(&r, &machine, "no flop or byte counts and nothing declared");
}

Test(diagnosis, no_machine_model)
{
	struct rl_region_row r = counted();
	r.bound = RL_BOUND_UNKNOWN;
	r.roof_pct = NAN;
	r.bound_roof = NULL;
	expect(&r, NULL, "no machine model: run rlprof probe");
	r.bytes_expected = 9e9;
	expect_has(&r, NULL, "no machine model: run rlprof probe; counted 1.33");
}

Test(diagnosis, partial_counts_and_zero_flops)
{
	struct rl_region_row r = counted();
	r.dram_bytes = r.ai = r.gbs = NAN;
	expect_has(&r, &machine, "flops counted but no DRAM bytes");
	r = counted();
	r.flops = 0;
	r.ai = 0;
	expect_has(&r, &machine, "no floating-point work counted");
}

Test(diagnosis, simulated_rows_judge_the_ai_not_the_speed)
{
	struct rl_region_row r = counted();
	r.simulated = true;
	r.roof_pct = 0.5;
	expect(&r, &machine,
	       "memory-bound by its AI (roof: DRAM); simulated run, so GFLOP/s "
	       "and % of roof are not meaningful");
	/* the analysis may leave % of roof empty for simulated rows */
	r.roof_pct = NAN;
	r.bytes_expected = 12e12;
	expect(&r, &machine,
	       "memory-bound by its AI (roof: DRAM); simulated run, so GFLOP/s "
	       "and % of roof are not meaningful; counted 0.001\xc3\x97 the "
	       "declared bytes: part of the data came from cache (a cache-level "
	       "roof applies)");
}

Test(diagnosis, no_roof_for_the_precision)
{
	struct rl_region_row r = counted();
	r.bound = RL_BOUND_UNKNOWN;
	r.roof_pct = NAN;
	expect_has(&r, &machine, "no roof in the machine model");
}

Test(diagnosis, is_a_pure_function)
{
	struct rl_region_row r = counted(), copy;
	r.bytes_expected = 9e9;
	copy = r;
	char *a = rl_diagnose(&r, &machine), *b = rl_diagnose(&r, &machine);
	cr_assert_str_eq(a, b);
	cr_assert_eq(memcmp(&r, &copy, sizeof r), 0);
	free(a);
	free(b);
}

/* A scalar reduction built without -ffast-math: one dependent add chain,
 * found in its code.
 * At the probed add-chain ceiling (or twice it: a multiply feeding each
 * add, a dot product), the analysis names that ceiling and the diagnosis
 * says how to break the chain (issue 26). */
Test(diagnosis, add_chain_reduction_gets_the_accumulator_advice)
{
	struct rl_machine m;
	struct rl_region_row r = counted();
	const struct rl_compute_roof *c;

	memset(&m, 0, sizeof m);
	m.cores = 1;
	struct rl_compute_roof peak = {.threads = 1, .gflops = 60,
				       .width_bits = 256, .fma = 1};
	snprintf(peak.name, sizeof peak.name, "avx2-fma");
	snprintf(peak.kind, sizeof peak.kind, "peak");
	snprintf(peak.precision, sizeof peak.precision, "f64");
	struct rl_compute_roof add = {.threads = 1, .gflops = 1.2,
				      .width_bits = 64, .fma = 0};
	snprintf(add.name, sizeof add.name, "scalar");
	snprintf(add.kind, sizeof add.kind, "add-chain");
	snprintf(add.precision, sizeof add.precision, "f64");
	struct rl_compute_roof single = add;
	single.gflops = 1.6; /* the multiply+add chain: another ceiling */
	snprintf(single.kind, sizeof single.kind, "single-chain");
	m.compute[m.n_compute++] = peak;
	m.compute[m.n_compute++] = add;
	m.compute[m.n_compute++] = single;

	r.n_threads = 1;
	r.roof_threads = 1;
	r.code_width = 64;
	r.fma_share = 0;
	r.roof_pct = 20;
	/* the evidence: the loop's code carries one add chain
	 * (tests/analysis/test_advice.c: none, no advice) */
	r.chains = (struct rl_chain_evidence){.known = true, .add = 1};
	r.gflops = 1.25; /* a sum: one add per step */
	c = rl_near_ceiling(&r, &m, "f64");
	cr_assert_not_null(c);
	cr_expect_str_eq(c->kind, "add-chain");
	r.named_ceiling = c;
	expect_has(&r, &m, "near the scalar add-chain ceiling (1.2 GFLOP/s): "
			   "one dependent add chain: split it into independent "
			   "accumulators, or let the compiler reassociate "
			   "(-ffast-math / -fassociative-math)");
	r.gflops = 2.4; /* a dot product: a multiply per add */
	c = rl_near_ceiling(&r, &m, "f64");
	cr_assert_not_null(c);
	cr_expect_str_eq(c->kind, "add-chain");
	r.named_ceiling = c; /* the figure said is the one it is near */
	expect_has(&r, &m, "near twice the scalar add-chain ceiling (2.4 "
			   "GFLOP/s: a multiply feeding each step");
	r.gflops = 10; /* far from every chain: no such advice */
	cr_expect_null(rl_near_ceiling(&r, &m, "f64"));
}
