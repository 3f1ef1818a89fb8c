/* SPDX-License-Identifier: MIT */
/*
 * An empty region "outer" around N (default 1000) empty regions "inner":
 * whatever "outer" counts beyond "inner"'s is the runtime's own cost
 * (tests/runtime/test_runtime_sim.c checks it under the simulated PMU).
 *
 * usage: rt_nested_empty [N]
 */
#include <stdlib.h>

#include "rlprof.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	RL_REGION_BEGIN("outer");
	for (long i = 0; i < n; i++) {
		RL_REGION_BEGIN("inner");
		RL_REGION_END("inner");
	}
	RL_REGION_END("outer");
	return 0;
}
