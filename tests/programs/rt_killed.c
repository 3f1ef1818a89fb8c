/* SPDX-License-Identifier: MIT */
/*
 * Completes region "done" 3 times, then dies inside region "working"
 * (tests/cli/test_e2e_killed.c):
 *   kill  another process (kill -KILL) kills it: nothing can be caught
 *   exit  it calls _exit(3): no atexit handler runs
 *   oom   it allocates until malloc fails (run it under `ulimit -v`) and
 *         then writes through the null pointer, as a careless program does
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rlprof.h"

extern char **environ;
static volatile double sink;
static char *volatile keep;

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "kill";
	for (int k = 0; k < 3; k++) {
		RL_REGION_BEGIN("done");
		for (int i = 0; i < 1000; i++)
			sink += i * 0.5;
		RL_REGION_END("done");
	}
	RL_REGION_BEGIN("working");
	if (strcmp(how, "exit") == 0)
		_exit(3);
	if (strcmp(how, "oom") == 0) {
		for (;;) {
			char *p = malloc(1 << 20);
			memset(p, 1, 1 << 20); /* p NULL at the limit: SIGSEGV */
			keep = p;
		}
	}
	char pid[32];
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	char *args[] = {"kill", "-KILL", pid, NULL};
	pid_t k;
	if (posix_spawnp(&k, "kill", NULL, NULL, args, environ) != 0)
		return 2;
	for (;;)
		pause();
}
