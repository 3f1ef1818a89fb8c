/*
 * A figure as the text tables write it (num_text.c): three significant
 * digits, no exponent in the usual range, "-" for what is not known
 * (NAN) or not finite. One rule for every table: the report's
 * (render_table.c) and the diff's (render_diff.c).
 */
#ifndef RL_RENDER_NUM_TEXT_H
#define RL_RENDER_NUM_TEXT_H

#include <stddef.h>

void rl_num_text(char *buf, size_t len, double x);

#endif
