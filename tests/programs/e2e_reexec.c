/* e2e: completes region "before", then re-executes itself (same pid)
 * from inside region "outer"; the new image completes region "after"
 * (tests/cli/test_e2e_outdir.c: the regions before the exec are kept). */
#include <string.h>
#include <unistd.h>

#include "rlprof.h"

static volatile double sink;

static void work(void)
{
	for (int i = 0; i < 1000; i++)
		sink += i * 0.5;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "again") == 0) {
		RL_REGION_BEGIN("after");
		work();
		RL_REGION_END("after");
		return 0;
	}
	RL_REGION_BEGIN("before");
	work();
	RL_REGION_END("before");
	RL_REGION_BEGIN("outer");
	char *again[] = {argv[0], "again", NULL};
	execv("/proc/self/exe", again);
	RL_REGION_END("outer");
	return 1;
}
