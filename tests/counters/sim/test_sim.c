/* SPDX-License-Identifier: MIT */
/*
 * The sim backend end to end: the real `rlprof run -b sim` on small
 * programs, counters read back from the raw results (exact integers).
 * Skipped when valgrind or the tool is missing. Small sizes and a small
 * cache geometry keep each test to a few seconds.
 */
#include <math.h>

#include "tests/lib/sim.h"

/* A geometry small enough that 2 MiB arrays stream from DRAM. */
static const char *const small_caches[] = {"--sim-caches",
					   "16K:4,64K:8,256K:8", NULL};

static const enum rl_counter flop_counters[] = {
	RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F64_128, RL_C_FLOPS_F64_256,
	RL_C_FLOPS_F32_SCALAR, RL_C_FLOPS_F32_128, RL_C_FLOPS_F32_256};

static uint64_t flops_all(const struct sim_row *w)
{
	uint64_t s = 0;
	for (size_t k = 0; k < 6; k++)
		s += w->c[flop_counters[k]];
	return s;
}

Test(sim, flops_exact_by_precision_and_width, .timeout = 60)
{
	struct sim_run r;
	const char *prog[] = {E2E_PROG("sim_flops"), "1024", NULL};
	sim_need();
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	int checked = 0;
	for (int i = 0; i < r.n; i++) {
		const struct sim_row *w = &r.row[i];
		char counter[64];
		if (w->tid != -1)
			continue;
		sscanf(w->name, "%63s", counter);
		int c = rl_counter_from_name(counter);
		uint64_t want = (uint64_t)w->expected_flops;
		cr_assert_eq(w->calls, 1, "%s: calls", w->name);
		if (c >= 0) {
			cr_assert(w->provided & (1ull << c), "%s: not provided",
				  w->name);
			cr_expect_eq(w->c[c], want, "%s: %s = %llu, declared %llu",
				     w->name, counter,
				     (unsigned long long)w->c[c],
				     (unsigned long long)want);
		}
		cr_expect_eq(flops_all(w), want, "%s: all flops %llu, declared %llu",
			     w->name, (unsigned long long)flops_all(w),
			     (unsigned long long)want);
		checked++;
	}
	cr_assert_eq(checked, 14, "regions checked: %d", checked);
	sim_run_free(&r);
}

Test(sim, threads_have_their_own_counts, .timeout = 60)
{
	struct sim_run r;
	const char *prog[] = {E2E_PROG("sim_threads"), "4096", NULL};
	sim_need();
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	int seen = 0;
	for (int i = 0; i < r.n; i++) {
		const struct sim_row *w = &r.row[i];
		if (w->tid == -1)
			continue;
		uint64_t want = strcmp(w->name, "t0") == 0 ? 8192 : 16384;
		cr_expect_eq(w->c[RL_C_FLOPS_F64_256], want, "%s (thread %lld): %llu",
			     w->name, w->tid,
			     (unsigned long long)w->c[RL_C_FLOPS_F64_256]);
		cr_expect_eq(flops_all(w), want);
		seen++;
	}
	cr_assert_eq(seen, 2, "per-thread rows: %d", seen);
	sim_run_free(&r);
}

/* rlprof-kernels-sim: flops equal the declared model where it is exact,
 * DRAM bytes of the streaming kernels within 2% of the write-allocate
 * model. The kernel table comes from `rlprof-kernels-sim --list`. */
struct kern {
	char name[32];
	double bytes_wa;
	int exact;
};

static int kernel_table(struct kern *k, int max)
{
	const char *argv[] = {RL_BUILD_DIR "/bin/rlprof-kernels-sim", "--list", NULL};
	struct e2e_result res = e2e_run(argv);
	int n = 0;
	cr_assert_eq(res.status, 0, "--list: %s", res.err);
	for (char *line = strchr(res.out, '\n'); line && n < max;
	     line = strchr(line + 1, '\n')) {
		char name[32], prec[8];
		double f, b, bwa;
		int exact;
		if (sscanf(line + 1, "%31[^,],%7[^,],%lf,%lf,%lf,%d", name, prec,
			   &f, &b, &bwa, &exact) == 6) {
			snprintf(k[n].name, sizeof k[n].name, "%s", name);
			k[n].bytes_wa = bwa;
			k[n].exact = exact;
			n++;
		}
	}
	e2e_free(&res);
	return n;
}

Test(sim, kernels_flops_exact, .timeout = 120)
{
	struct sim_run r;
	struct kern k[64];
	const char *prog[] = {RL_BUILD_DIR "/bin/rlprof-kernels-sim", "--size",
			      "8K", "--repeat", "1", "--matmul-n", "32",
			      "--threads", "2", NULL};
	sim_need();
	e2e_need(prog[0]);
	int nk = kernel_table(k, 64);
	cr_assert_gt(nk, 10, "kernel table: %d rows", nk);
	sim_run(&r, small_caches, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	int checked = 0;
	for (int i = 0; i < nk; i++) {
		if (!k[i].exact)
			continue;
		const struct sim_row *w = NULL;
		for (int j = 0; j < r.n; j++)
			if (r.row[j].tid == -1 && strcmp(r.row[j].name, k[i].name) == 0)
				w = &r.row[j];
		cr_assert_not_null(w, "kernel '%s' has no region", k[i].name);
		cr_expect_eq(flops_all(w), (uint64_t)w->expected_flops,
			     "%s: counted %llu flops, declared %.0f", k[i].name,
			     (unsigned long long)flops_all(w), w->expected_flops);
		checked++;
	}
	cr_assert_gt(checked, 10);
	sim_run_free(&r);
}

Test(sim, streaming_dram_bytes_match_write_allocate, .timeout = 120)
{
	struct sim_run r;
	struct kern k[64];
	const double n = 262144; /* 2 MiB per array, 8x the simulated L3 */
	const char *prog[] = {RL_BUILD_DIR "/bin/rlprof-kernels-sim", "--size",
			      "256K", "--repeat", "2", "--kernels", "stream", NULL};
	static const char *const stream[] = {"copy", "scale", "add", "triad",
					     "daxpy", "dot", "sum", "fill"};
	sim_need();
	e2e_need(prog[0]);
	int nk = kernel_table(k, 64);
	sim_run(&r, small_caches, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	for (size_t s = 0; s < sizeof stream / sizeof *stream; s++) {
		const struct kern *kk = NULL;
		const struct sim_row *w = NULL;
		for (int i = 0; i < nk; i++)
			if (strcmp(k[i].name, stream[s]) == 0)
				kk = &k[i];
		for (int j = 0; j < r.n; j++)
			if (r.row[j].tid == -1 && strcmp(r.row[j].name, stream[s]) == 0)
				w = &r.row[j];
		cr_assert_not_null(kk, "'%s' not in the kernel table", stream[s]);
		cr_assert_not_null(w, "'%s' has no region", stream[s]);
		double want = kk->bytes_wa * n * (double)w->calls;
		double got = (double)sim_dram(w);
		cr_expect(fabs(got - want) <= 0.02 * want,
			  "%s: %.0f DRAM bytes, write-allocate model %.0f (%.2f%%)",
			  stream[s], got, want, 100.0 * (got - want) / want);
		if (strcmp(stream[s], "sum") == 0 || strcmp(stream[s], "dot") == 0)
			cr_expect_lt(w->c[RL_C_DRAM_WRITE_BYTES], 0.005 * want,
				     "%s (read-only) wrote %llu B", stream[s],
				     (unsigned long long)w->c[RL_C_DRAM_WRITE_BYTES]);
	}
	sim_run_free(&r);
}

Test(sim, non_temporal_triad_cache_reuse_and_masked_gathers, .timeout = 60)
{
	struct sim_run r;
	const char *prog[] = {E2E_PROG("sim_nt"), "262144", "200", NULL};
	sim_need();
	sim_run(&r, small_caches, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	const struct sim_row *nt = sim_row_get(&r, "nt_triad", -1);
	const struct sim_row *res = sim_row_get(&r, "resident", -1);
	double want = 24.0 * 262144, got = (double)sim_dram(nt);
	cr_expect(fabs(got - want) <= 0.02 * want,
		  "nt_triad: %.0f DRAM bytes, want 24 B/elem = %.0f", got, want);
	cr_expect_lt(nt->c[RL_C_DRAM_READ_BYTES], 17 * 262144,
		     "nt_triad read %llu: no write-allocate read expected",
		     (unsigned long long)nt->c[RL_C_DRAM_READ_BYTES]);
	/* 200 passes over 4 KiB: 800 KiB read at L1, the array once at most
	 * from below */
	cr_expect_geq(res->c[RL_C_L1_READ_BYTES], 200u * 4096u);
	cr_expect_lt(res->c[RL_C_L2_READ_BYTES], 16384u,
		     "resident: L2 read %llu",
		     (unsigned long long)res->c[RL_C_L2_READ_BYTES]);
	cr_expect_gt(res->c[RL_C_L1_READ_BYTES], 50 * (sim_dram(res) + 1));
	/* 1000 gathers of 4 doubles, 2 lanes masked off in gather_half */
	const struct sim_row *gh = sim_row_get(&r, "gather_half", -1);
	const struct sim_row *gf = sim_row_get(&r, "gather_full", -1);
	long long diff = (long long)gf->c[RL_C_L1_READ_BYTES] -
			 (long long)gh->c[RL_C_L1_READ_BYTES];
	cr_expect(diff >= 16000 - 256 && diff <= 16000 + 256,
		  "gather L1 reads: full %llu, half %llu (want 16000 apart)",
		  (unsigned long long)gf->c[RL_C_L1_READ_BYTES],
		  (unsigned long long)gh->c[RL_C_L1_READ_BYTES]);
	cr_expect_geq(gh->c[RL_C_L1_READ_BYTES], 16000);
	sim_run_free(&r);
}

Test(sim, avx512_is_explained_and_earlier_regions_kept, .timeout = 60)
{
	struct sim_run r;
	const char *prog[] = {E2E_PROG("sim_avx512"), NULL};
	/* counted anyway: rlprof otherwise stops before running it */
	const char *opts[] = {"--sim-avx512", "run", NULL};
	sim_need();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 132, "exit %d: %s", r.res.status, r.res.err);
	cr_assert_not_null(strstr(r.res.err, "the program uses AVX-512 "
				  "instructions, which the simulator (Valgrind"),
			   "stderr: %s", r.res.err);
	cr_assert_not_null(strstr(r.res.err, "-march=x86-64-v3"));
	char *csv = e2e_file(r.dir, "report.csv");
	const char *row = e2e_csv_row(csv, "before");
	cr_assert_not_null(row, "report.csv: %s", csv);
	cr_assert_eq(strncmp(row, "before,,1,", 10), 0, "row: %.80s", row);
	free(csv);
	sim_load(&r);
	cr_expect_eq(flops_all(sim_row_get(&r, "before", -1)), 16);
	sim_run_free(&r);
}

Test(sim, crash_in_a_region_keeps_completed_regions, .timeout = 60)
{
	struct sim_run r;
	const char *prog[] = {E2E_PROG("sim_crash"), NULL};
	sim_need();
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 139, "exit %d: %s", r.res.status, r.res.err);
	cr_assert_null(strstr(r.res.err, "AVX-512"), "stderr: %s", r.res.err);
	sim_load(&r);
	const struct sim_row *w = sim_row_get(&r, "done", -1);
	cr_expect_eq(w->calls, 1);
	cr_expect_eq(flops_all(w), 128, "done: %llu flops",
		     (unsigned long long)flops_all(w));
	sim_run_free(&r);
}

/* raw bounds: a read-only kernel (sum) pays for the write-backs of lines
 * dirtied before it; with cause bounds (the default, the streaming test
 * above) it does not */
Test(sim, raw_bounds_and_geometry_are_recorded, .timeout = 60)
{
	struct sim_run r;
	const char *opts[] = {"--sim-caches", "L1=16K:4,L2=64K:8,L3=256K:8",
			      "--sim-bounds", "raw", NULL};
	const char *prog[] = {RL_BUILD_DIR "/bin/rlprof-kernels-sim", "--size",
			      "64K", "--repeat", "1", "--kernels", "stream", NULL};
	sim_need();
	e2e_need(prog[0]);
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	cr_assert_not_null(strstr(r.note, "L1 16K:4, L2 64K:8, L3 256K:8"),
			   "note: %s", r.note);
	cr_assert_not_null(strstr(r.note, "bounds raw"), "note: %s", r.note);
	cr_assert_not_null(strstr(r.note, "from --sim-caches"), "note: %s", r.note);
	const struct sim_row *sum = sim_row_get(&r, "sum", -1);
	cr_expect_gt(sum->c[RL_C_DRAM_WRITE_BYTES], 4096,
		     "sum with raw bounds wrote %llu B to DRAM",
		     (unsigned long long)sum->c[RL_C_DRAM_WRITE_BYTES]);
	sim_run_free(&r);
}

Test(sim, bad_geometry_is_refused_before_running, .timeout = 30)
{
	struct sim_run r;
	const char *opts[] = {"--sim-caches", "48K:12,1M", NULL};
	const char *prog[] = {E2E_PROG("sim_crash"), NULL};
	sim_need();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 1, "exit %d", r.res.status);
	cr_assert_not_null(strstr(r.res.err, "sim-caches '48K:12,1M'"),
			   "stderr: %s", r.res.err);
	sim_run_free(&r);
}

/* The tool run by hand (valgrind --tool=rlprofsim) with a missing or bad
 * --sim-caches, or a --sim-loops file it cannot read: its message and
 * exit status 1 (after the options are parsed Valgrind's bad-option
 * message only prints: the tool went on and crashed, SIGSEGV or SIGFPE). */
Test(sim, bad_geometry_or_loops_file_exits_with_its_message, .timeout = 60)
{
	static const struct {
		const char *opt, *extra, *says;
	} cases[] = {
		{"--sim-census=no", NULL, "the cache geometry is required"},
		{"--sim-caches=bogus", NULL, "'bogus': level 1: expected SIZE:WAYS"},
		{"--sim-caches=48K:12", "--sim-loops=/nonexistent/loops.txt",
		 "cannot open '/nonexistent/loops.txt'"},
	};
	char lib[PATH_MAX];
	sim_need();
	snprintf(lib, sizeof lib, "VALGRIND_LIB=%s/libexec/rlprof", RL_BUILD_DIR);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *argv[] = {"/usr/bin/env", lib, "valgrind", "-q",
				      "--tool=rlprofsim", cases[i].opt,
				      cases[i].extra ? cases[i].extra : "/bin/true",
				      cases[i].extra ? "/bin/true" : NULL, NULL};
		struct e2e_result r = e2e_run(argv);
		cr_expect_eq(r.status, 1, "%s: exit %d: %s", cases[i].opt,
			     r.status, r.err);
		cr_expect(strstr(r.err, cases[i].says) != NULL,
			  "%s: no '%s' in: %s", cases[i].opt, cases[i].says,
			  r.err);
		e2e_free(&r);
	}
}
