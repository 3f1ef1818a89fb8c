/*
 * rlprof diff's output: the comparison of two reports (compare.h) as a
 * table, JSON (format "rlprof-diff") or CSV. Formats only.
 */
#ifndef RL_RENDER_DIFF_H
#define RL_RENDER_DIFF_H

#include <stdio.h>

#include "analysis/compare.h"

/* format: "table", "json" or "csv"; RL_EINVAL for another. */
int rl_render_diff(FILE *out, const struct rl_diff *d, const char *format,
		   const struct rl_report_file *a,
		   const struct rl_report_file *b, char *err, size_t errlen);

#define RL_DIFF_VERSION 1

#endif
