/*
 * The one place that chooses which of a machine model's roofs a figure is
 * held against (roof_choice.h): the thread count of a row's roofs, the
 * lookups at exactly that count and at the nearest count, and the ceiling
 * a row's rate sits near.
 */
#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/roof_choice.h"

unsigned rl_roof_thread_distance(unsigned a, unsigned b)
{
	return a > b ? a - b : b - a;
}

bool rl_roof_nearer(unsigned have, unsigned best, unsigned want)
{
	unsigned dh = rl_roof_thread_distance(have, want),
		 db = rl_roof_thread_distance(best, want);
	return dh < db || (dh == db && have < best);
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
			if (!best || rl_roof_nearer(b->threads, best, threads))
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
		if (!best || rl_roof_nearer(c->threads, best, threads))
			best = c->threads;
	}
	return best;
}

/* ---- at exactly a row's count ------------------------------------------ */

const struct rl_bw_roof *rl_roof_bw_at(const struct rl_machine *m,
				       const char *level, unsigned threads)
{
	for (size_t i = 0; i < m->n_bw && i < RL_MACHINE_MAX_BW; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		if (b->threads == threads && strcmp(b->level, level) == 0 &&
		    b->stream_gbs > 0)
			return b;
	}
	return NULL;
}

const struct rl_compute_roof *rl_roof_peak_at(const struct rl_machine *m,
					      const char *prec,
					      unsigned threads)
{
	const struct rl_compute_roof *p = NULL;

	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++) {
		const struct rl_compute_roof *x = &m->compute[i];
		if (strcmp(x->kind, "peak") != 0 ||
		    strcmp(x->precision, prec) != 0 || !(x->gflops > 0) ||
		    x->threads != threads)
			continue;
		if (!p || x->gflops > p->gflops)
			p = x;
	}
	return p;
}

const struct rl_compute_roof *rl_roof_compute_at(const struct rl_machine *m,
						 const char *prec,
						 unsigned width, int fma,
						 unsigned threads)
{
	const struct rl_compute_roof *best = NULL;

	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if ((strcmp(c->kind, "peak") && strcmp(c->kind, "scalar")) ||
		    strcmp(c->precision, prec) || !(c->gflops > 0) ||
		    rl_roof_width(c) != width || rl_roof_fma(c) != fma ||
		    c->threads != threads)
			continue;
		if (!best || c->gflops > best->gflops)
			best = c;
	}
	return best;
}

/* ---- at the nearest count ---------------------------------------------- */

const struct rl_bw_roof *rl_roof_bw_nearest(const struct rl_machine *m,
					    const char *level,
					    unsigned threads)
{
	const struct rl_bw_roof *best = NULL;
	if (!m || !level)
		return NULL;
	for (size_t i = 0; i < m->n_bw && i < RL_MACHINE_MAX_BW; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		if (strcmp(b->level, level) || !(b->stream_gbs > 0))
			continue;
		if (!best || rl_roof_nearer(b->threads, best->threads, threads))
			best = b;
	}
	return best;
}

const struct rl_compute_roof *rl_roof_peak_nearest(const struct rl_machine *m,
						   const char *precision,
						   unsigned threads)
{
	const struct rl_compute_roof *best = NULL;
	if (!m || !precision)
		return NULL;
	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (strcmp(c->kind, "peak") || strcmp(c->precision, precision) ||
		    !(c->gflops > 0))
			continue;
		if (!best || rl_roof_nearer(c->threads, best->threads, threads) ||
		    (c->threads == best->threads && c->gflops > best->gflops))
			best = c;
	}
	return best;
}

/* ---- the ceiling a row's rate sits near (the diagnosis) ----------------- */

/* The single-chain, add-only (or, width unknown, scalar) ceiling of the
 * row's precision and width (and FMA-ness, when counted) that the
 * attained rate sits near (within 25 %), among those measured with the
 * thread count closest to the row's; NULL when none. */
const struct rl_compute_roof *rl_near_ceiling(const struct rl_region_row *row,
					      const struct rl_machine *m,
					      const char *prec)
{
	/* one chain of adds or of multiplies first (a reduction built
	 * without reassociation), then the FMA chain and add-only */
	static const char *const kinds[] = {"add-chain", "mul-chain",
					    "single-chain", "add-only",
					    "scalar"};
	const struct rl_compute_roof *best = NULL;
	double best_dist = log(1.25);
	int min_dt[5] = {-1, -1, -1, -1, -1};
	int nk = row->code_width ? 4 : 5;

	if (!m || !rl_known(row->gflops) || !(row->gflops > 0))
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE;
		     i++) {
			const struct rl_compute_roof *c = &m->compute[i];
			int k = 0;
			while (k < nk && strcmp(c->kind, kinds[k]) != 0)
				k++;
			if (k == nk || strcmp(c->precision, prec) != 0 ||
			    !(c->gflops > 0) ||
			    (row->code_width &&
			     rl_roof_width(c) != row->code_width))
				continue;
			/* and of its FMA-ness, when counted: a multiply-add
			 * chain is not an FMA chain */
			if (rl_known(row->fma_share) && rl_roof_fma(c) >= 0 &&
			    k >= 2 && strcmp(c->kind, "add-only") != 0 &&
			    rl_roof_fma(c) != (row->fma_share > 0.5))
				continue;
			int dt = (int)rl_roof_thread_distance(
				c->threads, row->roof_threads ? row->roof_threads
							      : row->n_threads);
			if (pass == 0) {
				if (min_dt[k] < 0 || dt < min_dt[k])
					min_dt[k] = dt;
				continue;
			}
			double dist = fabs(log(row->gflops / c->gflops));
			/* a dot product: a multiply feeding each add of the
			 * chain, two flops per step */
			if (k < 2 && fabs(log(row->gflops / (2 * c->gflops))) < dist)
				dist = fabs(log(row->gflops / (2 * c->gflops)));
			if (dt == min_dt[k] && dist <= best_dist) {
				best = c;
				best_dist = dist;
			}
		}
	}
	return best;
}
