/*
 * Seconds as a person reads them in a message or a table cell: "1.38 s",
 * "14.7 ms", "230 us". One place for the unit steps.
 */
#ifndef RL_FMT_SECONDS_H
#define RL_FMT_SECONDS_H

#include <stddef.h>

/* Three significant digits: "1.38 s", "14.7 ms", "230 us". */
void rl_fmt_seconds(char *buf, size_t len, double s);
/* Fixed decimals per unit: "1.38 s", "14.7 ms", "230 us" (2, 1 and 0
 * after the point: a column of them lines up). */
void rl_fmt_seconds_fixed(char *buf, size_t len, double s);

#endif
