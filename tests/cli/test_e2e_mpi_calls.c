/*
 * MPI calls are not the program's work (issue 24 §3): under the simulator,
 * librlprof-mpi's PMPI wrappers pause the count inside MPI calls, so the
 * region 'exchange' of tests/mpi/mpi_triad.c, whose work is one
 * MPI_Allreduce of one double, counts 0 flops (Open MPI's reduction adds
 * 1 per rank, and its progress engine's loads: counted before); with
 * `--mpi-calls in` they count again. The report's method says which. The
 * triad region's own flops are exact either way.
 */
#include <jansson.h>

#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define MPI_APP RL_BUILD_DIR "/tests/mpi/mpi_triad"

static const char *const env[] = {
	"ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0",
	"OMPI_MCA_btl_vader_single_copy_mechanism=none",
	"RLPROF_MPI_WAIT=60", NULL,
};

static const char *mpirun;

static void need(void)
{
	sim_need();
	mpirun = e2e_need_mpirun(MPI_APP);
	if (access(RL_BUILD_DIR "/lib/librlprof-mpi.so", R_OK) != 0)
		cr_skip_test("librlprof-mpi.so was not built (no mpicc)");
}

/* summed flops of region in out/report.json, -1 when absent */
static double flops_of(const char *out, const char *region, char **note)
{
	char path[600];
	json_error_t je;
	json_t *j, *e;
	size_t i;
	double v = -1;

	snprintf(path, sizeof path, "%s/report.json", out);
	j = json_load_file(path, 0, &je);
	cr_assert_not_null(j, "%s: %s", path, je.text);
	json_array_foreach (json_object_get(j, "regions"), i, e)
		if (strcmp(json_string_value(json_object_get(e, "region")),
			   region) == 0 &&
		    json_is_number(json_object_get(e, "flops")))
			v = json_number_value(json_object_get(e, "flops"));
	*note = strdup(json_string_value(json_object_get(j, "backend_note"))
			       ? json_string_value(
					 json_object_get(j, "backend_note"))
			       : "");
	json_decref(j);
	return v;
}

static void run(const char *out, const char *mode)
{
	const char *argv[] = {mpirun, "-np", "2", "--oversubscribe",
			      "--allow-run-as-root", E2E_RLPROF, "run", "-q",
			      "--no-probe", "-b", "sim", "--sim-caches",
			      SIM_TEST_CACHES, "-o", out, "--mpi-calls", mode,
			      MPI_APP, "20000", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env);

	cr_assert_eq(r.status, 0, "status %d\n%s\n%s", r.status, r.out, r.err);
	e2e_free(&r);
}

Test(e2e_mpi_calls, mpi_calls_are_out_of_the_counts, .timeout = 400)
{
	char *dir, out[512], *note;

	need();
	dir = e2e_tmpdir();
	snprintf(out, sizeof out, "%s/out", dir);
	run(out, "out");
	cr_expect_eq(flops_of(out, "exchange", &note), 0,
		     "the Allreduce's additions are MPI's, not the program's");
	cr_expect_not_null(strstr(note, "MPI calls not counted"), "%s", note);
	free(note);
	/* rank 0: 20000 elements, rank 1: 40000; 2 flops each */
	cr_expect_eq(flops_of(out, "triad", &note), 2.0 * 60000);
	free(note);

	snprintf(out, sizeof out, "%s/in", dir);
	run(out, "in");
	cr_expect_gt(flops_of(out, "exchange", &note), 0,
		     "--mpi-calls in: MPI's additions counted");
	cr_expect_not_null(strstr(note, "MPI calls counted"), "%s", note);
	free(note);
	e2e_rmtree(dir);
	free(dir);
}
