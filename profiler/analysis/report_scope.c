/* Regions of process scope in the report (report_scope.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/name_index.h"
#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "common/rl_error.h"

void rl_report_scope_free(struct rl_report_scope *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_rows; i++)
		free(s->rows[i].uncounted);
	free(s->rows);
	free(s);
}

static int warn(struct rl_report *r, const char *region, const char *msg)
{
	struct rl_warning *w = realloc(r->warnings,
				       (r->n_warnings + 1) * sizeof *w);
	if (!w)
		return RL_ENOMEM;
	r->warnings = w;
	w += r->n_warnings;
	w->kind = strdup("threads-not-counted");
	w->region = strdup(region);
	w->tid = 0;
	w->message = strdup(msg);
	if (!w->kind || !w->region || !w->message) {
		free(w->kind);
		free(w->region);
		free(w->message);
		return RL_ENOMEM;
	}
	r->n_warnings++;
	return 0;
}

/* Names of counters provided but not covering every thread, or NULL. */
static char *uncounted(uint64_t provided, uint64_t all)
{
	char buf[512] = "";
	size_t n = 0;

	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if ((provided >> c & 1) && !(all >> c & 1) && n + 40 < sizeof buf)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
					      n ? ", " : "",
					      rl_counter_name((enum rl_counter)c));
	return n ? strdup(buf) : NULL;
}

/* What the calls of one summed row add up to. */
struct scope_sum {
	uint64_t time_ns, cpu_ns, cpu_unknown_ns, all, provided;
	uint32_t cpus; /* most CPUs a process could use, 0 unknown */
};

static void add(struct scope_sum *a, struct rl_scope_row *x,
		const struct rl_process_results *pr,
		const struct rl_region_stats *s)
{
	if (!x->process)
		a->all = ~UINT64_C(0);
	x->process = true;
	a->time_ns += s->scope_time_ns;
	a->cpu_ns += s->scope_cpu_ns;
	a->cpu_unknown_ns += s->scope_cpu_unknown_ns;
	a->all &= s->scope_all;
	a->provided |= pr->provided;
	if (s->scope_threads > x->threads_ran)
		x->threads_ran = s->scope_threads;
	if (s->scope_cpus > a->cpus)
		a->cpus = s->scope_cpus;
}

static int finish(struct rl_report *r, size_t g, struct rl_scope_row *x,
		  const struct scope_sum *a)
{
	struct rl_region_row buf;
	const struct rl_region_row *row;
	const char *name;
	char msg[1024];

	if (!x->process)
		return 0;
	row = rl_report_row(r, g, &buf);
	name = row->region;
	/* calls begun while the process had one thread read no CPU clock
	 * (the time backend's region stays ~20 ns): busy threads from the
	 * other calls, no CPU total; under the simulator with native times,
	 * CPU and wall time are the native run's (results_native.c), or the
	 * CPU time unknown where its calls differed */
	x->cpu_s = a->cpu_unknown_ns ? NAN : (double)a->cpu_ns / 1e9;
	x->busy_threads =
		a->time_ns > a->cpu_unknown_ns
			? (double)a->cpu_ns /
				  (double)(a->time_ns - a->cpu_unknown_ns)
			: NAN;
	/* CPU and wall time are read over one window, so the ratio can
	 * only pass the threads that ran or the CPUs by the clocks'
	 * granularity: never show more than either */
	if (x->busy_threads > x->threads_ran && x->threads_ran)
		x->busy_threads = x->threads_ran;
	if (a->cpus && x->busy_threads > a->cpus)
		x->busy_threads = a->cpus;
	x->uncounted = uncounted(a->provided, a->all);
	x->all_counted = !x->uncounted;
	if (x->threads_ran > row->n_threads) {
		struct rl_region_row up = *row;
		up.n_threads = x->threads_ran;
		if (rl_report_row_set(r, g, &up))
			return RL_ENOMEM;
	}
	if (!x->uncounted || x->threads_ran < 2)
		return 0;
	snprintf(msg, sizeof msg,
		 "region '%.200s' counts every thread of the process (begun on "
		 "the main thread outside a parallel region): %u threads ran "
		 "while it was open, but backend '%s' counted %.200s in the "
		 "calling thread only",
		 name, x->threads_ran, r->backend ? r->backend : "?",
		 x->uncounted);
	return warn(r, name, msg);
}

int rl_report_scope_build(const struct rl_run_results *res,
			  struct rl_report *r,
			  const struct rl_name_index *by_name)
{
	struct scope_sum *sums;
	struct rl_report_scope *k;
	int rc = 0;

	if (!(k = calloc(1, sizeof *k)) ||
	    !(k->rows = calloc(r->n_summed ? r->n_summed : 1,
			       sizeof *k->rows)) ||
	    !(sums = calloc(r->n_summed ? r->n_summed : 1, sizeof *sums))) {
		if (k)
			free(k->rows);
		free(k);
		return RL_ENOMEM;
	}
	k->n_rows = r->n_summed;
	r->process_scope = k;
	/* one pass over every region of every thread: a search per summed
	 * row would be quadratic in the regions (10^5 of them at scale) */
	for (size_t g = 0; g < r->n_summed; g++)
		k->rows[g].busy_threads = NAN;
	for (size_t p = 0; p < res->n_procs && !rc; p++) {
		const struct rl_process_results *pr = &res->procs[p];
		for (size_t t = 0; t < pr->n_threads; t++)
			for (size_t i = 0; i < pr->threads[t].n_regions; i++) {
				const struct rl_region_stats *s =
					&pr->threads[t].regions[i];
				size_t g;
				if (s->scope_calls && s->name &&
				    rl_name_index_get(by_name, s->name, &g))
					add(&sums[g], &k->rows[g], pr, s);
			}
	}
	for (size_t g = 0; g < r->n_summed && !rc; g++)
		rc = finish(r, g, &k->rows[g], &sums[g]);
	free(sums);
	return rc;
}
