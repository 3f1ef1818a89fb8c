/* SPDX-License-Identifier: MIT */
/*
 * The runtime does not perturb what it measures: under the simulated PMU
 * (which counts every flop exactly), an empty region around 1000 empty
 * regions counts no flops at all, so the bookkeeping between the counter
 * reads is integer-only. Skipped when valgrind or the tool is missing.
 */
#include "tests/lib/sim.h"

static uint64_t all_flops(const struct sim_row *w)
{
	uint64_t s = 0;
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (rl_counter_kind_of((enum rl_counter)c) == RL_KIND_FLOPS)
			s += w->c[c];
	return s;
}

Test(runtime_sim, nested_empty_regions_add_no_flops, .timeout = 120)
{
	struct sim_run r;
	const char *prog[] = {E2E_PROG("rt_nested_empty"), "1000", NULL};
	sim_need();
	sim_run(&r, NULL, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	const struct sim_row *outer = sim_row_get(&r, "outer", -1);
	const struct sim_row *inner = sim_row_get(&r, "inner", -1);
	cr_assert_eq(outer->calls, 1);
	cr_assert_eq(inner->calls, 1000);
	cr_assert(outer->provided & (1ull << RL_C_FLOPS_F64_SCALAR),
		  "the simulator counted no flops: %s", r.res.err);
	cr_expect_eq(all_flops(outer), 0,
		     "outer counts %llu flops for 1000 empty inner regions",
		     (unsigned long long)all_flops(outer));
	cr_expect_eq(all_flops(inner), 0, "inner counts %llu flops",
		     (unsigned long long)all_flops(inner));
	sim_run_free(&r);
}
