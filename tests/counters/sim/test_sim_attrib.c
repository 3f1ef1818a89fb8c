/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU charges write-backs to their cause (--sim-bounds
 * cause, the default) and does not count rlprof's own runtime: the real
 * `rlprof run -b sim` on tests/programs/sim_attrib.c with a small
 * geometry (L3 256 KiB), counts read back from the raw results.
 */
#include <math.h>
#include <sys/stat.h>

#include "machine/machine_file.h"
#include "tests/lib/sim.h"

#define GEOMETRY "16K:4,64K:8,256K:8"

static void run_mode(struct sim_run *r, const char *bounds, const char *mode)
{
	const char *opts[] = {"--sim-caches", GEOMETRY, "--sim-timing", "sim",
			      bounds ? "--sim-bounds" : NULL, bounds, NULL};
	const char *prog[] = {E2E_PROG("sim_attrib"), mode, NULL};
	sim_need();
	sim_run(r, opts, prog);
	cr_assert_eq(r->res.status, 0, "rlprof run (%s): %s", mode, r->res.err);
	sim_load(r);
}

static uint64_t flops_all(const struct sim_row *w)
{
	return w->c[RL_C_FLOPS_F64_SCALAR] + w->c[RL_C_FLOPS_F64_128] +
	       w->c[RL_C_FLOPS_F64_256] + w->c[RL_C_FLOPS_F32_SCALAR] +
	       w->c[RL_C_FLOPS_F32_128] + w->c[RL_C_FLOPS_F32_256];
}

/* 1000 updates of an L3-resident 128 KiB vector: about one write-back of
 * the vector in all (cause), not one per call (region) */
Test(sim_attrib, resident_vector_costs_one_write_back, .timeout = 120)
{
	const double vec = 16384 * 8.0;
	struct sim_run r;
	run_mode(&r, NULL, "resident");
	cr_assert_not_null(strstr(r.note, "bounds cause"), "note: %s", r.note);
	const struct sim_row *u = sim_row_get(&r, "update", -1);
	const struct sim_row *in = sim_row_get(&r, "init", -1);
	cr_assert_eq(u->calls, 1000);
	cr_expect_leq((double)u->c[RL_C_DRAM_WRITE_BYTES], 2 * vec,
		      "update: %llu B of DRAM writes in 1000 calls, vector %.0f B",
		      (unsigned long long)u->c[RL_C_DRAM_WRITE_BYTES], vec);
	cr_expect_leq((double)(u->c[RL_C_DRAM_WRITE_BYTES] +
			       in->c[RL_C_DRAM_WRITE_BYTES]), 2 * vec);
	/* init wrote the vector first: its write-back is init's */
	cr_expect_geq((double)in->c[RL_C_DRAM_WRITE_BYTES], vec,
		      "init: %llu B", (unsigned long long)in->c[RL_C_DRAM_WRITE_BYTES]);
	cr_expect_eq(flops_all(u), 1000ull * 16384 * 2);
	sim_run_free(&r);

	/* region bounds write the vector back at every call */
	run_mode(&r, "region", "resident");
	u = sim_row_get(&r, "update", -1);
	cr_expect_geq((double)u->c[RL_C_DRAM_WRITE_BYTES], 999 * vec,
		      "region bounds: update wrote %llu B",
		      (unsigned long long)u->c[RL_C_DRAM_WRITE_BYTES]);
	sim_run_free(&r);
}

/* a streaming triad: 24 B/element read (b, c and a's write-allocate) and
 * 8 B/element written, a's lines charged although still dirty at the end
 * of the region */
Test(sim_attrib, streaming_triad_is_32_bytes_per_element, .timeout = 120)
{
	const double n = 262144;
	struct sim_run r;
	run_mode(&r, NULL, "triad");
	const struct sim_row *t = sim_row_get(&r, "triad", -1);
	double got = (double)sim_dram(t) / n;
	cr_expect(fabs(got - 32.0) <= 0.03 * 32.0, "triad: %.3f B/element", got);
	double w = (double)t->c[RL_C_DRAM_WRITE_BYTES] / n;
	cr_expect(fabs(w - 8.0) <= 0.03 * 8.0, "triad writes: %.3f B/element", w);
	sim_run_free(&r);
}

/* the outer region's counts do not depend on inner annotations */
Test(sim_attrib, outer_totals_ignore_inner_annotations, .timeout = 120)
{
	struct sim_run flat, nested;
	run_mode(&flat, NULL, "flat");
	run_mode(&nested, NULL, "nested");
	const struct sim_row *f = sim_row_get(&flat, "outer", -1);
	const struct sim_row *n = sim_row_get(&nested, "outer", -1);
	const struct sim_row *s = sim_row_get(&nested, "step", -1);
	cr_assert_eq(s->calls, 64);
	cr_expect_eq(flops_all(f), flops_all(n), "flops: flat %llu, nested %llu",
		     (unsigned long long)flops_all(f),
		     (unsigned long long)flops_all(n));
	/* DRAM within 0.1% + 64 lines; the inner boundaries within 1%: the
	 * libc calls the runtime makes (strncmp of the name, clock_gettime)
	 * are counted and touch a few lines of stack and strings (where the
	 * stack lies depends on the environment's size: 36 lines apart with
	 * a longer GLIBC_TUNABLES) */
	static const enum rl_counter c[] = {
		RL_C_DRAM_READ_BYTES, RL_C_DRAM_WRITE_BYTES, RL_C_L2_READ_BYTES,
		RL_C_L2_WRITE_BYTES, RL_C_L3_READ_BYTES, RL_C_L3_WRITE_BYTES};
	for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
		double a = (double)f->c[c[k]], b = (double)n->c[c[k]];
		double tol = k < 2 ? 0.001 : 0.01;
		cr_expect(fabs(a - b) <= tol * a + 4096,
			  "%s: flat %.0f, nested %.0f", rl_counter_name(c[k]),
			  a, b);
	}
	/* all the work is in the steps: they add up to the outer region,
	 * but for what the loop around them touches between two steps (its
	 * stack and the marker's site, evicted by each streaming step from
	 * the 256 KiB L3: about 2 lines a step, 8000-8800 B in all, varying
	 * with where the environment puts the stack): 0.1% + 3 lines a step */
	double so = (double)sim_dram(n), ss = (double)sim_dram(s);
	cr_expect(fabs(so - ss) <= 0.001 * so + 3.0 * 64 * (double)s->calls,
		  "DRAM bytes: outer %.0f, steps %.0f", so, ss);
	sim_run_free(&flat);
	sim_run_free(&nested);
}

/* the runtime's own instructions are not counted: 1000 empty regions add
 * no flop and almost no traffic to the region around them */
Test(sim_attrib, empty_inner_regions_cost_nothing, .timeout = 120)
{
	struct sim_run r;
	run_mode(&r, NULL, "empty");
	const struct sim_row *o = sim_row_get(&r, "outer", -1);
	const struct sim_row *i = sim_row_get(&r, "inner", -1);
	cr_assert_eq(i->calls, 1000);
	cr_expect_eq(flops_all(o), 0, "outer: %llu flops",
		     (unsigned long long)flops_all(o));
	cr_expect_leq(sim_dram(o), 64 * 1024, "outer: %llu DRAM bytes",
		      (unsigned long long)sim_dram(o));
	cr_expect_eq(flops_all(i), 0);
	sim_run_free(&r);
}

/* Without --sim-caches the geometry comes from the machine model: a
 * hand-made one in a private cache directory */
static char *private_cache(void)
{
	char *dir = e2e_tmpdir();
	cr_assert_eq(setenv("XDG_CACHE_HOME", dir, 1), 0);
	return dir;
}

/* No machine model: test_e2e_nomodel.c (the claims serve). */

Test(sim_attrib, geometry_from_the_machine_model_and_said, .timeout = 60)
{
	char *cache = private_cache();
	char path[4096], err[512];
	struct rl_machine *m = calloc(1, sizeof *m), *back = calloc(1, sizeof *m);
	cr_assert(m && back);
	m->version = RL_MACHINE_VERSION;
	snprintf(m->cpu_model, sizeof m->cpu_model, "hand-made");
	snprintf(m->probed_at, sizeof m->probed_at, "2026-12-03T00:00:00Z");
	m->cores = 2;
	m->clock_ghz = 3.0;
	m->loadavg1 = -1;
	static const struct {
		const char *name;
		uint64_t claimed, effective;
		unsigned ways;
	} lv[] = {{"L1", 32u << 10, 32u << 10, 8},
		  {"L2", 256u << 10, 256u << 10, 8},
		  {"L3", 480ull << 20, 1u << 20, 16}};
	for (size_t i = 0; i < 3; i++) {
		struct rl_cache_level *l = &m->levels[m->n_levels++];
		snprintf(l->level, sizeof l->level, "%s", lv[i].name);
		l->claimed_bytes = lv[i].claimed;
		l->ways = lv[i].ways;
		l->line_bytes = 64;
		l->shared_cpus = i == 2 ? 2 : 1;
		snprintf(l->source, sizeof l->source, "sysfs");
		l->effective_bytes = lv[i].effective;
		l->effective_all_bytes = 2 * lv[i].effective;
	}
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err), 0,
		     "%s", err);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	cr_assert_eq(mkdir(path, 0777), 0, "%s", path);
	*slash = '/';
	cr_assert_eq(rl_machine_save(path, m, err, sizeof err), 0, "%s", err);
	if (rl_machine_load(path, back, err, sizeof err) != 0 || back->n_levels != 3)
		cr_skip_test("the machine file does not keep cache levels yet (%s)",
			     err);

	struct sim_run r;
	const char *prog[] = {E2E_PROG("sim_attrib"), "triad", NULL};
	sim_need();
	/* sim_run adds a geometry unless given one: run without it by hand */
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b", "sim",
			      "--sim-timing", "sim", "-o", NULL, prog[0], prog[1],
			      NULL};
	memset(&r, 0, sizeof r);
	r.dir = e2e_tmpdir();
	argv[9] = r.dir;
	r.res = e2e_run(argv);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	cr_expect_not_null(strstr(r.note, "caches L1 32K:8, L2 256K:8, L3 1M:16"),
			   "note: %s", r.note);
	cr_expect_not_null(strstr(r.note, "cache geometry from the machine model: "
					  "L1 32 KiB:8 (sysfs), L2 256 KiB:8 (sysfs), "
					  "L3 1 MiB:16 (measured plateau 1 MiB, sysfs "
					  "claims 480 MiB)"),
			   "note: %s", r.note);
	/* 2 MiB arrays stream through the 1 MiB L3: 32 B/element */
	const struct sim_row *t = sim_row_get(&r, "triad", -1);
	double got = (double)sim_dram(t) / 262144;
	cr_expect(fabs(got - 32.0) <= 0.03 * 32.0, "triad: %.3f B/element", got);
	sim_run_free(&r);
	e2e_rmtree(cache);
	free(cache);
	free(m);
	free(back);
}
