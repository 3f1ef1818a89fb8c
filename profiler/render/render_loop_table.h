/* rlprof run --loops: the hot loops' table on stdout, under the regions'
 * (render_loop_table.c). */
#ifndef RL_RENDER_LOOP_TABLE_H
#define RL_RENDER_LOOP_TABLE_H

#include "analysis/loop_figures.h"

void rl_loop_table_print(const struct rl_loop_figures *x);

#endif
