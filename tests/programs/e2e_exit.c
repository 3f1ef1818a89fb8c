/* e2e: one region, then exits with the status given as argv[1]. */
#include <stdlib.h>

#include "rlprof.h"

int main(int argc, char **argv)
{
	volatile double s = 0;

	RL_REGION_BEGIN("exit-work");
	for (int i = 0; i < 1000; i++)
		s += i * 0.5;
	RL_REGION_END("exit-work");
	(void)s;
	return argc > 1 ? atoi(argv[1]) : 0;
}
