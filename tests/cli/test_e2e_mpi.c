/*
 * MPI end to end with Open MPI on this machine (ranks on localhost): both
 * forms, `mpirun -np 2 rlprof run ...` and `rlprof run -- mpirun -np 2
 * ...`, with the time backend and the simulated PMU, a rank killed mid-run,
 * `rlprof report DIR` merging the rank directories again, and one machine
 * probe per node. tests/mpi/mpi_triad.c: rank r runs the triad over
 * (r + 1) * N elements, so the per-rank flops are exactly 2 (r + 1) N.
 * Skipped when mpirun or the MPI test program is missing.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define MPI_APP RL_BUILD_DIR "/tests/mpi/mpi_triad"
#define N_ELEMS 20000
#define N_STR "20000"

static const char *mpirun;

/* mpirun in $PATH, and the MPI test program, or the test is skipped */
static void need_mpi(void)
{
	mpirun = e2e_need_mpirun(MPI_APP);
}

/* Open MPI prints a lot when one rank dies; sanitized builds must not
 * report Open MPI's own leaks */
static const char *const mpi_env[] = {
	"ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0",
	"OMPI_MCA_btl_vader_single_copy_mechanism=none",
	"RLPROF_MPI_WAIT=60", NULL,
};
/* beside what e2e_run_mpi sets (tests/lib/run.h) */
static const char *const mpi_wait[] = {"RLPROF_MPI_WAIT=60", NULL};

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The checks both forms share: one table, one report with 2 ranks, an
 * aggregate per region with its load imbalance, no <program> row. */
static void check_merged(const struct e2e_result *r, const char *out,
			 bool exact_flops)
{
	json_t *rep = rl_test_json_report(out), *mpi, *agg;

	cr_assert_eq(count(r->out, "\nMPI: 2 ranks, 2 with results"), 1,
		     "one rank table expected:\n%s\n%s", r->out, r->err);
	cr_assert_eq(count(r->out, "backend: "), 1, "one table:\n%s", r->out);
	cr_assert_null(strstr(r->out, "<program>"), "%s", r->out);
	mpi = json_object_get(rep, "mpi");
	cr_assert(json_is_object(mpi), "report.json has no mpi object");
	cr_assert_eq(json_integer_value(json_object_get(mpi, "size")), 2);
	cr_assert_eq(json_integer_value(json_object_get(mpi, "present")), 2);
	cr_assert_eq(json_array_size(json_object_get(mpi, "missing")), 0);
	for (long q = 0; q < 2; q++) {
		json_t *row = rl_test_json_row(json_object_get(json_object_get(rep, "mpi"), "per_rank"), "triad", q);
		cr_assert_not_null(row, "no triad row for rank %ld", q);
		cr_assert_eq(rl_test_json_need_num(row, "calls"), 1);
		cr_assert(json_is_string(json_object_get(row, "host")));
		/* declared: 2 (r + 1) N flops */
		cr_assert_eq(rl_test_json_need_num(row, "flops_expected"), 2.0 * (q + 1) * N_ELEMS);
		if (exact_flops)
			cr_assert_eq(rl_test_json_need_num(row, "flops"), 2.0 * (q + 1) * N_ELEMS,
				     "rank %ld counted %.17g flops", q,
				     rl_test_json_need_num(row, "flops"));
	}
	agg = rl_test_json_mpi_region(rep, "triad");
	cr_assert_not_null(agg);
	cr_assert_eq(rl_test_json_need_num(agg, "ranks"), 2);
	if (exact_flops)
		cr_assert_eq(rl_test_json_need_num(agg, "flops_sum"), 6.0 * N_ELEMS);
	cr_assert_geq(rl_test_json_need_num(agg, "load_imbalance"), 1.0);
	cr_assert_geq(rl_test_json_need_num(agg, "time_max_s"), rl_test_json_need_num(agg, "time_mean_s"));
	cr_assert_not_null(rl_test_json_mpi_region(rep, "exchange"));
	json_decref(rep);
}

/* --sim-caches: the tests run with --no-probe, maybe without a machine
 * model, which -b sim then requires (ignored by the other backends) */
static struct e2e_result rank_form(const char *out, const char *backend)
{
	const char *cmd[] = {E2E_RLPROF, "run", "--no-probe", "-b", backend,
			     "--sim-caches", SIM_TEST_CACHES, "-o", out,
			     MPI_APP, N_STR, NULL};
	return e2e_run_mpi(mpirun, 2, cmd, mpi_wait);
}

static struct e2e_result launcher_form(const char *out, const char *backend)
{
	const char *rlprof[] = {E2E_RLPROF, "run", "--no-probe", "-b",
				backend, "--sim-caches", SIM_TEST_CACHES,
				"-o", out, NULL};
	const char *app[] = {MPI_APP, N_STR, NULL};
	return e2e_run_mpi_launcher(rlprof, mpirun, 2, app, mpi_wait);
}

Test(e2e_mpi, rlprof_under_each_rank_time)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = rank_form(out, "time");

	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out, r.err);
	check_merged(&r, out, false);
	/* each rank its own directory, nothing shared overwritten */
	for (int q = 0; q < 2; q++) {
		char path[600];
		snprintf(path, sizeof path, "%s/rank-%d/run.json", out, q);
		cr_assert_eq(access(path, F_OK), 0, "'%s' missing", path);
	}
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_mpi, launcher_form_time)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = launcher_form(out, "time");
	json_t *rep;

	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out, r.err);
	check_merged(&r, out, false);
	rep = rl_test_json_report(out);
	cr_assert(strstr(json_string_value(json_object_get(rep, "command")),
			 "mpirun -np 2"),
		  "the command is the launcher's");
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_mpi, rlprof_under_each_rank_sim_counts_exactly, .timeout = 300)
{
	need_mpi();
	sim_need();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = rank_form(out, "sim");

	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out, r.err);
	check_merged(&r, out, true);
	/* one job: the program starts once per rank (MPI_Init once) */
	cr_assert(strstr(r.err, "each rank runs once, under the simulator"),
		  "%s", r.err);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_mpi, launcher_form_sim_two_jobs, .timeout = 300)
{
	need_mpi();
	sim_need();
	char *dir = e2e_tmpdir(), out[512], path[600];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = launcher_form(out, "sim");
	json_t *rep, *regs, *e;
	size_t i;

	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out, r.err);
	check_merged(&r, out, true);
	/* the native job's results, and times taken from them */
	snprintf(path, sizeof path, "%s/native/rank-1/run.json", out);
	cr_assert_eq(access(path, F_OK), 0, "no native timing job");
	rep = rl_test_json_report(out);
	regs = json_object_get(rep, "regions");
	json_array_foreach (regs, i, e)
		if (strcmp(json_string_value(json_object_get(e, "region")),
			   "triad") == 0)
			cr_assert(json_is_true(json_object_get(e, "time_native")),
				  "triad's time is not the native job's");
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* Rank 1 was killed by SIGKILL after its triad: its completed triad is
 * recovered from its live file (issue 14), so no rank is missing, and a
 * warning says how rank 1 ended. */
static void check_rank1_recovered(const char *out)
{
	json_t *rep = rl_test_json_report(out), *mpi = json_object_get(rep, "mpi");
	json_t *warn, *e, *row;
	size_t i;
	bool said = false;

	cr_assert_eq(json_array_size(json_object_get(mpi, "missing")), 0);
	cr_assert_eq(json_integer_value(json_object_get(mpi, "present")), 2);
	cr_assert_not_null(rl_test_json_row(json_object_get(json_object_get(rep, "mpi"), "per_rank"), "triad", 0), "rank 0's results lost");
	row = rl_test_json_row(json_object_get(json_object_get(rep, "mpi"), "per_rank"), "triad", 1);
	cr_assert_not_null(row, "rank 1's completed triad lost");
	cr_assert_eq(json_integer_value(json_object_get(row, "calls")), 1);
	warn = json_object_get(rep, "warnings");
	json_array_foreach (warn, i, e)
		said |= strstr(json_string_value(json_object_get(e, "message")),
			       "killed by signal 9") &&
			strstr(json_string_value(json_object_get(e, "message")),
			       "recovered from its live file") != NULL;
	cr_assert(said, "no warning says a process was killed by signal 9 "
			"and recovered");
	json_decref(rep);
}

Test(e2e_mpi, launcher_form_rank_killed)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	const char *rlprof[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
				"-o", out, NULL};
	const char *app[] = {MPI_APP, N_STR, "--die", "1", NULL};
	struct e2e_result r = e2e_run_mpi_launcher(rlprof, mpirun, 2, app,
						   mpi_wait);

	cr_assert_eq(r.status, 128 + 9, "mpirun's status (rank 1's 137) "
		     "expected, got %d\n%s", r.status, r.err);
	cr_assert_null(strstr(r.out, "missing: rank"), "%s", r.out);
	check_rank1_recovered(out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* Under each rank: rank 0's rlprof may itself be stopped by mpirun; the
 * rank directories stay, and `rlprof report DIR` merges them. */
Test(e2e_mpi, rank_killed_then_report_merges)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[512];
	snprintf(out, sizeof out, "%s/out", dir);
	const char *cmd[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
			     "-o", out, MPI_APP, N_STR, "--die", "1", NULL};
	struct e2e_result r = e2e_run_mpi(mpirun, 2, cmd, mpi_wait);
	cr_assert_neq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	const char *rep[] = {E2E_RLPROF, "report", out, NULL};
	r = e2e_run(rep);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.out, "missing: rank"), "%s", r.out);
	check_rank1_recovered(out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* A fresh cache: under mpirun (which binds each of 2 ranks to one core)
 * the node is probed once, by rank 0, and the model cached is the node's,
 * not a 1-CPU one. */
Test(e2e_mpi, one_probe_per_node, .timeout = 300)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[512], cache[512], env_cache[600];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(cache, sizeof cache, "%s/cache", dir);
	snprintf(env_cache, sizeof env_cache, "XDG_CACHE_HOME=%s", cache);
	const char *env[] = {mpi_env[0], mpi_env[1], mpi_env[2], env_cache,
			     NULL};
	const char *argv[] = {mpirun, "-np", "2", "--oversubscribe",
			      "--allow-run-as-root", "--bind-to", "core",
			      E2E_RLPROF, "run", "-b", "time", "-o", out,
			      MPI_APP, N_STR, NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	char models[600], want[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_leq(count(r.err, "probing this machine"), 1, "%s", r.err);
	if (strstr(r.err, "cannot measure this machine"))
		e2e_skip_if_too_busy(r.err); /* one probe ran, no model */
	snprintf(models, sizeof models, "%s/rlprof", cache);
	snprintf(want, sizeof want, "-%ldcpu-", ncpu);
	d = opendir(models);
	cr_assert_not_null(d, "no model cached in %s:\n%s", models, r.err);
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "machine-", 8) == 0) {
			n++;
			cr_assert(strstr(de->d_name, want),
				  "'%s' is not the node's %ld-CPU model",
				  de->d_name, ncpu);
		}
	closedir(d);
	cr_assert_eq(n, 1, "%d models cached", n);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* A plain run into a directory an MPI run used: no stale rank is merged. */
Test(e2e_mpi, plain_run_removes_old_ranks)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[512], path[600];
	snprintf(out, sizeof out, "%s/out", dir);
	struct e2e_result r = launcher_form(out, "time");
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, E2E_PROG("e2e_regions"), NULL};
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_null(strstr(r.out, "MPI:"), "%s", r.out);
	snprintf(path, sizeof path, "%s/rank-0", out);
	cr_assert_neq(access(path, F_OK), 0, "'%s' left", path);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* No shared directory, on one machine: an MPMD command line gives rank 0
 * output directory A and rank 1 directory B (as two nodes would have
 * their own /tmp/out). librlprof-mpi, preloaded by rlprof into the
 * program (it imports MPI_Finalize), sends rank 1's results to rank 0 at
 * MPI_Finalize: A has both ranks, exact counts under -b sim. With
 * --compat none (no shim), rank 1 stays missing from A's report. */
static struct e2e_result split_dirs(const char *a, const char *b,
				    const char *compat)
{
	const char *argv[] = {mpirun, "--oversubscribe", "--allow-run-as-root",
			      "-np", "1", E2E_RLPROF, "run", "--no-probe",
			      "-b", "sim", "--sim-caches", SIM_TEST_CACHES,
			      "--compat", compat, "-o", a, MPI_APP, N_STR, ":",
			      "-np", "1", E2E_RLPROF, "run", "--no-probe",
			      "-b", "sim", "--sim-caches", SIM_TEST_CACHES,
			      "--compat", compat, "-o", b, MPI_APP, N_STR, NULL};
	const char *env[] = {
		"ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0",
		"OMPI_MCA_btl_vader_single_copy_mechanism=none",
		"RLPROF_MPI_WAIT=3", NULL,
	};
	return e2e_run_in(NULL, argv, env);
}

Test(e2e_mpi, no_shared_directory_results_sent_at_finalize, .timeout = 300)
{
	need_mpi();
	sim_need();
	char shim[600];
	snprintf(shim, sizeof shim, "%s/lib/librlprof-mpi.so", RL_BUILD_DIR);
	if (access(shim, R_OK) != 0)
		cr_skip_test("'%s' was not built (no mpicc)", shim);
	char *dir = e2e_tmpdir(), a[512], b[512], path[700];
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	struct e2e_result r = split_dirs(a, b, "auto");

	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out, r.err);
	check_merged(&r, a, true);
	snprintf(path, sizeof path, "%s/rank-1/sent.json", a);
	cr_assert_eq(access(path, F_OK), 0, "'%s' missing", path);
	/* rank 1's own directory keeps its copy */
	snprintf(path, sizeof path, "%s/rank-1/run.json", b);
	cr_assert_eq(access(path, F_OK), 0, "'%s' missing", path);
	e2e_free(&r);

	/* without the shim, rank 1 is missing from A */
	e2e_rmtree(a);
	e2e_rmtree(b);
	r = split_dirs(a, b, "none");
	json_t *rep = rl_test_json_report(a);
	cr_assert_eq(json_integer_value(json_object_get(
			     json_object_get(rep, "mpi"), "present")),
		     1, "%s\n%s", r.out, r.err);
	cr_assert(strstr(r.err, "rank 1 of 2"), "%s", r.err);
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}
