/* The gate's verdict lines (render_gate.h). */
#include <math.h>
#include <stdio.h>

#include "common/fmt_seconds.h"
#include "common/term_text.h"
#include "render/render_gate.h"

void rl_render_gate_fail(const char *name, const char *rest)
{
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

void rl_render_gate_slower(const char *name, const struct rl_time_cmp *tc,
			   double max, const char *old_name)
{
	char msg[320], ta[32], tb[32];

	rl_fmt_seconds(ta, sizeof ta, tc->a_s);
	rl_fmt_seconds(tb, sizeof tb, tc->b_s);
	if (tc->tested)
		snprintf(msg, sizeof msg,
			 "takes %.1f%% more time than in %s (medians "
			 "of %zu and %zu runs: %s -> %s; at least "
			 "%+.1f%% at %s confidence), over the "
			 "maximum %g%%",
			 tc->change_pct, old_name, tc->n_a, tc->n_b, ta, tb,
			 tc->lo_pct, conf_text(tc), max);
	else
		snprintf(msg, sizeof msg,
			 "takes %.1f%% more time than in %s (%s -> "
			 "%s, one run each, untested), over the "
			 "maximum %g%%",
			 tc->change_pct, old_name, ta, tb, max);
	rl_render_gate_fail(name, msg);
}

void rl_render_gate_unsure(const char *name, const struct rl_time_cmp *tc,
			   double max, const char *advice)
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
	       advice			  ? advice
	       : tc->n_a < 6 || tc->n_b < 6
		       ? "10 runs a side: rlprof run --repeat 10, or rlprof "
			 "compare, which interleaves the two programs"
		       : "more runs, on a quieter machine, or rlprof compare, "
			 "which interleaves the two programs");
}

void rl_render_gate_work(const char *name, const struct rl_work_diff *d,
			 size_t n, const char *old_name)
{
	char msg[1024], one[160];
	size_t at;

	at = (size_t)snprintf(msg, sizeof msg,
			      "does other work than in %s (counted by the "
			      "simulator, exact):",
			      old_name);
	for (size_t k = 0; k < n && at < sizeof msg; k++) {
		rl_work_diff_format(one, sizeof one, &d[k]);
		at += (size_t)snprintf(msg + at, sizeof msg - at, "%s %s",
				       k ? "," : "", one);
	}
	rl_render_gate_fail(name, msg);
}

void rl_render_gate_bytes_note(void)
{
	printf("note: counted flops compared, bytes not: the program "
	       "ran several threads, which the simulator interleaves "
	       "differently from run to run in caches they share\n");
}

void rl_render_gate_untested_note(size_t n)
{
	printf("note: %zu region%s compared on one run a side, at face "
	       "value, untested: rlprof run --repeat 10 on both sides "
	       "gives the gate its test\n",
	       n, n == 1 ? "" : "s");
}

void rl_render_gate_failed(size_t n_failed, size_t n_checks)
{
	printf("%zu of %zu checks failed\n", n_failed, n_checks);
}

void rl_render_gate_undecided(size_t n_unsure, size_t n_checks)
{
	printf("not enough evidence: %zu of %zu checks could not be "
	       "decided\n",
	       n_unsure, n_checks);
}

void rl_render_gate_held(size_t n_checks)
{
	printf("all %zu checks hold\n", n_checks);
}
