/* SPDX-License-Identifier: MIT */
/*
 * The simulator gets the stack the program has (issue 24 §4): a program
 * whose arrays live on the main thread's stack (24 MiB) runs natively
 * under a stack limit of 64 MiB, and under Valgrind, whose main thread has
 * 16 MiB unless told, it died; rlprof passes --main-stacksize from the
 * limit. A counting run that dies where the native run did not keeps the
 * native run's regions and times, and the run names what happened.
 * Program: tests/programs/sim_stack.c.
 */
#include <sys/resource.h>

#include "tests/lib/sim.h"

/* the stack limit of this test's process (and so of rlprof's children) */
static void stack_limit(rlim_t bytes)
{
	struct rlimit rl;

	cr_assert_eq(getrlimit(RLIMIT_STACK, &rl), 0);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < bytes)
		cr_skip_test("the hard stack limit (%llu bytes) is below the "
			     "%llu this test needs",
			     (unsigned long long)rl.rlim_max,
			     (unsigned long long)bytes);
	rl.rlim_cur = bytes;
	cr_assert_eq(setrlimit(RLIMIT_STACK, &rl), 0);
}

Test(sim_stack, the_simulator_gets_the_programs_stack_limit, .timeout = 240)
{
	const char *prog[] = {E2E_PROG("sim_stack"), NULL};
	struct sim_run r;

	sim_need();
	stack_limit(64u << 20);
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 0, "exit %d: %s", r.res.status, r.res.err);
	cr_expect_not_null(strstr(r.res.out, "3 2\n"), "%s", r.res.out);
	sim_load(&r);
	cr_expect_eq(sim_row_get(&r, "scale", -1)->calls, 1);
	cr_expect_eq(sim_row_get(&r, "scale", -1)->c[RL_C_FLOPS_F64_SCALAR] +
			     sim_row_get(&r, "scale", -1)->c[RL_C_FLOPS_F64_128] +
			     sim_row_get(&r, "scale", -1)->c[RL_C_FLOPS_F64_256] +
			     sim_row_get(&r, "scale", -1)->c[RL_C_FLOPS_F64_512],
		     1u << 20, "Scale: one multiply per element");
	sim_run_free(&r);
}

Test(sim_stack, a_counting_run_that_dies_keeps_the_native_regions,
     .timeout = 240)
{
	const char *prog[] = {E2E_PROG("sim_stack"), "die-under-valgrind",
			      NULL};
	struct sim_run r;
	char *csv;
	const char *row;

	sim_need();
	stack_limit(64u << 20);
	sim_run(&r, NULL, prog);
	cr_expect_eq(r.res.status, 139, "exit %d: %s", r.res.status, r.res.err);
	cr_expect_not_null(strstr(r.res.err, "the counting run of 'sim_stack' "
					     "died of signal 11 (Segmentation "
					     "fault) under the simulator, where "
					     "its native timing run ended "
					     "normally: the report keeps the "
					     "native run's regions and times"),
			   "%s", r.res.err);
	csv = e2e_file(r.dir, "report.csv");
	row = e2e_csv_row(csv, "scale");
	cr_expect_not_null(row, "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);
	sim_run_free(&r);
}
