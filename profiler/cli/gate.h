/*
 * The gate's verdicts, said alike by rlprof check and rlprof compare
 * (their lines written by render/render_gate.c):
 * one line per failure ("fail: region 'x' ..."), one per region the runs
 * cannot decide ("not enough evidence: region 'x' ..."), then the summary
 * line, and the exit status: 0 every check holds, 1 one failed, 3 none
 * failed but one could not be decided (never a silent pass).
 */
#ifndef RL_GATE_H
#define RL_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/compare.h"
#include "analysis/report_file.h"

struct rl_gate {
	size_t n_checks, n_failed, n_unsure;
	size_t n_untested; /* regions compared on one run a side */
	size_t n_work;     /* regions whose counted work was compared */
	int quiet;         /* nothing when every check holds */
	const char *old_name; /* "the baseline" (check), "the old program"
				 (compare); NULL: "the baseline" */
	const char *advice;   /* what gives more evidence; NULL: check's
				 (--repeat 10, or rlprof compare) */
};

/* "fail: region 'name' rest": counts a failure. */
void rl_gate_fail(struct rl_gate *g, const char *name, const char *rest);

/* One check: region name's change of time tc against max % (fails when
 * slower, says not enough evidence when unsure). */
void rl_gate_time(struct rl_gate *g, const char *name,
		  const struct rl_time_cmp *tc, double max);

/* One check where a and b were both counted by the simulator: their
 * counted work must be the same (work_cmp.h): flops, and bytes when
 * bytes is true (both programs ran one thread). Nothing otherwise. */
void rl_gate_work(struct rl_gate *g, const char *name,
		  const struct rl_report_region *a,
		  const struct rl_report_region *b, bool bytes);

/* The note that bytes were not compared (threads), once when there were
 * simulated regions. */
void rl_gate_bytes_note(const struct rl_gate *g, bool bytes);

/* The note on regions compared on one run a side, when there were any. */
void rl_gate_untested_note(const struct rl_gate *g);

/* The summary line; the exit status. */
int rl_gate_end(const struct rl_gate *g);

#endif
