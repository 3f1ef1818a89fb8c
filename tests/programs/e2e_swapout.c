/* e2e: completes region "before-swap", moves the folder FROM to
 * FROM.moved and puts a symbolic link to TARGET in its place (rlprof
 * run's output directory or its raw/, swapped as a hostile user would
 * while the program runs), completes region "after-swap" and exits 0.
 * Usage: e2e_swapout FROM TARGET. */
#include <stdio.h>
#include <unistd.h>

#include "rlprof.h"

int main(int argc, char **argv)
{
	char moved[4096];

	if (argc != 3)
		return 2;
	RL_REGION_BEGIN("before-swap");
	RL_REGION_END("before-swap");
	snprintf(moved, sizeof moved, "%s.moved", argv[1]);
	if (rename(argv[1], moved) != 0 || symlink(argv[2], argv[1]) != 0)
		return 3;
	RL_REGION_BEGIN("after-swap");
	RL_REGION_END("after-swap");
	return 0;
}
