/* e2e: completes region "before-crash", then dies of SIGSEGV. */
#include <signal.h>

#include "rlprof.h"

int main(void)
{
	volatile double s = 0;

	RL_REGION_BEGIN("before-crash");
	for (int i = 0; i < 1000; i++)
		s += i * 0.5;
	RL_REGION_END("before-crash");
	(void)s;
	raise(SIGSEGV);
	return 0;
}
