/*
 * The thread count of the roofs a row is held against (analysis.h), chosen
 * once per row: all of its bandwidth roofs, ceilings and peaks are then of
 * that count, so a table row and its point on the chart never mix a
 * 1-thread DRAM roof with a 2-thread L3 one.
 */
#include <string.h>

#include "analysis/analysis.h"

static unsigned tdist(unsigned a, unsigned b)
{
	return a > b ? a - b : b - a;
}

static int nearer(unsigned have, unsigned best, unsigned want)
{
	return tdist(have, want) < tdist(best, want) ||
	       (tdist(have, want) == tdist(best, want) && have < best);
}

static int has_peak(const struct rl_machine *m, unsigned t)
{
	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++)
		if (m->compute[i].threads == t &&
		    strcmp(m->compute[i].kind, "peak") == 0 &&
		    m->compute[i].gflops > 0)
			return 1;
	return 0;
}

/* Thread counts with a DRAM roof and a peak first (a row needs both to
 * be placed), then with a DRAM roof, then with a peak. */
unsigned rl_roof_threads(const struct rl_machine *m, unsigned threads)
{
	if (!m)
		return 0;
	if (!threads)
		threads = 1;
	if (m->cores && threads > m->cores)
		threads = m->cores;
	for (int pass = 0; pass < 2; pass++) {
		unsigned best = 0;
		for (size_t i = 0; i < m->n_bw && i < RL_MACHINE_MAX_BW; i++) {
			const struct rl_bw_roof *b = &m->bw[i];
			if (strcmp(b->level, "DRAM") != 0 ||
			    !(b->stream_gbs > 0) || !b->threads ||
			    (pass == 0 && !has_peak(m, b->threads)))
				continue;
			if (!best || nearer(b->threads, best, threads))
				best = b->threads;
		}
		if (best)
			return best;
	}
	unsigned best = 0;
	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (strcmp(c->kind, "peak") != 0 || !(c->gflops > 0) ||
		    !c->threads)
			continue;
		if (!best || nearer(c->threads, best, threads))
			best = c->threads;
	}
	return best;
}
