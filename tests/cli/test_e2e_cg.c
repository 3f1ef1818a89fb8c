/*
 * A conjugate-gradient mini-app end to end under the simulator (issue 24:
 * "the conjugate-gradient case (serial, 2 threads, 2 ranks) counts every
 * kernel at its formula"). tests/mpi/cg_mini.c is shaped like HPCG: MPI
 * (halo exchange, MPI_Allreduce in the dot product) and OpenMP (`parallel
 * for schedule(static)` in every kernel), regions "spmv", "dot",
 * "waxpby", a recursive multigrid "mg" (each level inside the same
 * region name), all inside "cg" and some also at top level. It writes
 * the flops and calls each region should count, per rank, by its own
 * formulas (2 nnz for spmv, 2 rows + threads - 1 for dot, 2 or 3 rows
 * for waxpby...); every region of report.json must count exactly that,
 * to the flop, run serially, with 2 OpenMP threads, and as 2 ranks of
 * 2 threads each under mpirun (there also each region's MPI time:
 * inclusive, none in waxpby). Skipped when mpirun, mpicc, OpenMP or
 * Valgrind is missing.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define CG_APP RL_BUILD_DIR "/tests/mpi/cg_mini"
#define CG_N "16"   /* 16^3 rows per rank, levels of 16, 8 and 4 */
#define CG_ITERS "6"
#define CG_REGIONS 5

static const char *const cg_regions[CG_REGIONS] = {"cg", "mg", "spmv",
						   "dot", "waxpby"};

struct want {
	double flops[CG_REGIONS], calls[CG_REGIONS];
};

/* mpirun's path when ranks > 1; skips without rlprof, the simulator or
 * the program (built only with mpicc and OpenMP) */
static const char *need_cg(int ranks)
{
	const char *mpirun = NULL;

	e2e_need(E2E_RLPROF);
	if (ranks > 1)
		mpirun = e2e_need_mpirun(CG_APP);
	sim_need();
	if (access(CG_APP, X_OK) != 0)
		cr_skip_test("'%s' was not built (it needs mpicc and OpenMP "
			     "in the compiler)", CG_APP);
	return mpirun;
}

/* the program's own counts of rank q: DIR/want.Q */
static void read_want(const char *dir, int q, struct want *w)
{
	char path[600], name[32];
	unsigned long long flops, calls;
	int seen = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/want.%d", dir, q);
	f = fopen(path, "r");
	cr_assert_not_null(f, "cg_mini wrote no '%s'", path);
	while (fscanf(f, "%31s %llu %llu", name, &flops, &calls) == 3)
		for (int k = 0; k < CG_REGIONS; k++)
			if (strcmp(name, cg_regions[k]) == 0) {
				w->flops[k] = (double)flops;
				w->calls[k] = (double)calls;
				seen++;
			}
	fclose(f);
	cr_assert_eq(seen, CG_REGIONS, "'%s' has %d regions", path, seen);
}

/* every region of rows counts its formula's flops and calls, exactly */
static void check_rows(json_t *rows, long q, const struct want *w,
		       const char *mode)
{
	for (int k = 0; k < CG_REGIONS; k++) {
		json_t *e = rl_test_json_need_row(rows, cg_regions[k], q);
		cr_assert_gt(w->flops[k], 0);
		cr_expect_eq(rl_test_json_need_num(e, "flops"), w->flops[k],
			     "%s, rank %ld: '%s' counted %.0f flops, its "
			     "formula %.0f (ratio %.9f)", mode, q, cg_regions[k],
			     rl_test_json_need_num(e, "flops"), w->flops[k],
			     rl_test_json_need_num(e, "flops") / w->flops[k]);
		cr_expect_eq(rl_test_json_need_num(e, "calls"), w->calls[k],
			     "%s, rank %ld: '%s' %.0f calls, made %.0f", mode, q,
			     cg_regions[k], rl_test_json_need_num(e, "calls"), w->calls[k]);
	}
}

/* rlprof run -b sim of cg_mini with threads OpenMP threads, as ranks
 * ranks (1: no mpirun); report.json loaded, the program's counts in w[] */
static json_t *run_cg(const char *dir, int ranks, const char *threads,
		      struct want *w)
{
	const char *mpirun = need_cg(ranks);
	char out[512], want[512], nt[64];
	const char *env[] = {"OMP_WAIT_POLICY=passive", nt,
			     "RLPROF_MPI_WAIT=60", NULL};

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(want, sizeof want, "%s/want", dir);
	snprintf(nt, sizeof nt, "OMP_NUM_THREADS=%s", threads);
	const char *cmd[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			     "sim", "--sim-caches", SIM_TEST_CACHES,
			     "--sim-timing", "sim", "-o", out, CG_APP, CG_N,
			     CG_ITERS, want, NULL};
	/* ranks 1: the program alone, no mpirun */
	struct e2e_result r = e2e_run_mpi(mpirun, ranks, cmd, env);
	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out,
		     r.err);
	e2e_free(&r);
	for (int q = 0; q < ranks; q++)
		read_want(dir, q, &w[q]);
	return rl_test_json_report(out);
}

/* one process: report.json's regions; mg went 3 levels deep */
static void one_process(const char *threads)
{
	char *dir = e2e_tmpdir();
	struct want w;
	char mode[64];
	json_t *rep = run_cg(dir, 1, threads, &w), *rows;

	snprintf(mode, sizeof mode, "1 rank, %s threads", threads);
	rows = json_object_get(rep, "regions");
	check_rows(rows, -1, &w, mode);
	cr_expect_eq(rl_test_json_need_num(rl_test_json_need_row(rows, "mg", -1), "depth"), 3);
	if (strcmp(threads, "1") != 0) {
		json_t *spmv = rl_test_json_need_row(rows, "spmv", -1);
		cr_expect_str_eq(json_string_value(json_object_get(spmv,
								   "scope")),
				 "process");
		cr_expect_eq(rl_test_json_need_num(spmv, "threads_ran"), atoi(threads));
	}
	json_decref(rep);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_cg, serial_counts_every_kernel_at_its_formula, .timeout = 300)
{
	one_process("1");
}

Test(e2e_cg, two_threads_count_every_kernel_at_its_formula, .timeout = 300)
{
	one_process("2");
}

/* 2 ranks of 2 threads: each rank's row and the aggregate's sum */
Test(e2e_cg, two_ranks_count_every_kernel_at_its_formula, .timeout = 300)
{
	char *dir = e2e_tmpdir();
	struct want w[2];
	json_t *rep = run_cg(dir, 2, "2", w), *mpi;

	mpi = json_object_get(rep, "mpi");
	cr_assert(json_is_object(mpi), "report.json has no mpi object");
	cr_assert_eq(json_integer_value(json_object_get(mpi, "present")), 2);
	for (long q = 0; q < 2; q++) {
		json_t *rows = json_object_get(mpi, "per_rank");
		check_rows(rows, q, &w[q], "2 ranks, 2 threads");
		/* MPI time per region, inclusive: mg runs inside cg, waxpby
		 * makes no MPI call, dot one MPI_Allreduce a call */
		cr_expect_geq(rl_test_json_need_num(rl_test_json_need_row(rows, "cg", q), "mpi_s"),
			      rl_test_json_need_num(rl_test_json_need_row(rows, "mg", q), "mpi_s"));
		cr_expect_gt(rl_test_json_need_num(rl_test_json_need_row(rows, "dot", q), "mpi_s"), 0);
		cr_expect_eq(rl_test_json_need_num(rl_test_json_need_row(rows, "waxpby", q), "mpi_s"), 0);
	}
	for (int k = 0; k < CG_REGIONS; k++) {
		json_t *agg = rl_test_json_need_row(json_object_get(mpi, "regions"),
				  cg_regions[k], -1);
		cr_expect_eq(rl_test_json_need_num(agg, "flops_sum"),
			     w[0].flops[k] + w[1].flops[k],
			     "'%s': %.0f flops over the ranks, formula %.0f",
			     cg_regions[k], rl_test_json_need_num(agg, "flops_sum"),
			     w[0].flops[k] + w[1].flops[k]);
	}
	json_decref(rep);
	e2e_rmtree(dir);
	free(dir);
}
