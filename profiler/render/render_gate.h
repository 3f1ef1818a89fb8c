/*
 * The gate's verdict lines, said alike by rlprof check and rlprof compare
 * (cli/gate.h counts the checks and decides the exit status): one line per
 * failure ("fail: region 'x' ..."), one per region the runs cannot decide
 * ("not enough evidence: region 'x' ..."), the notes, then the summary
 * line. On stdout; names escaped for the terminal.
 */
#ifndef RL_RENDER_GATE_H
#define RL_RENDER_GATE_H

#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/work_cmp.h"

/* "fail: region 'name' rest". */
void rl_render_gate_fail(const char *name, const char *rest);

/* The failure of region name, slower than old_name ("the baseline", "the
 * old program") by more than max % (tc: its change of time). */
void rl_render_gate_slower(const char *name, const struct rl_time_cmp *tc,
			   double max, const char *old_name);

/* Region name's change cannot be decided against max %; advice: what
 * gives more evidence, NULL for check's (--repeat 10, or rlprof
 * compare, as tc's run counts call for). */
void rl_render_gate_unsure(const char *name, const struct rl_time_cmp *tc,
			   double max, const char *advice);

/* The failure of region name, whose counted work d[0..n) differs from
 * old_name's. */
void rl_render_gate_work(const char *name, const struct rl_work_diff *d,
			 size_t n, const char *old_name);

/* The note that counted bytes were not compared (threads). */
void rl_render_gate_bytes_note(void);

/* The note on n regions compared on one run a side. */
void rl_render_gate_untested_note(size_t n);

/* The summary lines: n_failed of n_checks failed; n_unsure of n_checks
 * undecided; all n_checks hold. */
void rl_render_gate_failed(size_t n_failed, size_t n_checks);
void rl_render_gate_undecided(size_t n_unsure, size_t n_checks);
void rl_render_gate_held(size_t n_checks);

#endif
