/* rlprof run --loops: the hot loops' table under the regions' (names
 * whole, figures in columns that fit 100, nested loops indented). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/render_loop_table.h"
#include "common/fmt_seconds.h"
#include "common/term_text.h"
#include "results/run_results.h"

static void human(uint64_t v, char *buf, size_t len)
{
	if (v >= 1000000000ull)
		snprintf(buf, len, "%.1fG", (double)v / 1e9);
	else if (v >= 1000000ull)
		snprintf(buf, len, "%.1fM", (double)v / 1e6);
	else if (v >= 10000ull)
		snprintf(buf, len, "%.1fk", (double)v / 1e3);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* The samples of loop id (inclusive) in the thread that has most of
 * them (threads paired with the counts: pair_samples), else all of
 * them (all, when no thread is known). */
static uint64_t longest_thread(const struct rl_loop_figures *x, size_t id,
			       uint64_t all)
{
	uint64_t most = 0;
	bool any = false;

	for (size_t t = 0; t < x->n_thr; t++)
		if (x->thr[t].samples_incl) {
			any = true;
			if (x->thr[t].samples_incl[id] > most)
				most = x->thr[t].samples_incl[id];
		}
	return any ? most : all;
}

/* Under RL_LOOP_MIN_SAMPLES samples no single rate: the interval the time's
 * error allows (one standard error each side), as the report's
 * diagnosis gives it: "1.2-3.4", ">=1.2" when the error is the time. */
static void rate_interval(char *buf, size_t len, double flops, double t,
			  double e)
{
	if (t > e)
		snprintf(buf, len, "%.2g-%.2g", flops / (t + e) * 1e-9,
			 flops / (t - e) * 1e-9);
	else
		snprintf(buf, len, ">=%.2g", flops / (t + e) * 1e-9);
}

/* the loop column: the table fits 100 columns */
#define NAME_COLS 36
#define NAME_COLS_S "36"

/* The name whole, indented by depth: one too long for its column stands
 * on a line of its own, its figures on the next; returns the padding
 * that ends its column. */
static int put_name(const char *label, int ind)
{
	int pad;

	printf("  %*s", ind, "");
	rl_term_put(stdout, label);
	pad = NAME_COLS - ind - (int)rl_term_width(label);
	if (pad < 0) {
		printf("\n  ");
		pad = NAME_COLS;
	}
	return pad;
}

/* The loops whose calls add to their counts, with their totals (Advisor's
 * "total"): flops and DRAM bytes of the loop, its nested loops and the
 * calls made from inside them, as shares of the program's. */
static void print_totals(const struct rl_loop_figures *x)
{
	uint64_t total[RS_NSLOTS], tf, td;
	size_t shown = 0;

	rl_loops_totals(x, total);
	tf = rl_loops_flops(total);
	td = rl_loops_dram(total, x->levels);
	for (size_t i = 0; i < x->l.n; i++) {
		const uint64_t *w = x->with_calls[i + 1];
		uint64_t f = rl_loops_flops(w), d = rl_loops_dram(w, x->levels);
		char label[1024], a[16], c[16], pf[16] = "-", pd[16] = "-";
		int ind = 2 * x->l.v[i].depth;
		if (!rl_loops_total_shown(x, i, &shown))
			continue;
		if (shown == 1)
			printf("\nloops with the functions they call (total: the "
			       "loop, its nested loops and the calls made from "
			       "inside them until they returned, with the other "
			       "threads' work meanwhile (an OpenMP team's); "
			       "simulated counts, no time: the samples have no "
			       "call stacks)\n  %-" NAME_COLS_S "s %8s "
			       "%7s %8s %7s\n", "loop", "flops", "%flops",
			       "DRAM B", "%DRAM");
		rl_loop_name(&x->l, i, label, sizeof label);
		human(f, a, sizeof a);
		human(d, c, sizeof c);
		if (tf)
			snprintf(pf, sizeof pf, "%.1f%%",
				 100.0 * (double)f / (double)tf);
		if (td)
			snprintf(pd, sizeof pd, "%.1f%%",
				 100.0 * (double)d / (double)td);
		printf("%*s %8s %7s %8s %7s\n", put_name(label, ind), "", a,
		       pf, c, pd);
	}
}

void rl_loop_table_print(const struct rl_loop_figures *x)
{
	uint64_t total[RS_NSLOTS], tf;
	size_t shown = 0, n_ran = 0;
	bool st = rl_loops_sampled(x);
	char rule[256];

	rl_loops_totals(x, total);
	tf = rl_loops_flops(total);
	printf("\nloops (%s%s%s; inclusive of nested loops; DIR/loops.json "
	       "has them all)\n",
	       x->counting ? "counts simulated" : "",
	       x->counting && st ? ", " : "",
	       st ? "time sampled natively, +- one standard error" : "");
	printf("  %-" NAME_COLS_S "s %9s %8s %6s %8s %8s %8s %7s\n", "loop",
	       "time", "+-", "%time", "flops", "GFLOP/s", "DRAM B",
	       "AI DRAM");
	for (size_t i = 0; i < x->l.n; i++) {
		const uint64_t *s = x->incl[i + 1];
		uint64_t f = rl_loops_flops(s), d = rl_loops_dram(s, x->levels);
		uint64_t ns = st ? x->samples_incl[i + 1] : 0;
		char label[1024], a[16], c[16], ai[16];
		char tm[16] = "-", te[16] = "-", pt[16] = "-", gf[32] = "-";
		double err, t = rl_loops_time(x, i + 1, &err);
		int ind = 2 * x->l.v[i].depth, pad;
		if (!rl_loops_ran(x, i))
			continue;
		n_ran++;
		if (!x->is_hot[i])
			continue;
		shown++;
		rl_loop_name(&x->l, i, label, sizeof label);
		if (st) {
			rl_fmt_seconds_fixed(tm, sizeof tm, t);
			rl_fmt_seconds_fixed(te, sizeof te, err);
			snprintf(pt, sizeof pt, "%.1f%%",
				 100.0 * (double)ns / (double)x->samples.total);
			/* the rate as the report's row has it: over the
			 * time of the thread that ran it longest */
			uint64_t nl = longest_thread(x, i + 1, ns);
			double tl = (double)nl * (double)x->samples.period_ns * 1e-9;
			if (nl < RL_LOOP_MIN_SAMPLES && x->counting && f && tl > 0)
				rate_interval(gf, sizeof gf, (double)f, tl,
					      sqrt((double)nl) *
						      (double)x->samples.period_ns *
						      1e-9);
			else if (nl < RL_LOOP_MIN_SAMPLES)
				snprintf(gf, sizeof gf, "-");
			else if (x->counting && tl > 0)
				snprintf(gf, sizeof gf, "%.3g",
					 (double)f / tl * 1e-9);
		}
		if (x->counting) {
			human(f, a, sizeof a);
			human(d, c, sizeof c);
			if (d)
				snprintf(ai, sizeof ai, "%.3g",
					 (double)f / (double)d);
			else
				snprintf(ai, sizeof ai, "-");
		} else {
			snprintf(a, sizeof a, "-");
			snprintf(c, sizeof c, "-");
			snprintf(ai, sizeof ai, "-");
		}
		pad = put_name(label, ind);
		printf("%*s %9s %8s %6s %8s %8s %8s %7s\n", pad, "", tm, te,
		       pt, a, gf, c, ai);
	}
	if (x->counting || st) {
		/* the rest of the run: the hot rule's whole is every sample,
		 * so what no loop holds is shown, not dropped */
		char a[16] = "-", c[16] = "-";
		char tm[3][16] = {"", "", ""}, te[3][16] = {"", "", ""};
		char pt[3][16] = {"", "", ""};
		uint64_t ns[3] = {st ? x->samples.self[0] : 0,
				  x->samples.elsewhere, x->samples.total};
		double period = (double)x->samples.period_ns * 1e-9;
		for (int k = 0; st && k < 3; k++) {
			rl_fmt_seconds_fixed(tm[k], sizeof tm[k],
					     (double)ns[k] * period);
			rl_fmt_seconds_fixed(te[k], sizeof te[k],
					     sqrt((double)ns[k]) * period);
			snprintf(pt[k], sizeof pt[k], "%.1f%%",
				 100.0 * (double)ns[k] /
					 (double)x->samples.total);
		}
		if (x->counting) {
			human(rl_loops_flops(x->self[0]), a, sizeof a);
			human(rl_loops_dram(x->self[0], x->levels), c, sizeof c);
		}
		printf("  %-" NAME_COLS_S "s %9s %8s %6s %8s %8s %8s\n",
		       "(outside loops)", tm[0], te[0], pt[0], a, "", c);
		if (st) /* its counts are in the rows of the code that
			   called it */
			printf("  %-" NAME_COLS_S "s %9s %8s %6s %8s %8s %8s\n",
			       "(other code)", tm[1], te[1], pt[1], "-", "",
			       "-");
		if (x->counting) {
			human(tf, a, sizeof a);
			human(rl_loops_dram(total, x->levels), c, sizeof c);
		}
		printf("  %-" NAME_COLS_S "s %9s %8s %6s %8s %8s %8s\n",
		       "(program)", tm[2], te[2], pt[2], a, "", c);
	}
	rl_loops_hot_rule(x, rule, sizeof rule);
	printf("  %zu of %zu loops ran; shown (and rows of the report): %s\n",
	       n_ran, x->l.n, rule);
	if (st)
		printf("  an indented row is a loop nested in the row above it, "
		       "its figures inside that row's; the outermost rows, "
		       "(outside loops) and (other code) add up to the "
		       "program\n");
	if (st)
		printf("  time: %llu samples (software CPU clock, one per %.3g "
		       "ms of a thread's CPU time in user space, %u thread%s; "
		       "%llu in other code: shared libraries, the loader%s; "
		       "the program's CPU time %.3f s, kernel included); a "
		       "loop's time is its samples x the period, %%time its "
		       "share of all the samples; GFLOP/s: simulated flops / "
		       "the time of the thread that ran it longest (as the "
		       "report's row), under %d samples there only the interval its time's "
		       "error allows\n",
		       (unsigned long long)x->samples.total,
		       (double)x->samples.period_ns * 1e-6, x->samples.threads,
		       x->samples.threads == 1 ? "" : "s",
		       (unsigned long long)x->samples.elsewhere,
		       x->samples.lost ? ", some lost" : "",
		       (double)x->samples.cpu_ns * 1e-9, RL_LOOP_MIN_SAMPLES);
	else if (x->sample_why[0])
		printf("  no time per loop: %s\n", x->sample_why);
	if (x->calls_counted)
		print_totals(x);
}

