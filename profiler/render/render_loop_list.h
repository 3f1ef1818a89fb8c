/* rlprof inspect --loops: the loops found in a program's code
 * (inspect/loops.h) as text or one JSON document on stdout
 * (render_loop_list.c). */
#ifndef RL_RENDER_LOOP_LIST_H
#define RL_RENDER_LOOP_LIST_H

#include <stddef.h>

#include "inspect/loops.h"

void rl_loop_list_text(const char *prog, const struct rl_loops *l);
/* 0, or -1 (out of memory, stdout not written). */
int rl_loop_list_json(const char *prog, const struct rl_loops *l);

/* Loop i's name, its function's statement ("scope"), the call sites it
 * was inlined at ("inlined": innermost first, each {"function", "file",
 * "line", "into"}; absent when not inlined) and the floating-point
 * chains found in its code ("chains": {"add", "mul", "madd"}) set on o
 * (also for rlprof run --loops' loops.json). 0 or -1 (no memory). */
struct json_t;
int rl_loop_json_names(struct json_t *o, const struct rl_loops *l, size_t i);

#endif
