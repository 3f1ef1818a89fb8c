/* e2e: the CI gate (rlprof run --repeat): a region of fixed length
 * ("steady") and one whose length is multiplied by argv[1] ("scaled").
 * Each waits 20 ms per unit in nanosleep rather than computing, so that
 * its time hardly depends on how loaded the machine is (a sleeping
 * thread needs no CPU; only its wake-up can be late). */
#include <stdlib.h>
#include <time.h>

#include "rlprof.h"

static void wait_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&t, &t) != 0)
		;
}

int main(int argc, char **argv)
{
	long factor = argc > 1 ? atol(argv[1]) : 1;

	RL_REGION_BEGIN("steady");
	wait_ms(20);
	RL_REGION_END("steady");

	RL_REGION_BEGIN("scaled");
	wait_ms(20 * factor);
	RL_REGION_END("scaled");
	return 0;
}
