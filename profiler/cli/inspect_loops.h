/* rlprof inspect --loops: the loops found in a program's code
 * (inspect/loops.h), as text or one JSON document on stdout. */
#ifndef RL_INSPECT_LOOPS_H
#define RL_INSPECT_LOOPS_H

#include <stddef.h>

/* Prints the loops of prog; returns an exit status (commands.h), with the
 * failure said on stderr. */
int rl_inspect_loops(const char *prog, int as_json);

struct rl_loops;
/* Loop i's name, its function's statement ("scope"), the call sites it
 * was inlined at ("inlined": innermost first, each {"function", "file",
 * "line", "into"}; absent when not inlined) and the floating-point
 * chains found in its code ("chains": {"add", "mul", "madd"}) set on o
 * (also for rlprof run --loops' loops.json). 0 or -1 (no memory). */
struct json_t;
int rl_loop_json_names(struct json_t *o, const struct rl_loops *l, size_t i);

#endif
