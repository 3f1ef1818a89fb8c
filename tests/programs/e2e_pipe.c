/* e2e: completes region "before-pipe", then prints lines for ever inside
 * region "printing": it ends when its stdout's reader goes (SIGPIPE), as
 * `rlprof run ./app | head` does. */
#include <stdio.h>

#include "rlprof.h"

int main(void)
{
	RL_REGION_BEGIN("before-pipe");
	RL_REGION_END("before-pipe");
	RL_REGION_BEGIN("printing");
	for (unsigned long i = 0;; i++)
		if (printf("line %lu\n", i) < 0)
			return 3; /* SIGPIPE ignored: stop anyway */
}
