/* Advice from evidence (issue 39, docs/advice.md): each rule of the
 * diagnosis that names a cause fires where its evidence is and stays
 * silent where it is not. The chain rule needs one loop-carried
 * floating-point chain found in the loop's code (an element-wise loop at
 * the chain's rate, a region, a loop of two chains: no chain advice);
 * which chain (add or multiply) comes from the code, not from the order
 * of equal probe figures; a row whose counted work runs at under 0.1% of
 * its roof (it sleeps) gets no bandwidth or latency lever; a memory-bound
 * loop limited by its add chain gets the chain's advice, not the
 * prefetch advice. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/report.h"

static struct rl_machine m;

/* One core: a 60 GFLOP/s peak, scalar f64 add and multiply chains at
 * the same 1.2 GFLOP/s (multiply listed first), a 10 GB/s DRAM roof. */
static void setup(void)
{
	struct rl_compute_roof c = {.threads = 1, .gflops = 60,
				    .width_bits = 256, .fma = 1};

	memset(&m, 0, sizeof m);
	m.cores = 1;
	snprintf(c.name, sizeof c.name, "avx2-fma");
	snprintf(c.kind, sizeof c.kind, "peak");
	snprintf(c.precision, sizeof c.precision, "f64");
	m.compute[m.n_compute++] = c;
	c.gflops = 1.2;
	c.width_bits = 64;
	c.fma = 0;
	snprintf(c.name, sizeof c.name, "scalar");
	snprintf(c.kind, sizeof c.kind, "mul-chain");
	m.compute[m.n_compute++] = c;
	snprintf(c.kind, sizeof c.kind, "add-chain");
	m.compute[m.n_compute++] = c;
}

TestSuite(advice, .init = setup);

/* A scalar f64 loop of one thread at 1.25 GFLOP/s, 20% of its roof. */
static struct rl_region_row row(void)
{
	struct rl_region_row r = {0};
	r.region = "loop.c:3 (f)";
	r.n_threads = r.roof_threads = 1;
	r.calls = 1;
	r.time_s = 1;
	r.flops = r.flops_f64 = 1.25e9;
	r.flops_f32 = NAN;
	r.dram_bytes = 1e9;
	r.dram_read_bytes = r.dram_write_bytes = NAN;
	for (int l = 0; l < RL_LEVELS; l++)
		r.level_bytes[l] = r.level_ai[l] = NAN;
	r.ai = 1.25;
	r.gflops = 1.25;
	r.gbs = 1;
	r.flops_expected = r.bytes_expected = r.ai_expected = NAN;
	r.gflops_expected = NAN;
	r.precision = "f64";
	r.bound = RL_BOUND_COMPUTE;
	r.basis = RL_BASIS_COUNTED;
	r.bound_roof = "scalar f64";
	r.roof_pct = 20;
	r.code_width = 64;
	r.fma_share = 0;
	r.scaled_ratio = 1;
	return r;
}

static char *diagnose(struct rl_region_row *r)
{
	char *d;
	r->named_ceiling = rl_near_ceiling(r, &m, "f64");
	d = rl_diagnose(r, &m);
	cr_assert_not_null(d);
	return d;
}

Test(advice, add_chain_fires_on_a_reduction_found_in_the_code)
{
	struct rl_region_row r = row();
	char *d;

	r.chains = (struct rl_chain_evidence){.known = true, .add = 1};
	d = diagnose(&r);
	cr_expect(strstr(d, "one dependent add chain: split it into "
			    "independent accumulators"), "%s", d);
	free(d);
}

Test(advice, no_chain_advice_for_an_elementwise_loop_at_the_chains_rate)
{
	struct rl_region_row r = row();
	char *d;

	/* the code was read: no value carried from one iteration on */
	r.chains = (struct rl_chain_evidence){.known = true};
	d = diagnose(&r);
	cr_expect_null(r.named_ceiling);
	cr_expect(!strstr(d, "chain") && !strstr(d, "fast-math"), "%s", d);
	free(d);
	/* a region: no code read, no evidence */
	r.chains = (struct rl_chain_evidence){0};
	d = diagnose(&r);
	cr_expect(!strstr(d, "chain") && !strstr(d, "fast-math"), "%s", d);
	free(d);
	/* two chains: not one chain's rate; said by no rule */
	r.chains = (struct rl_chain_evidence){.known = true, .add = 2};
	d = diagnose(&r);
	cr_expect(!strstr(d, "one dependent"), "%s", d);
	free(d);
}

Test(advice, add_or_multiply_chain_named_from_the_code)
{
	struct rl_region_row r = row();
	char *d;

	/* the probe's two figures are equal, the multiply chain first */
	r.chains = (struct rl_chain_evidence){.known = true, .add = 1};
	d = diagnose(&r);
	cr_assert_not_null(r.named_ceiling);
	cr_expect_str_eq(r.named_ceiling->kind, "add-chain");
	cr_expect(strstr(d, "dependent add chain") &&
		  !strstr(d, "multiply chain"), "%s", d);
	free(d);
	r.chains = (struct rl_chain_evidence){.known = true, .mul = 1};
	d = diagnose(&r);
	cr_assert_not_null(r.named_ceiling);
	cr_expect_str_eq(r.named_ceiling->kind, "mul-chain");
	cr_expect(strstr(d, "dependent multiply chain"), "%s", d);
	free(d);
}

Test(advice, a_sleeping_region_gets_no_bandwidth_advice)
{
	struct rl_region_row r = row();
	char *d;

	/* 10 kB and 1000 flops in 1 s: it slept */
	r.flops = r.flops_f64 = 1e3;
	r.dram_bytes = 1e4;
	r.ai = 0.1;
	r.gflops = 1e-6;
	r.gbs = 1e-5;
	r.bound = RL_BOUND_MEMORY;
	r.bound_roof = "DRAM";
	r.roof_pct = 1e-4;
	d = diagnose(&r);
	cr_expect(strstr(d, "no roofline lever applies"), "%s", d);
	cr_expect(!strstr(d, "prefetch") && !strstr(d, "more threads") &&
		  !strstr(d, "contiguous"), "%s", d);
	free(d);
	/* a random-access loop at 3% of the DRAM roof: latency, said */
	r.gflops = 0.03;
	r.gbs = 0.3;
	r.roof_pct = 3;
	d = diagnose(&r);
	cr_expect(strstr(d, "contiguous prefetch-friendly access"), "%s", d);
	free(d);
}

Test(advice, a_loop_limited_by_its_add_chain_gets_no_prefetch_advice)
{
	struct rl_region_row r = row();
	char *d;

	/* memory-bound by its AI, far below the DRAM roof, at the add
	 * chain's rate, one add chain in its code */
	r.bound = RL_BOUND_MEMORY;
	r.bound_roof = "DRAM";
	r.roof_pct = 12;
	r.chains = (struct rl_chain_evidence){.known = true, .add = 1};
	d = diagnose(&r);
	cr_expect(strstr(d, "one dependent add chain"), "%s", d);
	cr_expect(!strstr(d, "prefetch"), "%s", d);
	free(d);
	/* without the chain in its code: the memory advice */
	r.chains = (struct rl_chain_evidence){.known = true};
	d = diagnose(&r);
	cr_expect(strstr(d, "prefetch"), "%s", d);
	free(d);
}

Test(advice, isa_advice_only_under_a_lesser_ceiling)
{
	struct rl_region_row r = row();
	struct rl_compute_roof avx2 = m.compute[0];
	char *d;

	/* at 85% of the machine's best ceiling: no build flag helps */
	r.code_width = 256;
	r.flops_width[2] = r.flops;
	r.fma_share = 1;
	r.best_peak = r.ceiling_roof = &m.compute[0];
	r.ceiling_gflops = m.compute[0].gflops;
	r.gflops = 51;
	r.roof_pct = 85;
	d = rl_diagnose(&r, &m);
	cr_expect(strstr(d, "at the roof, only fewer flops"), "%s", d);
	cr_expect(!strstr(d, "-march"), "%s", d);
	free(d);
	/* at 85% of a ceiling 4x under the best peak: the flags */
	avx2.gflops = 15;
	snprintf(avx2.name, sizeof avx2.name, "avx2");
	avx2.fma = 0;
	r.ceiling_roof = &avx2;
	r.ceiling_gflops = 15;
	r.fma_share = 0;
	r.gflops = 12.75;
	d = rl_diagnose(&r, &m);
	cr_expect(strstr(d, "build with -march=native"), "%s", d);
	free(d);
}
