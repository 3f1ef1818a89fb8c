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
/* A time in seconds as the tables write it: the figure (rl_num_text) in
 * s, ms, us or ns, the largest unit in which it is at least 1 ("1.38
 * ms", "0 s"); "-" when not known. */
void rl_time_text(char *buf, size_t len, double s);

#endif
