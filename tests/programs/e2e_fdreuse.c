/* e2e: a program that closes every descriptor it did not open (as a
 * daemon does) after a region, makes pipes (which get the numbers of the
 * runtime's perf events), holds one byte in each, enters a region and
 * checks the bytes are still there. Exit 0: none lost; 1: the runtime
 * read a pipe. A runtime that reads a reused descriptor blocks here. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "rlprof.h"

#define N_PIPES 8

int main(void)
{
	int p[N_PIPES][2], lost = 0;

	RL_REGION_BEGIN("first");
	RL_REGION_END("first");
	for (int fd = 3; fd < 256; fd++)
		close(fd);
	for (int i = 0; i < N_PIPES; i++)
		if (pipe(p[i]) != 0 || write(p[i][1], "A", 1) != 1)
			return 2;
	RL_REGION_BEGIN("after-close");
	RL_REGION_END("after-close");
	for (int i = 0; i < N_PIPES; i++) {
		char c;
		fcntl(p[i][0], F_SETFL, O_NONBLOCK);
		if (read(p[i][0], &c, 1) != 1 || c != 'A')
			lost++;
	}
	printf("pipes that lost their byte: %d\n", lost);
	return lost ? 1 : 0;
}
