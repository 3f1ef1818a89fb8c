/* Threads (process scope) and MPI ranks of a report in each format
 * (render_ranks.c). */
#ifndef RL_RENDER_RANKS_H
#define RL_RENDER_RANKS_H

#include <jansson.h>
#include <stdio.h>

#include "common/json_writer.h"
#include "analysis/report.h"

/* The "mpi" object of report.json (null when the run had no ranks). */
json_t *rl_ranks_json(const struct rl_report *r);
/* Writes "scope", "threads_ran", "busy_threads", "cpu_s",
 * "counted_threads" and "uncounted" of the report's summed row i into its
 * object in report.json's "regions" (after its first key). */
void rl_scope_jw_add(struct rl_jw *w, const struct rl_report *r, size_t i);
/* The ranks section under the table, and in report.html; nothing when
 * the run had no ranks. */
void rl_ranks_table(FILE *out, const struct rl_report *r);
void rl_ranks_html(FILE *out, const struct rl_report *r);

#endif
