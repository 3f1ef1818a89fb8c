/* The gate's verdicts (gate.h). */
#include <math.h>
#include <stdio.h>

#include "analysis/work_cmp.h"
#include "cli/commands.h"
#include "cli/gate.h"
#include "common/fmt_seconds.h"
#include "common/term_text.h"

static const char *old_name(const struct rl_gate *g)
{
	return g->old_name ? g->old_name : "the baseline";
}

void rl_gate_fail(struct rl_gate *g, const char *name, const char *rest)
{
	g->n_failed++;
	fputs("fail: region '", stdout);
	rl_term_put(stdout, name);
	fputs("' ", stdout);
	fputs(rest, stdout);
	fputc('\n', stdout);
}

/* "+12.5%", or "unbounded" for a bound the runs cannot give. */
static void fmt_pct(char *b, size_t n, double pct)
{
	if (isinf(pct))
		snprintf(b, n, "%s", pct > 0 ? "unbounded" : "-100%");
	else
		snprintf(b, n, "%+.1f%%", pct);
}

/* "95%", or the confidence of each bound of tc ("98.3%"). */
static const char *conf_text(const struct rl_time_cmp *tc)
{
	static char buf[16];
	double c = tc->confidence > 0 ? tc->confidence : 0.95;

	snprintf(buf, sizeof buf, "%.3g%%", c * 100);
	return buf;
}

static void say_unsure(const struct rl_gate *g, const char *name,
		       const struct rl_time_cmp *tc, double max)
{
	char lo[32], hi[32];

	fmt_pct(lo, sizeof lo, tc->lo_pct);
	fmt_pct(hi, sizeof hi, tc->hi_pct);
	printf("not enough evidence: region '");
	rl_term_put(stdout, name);
	printf("' changed by %+.1f%% (%s bounds %s to %s over %zu and %zu "
	       "runs): its runs can show neither that it stays within the "
	       "maximum %g%% nor that it exceeds it (%s)\n",
	       tc->change_pct, conf_text(tc), lo, hi, tc->n_a, tc->n_b, max,
	       g->advice		  ? g->advice
	       : tc->n_a < 6 || tc->n_b < 6
		       ? "10 runs a side: rlprof run --repeat 10, or rlprof "
			 "compare, which interleaves the two programs"
		       : "more runs, on a quieter machine, or rlprof compare, "
			 "which interleaves the two programs");
}

void rl_gate_time(struct rl_gate *g, const char *name,
		  const struct rl_time_cmp *tc, double max)
{
	char msg[320], ta[32], tb[32];

	g->n_checks++;
	if (isnan(tc->change_pct)) {
		rl_gate_fail(g, name,
			     "has no time on one of the two sides: its change "
			     "cannot be judged");
		return;
	}
	g->n_untested += !tc->tested;
	if (tc->verdict == RL_CHANGE_WORSE) {
		rl_fmt_seconds(ta, sizeof ta, tc->a_s);
		rl_fmt_seconds(tb, sizeof tb, tc->b_s);
		if (tc->tested)
			snprintf(msg, sizeof msg,
				 "takes %.1f%% more time than in %s (medians "
				 "of %zu and %zu runs: %s -> %s; at least "
				 "%+.1f%% at %s confidence), over the "
				 "maximum %g%%",
				 tc->change_pct, old_name(g), tc->n_a, tc->n_b,
				 ta, tb, tc->lo_pct, conf_text(tc), max);
		else
			snprintf(msg, sizeof msg,
				 "takes %.1f%% more time than in %s (%s -> "
				 "%s, one run each, untested), over the "
				 "maximum %g%%",
				 tc->change_pct, old_name(g), ta, tb, max);
		rl_gate_fail(g, name, msg);
	} else if (tc->unsure) {
		g->n_unsure++;
		say_unsure(g, name, tc, max);
	}
}

void rl_gate_work(struct rl_gate *g, const char *name,
		  const struct rl_report_region *a,
		  const struct rl_report_region *b, bool bytes)
{
	struct rl_work_diff d[RL_WORK_FIGURES];
	char msg[1024], one[160];
	size_t n, at;

	if (!rl_work_comparable(a, b))
		return;
	g->n_checks++;
	g->n_work++;
	if (!(n = rl_work_compare(a, b, bytes, d)))
		return;
	at = (size_t)snprintf(msg, sizeof msg,
			      "does other work than in %s (counted by the "
			      "simulator, exact):",
			      old_name(g));
	for (size_t k = 0; k < n && at < sizeof msg; k++) {
		rl_work_diff_format(one, sizeof one, &d[k]);
		at += (size_t)snprintf(msg + at, sizeof msg - at, "%s %s",
				       k ? "," : "", one);
	}
	rl_gate_fail(g, name, msg);
}

void rl_gate_bytes_note(const struct rl_gate *g, bool bytes)
{
	if (g->n_work && !bytes && !g->quiet)
		printf("note: counted flops compared, bytes not: the program "
		       "ran several threads, which the simulator interleaves "
		       "differently from run to run in caches they share\n");
}

void rl_gate_untested_note(const struct rl_gate *g)
{
	if (g->n_untested && !g->quiet)
		printf("note: %zu region%s compared on one run a side, at face "
		       "value, untested: rlprof run --repeat 10 on both sides "
		       "gives the gate its test\n",
		       g->n_untested, g->n_untested == 1 ? "" : "s");
}

int rl_gate_end(const struct rl_gate *g)
{
	if (g->n_failed) {
		printf("%zu of %zu checks failed\n", g->n_failed, g->n_checks);
		return RL_EXIT_FAILURE;
	}
	if (g->n_unsure) {
		printf("not enough evidence: %zu of %zu checks could not be "
		       "decided\n",
		       g->n_unsure, g->n_checks);
		return RL_EXIT_UNSURE;
	}
	if (!g->quiet)
		printf("all %zu checks hold\n", g->n_checks);
	return RL_EXIT_OK;
}
