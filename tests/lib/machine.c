/* The tests' machine-model builder: see machine.h. */
#include "tests/lib/machine.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rl_test_machine_init(struct rl_machine *m, unsigned cores,
			  const char *cpu_model)
{
	memset(m, 0, sizeof *m);
	m->version = 1;
	m->cores = cores;
	snprintf(m->cpu_model, sizeof m->cpu_model, "%s", cpu_model);
}

struct rl_machine *rl_test_machine_new(unsigned cores, const char *cpu_model)
{
	struct rl_machine *m = calloc(1, sizeof *m);

	cr_assert_not_null(m);
	rl_test_machine_init(m, cores, cpu_model);
	return m;
}

struct rl_bw_roof *rl_test_machine_add_bw(struct rl_machine *m,
					  const char *level, unsigned threads,
					  double stream_gbs, double moved_gbs)
{
	struct rl_bw_roof *b;

	cr_assert_lt(m->n_bw, RL_MACHINE_MAX_BW, "too many bandwidth roofs");
	b = &m->bw[m->n_bw++];
	snprintf(b->level, sizeof b->level, "%s", level);
	b->threads = threads;
	b->stream_gbs = stream_gbs;
	b->moved_gbs = moved_gbs;
	return b;
}

struct rl_compute_roof *rl_test_machine_add_compute(struct rl_machine *m,
						    const char *name,
						    const char *kind,
						    const char *precision,
						    unsigned threads,
						    double gflops)
{
	struct rl_compute_roof *c;

	cr_assert_lt(m->n_compute, RL_MACHINE_MAX_COMPUTE, "too many compute roofs");
	c = &m->compute[m->n_compute++];
	snprintf(c->name, sizeof c->name, "%s", name);
	snprintf(c->kind, sizeof c->kind, "%s", kind);
	snprintf(c->precision, sizeof c->precision, "%s", precision);
	c->threads = threads;
	c->gflops = gflops;
	return c;
}

struct rl_cache_level *rl_test_machine_add_level(struct rl_machine *m,
						 const char *level,
						 uint64_t claimed_bytes,
						 uint64_t effective_bytes)
{
	struct rl_cache_level *l;

	cr_assert_lt(m->n_levels, RL_MACHINE_MAX_LEVELS, "too many cache levels");
	l = &m->levels[m->n_levels++];
	snprintf(l->level, sizeof l->level, "%s", level);
	l->claimed_bytes = claimed_bytes;
	l->effective_bytes = effective_bytes;
	return l;
}

struct rl_machine *rl_test_machine_default(void)
{
	struct rl_machine *m = rl_test_machine_new(2, "Test CPU");

	rl_test_machine_default_roofs(m);
	return m;
}

void rl_test_machine_default_roofs(struct rl_machine *m)
{
	rl_test_machine_add_bw(m, "DRAM", 1, 24, 30);
	rl_test_machine_add_bw(m, "DRAM", 2, 36, 48);
	rl_test_machine_add_bw(m, "L2", 1, 80, 100);
	rl_test_machine_add_bw(m, "L2", 2, 160, 200);
	rl_test_machine_add_compute(m, "scalar", "scalar", "f64", 1, 5);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 1, 50);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 2, 100);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f32", 1, 100);
	rl_test_machine_add_compute(m, "avx2-fma", "peak", "f32", 2, 200);
}

void rl_test_machine_render(struct rl_machine *m, const char *cpu,
			    int dram_roofs, double peak_1t, double peak_2t)
{
	const double peaks[2] = {peak_1t, peak_2t};

	rl_test_machine_init(m, 2, cpu ? cpu : "");
	m->version = 0;
	for (int i = 0; i < dram_roofs; i++)
		rl_test_machine_add_bw(m, "DRAM", (unsigned)i + 1, i ? 36 : 24,
				       i ? 48 : 30);
	for (int i = 0; i < 2; i++)
		if (peaks[i] > 0)
			rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64",
						    (unsigned)i + 1, peaks[i]);
}

static void charts_bw(struct rl_machine *m, const char *level,
		      unsigned threads, double moved, double stream)
{
	struct rl_bw_roof *b =
		rl_test_machine_add_bw(m, level, threads, stream, moved);

	snprintf(b->method, sizeof b->method, "triad avx512 best of 20");
}

static void charts_compute(struct rl_machine *m, const char *name,
			   const char *kind, const char *prec,
			   unsigned threads, double gflops)
{
	struct rl_compute_roof *c =
		rl_test_machine_add_compute(m, name, kind, prec, threads, gflops);

	snprintf(c->method, sizeof c->method, "%s chains, median of 21", kind);
}

void rl_test_machine_charts(struct rl_machine *m)
{
	rl_test_machine_init(m, 2, "Test CPU <9000> & co");
	snprintf(m->isa, sizeof m->isa, "avx512 avx2 fma sse2");
	m->clock_ghz = 3.4;
	m->nominal_ghz = 2.1;
	m->mem_bytes = 8ULL << 30;
	snprintf(m->caches, sizeof m->caches, "L1d 48K L2 1M L3 32M");
	snprintf(m->probed_at, sizeof m->probed_at, "2026-12-02T12:00:00Z");
	charts_bw(m, "L1", 2, 700, 600);
	charts_bw(m, "L2", 2, 300, 260);
	charts_bw(m, "L3", 2, 150, 120);
	charts_bw(m, "DRAM", 1, 25, 20);
	charts_bw(m, "DRAM", 2, 40, 32);
	charts_compute(m, "avx512-fma", "peak", "f64", 2, 200);
	charts_compute(m, "avx2-fma", "peak", "f64", 2, 110);
	charts_compute(m, "avx512-fma", "peak", "f64", 1, 100);
	charts_compute(m, "avx512-add", "add-only", "f64", 2, 100);
	charts_compute(m, "scalar", "scalar", "f64", 2, 25);
	charts_compute(m, "scalar", "single-chain", "f64", 2, 3.4);
	charts_compute(m, "avx512-fma", "peak", "f32", 2, 400);
	charts_compute(m, "scalar", "scalar", "f32", 2, 25);
}
