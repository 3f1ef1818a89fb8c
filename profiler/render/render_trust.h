/*
 * What the renderers say of the counters' trust (render_trust.c): a row's
 * counting shares and withheld counters in JSON, the run's known-answer
 * check in JSON, the CSV's marks column. See analysis/report_trust.h.
 */
#ifndef RL_RENDER_TRUST_H
#define RL_RENDER_TRUST_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "analysis/report.h"
#include "common/json_writer.h"
#include "results/selftest_json.h"

/* "counting_pct" (the counters that counted less than all of the row's
 * time, with their share) and "withheld" (names), each only when any. */
void rl_trust_jw_row(struct rl_jw *w, const struct rl_region_row *row);

/* Does any row carry a mark (a scaled or withheld counter, or one the
 * check caught)? The CSV has its marks column only then. */
bool rl_report_has_marks(const struct rl_report *r);

#endif
