/* Regions of process scope in the report (report_scope.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "rl_error.h"

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

static int fill(const struct rl_run_results *res, struct rl_report *r,
		size_t g, struct rl_scope_row *x)
{
	const char *name = r->rows[g].region;
	uint64_t time_ns = 0, cpu_ns = 0, cpu_unknown_ns = 0;
	uint64_t all = ~UINT64_C(0), provided = 0;
	char msg[1024];

	for (size_t p = 0; p < res->n_procs; p++) {
		const struct rl_process_results *pr = &res->procs[p];
		for (size_t t = 0; t < pr->n_threads; t++)
			for (size_t i = 0; i < pr->threads[t].n_regions; i++) {
				const struct rl_region_stats *s =
					&pr->threads[t].regions[i];
				if (!s->scope_calls || !s->name ||
				    strcmp(s->name, name) != 0)
					continue;
				x->process = true;
				time_ns += s->scope_time_ns;
				cpu_ns += s->scope_cpu_ns;
				cpu_unknown_ns += s->scope_cpu_unknown_ns;
				all &= s->scope_all;
				provided |= pr->provided;
				if (s->scope_threads > x->threads_ran)
					x->threads_ran = s->scope_threads;
			}
	}
	if (!x->process)
		return 0;
	/* calls begun while the process had one thread read no CPU clock
	 * (the time backend's region stays ~20 ns): busy threads from the
	 * other calls, no CPU total;
	 * under the simulator with native times, the CPU time is
	 * Valgrind's (threads serialised): no busy figure */
	x->cpu_s = cpu_unknown_ns ? NAN : (double)cpu_ns / 1e9;
	x->busy_threads = time_ns > cpu_unknown_ns && !r->rows[g].time_native
				  ? (double)cpu_ns /
					    (double)(time_ns - cpu_unknown_ns)
				  : NAN;
	x->uncounted = uncounted(provided, all);
	x->all_counted = !x->uncounted;
	if (x->threads_ran > r->rows[g].n_threads)
		r->rows[g].n_threads = x->threads_ran;
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
			  struct rl_report *r)
{
	struct rl_report_scope *k;
	int rc = 0;

	if (!(k = calloc(1, sizeof *k)) ||
	    !(k->rows = calloc(r->n_summed ? r->n_summed : 1,
			       sizeof *k->rows))) {
		free(k);
		return RL_ENOMEM;
	}
	k->n_rows = r->n_summed;
	r->process_scope = k;
	for (size_t g = 0; g < r->n_summed && !rc; g++) {
		k->rows[g].busy_threads = NAN;
		rc = fill(res, r, g, &k->rows[g]);
		k->n_process += k->rows[g].process;
	}
	return rc;
}
