/* e2e: completes region "before-interrupt", then gets SIGINT as from a
 * Ctrl-C (with the default action: the runtime's handler writes the
 * results first). */
#include <signal.h>

#include "rlprof.h"

int main(void)
{
	volatile double s = 0;

	RL_REGION_BEGIN("before-interrupt");
	for (int i = 0; i < 1000; i++)
		s += i * 0.5;
	RL_REGION_END("before-interrupt");
	(void)s;
	raise(SIGINT);
	return 0;
}
