/*
 * The roofline chart's error bar (rlprof run --repeat): a region's
 * GFLOP/s over its runs, median and interval (report.h rl_row_interval),
 * drawn as a vertical bar with caps through its point.
 */
#ifndef RL_SVG_ERROR_BAR_H
#define RL_SVG_ERROR_BAR_H

#include <stdio.h>

#include "analysis/report.h"
#include "render/svg_chart.h"

/* Writes the bar of row at x = cx in colour col; nothing when the row
 * has no interval or no GFLOP/s. */
void rl_svg_error_bar(FILE *out, const struct rl_chart *c,
		      const struct rl_region_row *row, double cx,
		      const char *col);

#endif
