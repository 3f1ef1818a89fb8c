/*
 * MPI time per region (issue 24 §3): librlprof-mpi's PMPI wrappers time
 * each region's MPI calls ("mpi_s"), keep their work out of the counts
 * under every backend (the simulator pauses, perf's counts read at the
 * call's entry and exit are subtracted), and a region whose work is all
 * MPI gets no roofline advice but its MPI time and the ranks' imbalance.
 *
 * tests/mpi/mpi_wait.c, 2 ranks: "work" (rank 0 does 8 times the adds of
 * rank 1, no MPI), "sync" (one MPI_Allreduce: rank 1 waits in it for rank
 * 0), "dot" (2 N flops of its own and one MPI_Allreduce). Rank 0's extra
 * work is 7 N dependent multiply-adds (tens of ms with N = 2000000), so
 * rank 1 waits longest in "sync" and rank 0 arrives last.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define MPI_APP RL_BUILD_DIR "/tests/mpi/mpi_wait"

static const char *const env[] = {
	"ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0",
	"OMPI_MCA_btl_vader_single_copy_mechanism=none",
	"RLPROF_MPI_WAIT=60", NULL,
};

static const char *mpirun;

static void need(void)
{
	mpirun = e2e_need_mpirun(MPI_APP);
	if (access(RL_BUILD_DIR "/lib/librlprof-mpi.so", R_OK) != 0)
		cr_skip_test("librlprof-mpi.so was not built (no mpicc)");
}

/* rlprof run -b backend [--mpi-calls mode] -o out -- mpirun -np 2 app n;
 * 0, or 1 when the backend does not work here (r->err says why) */
static int run(const char *out, const char *backend, const char *mode,
	       const char *n, struct e2e_result *r)
{
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      backend, "--mpi-calls", mode, "-o", out,
			      "--sim-caches", SIM_TEST_CACHES, "--",
			      mpirun, "-np", "2", "--oversubscribe",
			      "--allow-run-as-root", MPI_APP, n, NULL};

	if (strcmp(backend, "sim") != 0) { /* no --sim-caches */
		argv[10] = "--";
		for (int i = 11; argv[i + 2]; i++)
			argv[i] = argv[i + 2];
		argv[sizeof argv / sizeof *argv - 3] = NULL;
	}

	*r = e2e_run_in(NULL, argv, env);
	if (r->status != 0 && strstr(r->err, "backend"))
		return 1;
	cr_assert_eq(r->status, 0, "status %d\n%s\n%s", r->status, r->out,
		     r->err);
	return 0;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* region `name` of rank `rank`'s results file: its "mpi_ns" and the
 * value of counter `counter` (-1 when absent); the file's "mpi_calls" */
static void raw_region(const char *out, int rank, const char *name,
		       const char *counter, double *mpi_ns, double *value,
		       char *mode, size_t mode_len)
{
	char pat[600];
	glob_t g;
	json_error_t je;
	json_t *j, *t, *r;
	size_t i, k;

	*mpi_ns = *value = -1;
	snprintf(pat, sizeof pat, "%s/rank-%d/raw/rlprof-*.json", out, rank);
	cr_assert_eq(glob(pat, 0, NULL, &g), 0, "no results file %s", pat);
	j = json_load_file(g.gl_pathv[0], 0, &je);
	cr_assert_not_null(j, "%s: %s", g.gl_pathv[0], je.text);
	snprintf(mode, mode_len, "%s", str(j, "mpi_calls"));
	json_array_foreach (json_object_get(j, "threads"), i, t)
		json_array_foreach (json_object_get(t, "regions"), k, r) {
			json_t *c;
			if (strcmp(str(r, "name"), name) != 0)
				continue;
			*mpi_ns = rl_test_json_num(r, "mpi_ns");
			c = json_object_get(json_object_get(r, "counters"),
					    counter);
			if (c)
				*value = rl_test_json_num(c, "value");
		}
	json_decref(j);
	globfree(&g);
}

Test(e2e_mpi_time, region_mpi_time_and_the_rank_that_waited, .timeout = 300)
{
	char *dir, out[512], *csv, mode[16];
	struct e2e_result r;
	json_t *j, *sync, *work, *dot, *agg;
	double mpi_ns, v;

	need();
	dir = e2e_tmpdir();
	snprintf(out, sizeof out, "%s/out", dir);
	run(out, "time", "out", "2000000", &r);
	j = rl_test_json_report(out);
	sync = rl_test_json_need_row(json_object_get(j, "regions"), "sync", -1);
	work = rl_test_json_need_row(json_object_get(j, "regions"), "work", -1);
	dot = rl_test_json_need_row(json_object_get(j, "regions"), "dot", -1);
	/* measured, by the wrappers: "work" makes no MPI call */
	cr_expect_eq(rl_test_json_num(work, "mpi_s"), 0);
	cr_expect_gt(rl_test_json_num(sync, "mpi_s"), 0);
	cr_expect_leq(rl_test_json_num(sync, "mpi_s"), rl_test_json_num(sync, "time_s"));
	cr_expect_gt(rl_test_json_num(dot, "mpi_s"), 0);
	cr_expect_not_null(strstr(str(sync, "method"),
				  "MPI calls: their time shown as mpi_s"),
			   "%s", str(sync, "method"));
	/* all MPI: no roofline advice, its MPI time, and who waited */
	cr_expect_null(json_object_get(sync, "bound"));
	cr_expect_not_null(strstr(str(sync, "diagnosis"),
				  "its work is MPI"),
			   "%s", str(sync, "diagnosis"));
	cr_expect_not_null(strstr(str(sync, "diagnosis"),
				  "rank 1 waited longest, rank 0 least"),
			   "%s", str(sync, "diagnosis"));
	agg = rl_test_json_need_row(json_object_get(json_object_get(j, "mpi"), "regions"),
		     "sync", -1);
	cr_expect_eq(rl_test_json_num(agg, "mpi_max_rank"), 1);
	cr_expect_eq(rl_test_json_num(agg, "mpi_min_rank"), 0);
	cr_expect_gt(rl_test_json_num(agg, "mpi_imbalance"), 1.1);
	json_decref(j);
	/* the results file: how MPI calls were treated, each region's time */
	raw_region(out, 1, "sync", "task_clock_ns", &mpi_ns, &v, mode,
		   sizeof mode);
	cr_expect_str_eq(mode, "out");
	cr_expect_gt(mpi_ns, 0);
	/* CSV: the last column; the table: one line; HTML: columns */
	csv = e2e_file(out, "report.csv");
	cr_expect_not_null(strstr(csv, ",diagnosis,mpi_s\n"), "%s", csv);
	free(csv);
	cr_expect_not_null(strstr(r.out, "mpi_s (time in MPI calls"), "%s",
			   r.out);
	csv = e2e_file(out, "report.html"); /* the MPI tables' columns */
	cr_expect_not_null(strstr(csv, "<th>MPI time mean (s)</th>"));
	cr_expect_not_null(strstr(csv, "<th>MPI time (s)</th>"));
	free(csv);
	e2e_cleanup(&r, dir);
}

/* perf's software events: the task clock inside MPI calls (rank 1 spins
 * in "sync" while rank 0 works) is subtracted, so "sync" keeps a small
 * fraction of its MPI time as CPU time; --mpi-calls in keeps it in, and
 * the method line says which. */
Test(e2e_mpi_time, perf_counts_keep_mpi_calls_out, .timeout = 300)
{
	char *dir, out[512], mode[16];
	struct e2e_result r;
	json_t *j;
	double mpi_ns, clock_ns;

	need();
	dir = e2e_tmpdir();
	snprintf(out, sizeof out, "%s/out", dir);
	if (run(out, "perf", "out", "2000000", &r)) {
		e2e_cleanup(&r, dir);
		cr_skip_test("backend perf does not work here");
	}
	raw_region(out, 1, "sync", "task_clock_ns", &mpi_ns, &clock_ns, mode,
		   sizeof mode);
	cr_assert_geq(clock_ns, 0, "no task_clock_ns counted");
	cr_expect_str_eq(mode, "out");
	cr_expect_lt(clock_ns, 0.5 * mpi_ns,
		     "task clock %.0f ns of %.0f ns in MPI calls: kept out",
		     clock_ns, mpi_ns);
	j = rl_test_json_report(out);
	cr_expect_not_null(
		strstr(str(rl_test_json_need_row(json_object_get(j, "regions"), "sync", -1),
			   "method"),
		       "MPI calls: kept out of the counts"));
	json_decref(j);
	e2e_free(&r);

	snprintf(out, sizeof out, "%s/in", dir);
	run(out, "perf", "in", "2000000", &r);
	raw_region(out, 1, "sync", "task_clock_ns", &mpi_ns, &clock_ns, mode,
		   sizeof mode);
	cr_expect_str_eq(mode, "in");
	j = rl_test_json_report(out);
	cr_expect_not_null(
		strstr(str(rl_test_json_need_row(json_object_get(j, "regions"), "sync", -1),
			   "method"),
		       "MPI calls: kept in (--mpi-calls in)"));
	json_decref(j);
	e2e_cleanup(&r, dir);
}

/* The simulator: "dot" is placed by its own 2 N flops a rank (not the
 * Allreduce's addition), with its MPI time beside them; "sync" counts 0
 * flops and is not placed. */
Test(e2e_mpi_time, sim_places_a_region_by_its_own_flops, .timeout = 400)
{
	char *dir, out[512];
	struct e2e_result r;
	json_t *j, *sync, *dot;

	need();
	sim_need();
	dir = e2e_tmpdir();
	snprintf(out, sizeof out, "%s/out", dir);
	run(out, "sim", "out", "20000", &r);
	j = rl_test_json_report(out);
	sync = rl_test_json_need_row(json_object_get(j, "regions"), "sync", -1);
	dot = rl_test_json_need_row(json_object_get(j, "regions"), "dot", -1);
	cr_expect_eq(rl_test_json_num(dot, "flops"), 2 * 2.0 * 20000);
	cr_expect_eq(rl_test_json_num(sync, "flops"), 0);
	cr_expect_gt(rl_test_json_num(dot, "mpi_s"), 0);
	cr_expect_gt(rl_test_json_num(sync, "mpi_s"), 0);
	cr_expect_null(json_object_get(sync, "bound"));
	cr_expect_not_null(
		strstr(str(dot, "method"),
		       "MPI calls: kept out of flops and bytes, their time "
		       "shown as mpi_s"),
		"%s", str(dot, "method"));
	json_decref(j);
	e2e_cleanup(&r, dir);
}
