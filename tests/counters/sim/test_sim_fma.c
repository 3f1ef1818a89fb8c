/* SPDX-License-Identifier: MIT */
/*
 * FMA under the simulated PMU: results bit-identical to native (the tool
 * computes FMA lanes on the host's FMA unit, rs_fma.c) and the flops_fma
 * counter exact. tests/programs/sim_fma prints the bits of FMA results
 * (all six kinds, scalar/128/256, f64/f32) on operands where fused and
 * unfused rounding differ, signed zeros and NaNs, and hashes of random
 * cases; its regions hold a known number of FMA lanes.
 */
#include "tests/lib/sim.h"

/* one run, under the simulator (no native timing run printing too) */
static const char *const sim_only[] = {"--sim-timing", "sim", NULL};

static int count_lines(const char *text, const char *needle)
{
	int n = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n')) {
		if (*l == '\n')
			l++;
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		const char *hit = strstr(l, needle);
		if (hit && hit < l + len)
			n++;
		if (!end)
			break;
	}
	return n;
}

/* the first line where a and b differ, into buf */
static void first_diff(const char *a, const char *b, char *buf, size_t len)
{
	while (*a && *b) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		if (la != lb || memcmp(a, b, la) != 0) {
			snprintf(buf, len, "native '%.*s', simulated '%.*s'",
				 (int)la, a, (int)lb, b);
			return;
		}
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	snprintf(buf, len, "the same lines, then %s", *a ? "more natively"
			: *b ? "more under the simulator" : "nothing");
}

static void need_fma(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("fma") || !__builtin_cpu_supports("avx2"))
		cr_skip_test("this CPU has no FMA/AVX2: sim_fma cannot run "
			     "natively");
}

Test(sim_fma, results_bit_identical_to_native, .timeout = 60)
{
	const char *native[] = {E2E_PROG("sim_fma"), "10", NULL};
	const char *prog[] = {E2E_PROG("sim_fma"), "10", NULL};
	struct sim_run r;
	char diff[600];
	sim_need();
	need_fma();
	struct e2e_result nat = e2e_run(native);
	cr_assert_eq(nat.status, 0, "sim_fma natively: %s", nat.err);
	/* the cases tell fused from unfused natively: 2 precisions x 3
	 * widths, several cases each */
	int fused = count_lines(nat.out, "fused!=unfused");
	cr_assert_geq(fused, 24, "cases where fused != unfused: %d", fused);
	cr_assert_eq(count_lines(nat.out, "random "), 18);
	sim_run(&r, sim_only, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	/* the program's output, then rlprof's report */
	size_t n = strlen(nat.out);
	first_diff(nat.out, r.res.out, diff, sizeof diff);
	cr_expect(strncmp(r.res.out, nat.out, n) == 0 &&
			  strncmp(r.res.out + n, "backend:", 8) == 0,
		  "FMA results differ: %s", diff);
	e2e_free(&nat);
	sim_run_free(&r);
}

Test(sim_fma, fma_flops_counted_exactly, .timeout = 60)
{
	static const enum rl_counter flops[] = {
		RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F64_128, RL_C_FLOPS_F64_256,
		RL_C_FLOPS_F32_SCALAR, RL_C_FLOPS_F32_128, RL_C_FLOPS_F32_256};
	const char *prog[] = {E2E_PROG("sim_fma"), "1000", NULL};
	struct sim_run r;
	sim_need();
	need_fma();
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	int checked = 0;
	for (int i = 0; i < r.n; i++) {
		const struct sim_row *w = &r.row[i];
		uint64_t all = 0;
		if (w->tid != -1)
			continue;
		for (size_t k = 0; k < 6; k++)
			all += w->c[flops[k]];
		cr_assert(w->provided & (1ull << RL_C_FLOPS_FMA),
			  "%s: flops_fma not in the results", w->name);
		cr_expect_eq(all, (uint64_t)w->expected_flops,
			     "%s: flops %llu, declared %.0f", w->name,
			     (unsigned long long)all, w->expected_flops);
		uint64_t want = strncmp(w->name, "fma_", 4) == 0
					? (uint64_t)w->expected_flops : 0;
		cr_expect_eq(w->c[RL_C_FLOPS_FMA], want,
			     "%s: flops_fma %llu, want %llu", w->name,
			     (unsigned long long)w->c[RL_C_FLOPS_FMA],
			     (unsigned long long)want);
		checked++;
	}
	cr_assert_eq(checked, 7, "regions checked: %d", checked);
	sim_run_free(&r);
}

/* The scalar-FMA kernel: Horner's rule with fma(), fmaf() and a
 * contracted a*b+c, built -O3 -march=x86-64-v3, every step one scalar
 * vfmadd (one lane: the tool's call for a lone lane, rs_fmair.c): the
 * results bit-identical to a native run, each region's flops exactly 2 D
 * per element, all FMA, all scalar of its precision. */
Test(sim_fma, scalar_fma_horner_counts_exactly, .timeout = 60)
{
	const char *prog[] = {E2E_PROG("sim_horner-v3"), "1000", NULL};
	struct sim_run r;
	char diff[600];
	sim_need();
	need_fma();
	struct e2e_result nat = e2e_run(prog);
	cr_assert_eq(nat.status, 0, "sim_horner-v3 natively: %s", nat.err);
	sim_run(&r, sim_only, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	size_t n = strlen(nat.out);
	first_diff(nat.out, r.res.out, diff, sizeof diff);
	cr_expect(strncmp(r.res.out, nat.out, n) == 0,
		  "Horner results differ: %s", diff);
	sim_load(&r);
	int checked = 0;
	for (int i = 0; i < r.n; i++) {
		const struct sim_row *w = &r.row[i];
		if (w->tid != -1 || strncmp(w->name, "horner_", 7) != 0)
			continue;
		enum rl_counter scalar = strcmp(w->name, "horner_f32") == 0
						 ? RL_C_FLOPS_F32_SCALAR
						 : RL_C_FLOPS_F64_SCALAR;
		uint64_t want = (uint64_t)w->expected_flops;
		cr_expect_eq(want, 2 * 16 * 1000, "%s: declared %.0f", w->name,
			     w->expected_flops);
		cr_expect_eq(w->c[scalar], want, "%s: scalar flops %llu, want %llu",
			     w->name, (unsigned long long)w->c[scalar],
			     (unsigned long long)want);
		cr_expect_eq(w->c[RL_C_FLOPS_FMA], want,
			     "%s: flops_fma %llu, want %llu", w->name,
			     (unsigned long long)w->c[RL_C_FLOPS_FMA],
			     (unsigned long long)want);
		static const enum rl_counter flops[] = {
			RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F64_128,
			RL_C_FLOPS_F64_256, RL_C_FLOPS_F32_SCALAR,
			RL_C_FLOPS_F32_128, RL_C_FLOPS_F32_256};
		uint64_t all = 0;
		for (size_t k = 0; k < 6; k++)
			all += w->c[flops[k]];
		cr_expect_eq(all, want, "%s: flops %llu in all, want %llu",
			     w->name, (unsigned long long)all,
			     (unsigned long long)want);
		checked++;
	}
	cr_assert_eq(checked, 3, "regions checked: %d", checked);
	e2e_free(&nat);
	sim_run_free(&r);
}
