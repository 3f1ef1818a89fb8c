/* The gate's verdicts (gate.h): the checks counted here, their lines
 * said by render/render_gate.c. */
#include <math.h>

#include "analysis/work_cmp.h"
#include "cli/commands.h"
#include "cli/gate.h"
#include "render/render_gate.h"

static const char *old_name(const struct rl_gate *g)
{
	return g->old_name ? g->old_name : "the baseline";
}

void rl_gate_fail(struct rl_gate *g, const char *name, const char *rest)
{
	g->n_failed++;
	rl_render_gate_fail(name, rest);
}

void rl_gate_time(struct rl_gate *g, const char *name,
		  const struct rl_time_cmp *tc, double max)
{
	g->n_checks++;
	if (isnan(tc->change_pct)) {
		rl_gate_fail(g, name,
			     "has no time on one of the two sides: its change "
			     "cannot be judged");
		return;
	}
	g->n_untested += !tc->tested;
	if (tc->verdict == RL_CHANGE_WORSE) {
		g->n_failed++;
		rl_render_gate_slower(name, tc, max, old_name(g));
	} else if (tc->unsure) {
		g->n_unsure++;
		rl_render_gate_unsure(name, tc, max, g->advice);
	}
}

void rl_gate_work(struct rl_gate *g, const char *name,
		  const struct rl_report_region *a,
		  const struct rl_report_region *b, bool bytes)
{
	struct rl_work_diff d[RL_WORK_FIGURES];
	size_t n;

	if (!rl_work_comparable(a, b))
		return;
	g->n_checks++;
	g->n_work++;
	if (!(n = rl_work_compare(a, b, bytes, d)))
		return;
	g->n_failed++;
	rl_render_gate_work(name, d, n, old_name(g));
}

void rl_gate_bytes_note(const struct rl_gate *g, bool bytes)
{
	if (g->n_work && !bytes && !g->quiet)
		rl_render_gate_bytes_note();
}

void rl_gate_untested_note(const struct rl_gate *g)
{
	if (g->n_untested && !g->quiet)
		rl_render_gate_untested_note(g->n_untested);
}

int rl_gate_end(const struct rl_gate *g)
{
	if (g->n_failed) {
		rl_render_gate_failed(g->n_failed, g->n_checks);
		return RL_EXIT_FAILURE;
	}
	if (g->n_unsure) {
		rl_render_gate_undecided(g->n_unsure, g->n_checks);
		return RL_EXIT_UNSURE;
	}
	if (!g->quiet)
		rl_render_gate_held(g->n_checks);
	return RL_EXIT_OK;
}
