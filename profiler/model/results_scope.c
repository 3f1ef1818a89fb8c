/* Process-scope counts of a region made its counts (results.h). */
#include <stdlib.h>
#include <string.h>

#include "results.h"

/* Does a thread of p other than thread `self` have region `name` with
 * calls? */
static bool elsewhere(const struct rl_process_results *p, size_t self,
		      const char *name)
{
	for (size_t t = 0; t < p->n_threads; t++) {
		if (t == self)
			continue;
		for (size_t i = 0; i < p->threads[t].n_regions; i++) {
			const struct rl_region_stats *s =
				&p->threads[t].regions[i];
			if (s->name && s->calls && strcmp(s->name, name) == 0)
				return true;
		}
	}
	return false;
}

void rl_results_apply_scope(struct rl_process_results *p)
{
	for (size_t t = 0; t < p->n_threads; t++)
		for (size_t i = 0; i < p->threads[t].n_regions; i++) {
			struct rl_region_stats *s = &p->threads[t].regions[i];

			if (!s->scope_calls || !s->name)
				continue;
			if (elsewhere(p, t, s->name)) {
				/* both kinds under one name: the threads'
				 * own rows add up, as before */
				s->scope_calls = s->scope_time_ns = 0;
				s->scope_cpu_ns = s->scope_cpu_unknown_ns = 0;
				s->scope_threads = 0;
				s->scope_all = 0;
				continue;
			}
			if (s->scope_threads < 2)
				continue; /* one thread ran: its own counts
					     are the process's */
			for (int c = 0; s->scope_counters && c < RL_COUNTER_COUNT;
			     c++)
				if ((s->scope_all >> c & 1) &&
				    (p->provided >> c & 1))
					s->counters[c] = s->scope_counters[c];
		}
}
