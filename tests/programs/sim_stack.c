/*
 * STREAM's Scale with its arrays on the main thread's stack (3 x 8 MiB:
 * more than the 16 MiB Valgrind gives the main thread by default), as an
 * OpenMP STREAM built that way runs under `ulimit -s unlimited`. With
 * the argument "die-under-valgrind" it kills itself with SIGSEGV after
 * the region, only when it runs under Valgrind: a counting run that dies
 * where the native run does not.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <valgrind/valgrind.h>

#include "rlprof.h"

#define N (1 << 20)

int main(int argc, char **argv)
{
	double a[N], b[N], c[N];

	for (int i = 0; i < N; i++) {
		a[i] = 1.0;
		b[i] = 2.0;
		c[i] = 0.0;
	}
	RL_REGION_BEGIN("scale");
	for (int i = 0; i < N; i++)
		c[i] = 3.0 * a[i];
	RL_REGION_END("scale");
	printf("%g %g\n", c[N - 1], b[N - 1]);
	fflush(stdout);
	if (argc > 1 && strcmp(argv[1], "die-under-valgrind") == 0 &&
	    RUNNING_ON_VALGRIND)
		raise(SIGSEGV);
	return 0;
}
