/* e2e: a program that takes every permission away from the files it
 * creates (umask 0777), then does one region: its results must still
 * reach rlprof. */
#include <sys/stat.h>

#include "rlprof.h"

int main(void)
{
	volatile double s = 0;

	umask(0777);
	RL_REGION_BEGIN("umask-work");
	for (int i = 0; i < 1000; i++)
		s += i * 0.5;
	RL_REGION_END("umask-work");
	(void)s;
	return 0;
}
