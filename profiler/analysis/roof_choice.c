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
#include "analysis/report_pack.h"

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

const char *const rl_ridge_levels[RL_RIDGE_LEVELS] = {"L1", "L2", "L3", "L4",
							"DRAM"};

void rl_roof_ridges(const struct rl_machine *m, unsigned threads,
		    struct rl_ridge_set *out)
{
	for (int f32 = 0; f32 < 2; f32++)
		out->peak[f32] =
			rl_roof_peak_nearest(m, f32 ? "f32" : "f64", threads);
	for (size_t l = 0; l < RL_RIDGE_LEVELS; l++)
		out->bw[l] = rl_roof_bw_nearest(m, rl_ridge_levels[l], threads);
}

/* ---- the roofs paired with the timing runs (issue 38) ------------------ */

static struct rl_pair_figure *pair_at(struct rl_pair_figure *fig, size_t n,
				      enum rl_pair_op op, unsigned threads)
{
	for (size_t i = 0; i < n; i++)
		if (fig[i].op == op && fig[i].threads == threads)
			return &fig[i];
	return NULL;
}

const struct rl_pair_figure *rl_pair_find(const struct rl_pair_figure *fig,
					  size_t n, enum rl_pair_op op,
					  unsigned threads)
{
	for (size_t i = 0; i < n; i++)
		if (fig[i].op == op && fig[i].threads == threads)
			return &fig[i];
	return NULL;
}

/* The samples of c into figures: best, lowest and count per op and
 * thread count. */
static size_t pair_figures(const struct rl_roof_check *c,
			   struct rl_pair_figure *fig, size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; i < c->n_samples && i < RL_PAIR_MAX_SAMPLES;
	     i++) {
		const struct rl_pair_sample *s = &c->samples[i];
		struct rl_pair_figure *f = pair_at(fig, n, s->op, s->threads);
		if (!(s->gbs > 0) || !isfinite(s->gbs))
			continue;
		if (!f) {
			if (n == max)
				continue;
			f = &fig[n++];
			*f = (struct rl_pair_figure){.op = s->op,
						     .threads = s->threads,
						     .best = s->gbs,
						     .lo = s->gbs};
		}
		f->n++;
		f->best = fmax(f->best, s->gbs);
		f->lo = fmin(f->lo, s->gbs);
	}
	return n;
}

/* What figure f (of fig[i]) does to the model's figure: raise it, lower
 * it, or leave it (rl_roof_pair). */
static enum rl_pair_use pair_use(const struct rl_pair_figure *f, size_t i,
				 uint32_t refuted)
{
	if (f->best >= f->model)
		return RL_PAIR_RAISED;
	if (i < 32 && (refuted >> i & 1u))
		return RL_PAIR_KEPT_REFUTED;
	/* within the samples' own agreement of the model's figure: the same
	 * roof, measured by shorter passes (which read a few % low on a
	 * quiet 2-vCPU guest: 14.9 against 15.7 GB/s on 1 thread), not a
	 * machine that slowed down; lowering there moved a region's % of
	 * roof by 10 points from one demo to the next */
	if (f->best >= f->model * (1 - RL_PAIR_AGREE))
		return RL_PAIR_KEPT_CLOSE;
	if (f->n < RL_PAIR_LOWER_SAMPLES)
		return RL_PAIR_KEPT_FEW;
	if ((f->best - f->lo) / f->best > RL_PAIR_AGREE)
		return RL_PAIR_KEPT_SPREAD;
	return RL_PAIR_LOWERED;
}

double rl_roof_clock(struct rl_machine *out, const struct rl_roof_check *c)
{
	double hi = fmax(c->before_ghz, c->after_ghz), k;

	if (!(out->clock_ghz > 0) || !isfinite(hi) ||
	    !(hi > out->clock_ghz * (1 + RL_CLOCK_RAISE)))
		return 1;
	k = hi / out->clock_ghz;
	for (size_t i = 0; i < out->n_compute && i < RL_MACHINE_MAX_COMPUTE;
	     i++) {
		struct rl_compute_roof *r = &out->compute[i];
		r->gflops *= k;
		r->theoretical_gflops *= k;
		r->load_clock_ghz *= k;
		r->theoretical_load_gflops *= k;
	}
	out->clock_ghz = hi;
	return k;
}

bool rl_pair_placed(const struct rl_pair_figure *f)
{
	return f && (f->use == RL_PAIR_RAISED || f->use == RL_PAIR_LOWERED);
}

size_t rl_roof_pair(const struct rl_machine *m, const struct rl_roof_check *c,
		    struct rl_machine *out, struct rl_pair_figure *fig,
		    size_t max, uint32_t refuted)
{
	size_t n = pair_figures(c, fig, max), used = 0;

	*out = *m;
	for (size_t i = 0; i < out->n_bw && i < RL_MACHINE_MAX_BW; i++) {
		struct rl_bw_roof *b = &out->bw[i];
		struct rl_pair_figure *t, *r;
		int taken = 0;
		if (strcmp(b->level, "DRAM") != 0 || !(b->stream_gbs > 0))
			continue;
		/* a roof never rests on a single pass */
		t = pair_at(fig, n, RL_PAIR_TRIAD, b->threads);
		r = pair_at(fig, n, RL_PAIR_READ, b->threads);
		if (t && t->n < RL_PAIR_MIN_SAMPLES)
			t = NULL;
		if (r && r->n < RL_PAIR_MIN_SAMPLES)
			r = NULL;
		if (t) {
			t->model = b->stream_gbs;
			t->use = pair_use(t, (size_t)(t - fig), refuted);
		}
		if (r) {
			r->model = b->read_gbs;
			r->use = pair_use(r, (size_t)(r - fig), refuted);
		}
		if (!t && !r)
			continue;
		used++;
		if (t && rl_pair_placed(t)) {
			double k = t->best / b->stream_gbs;
			b->stream_gbs = t->best;
			b->moved_gbs = t->best * 32 / 24;
			b->nt_gbs *= k;
			b->write_gbs *= k;
			b->write_nt_gbs *= k;
			b->update_gbs *= k;
			taken = 1;
		}
		if (r && rl_pair_placed(r)) {
			b->read_gbs = r->best;
			taken = 1;
		}
		if (!taken)
			continue;
		b->doubt[0] = '\0';
		snprintf(b->method, sizeof b->method,
			 "paired: best of %u triad and %u read samples "
			 "around the timing runs", t ? t->n : 0, r ? r->n : 0);
	}
	return used ? n : 0;
}

const struct rl_pair_figure *rl_pair_for_row(const struct rl_report *rep,
					     const struct rl_region_row *row)
{
	const struct rl_pair_figure *t, *r;
	double w = row->write_frac[RL_LEVELS - 1];

	if (!rep->n_pair || row->bound != RL_BOUND_MEMORY || !row->roof_bw ||
	    strcmp(row->roof_bw->level, "DRAM") != 0)
		return NULL;
	t = rl_pair_find(rep->pair, rep->n_pair, RL_PAIR_TRIAD,
			 row->roof_threads);
	r = rl_pair_find(rep->pair, rep->n_pair, RL_PAIR_READ,
			 row->roof_threads);
	if (t && !(t->model > 0))
		t = NULL;
	if (r && !(r->model > 0))
		r = NULL;
	/* declared figures and mixes not counted: against the triad */
	if (row->basis == RL_BASIS_DECLARED || !rl_known(w))
		return t;
	return w < 0.125 && r ? r : t ? t : r;
}

uint32_t rl_pair_refuted(const struct rl_report *r,
			 char names[][RL_PAIR_NAME_LEN])
{
	uint32_t bits = 0;
	size_t lowered = 0;

	for (size_t i = 0; i < r->n_pair; i++)
		lowered += r->pair[i].use == RL_PAIR_LOWERED;
	if (!lowered) /* nothing to refute: no pass over 10^6 rows */
		return 0;
	for (size_t k = 0, n = rl_report_n_all(r); k < n; k++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, k, &buf);
		const struct rl_pair_figure *f;
		size_t i;
		if (!rl_known(row->roof_pct) || row->roof_pct <= RL_CHECK_PCT ||
		    row->basis == RL_BASIS_DECLARED || row->time_s < 1e-3 ||
		    !(f = rl_pair_for_row(r, row)) ||
		    f->use != RL_PAIR_LOWERED ||
		    (i = (size_t)(f - r->pair)) >= 32 || (bits >> i & 1u))
			continue;
		bits |= 1u << i;
		snprintf(names[i], RL_PAIR_NAME_LEN, "%s",
			 row->region ? row->region : "?");
	}
	return bits;
}

/* ---- the ceiling a row's rate sits near (the diagnosis) ----------------- */

/* The chain kind the row's code shows (docs/advice.md): one chain and
 * only one, of adds ("add-chain"), of multiplies ("mul-chain") or of
 * multiply-adds ("single-chain"); NULL without that evidence (a region,
 * an element-wise loop, several chains). */
static const char *chain_kind(const struct rl_region_row *row)
{
	const struct rl_chain_evidence *c = &row->chains;

	if (!c->known || c->add + c->mul + c->madd != 1)
		return NULL;
	return c->add ? "add-chain" : c->mul ? "mul-chain" : "single-chain";
}

/* The add-only (or, width unknown, scalar) ceiling, or the chain
 * ceiling of the one chain the row's code carries (chain_kind), of the
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
	const char *chain = chain_kind(row);

	if (!m || !rl_known(row->gflops) || !(row->gflops > 0))
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE;
		     i++) {
			const struct rl_compute_roof *c = &m->compute[i];
			int k = 0;
			while (k < nk && strcmp(c->kind, kinds[k]) != 0)
				k++;
			/* a chain's ceiling only where the code has that
			 * chain */
			if (k < 3 && (!chain || strcmp(c->kind, chain) != 0))
				continue;
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

/* ---- the roofs the chart draws ----------------------------------------- */

static const char *const chart_levels[RL_LEVELS] = {"L1", "L2", "L3",
						    "DRAM"};

static int positive(double x)
{
	return rl_known(x) && x > 0 && isfinite(x);
}

const char *rl_chart_level_name(int level)
{
	return level >= 0 && level < RL_LEVELS ? chart_levels[level] : "";
}

double rl_chart_point_ai(const struct rl_region_row *row, int *level)
{
	int l = -1;

	if (positive(row->flops) && positive(row->gflops)) {
		if (row->bound == RL_BOUND_MEMORY &&
		    row->basis == RL_BASIS_COUNTED && row->roof_bw)
			for (int k = 0; k < RL_LEVELS; k++)
				if (strcmp(row->roof_bw->level,
					   chart_levels[k]) == 0 &&
				    positive(row->level_ai[k]))
					l = k;
		if (l < 0 && positive(row->ai))
			l = RL_LEVELS - 1;
		for (int k = RL_LEVELS - 1; l < 0 && k >= 0; k--)
			if (positive(row->level_ai[k]))
				l = k;
	}
	if (level)
		*level = l;
	if (l < 0)
		return NAN;
	return l == RL_LEVELS - 1 && positive(row->ai) ? row->ai
						       : row->level_ai[l];
}

int rl_chart_has_counted(const struct rl_region_row *row)
{
	return positive(rl_chart_point_ai(row, NULL));
}

const char *rl_chart_no_point(const struct rl_region_row *row,
			      const char **why)
{
	const char *s, *w;

	if (rl_chart_has_counted(row) || rl_chart_has_declared(row))
		return NULL;
	if (!rl_known(row->flops)) {
		s = "no flops";
		w = "no flops counted and none declared";
	} else if (!(row->flops > 0)) {
		s = "no flops";
		w = "no floating-point work: no intensity";
	} else if (!positive(row->gflops)) {
		s = "no rate";
		w = "flops counted but no rate (no time, too few samples or "
		    "work that differs between runs: its diagnosis says "
		    "which)";
	} else {
		s = "no bytes";
		w = "flops counted but no bytes at any level: an infinite "
		    "intensity, off any axis; the table holds it against its "
		    "ceiling";
	}
	if (why)
		*why = w;
	return s;
}

int rl_chart_has_declared(const struct rl_region_row *row)
{
	return rl_known(row->ai_expected) && row->ai_expected > 0 &&
	       isfinite(row->ai_expected) && rl_known(row->gflops_expected) &&
	       row->gflops_expected > 0 && isfinite(row->gflops_expected);
}

static const char *const chart_ceiling_kinds[] = {"add-only", "scalar",
						  "single-chain"};

/* Only roofs measured with exactly the chart's thread count t are drawn:
 * one chart never mixes a 1-thread DRAM roof with a 2-thread L3 one. */
static const struct rl_bw_roof *chart_bw(const struct rl_machine *m,
					 const char *level, unsigned t)
{
	for (size_t i = 0; i < m->n_bw && i < RL_MACHINE_MAX_BW; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		if (b->threads == t && strcmp(b->level, level) == 0 &&
		    (b->moved_gbs > 0 || b->stream_gbs > 0))
			return b;
	}
	return NULL;
}

static const struct rl_compute_roof *
chart_compute(const struct rl_machine *m, const char *prec, const char *kind,
	      unsigned t)
{
	const struct rl_compute_roof *best = NULL;
	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (c->threads != t || strcmp(c->precision, prec) != 0 ||
		    strcmp(c->kind, kind) != 0 || !(c->gflops > 0))
			continue;
		if (!best || c->gflops > best->gflops)
			best = c;
	}
	return best;
}

static void chart_precision(struct rl_chart_roofs *c, const char *p)
{
	if (p && strcmp(p, "f32") == 0) {
		c->show_f32 = 1;
	} else if (p && strcmp(p, "mixed") == 0) {
		c->show_f32 = 1;
		c->show_f64 = 1;
	} else {
		c->show_f64 = 1;
		if (!p || strcmp(p, "f64") != 0)
			c->precision_assumed = 1;
	}
}

static void chart_flats(struct rl_chart_roofs *c, const struct rl_machine *m,
			const char *prec, int ceilings)
{
	const struct rl_compute_roof *peak = chart_compute(m, prec, "peak",
							   c->threads);
	if (!peak || c->n_flat >= RL_CHART_MAX_FLAT)
		return;
	/* peaks first: shift ceilings already there */
	size_t np = 0;
	while (np < c->n_flat && c->flat[np].is_peak)
		np++;
	memmove(&c->flat[np + 1], &c->flat[np],
		(c->n_flat - np) * sizeof c->flat[0]);
	c->flat[np].roof = peak;
	c->flat[np].is_peak = 1;
	c->n_flat++;
	for (size_t k = 0; ceilings && k < sizeof chart_ceiling_kinds /
						   sizeof chart_ceiling_kinds[0];
	     k++) {
		const struct rl_compute_roof *ce =
			chart_compute(m, prec, chart_ceiling_kinds[k], c->threads);
		if (ce && ce->gflops < 0.98 * peak->gflops &&
		    c->n_flat < RL_CHART_MAX_FLAT) {
			c->flat[c->n_flat].roof = ce;
			c->flat[c->n_flat++].is_peak = 0;
		}
	}
}

/* A ceiling a row is held against or its diagnosis names, once. */
static void chart_named(struct rl_chart_roofs *c,
			const struct rl_compute_roof *r)
{
	if (!r || !(r->gflops > 0) || c->n_flat >= RL_CHART_MAX_FLAT ||
	    r->threads != c->threads)
		return; /* another count's ceiling: the point's own segment */
	for (size_t i = 0; i < c->n_flat; i++)
		if (c->flat[i].roof == r ||
		    (strcmp(c->flat[i].roof->name, r->name) == 0 &&
		     strcmp(c->flat[i].roof->kind, r->kind) == 0 &&
		     strcmp(c->flat[i].roof->precision, r->precision) == 0 &&
		     c->flat[i].roof->threads == r->threads))
			return;
	c->flat[c->n_flat].roof = r;
	c->flat[c->n_flat++].is_peak = 0;
}

/* The roof count most regions were held against (fewer threads on a
 * tie), so that a single-threaded kernel is not drawn under all-core
 * roofs because one other region was parallel. */
static unsigned chart_threads(const struct rl_report *r)
{
	/* the distinct thread counts are few: count each once */
	struct thread_count {
		unsigned t;
		size_t n;
	} seen[64];
	size_t n_seen = 0;
	unsigned best = 1;
	size_t best_n = 0;

	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		unsigned t = row->roof_threads;
		size_t k = 0;
		if (!t && r->machine)
			t = rl_roof_threads(r->machine, row->n_threads);
		if (!t)
			t = row->n_threads ? row->n_threads : 1;
		while (k < n_seen && seen[k].t != t)
			k++;
		if (k == n_seen) {
			if (n_seen == sizeof seen / sizeof *seen)
				continue; /* more kinds than that: not drawn */
			seen[n_seen++] = (struct thread_count){t, 0};
		}
		seen[k].n++;
	}
	for (size_t k = 0; k < n_seen; k++)
		if (seen[k].n > best_n ||
		    (seen[k].n == best_n && seen[k].t < best)) {
			best = seen[k].t;
			best_n = seen[k].n;
		}
	return best;
}

void rl_report_choose_chart(struct rl_report *r)
{
	struct rl_chart_roofs *c = &r->chart;
	const struct rl_machine *m = r->machine;
	size_t n_f32 = 0, n_f64 = 0;

	memset(c, 0, sizeof *c);
	c->chosen = true;
	c->threads = chart_threads(r);
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (!rl_chart_has_counted(row) && !rl_chart_has_declared(row))
			continue;
		chart_precision(c, row->precision);
		if (row->precision && strcmp(row->precision, "f32") == 0)
			n_f32++;
		else
			n_f64++;
	}
	if (!c->show_f32 && !c->show_f64)
		c->show_f64 = 1;
	if (!m)
		return;
	for (int l = RL_LEVELS - 1; l >= 0; l--) {
		const struct rl_bw_roof *b = chart_bw(m, chart_levels[l],
						      c->threads);
		if (b)
			c->slope[c->n_slope++] = b;
	}
	/* with both precisions, ceilings only under the peak of the one
	 * most regions use (f64 on a tie): fewer lines */
	int main_f32 = c->show_f32 && (!c->show_f64 || n_f32 > n_f64);
	if (c->show_f64)
		chart_flats(c, m, "f64", !main_f32);
	if (c->show_f32)
		chart_flats(c, m, "f32", main_f32);
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (!rl_chart_has_counted(row) && !rl_chart_has_declared(row))
			continue;
		chart_named(c, row->ceiling_roof);
		chart_named(c, row->fma_pair);
		chart_named(c, row->named_ceiling);
		if (row->code_width)
			chart_named(c, row->best_peak); /* ISA advice */
	}
}
