/* SPDX-License-Identifier: MIT */
/*
 * A region that completes, then a crash (a write through NULL: SIGSEGV) inside an open region:
 * under the simulator the runtime's fatal-signal flush must still write
 * the completed region.
 */
#include <stdio.h>

#include "rlprof.h"

static volatile double x[64];
static int *volatile bad; /* NULL, unknown to the compiler */

int main(void)
{
	RL_REGION_BEGIN("done");
	for (int i = 0; i < 64; i++)
		x[i] = x[i] * 2.0 + 1.0;
	RL_REGION_END("done");
	printf("%g\n", x[63]);
	fflush(stdout);

	RL_REGION_BEGIN("crashing");
	*bad = 1;
	RL_REGION_END("crashing");
	return 0;
}
