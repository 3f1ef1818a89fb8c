/*
 * Internal to the analysis (analysis.c, analysis_roof.c,
 * analysis_method.c); the public interface is report.h.
 */
#ifndef RL_ANALYSIS_H
#define RL_ANALYSIS_H

#include <stdint.h>

#include "report.h"

/* Sets bound, basis, bound_roof, roof_gflops and roof_pct of a row whose
 * measured and declared figures are filled (nothing when rep->machine is
 * NULL). Returns 0 or RL_ENOMEM. */
int rl_report_place(struct rl_report *rep, struct rl_region_row *row);

/* One line saying where a row's figures come from; malloc'd, NULL when out
 * of memory. declared: the row has RL_REGION_EXPECT figures. */
char *rl_method_line(uint64_t provided, char *const method[],
		     const unsigned char scope[], int declared);

#endif
