/* rlprof inspect --loops: the loops found in a program's code
 * (inspect/loops.h), as text or one JSON document on stdout. */
#ifndef RL_INSPECT_LOOPS_H
#define RL_INSPECT_LOOPS_H

#include <stddef.h>

/* Prints the loops of prog; returns an exit status (commands.h), with the
 * failure said on stderr. */
int rl_inspect_loops(const char *prog, int as_json);

#endif
