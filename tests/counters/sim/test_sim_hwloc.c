/* SPDX-License-Identifier: MIT */
/*
 * Open MPI's hwloc says, in every process that starts MPI under Valgrind
 * without mpirun's topology, that its x86 backend "cannot work under
 * Valgrind" (three lines). The sim backend leaves that backend out
 * (HWLOC_COMPONENTS=-x86, unless the user set it), so the run is quiet.
 */
#include "tests/lib/sim.h"

#define MPI_APP RL_BUILD_DIR "/tests/mpi/mpi_triad"

Test(sim_hwloc, open_mpi_under_the_simulator_is_quiet, .timeout = 240)
{
	const char *prog[] = {MPI_APP, NULL};
	struct sim_run r;

	sim_need();
	if (access(MPI_APP, X_OK) != 0)
		cr_skip_test("'%s' was not built (mpicc missing when building)",
			     MPI_APP);
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 0, "exit %d: %s", r.res.status, r.res.err);
	cr_expect_not_null(strstr(r.res.out, "over 1 ranks"), "%s", r.res.out);
	cr_expect_null(strstr(r.res.err, "hwloc"), "%s", r.res.err);
	cr_expect_null(strstr(r.res.out, "hwloc"), "%s", r.res.out);
	sim_run_free(&r);
}
