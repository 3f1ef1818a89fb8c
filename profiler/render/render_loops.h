/* The hot loops of rlprof run --loops in report.html (render_loops.c). */
#ifndef RL_RENDER_LOOPS_H
#define RL_RENDER_LOOPS_H

#include <stdio.h>

#include "analysis/report.h"

/* A "Hot loops" section: each loop row's name, the region it ran in and
 * its source lines around the loop's line (LOOP_CONTEXT before and after,
 * the loop's own marked), escaped; where the source file cannot be read
 * here, the section says so and why. Nothing when the report has no
 * loops. */
void rl_loops_html(FILE *out, const struct rl_report *r);

#endif
