/* Process-scope counts of a region added to its counts (results.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/name_index.h"
#include "results/run_results.h"
#include "common/rl_error.h"

/* name of a region measured in process scope -> its thread, or SIZE_MAX
 * when another thread of p has calls of a region of that name too. Only
 * those names are indexed (the runtime keeps at most 1024 per process),
 * and every region is looked up once: an index of every name cost a tenth
 * of loading 10^5 regions. */
static int threads_by_name(const struct rl_process_results *p,
			   struct rl_name_index *ix)
{
	for (size_t t = 0; t < p->n_threads; t++)
		for (size_t i = 0; i < p->threads[t].n_regions; i++) {
			const struct rl_region_stats *s = &p->threads[t].regions[i];
			size_t who;
			int rc = 0;

			if (!s->name || !s->scope_calls)
				continue;
			if (!rl_name_index_get(ix, s->name, &who))
				rc = rl_name_index_put(ix, s->name, t);
			else if (who != t)
				rc = rl_name_index_put(ix, s->name, SIZE_MAX);
			if (rc)
				return rc;
		}
	if (!ix->n)
		return 0;
	for (size_t t = 0; t < p->n_threads; t++)
		for (size_t i = 0; i < p->threads[t].n_regions; i++) {
			const struct rl_region_stats *s = &p->threads[t].regions[i];
			size_t who;
			int rc;

			if (!s->name || !s->calls ||
			    !rl_name_index_get(ix, s->name, &who) ||
			    who == t || who == SIZE_MAX)
				continue;
			if ((rc = rl_name_index_put(ix, s->name, SIZE_MAX)))
				return rc;
		}
	return 0;
}

/* The other threads' share of s's process-scope calls added to its own
 * counts: a region's total is the sum over its calls wherever made. */
static int add_others(const struct rl_process_results *p,
		      struct rl_region_stats *s)
{
	int rc;

	if (!s->scope_counters)
		return 0;
	if ((rc = rl_region_counters(s)))
		return rc;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		const struct rl_counter_total *o = &s->scope_counters[c];
		struct rl_counter_total *t = &s->counters[c];

		if (!(s->scope_all >> c & 1) || !(p->provided >> c & 1))
			continue;
		t->value += o->value;
		if (isnan(t->scaled))
			continue; /* the thread's own count is unknown */
		t->scaled += rl_counter_scaled(o->value, o->enabled_ns,
					       o->running_ns);
	}
	return 0;
}

/* A file written before "others": the scope counters are the process's
 * totals over the process-scope calls, which were only the outermost
 * ones of the main thread; they replace the thread's own counts when no
 * other thread has a region of that name, else the rows add up. */
static int apply_totals(struct rl_process_results *p)
{
	struct rl_name_index ix = {0};
	int rc = threads_by_name(p, &ix);

	for (size_t t = 0; t < p->n_threads && !rc; t++)
		for (size_t i = 0; i < p->threads[t].n_regions; i++) {
			struct rl_region_stats *s = &p->threads[t].regions[i];
			size_t who = t;

			if (!s->scope_calls || !s->name || !s->scope_totals)
				continue;
			rl_name_index_get(&ix, s->name, &who);
			if (who != t) {
				s->scope_calls = s->scope_time_ns = 0;
				s->scope_cpu_ns = s->scope_cpu_unknown_ns = 0;
				s->scope_threads = 0;
				s->scope_all = 0;
				continue;
			}
			if (s->scope_threads < 2)
				continue;
			if (s->scope_counters && (rc = rl_region_counters(s)))
				break;
			for (int c = 0; s->scope_counters && c < RL_COUNTER_COUNT;
			     c++)
				if ((s->scope_all >> c & 1) &&
				    (p->provided >> c & 1))
					s->counters[c] = s->scope_counters[c];
		}
	rl_name_index_release(&ix);
	return rc;
}

int rl_results_apply_scope(struct rl_process_results *p)
{
	bool totals = false;
	int rc = 0;

	for (size_t t = 0; t < p->n_threads && !rc; t++)
		for (size_t i = 0; i < p->threads[t].n_regions && !rc; i++) {
			struct rl_region_stats *s = &p->threads[t].regions[i];
			if (s->scope_totals)
				totals = true;
			else if (s->scope_calls)
				rc = add_others(p, s);
		}
	return rc || !totals ? rc : apply_totals(p);
}
