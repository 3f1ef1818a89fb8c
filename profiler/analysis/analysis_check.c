/*
 * The self-check (analysis.h; README "Mix roofs, ISA ceilings and the
 * self-check"): a region above its bound roof by more than 5 % cannot be
 * where physics says it is, so one of the figures is wrong. The finding
 * names the likeliest cause from what rlprof knows, in this order:
 *   short-region       under 1 ms in all or 10 us per call: the timer,
 *                      the begin/end cost and one-time effects dominate;
 *   cache-capacity     its working set (counted bytes per call, per
 *                      thread) lies between a cache level's claimed
 *                      capacity (what the simulator models) and the one
 *                      the probe measured: the data may stay in cache
 *                      natively while counted as going further;
 *   mix-outside-probe  its read/write mix lies outside the probed points;
 *   probe-doubt        the bandwidth roof or compute ceiling it is
 *                      held against is in doubt: the probe measured it
 *                      again and it still contradicted physics or the
 *                      other roofs, or was taken only while another
 *                      thread shared the core (kept with its reason in
 *                      the model);
 *   stale-roof         a DRAM triad taken around the timing run (rlprof
 *                      run, results/roof_check.h) moved more than 105% of
 *                      the model's DRAM roof: the roof is stale;
 *   probe-load         the model was probed under load (1-minute load
 *                      average >= 0.25 per CPU; not when a triad around
 *                      the run was taken: it says more), quickly
 *                      (--quick: fewer trials, lower roofs), or over 30
 *                      days before the run;
 *   roof-moved,        issue 38: a DRAM-bound row placed against a roof
 *   region-moved,      paired with the timing runs (roof_choice.h):
 *   neither-moved      which of the two moved. The roof, when its
 *                      samples spread more than RL_PAIR_AGREE or their
 *                      best is that far from the model's; the region,
 *                      when its slowest run of --repeat sits within
 *                      the roof. Neither: a defect of rlprof, said so
 *                      (the stale-roof and probe-load causes are then
 *                      not this row's: its roof was measured again);
 *   unexplained        none of these: the counts or the roof are off.
 * Every cause that applies is listed, the likeliest first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/roof_choice.h"
#include "common/rl_error.h"

#define SHORT_TOTAL_S 1e-3
#define SHORT_CALL_S 1e-5
#define LOAD_PER_CPU 0.25
#define STALE_DAYS 30.0

static void human_bytes(char *b, size_t n, double x)
{
	if (x >= 1024.0 * 1024 * 1024)
		snprintf(b, n, "%.3g GiB", x / (1024.0 * 1024 * 1024));
	else if (x >= 1024.0 * 1024)
		snprintf(b, n, "%.3g MiB", x / (1024.0 * 1024));
	else
		snprintf(b, n, "%.3g KiB", x / 1024.0);
}

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ", NAN unparsable. */
static double parse_utc(const char *s)
{
	struct tm tm;
	char *end;

	memset(&tm, 0, sizeof tm);
	if (!s || !(end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)))
		return NAN;
	return (double)timegm(&tm);
}

/* The working set per call and per thread: the largest counted bytes
 * beyond L1 (what does not fit a level crosses the next boundary). */
static double working_set(const struct rl_region_row *row)
{
	double ws = NAN;
	unsigned t = row->n_threads ? row->n_threads : 1;

	for (int l = 1; l < RL_LEVELS; l++)
		if (rl_known(row->level_bytes[l]) &&
		    (isnan(ws) || row->level_bytes[l] > ws))
			ws = row->level_bytes[l];
	if (isnan(ws) || row->calls == 0)
		return NAN;
	return ws / (double)row->calls / t;
}

/* The bandwidth roof the row is held against (rl_roof_threads chose its
 * count, roof_choice.c), when that roof carries a doubt; NULL otherwise:
 * a doubt on another count's roof of the level is not this row's. */
static const struct rl_bw_roof *doubtful_roof(const struct rl_region_row *row)
{
	const struct rl_bw_roof *b = row->roof_bw;
	return b && b->doubt[0] && row->bound_roof &&
			       !strcmp(b->level, row->bound_roof)
		       ? b
		       : NULL;
}

struct causes {
	FILE *o;
	const char *first;
	int n;
};

static FILE *cause(struct causes *c, const char *key)
{
	if (!c->first)
		c->first = key;
	fputs(c->n++ == 0 ? "likeliest cause: " : "; also possible: ", c->o);
	return c->o;
}

/* Which of the paired roof and the region moved (the top). */
static void paired_causes(struct causes *c, const struct rl_region_row *row,
			  const struct rl_pair_figure *pf)
{
	struct rl_row_interval iv;
	const char *op = rl_pair_op_name(pf->op);
	double spread = (pf->best - pf->lo) / pf->best,
	       off = fabs(pf->best / pf->model - 1);
	int roof_moved = spread > RL_PAIR_AGREE || off > RL_PAIR_AGREE;
	int region_moved;

	rl_row_interval(row, &iv);
	region_moved = iv.kind != RL_INTERVAL_NONE && rl_known(iv.roof_pct.lo) &&
		       iv.roof_pct.lo <= 100;
	if (roof_moved)
		fprintf(cause(c, "roof-moved"),
			"the roof moved: the DRAM %s on %u thread%s read "
			"%.1f-%.1f GB/s over %u sample%s around the timing "
			"runs (the model's %.1f): the roof is their best, and "
			"the region may have run in a faster moment than any "
			"sample (more runs: --repeat 10)",
			op, pf->threads, pf->threads > 1 ? "s" : "", pf->lo,
			pf->best, pf->n, pf->n > 1 ? "s" : "", pf->model);
	if (region_moved)
		fprintf(cause(c, "region-moved"),
			"the region moved: its time over %u runs spans "
			"%.3g-%.3g ms, and its slowest run sits at %.0f%% of "
			"the roof",
			iv.runs, iv.time_s.lo * 1e3, iv.time_s.hi * 1e3,
			iv.roof_pct.lo);
	if (roof_moved || region_moved)
		return;
	fprintf(cause(c, "neither-moved"),
		"neither moved: the DRAM %s on %u thread%s held at %.1f GB/s "
		"over %u sample%s around the timing runs (within %.0f%%; "
		"the model's %.1f) and ",
		op, pf->threads, pf->threads > 1 ? "s" : "", pf->best, pf->n,
		pf->n > 1 ? "s" : "", spread * 100, pf->model);
	if (iv.kind != RL_INTERVAL_NONE)
		fprintf(c->o, "so did the region (even its slowest of %u runs "
			"is at %.0f%%)", iv.runs, iv.roof_pct.lo);
	else
		fputs("the region was timed once (--repeat for its "
		      "interval)", c->o);
	fputs(": the counted bytes or the roof's kernels are off, a defect "
	      "of rlprof to report", c->o);
}

int rl_self_check(const struct rl_report *rep, struct rl_region_row *row,
		  double run_start_s)
{
	const struct rl_machine *m = rep->machine;
	struct causes c = {NULL, NULL, 0};
	char *buf = NULL, a[32], b[32], d[32];
	size_t len = 0;
	double ws;

	if (!rl_known(row->roof_pct) || row->roof_pct <= RL_CHECK_PCT || !m)
		return 0;
	if (!(c.o = open_memstream(&buf, &len)))
		return RL_ENOMEM;
	fprintf(c.o, "%.0f%% of %s, above it: ", row->roof_pct,
		row->roof_label ? row->roof_label : "its roof");
	if (row->time_s < SHORT_TOTAL_S ||
	    (row->calls && row->time_s / (double)row->calls < SHORT_CALL_S))
		fprintf(cause(&c, "short-region"),
			"too short to time reliably (%.3g ms in all, %.3g us "
			"per call): make it run 10 ms or more",
			row->time_s * 1e3,
			row->calls ? row->time_s / (double)row->calls * 1e6
				   : NAN);
	const struct rl_pair_figure *pf = rl_pair_for_row(rep, row);
	/* a figure that left the model's roof in place says nothing of
	 * the roof the row is held against: the model's causes apply */
	if (!rl_pair_placed(pf))
		pf = NULL;
	if (pf)
		paired_causes(&c, row, pf);
	ws = working_set(row);
	for (size_t i = 0; rl_known(ws) && i < m->n_levels &&
			   i < RL_MACHINE_MAX_LEVELS; i++) {
		const struct rl_cache_level *lv = &m->levels[i];
		double cl = (double)lv->claimed_bytes,
		       ef = (double)lv->effective_bytes;
		if (!(cl > 0) || !(ef > 0) || !(ws > fmin(cl, ef)) ||
		    !(ws < fmax(cl, ef)))
			continue;
		human_bytes(a, sizeof a, ws);
		human_bytes(b, sizeof b, cl);
		human_bytes(d, sizeof d, ef);
		fprintf(cause(&c, "cache-capacity"),
			"its working set, %s per call and thread, lies between "
			"the %s's claimed capacity (%s, what the simulator "
			"models) and its measured one (%s): the data may stay "
			"in %s natively while counted as going further, or the "
			"reverse",
			a, lv->level, b, d, ef > cl ? "that cache" : "it");
		break;
	}
	if (row->mix_clamped && row->bound == RL_BOUND_MEMORY)
		fprintf(cause(&c, "mix-outside-probe"),
			"its access mix lies outside the probed points, so its "
			"roof is the nearest point's (rlprof probe --force "
			"measures read-only and fill points)");
	if (row->bound == RL_BOUND_MEMORY && row->bound_roof) {
		const struct rl_bw_roof *b = doubtful_roof(row);
		if (b)
			fprintf(cause(&c, "probe-doubt"),
				"the %s roof it is held against (%u thread%s) "
				"is in doubt: %s (rlprof probe --force on a "
				"quieter machine)",
				b->level, b->threads, b->threads > 1 ? "s" : "",
				b->doubt);
	}
	if (row->bound == RL_BOUND_COMPUTE && row->ceiling_roof &&
	    row->ceiling_roof->doubt[0]) {
		const struct rl_compute_roof *cr = row->ceiling_roof;
		fprintf(cause(&c, "probe-doubt"),
			"the %s %s ceiling it is held against (%u thread%s) "
			"is in doubt: %s (rlprof probe --force)",
			cr->name, cr->precision, cr->threads,
			cr->threads > 1 ? "s" : "", cr->doubt);
	}
	{
		const struct rl_roof_check *rc = &rep->roof_check;
		double hi = fmax(rc->before_gbs, rc->after_gbs);
		/* the DRAM triad around the run says more than the load
		 * average at probe time: above the roof, the roof is stale;
		 * at it, the roof held under this run's conditions */
		int checked = rc->taken && rc->roof_gbs > 0;
		int stale_roof = checked && !pf &&
				 hi > RL_ROOF_CHECK_STALE * rc->roof_gbs;
		if (stale_roof)
			fprintf(cause(&c, "stale-roof"),
				"the DRAM roof is stale: a DRAM triad around "
				"this run moved %.1f GB/s, %.0f%% above the "
				"model's %.1f GB/s: rlprof probe --force on a "
				"quiet machine",
				hi, (hi / rc->roof_gbs - 1) * 100,
				rc->roof_gbs);
		int load = !checked && !pf && m->loadavg1 > 0 && m->cores &&
			   m->loadavg1 / m->cores >= LOAD_PER_CPU;
		double probed = parse_utc(m->probed_at);
		double age = rl_known(probed) && run_start_s > 0
				     ? (run_start_s - probed) / 86400
				     : NAN;
		int stale = rl_known(age) && fabs(age) > STALE_DAYS;
		if (!pf && (load || stale || m->quick)) {
			FILE *o = cause(&c, "probe-load");
			fputs("the machine model may understate the roof: it was "
			      "probed", o);
			if (load)
				fprintf(o, " under load (load average %.2f on "
					"%u CPUs)", m->loadavg1, m->cores);
			if (m->quick)
				fprintf(o, "%s with --quick (fewer trials)",
					load ? "," : "");
			if (stale)
				fprintf(o, "%s %.0f days %s the run",
					load || m->quick ? "," : "", fabs(age),
					age > 0 ? "before" : "after");
			fprintf(o, " (at %s): rlprof probe --force on an idle "
				"machine", *m->probed_at ? m->probed_at : "?");
		}
	}
	if (!c.first) {
		c.first = "unexplained";
		fputs(row->basis == RL_BASIS_DECLARED
			      ? "unexplained by what rlprof knows: the declared "
				"flops or bytes, or the roof, are off (count them: "
				"rlprof counters; rlprof probe --force)"
			      : "unexplained by what rlprof knows: the counted "
				"flops or bytes, or the roof, are off (compare "
				"the declared figures, rlprof probe --force)",
		      c.o);
	}
	if (fclose(c.o) != 0 || !buf) {
		free(buf);
		return RL_ENOMEM;
	}
	row->check = buf;
	row->check_cause = c.first;
	return 0;
}
