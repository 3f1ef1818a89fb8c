/* A program that links librlprof but opts out (as the rlprof command
 * does): even with RLPROF_OUT set it writes nothing. */
#include "rlprof.h"

const int rl_runtime_disabled = 1;

int main(void)
{
	RL_REGION_BEGIN("never");
	RL_REGION_END("never");
	return 0;
}
