/*
 * Completes region "done", then crashes inside region "crashing" (or ends
 * by the signal named in argv[1]: segv, abort, term, int, overflow).
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rlprof.h"

/* Not NULL (UBSan would stop at a null store), still unmapped. */
static volatile int *volatile nowhere = (volatile int *)(uintptr_t)64;

static volatile int go_on = 1;

static int recurse(int n)
{
	volatile char pad[4096];
	pad[0] = (char)n;
	if (!go_on)
		return pad[0];
	return recurse(n + 1) + pad[0];
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "segv";
	RL_REGION_BEGIN("done");
	RL_REGION_END("done");
	RL_REGION_BEGIN("crashing");
	if (strcmp(how, "abort") == 0)
		abort();
	if (strcmp(how, "term") == 0)
		raise(SIGTERM);
	if (strcmp(how, "int") == 0) {
		raise(SIGINT); /* survives when SIGINT was ignored at exec */
		RL_REGION_END("crashing");
		return 0;
	}
	if (strcmp(how, "overflow") == 0)
		return recurse(0);
	*nowhere = 1;
	RL_REGION_END("crashing");
	return 0;
}
