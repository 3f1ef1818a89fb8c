/* e2e: the CI gate under noise (rlprof run --repeat): a region of fixed
 * work ("steady") and one whose work is multiplied by argv[1] ("scaled"),
 * each a dependent chain of adds of about 20 ms. */
#include <stdlib.h>

#include "rlprof.h"

static double work(long n)
{
	volatile double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	return s;
}

int main(int argc, char **argv)
{
	long factor = argc > 1 ? atol(argv[1]) : 1;

	RL_REGION_BEGIN("steady");
	work(8000000);
	RL_REGION_END("steady");

	RL_REGION_BEGIN("scaled");
	work(8000000 * factor);
	RL_REGION_END("scaled");
	return 0;
}
