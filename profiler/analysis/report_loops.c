/*
 * rlprof run --loops: the rows of the hot loops (their records were added
 * to the results by results/results_loops.c and placed like any region's).
 * Here each is marked as a loop, its time's sampling error is computed
 * (a sample stands for one period of a thread's CPU time: n samples are
 * n x period, +- sqrt(n) x period), and its method line says how it was
 * measured. A row of fewer than RL_LOOP_MIN_SAMPLES samples keeps its
 * point but gets no % of roof: its time is too uncertain.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fmt_seconds.h"
#include "analysis/analysis.h"
#include "analysis/report.h"
#include "common/rl_error.h"

static char *dup_or_null(const char *s, int *bad)
{
	char *d = s ? strdup(s) : NULL;
	*bad |= s && !d;
	return d;
}

static int copy_meta(const struct rl_run_results *res, struct rl_report *rep)
{
	int bad = 0;

	/* the rule and the time, hot loops or none */
	rep->loops_rule = dup_or_null(res->loops_rule, &bad);
	rep->loops_time = res->loops_time;
	if (!res->n_loops)
		return bad ? RL_ENOMEM : 0;
	if (!(rep->loops = calloc(res->n_loops, sizeof *rep->loops)))
		return RL_ENOMEM;
	rep->n_loops = res->n_loops;
	for (size_t i = 0; i < res->n_loops; i++) {
		const struct rl_loop_meta *m = &res->loops[i];
		struct rl_loop_meta *d = &rep->loops[i];
		*d = *m;
		d->name = dup_or_null(m->name, &bad);
		d->function = dup_or_null(m->function, &bad);
		d->file = dup_or_null(m->file, &bad);
		d->source = dup_or_null(m->source, &bad);
		d->parent = dup_or_null(m->parent, &bad);
		d->no_time = dup_or_null(m->no_time, &bad);
		d->inlined = dup_or_null(m->inlined, &bad);
		d->enclosing = dup_or_null(m->enclosing, &bad);
	}
	return bad ? RL_ENOMEM : 0;
}

static int prepend(char **line, const char *text)
{
	size_t n = strlen(text) + strlen(*line) + 1;
	char *m = malloc(n);

	if (!m)
		return RL_ENOMEM;
	snprintf(m, n, "%s%s", text, *line);
	free(*line);
	*line = m;
	return 0;
}

/* A loop whose code carries one floating-point chain: its diagnosis
 * made again with that evidence (the analysis placed it as a region,
 * with none: docs/advice.md), keeping what was added after it. */
static int chain_diagnosis(struct rl_report *rep, struct rl_region_row *row)
{
	const struct rl_compute_roof *c;
	char *d, *keep;
	size_t n;

	if (!rep->machine || row->bound == RL_BOUND_UNKNOWN ||
	    row->chains.add + row->chains.mul + row->chains.madd != 1)
		return 0;
	c = rl_near_ceiling(row, rep->machine,
			    row->precision && strcmp(row->precision, "f32") == 0
				    ? "f32" : "f64");
	if (!c || c == row->named_ceiling)
		return 0;
	/* the part of the old diagnosis after what the analysis wrote (an
	 * MPI note) stays */
	d = rl_diagnose(row, rep->machine);
	row->named_ceiling = c;
	n = d ? strlen(d) : 0;
	keep = row->diagnosis && d && strncmp(row->diagnosis, d, n) == 0
		       ? row->diagnosis + n : "";
	free(d);
	if (!(d = rl_diagnose(row, rep->machine)))
		return RL_ENOMEM;
	n = strlen(d) + strlen(keep) + 1;
	{
		char *all = malloc(n);
		if (!all) {
			free(d);
			return RL_ENOMEM;
		}
		snprintf(all, n, "%s%s", d, keep);
		free(d);
		free(row->diagnosis);
		row->diagnosis = all;
	}
	return 0;
}

/* One loop row: its sampling error, method and, under too few samples,
 * no % of roof. */
static int mark_row(struct rl_report *rep, struct rl_region_row *row,
		    const struct rl_loop_meta *m)
{
	char text[1024], where[512], a[32], b[32];
	double n = 0;

	static const char native[] = "time: native run (backend time); ";

	row->loop = m;
	row->time_error_s = NAN;
	row->chains = m->chains;
	/* the loop's time is its own, sampled: said below */
	if (strncmp(row->method, native, sizeof native - 1) == 0)
		memmove(row->method, row->method + sizeof native - 1,
			strlen(row->method) - sizeof native + 2);
	if (m->parent)
		snprintf(where, sizeof where, "in region '%s'", m->parent);
	else
		snprintf(where, sizeof where, "the region it ran in is not "
			 "known (the program has annotated regions)");
	if (isnan(m->period_s)) {
		row->time_s = row->gflops = row->gbs = NAN;
		row->roof_pct = NAN;
		snprintf(text, sizeof text,
			 "loop %s, counts inclusive of its nested loops, "
			 "charged per loop by the simulator; no time: %s; ",
			 where, m->no_time ? m->no_time : "not sampled");
		if (prepend(&row->method, text))
			return RL_ENOMEM;
		free(row->diagnosis);
		snprintf(text, sizeof text,
			 "no time for this loop (%s): its counts and AI stand, "
			 "with no rate and no %% of roof",
			 m->no_time ? m->no_time : "not sampled");
		return (row->diagnosis = strdup(text)) ? 0 : RL_ENOMEM;
	}
	n = nearbyint(row->time_s / m->period_s);
	if (n == 0) { /* a thread with no sample of it: under one period */
		row->time_s = row->gflops = row->gbs = row->roof_pct = NAN;
		snprintf(text, sizeof text,
			 "loop %s, counts inclusive of its nested loops%s; no "
			 "time: no sample of it in this thread (under %g ms of "
			 "its CPU time, or a thread the sampler did not see); ",
			 where, row->simulated ? ", charged per loop by the "
			 "simulator" : "", m->period_s * 1e3);
		if (prepend(&row->method, text))
			return RL_ENOMEM;
		free(row->diagnosis);
		return (row->diagnosis = strdup("no sample of this loop in this "
						"thread: its counts and AI "
						"stand, with no rate and no "
						"% of roof"))
			       ? 0 : RL_ENOMEM;
	}
	row->time_error_s = sqrt(n) * m->period_s;
	rl_fmt_seconds_fixed(a, sizeof a, row->time_error_s);
	rl_fmt_seconds_fixed(b, sizeof b, m->period_s);
	snprintf(text, sizeof text,
		 "loop %s, counts inclusive of its nested loops%s; time: %.0f "
		 "samples of the CPU clock in the native run x %s, +- %s "
		 "(%.0f%%, one standard error); ",
		 where, row->simulated ? ", charged per loop by the simulator"
				       : "",
		 n, b, a, n > 0 ? 100 / sqrt(n) : 100.0);
	if (prepend(&row->method, text))
		return RL_ENOMEM;
	if (n >= RL_LOOP_MIN_SAMPLES)
		return chain_diagnosis(rep, row);
	row->roof_pct = NAN;
	if (row->check) {
		free(row->check);
		row->check = NULL;
		row->check_cause = NULL;
		if (rep->n_checks && row->thread_count)
			rep->n_checks--;
	}
	free(row->diagnosis);
	{
		/* no bare rate: only the interval its time allows (one
		 * standard error each side) */
		char rate[160] = "";
		double t = row->time_s, e = row->time_error_s;
		/* (no flops: no rate to bound) */
		if (row->gflops > 0 && t > 0 && t > e)
			snprintf(rate, sizeof rate, ": %.3g-%.3g GFLOP/s",
				 row->gflops * t / (t + e),
				 row->gflops * t / (t - e));
		else if (row->gflops > 0 && t > 0)
			snprintf(rate, sizeof rate, ": at least %.3g GFLOP/s",
				 row->gflops * t / (t + e));
		row->gflops = row->gbs = NAN;
		snprintf(text, sizeof text,
			 "%.0f sample%s (fewer than %d): its time is known to "
			 "+- %.0f%% only%s, so no single rate and no %% of roof "
			 "is given; run the program longer",
			 n, n == 1 ? "" : "s", RL_LOOP_MIN_SAMPLES,
			 n > 0 ? 100 / sqrt(n) : 100.0, rate);
	}
	return (row->diagnosis = strdup(text)) ? 0 : RL_ENOMEM;
}

void rl_report_loops_time_text(const struct rl_loop_time *t, char *buf,
			       size_t len)
{
	char all[32], in[32], oth[32];
	double n = (double)t->samples;

	if (!len)
		return;
	buf[0] = '\0';
	if (!t->samples || !(t->period_s > 0))
		return;
	rl_fmt_seconds(all, sizeof all, n * t->period_s);
	rl_fmt_seconds(in, sizeof in, (double)t->outside * t->period_s);
	rl_fmt_seconds(oth, sizeof oth, (double)t->other * t->period_s);
	snprintf(buf, len, "of %llu samples (%s of CPU time, every thread): "
		 "%.1f%% (%s) in the program's code outside its loops, "
		 "%.1f%% (%s) in other code (shared libraries such as an "
		 "OpenMP runtime's waits and libc, the loader), in no "
		 "loop's time", (unsigned long long)t->samples, all,
		 100.0 * (double)t->outside / n, in,
		 100.0 * (double)t->other / n, oth);
}

int rl_report_loops_build(const struct rl_run_results *res,
			  struct rl_report *rep)
{
	int rc;

	if ((rc = copy_meta(res, rep)) || !rep->n_loops)
		return rc;
	for (size_t i = 0; i < rep->n_summed; i++) {
		struct rl_region_row *row = &rep->rows[i];
		const struct rl_loop_meta *m = NULL;
		for (size_t k = 0; k < rep->n_loops && !m; k++)
			if (strcmp(rep->loops[k].name, row->region) == 0)
				m = &rep->loops[k];
		if (!m)
			continue;
		if ((rc = mark_row(rep, row, m)))
			return rc;
		for (size_t t = row->thread_first;
		     t < row->thread_first + row->thread_count; t++)
			if ((rc = mark_row(rep, &rep->rows[t], m)))
				return rc;
	}
	return 0;
}
