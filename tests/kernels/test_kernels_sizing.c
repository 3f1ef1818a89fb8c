/* SPDX-License-Identifier: MIT */
/*
 * rlprof-kernels sizes its streaming arrays from the machine model:
 * 4 x the last level's capacity for all threads (kernels/sizing.c) on
 * hand-made models, and --sizes / --size end to end.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/sizing.h"
#include "tests/lib/machine.h"
#include "tests/lib/run.h"

#define MI ((size_t)1 << 20)

static struct rl_machine *model(uint64_t claimed, uint64_t eff,
				uint64_t eff_all)
{
	struct rl_machine *m = calloc(1, sizeof *m);
	cr_assert_not_null(m);
	const uint64_t sizes[] = {48u << 10, 1u << 20, claimed};
	for (size_t i = 0; i < 3; i++) {
		char level[8];
		snprintf(level, sizeof level, "L%zu", i + 1);
		struct rl_cache_level *l = rl_test_machine_add_level(
			m, level, sizes[i], i == 2 ? eff : sizes[i]);
		l->ways = 16;
		snprintf(l->source, sizeof l->source, "sysfs");
		l->effective_all_bytes = i == 2 ? eff_all : 2 * sizes[i];
	}
	return m;
}

Test(kernels_sizing, four_times_the_llc_for_all_threads)
{
	/* this AMD VM: L3 32 MiB claimed, 12 MiB per thread, 33.9 MiB for
	 * both threads */
	struct rl_machine *m = model(32u << 20, 12u << 20, 35589120);
	char why[512];
	size_t n = rl_kernels_stream_size(m, NULL, 0, why, sizeof why);
	cr_assert_eq(n, 17 * MI, "%zu", n);
	cr_assert_geq(n * sizeof(double), 4 * 35589120ull);
	cr_assert_str_eq(why, "17 Mi doubles (136 MiB per array) = 4 x the L3's "
			      "measured capacity for all threads, 33.9 MiB, "
			      "rounded up to Mi elements");
	free(m);
}

Test(kernels_sizing, falls_back_to_one_thread_then_the_claim)
{
	struct rl_machine *m = model(32u << 20, 12u << 20, 0);
	char why[512];
	cr_assert_eq(rl_kernels_stream_size(m, NULL, 0, why, sizeof why), 6 * MI);
	cr_assert_not_null(strstr(why, "measured capacity of one thread"), "%s", why);
	m->levels[2].effective_bytes = 0;
	cr_assert_eq(rl_kernels_stream_size(m, NULL, 0, why, sizeof why), 16 * MI);
	cr_assert_not_null(strstr(why, "claimed size (no plateau measured)"), "%s",
			   why);
	free(m);
}

Test(kernels_sizing, no_model_takes_the_default_and_says_why)
{
	struct rl_machine *m = calloc(1, sizeof *m);
	char why[512];
	cr_assert_eq(rl_kernels_stream_size(NULL, NULL, 0, why, sizeof why),
		     RL_KERNELS_DEFAULT_N);
	cr_assert_not_null(strstr(why, "the default: no machine model cached"), "%s",
			   why);
	cr_assert_eq(rl_kernels_stream_size(NULL, "'x' is corrupt", 0, why,
					    sizeof why), RL_KERNELS_DEFAULT_N);
	cr_assert_not_null(strstr(why, "the default: 'x' is corrupt"), "%s", why);
	cr_assert_eq(rl_kernels_stream_size(m, NULL, 0, why, sizeof why),
		     RL_KERNELS_DEFAULT_N);
	cr_assert_not_null(strstr(why, "the machine model has no cache levels"),
			   "%s", why);
	free(m);
}

Test(kernels_sizing, capped_to_fit_in_memory)
{
	/* a 480 MiB L3 on a 1 GiB machine: 3 arrays in 80% of it */
	struct rl_machine *m = model(480u << 20, 400u << 20, 800u << 20);
	char why[512];
	size_t n = rl_kernels_stream_size(m, NULL, 1ull << 30, why, sizeof why);
	cr_assert_leq(3.0 * n * sizeof(double), 0.8 * (1ull << 30));
	cr_assert_eq(n % MI, 0);
	cr_assert_not_null(strstr(why, "capped to"), "%s", why);
	free(m);
}

Test(kernels_sizing, sizes_option_and_size_override, .timeout = 30)
{
	const char *prog = RL_BUILD_DIR "/bin/rlprof-kernels";
	const char *given[] = {prog, "--sizes", "--size", "1M", NULL};
	const char *dflt[] = {prog, "--sizes", NULL};
	e2e_need(prog);
	struct e2e_result r = e2e_run(given);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "1048576\n1048576 doubles (8 MiB per array), from "
				"--size\n");
	e2e_free(&r);
	char *cache = e2e_tmpdir(); /* no model there */
	cr_assert_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
	r = e2e_run(dflt);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(strstr(r.out, "16777216\n16 Mi doubles (128 MiB per "
					 "array), the default: no machine model "
					 "cached"), "%s", r.out);
	e2e_free(&r);
	e2e_rmtree(cache);
	free(cache);
}
