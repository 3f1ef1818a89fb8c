/* e2e: completes region "before-removal", removes the directory given
 * (rlprof run's output directory, as a user's `rm -rf` or a cleanup step
 * would), with a second argument "file" puts a regular file in its place,
 * completes region "after-removal" and exits 0. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>

#include "rlprof.h"

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3)
		return 2;
	RL_REGION_BEGIN("before-removal");
	RL_REGION_END("before-removal");
	if (nftw(argv[1], rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return 3;
	if (argc == 3) {
		FILE *f = fopen(argv[1], "w");
		if (!f || fclose(f) != 0)
			return 4;
	}
	RL_REGION_BEGIN("after-removal");
	RL_REGION_END("after-removal");
	return 0;
}
