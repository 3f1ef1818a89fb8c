/*
 * Placing a report row under the roofs of the machine model (analysis.h):
 * the roofline arithmetic, roof lookups with the nearest thread count, the
 * counted and declared bases. Documented in README.md ("How the figures
 * are derived").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/roof_choice.h"
#include "common/rl_error.h"

static const char *const level_names[RL_LEVELS] = {"L1", "L2", "L3", "DRAM"};

double rl_attainable_gflops(double peak_gflops, double bw_gbs, double ai)
{
	double slope;

	if (isnan(peak_gflops) || isnan(bw_gbs) || isnan(ai))
		return NAN;
	slope = ai * bw_gbs;
	return slope < peak_gflops ? slope : peak_gflops;
}

enum rl_bound rl_bound_of(double peak_gflops, double bw_gbs, double ai)
{
	if (isnan(peak_gflops) || isnan(bw_gbs) || isnan(ai) ||
	    peak_gflops <= 0 || bw_gbs <= 0 || ai < 0)
		return RL_BOUND_UNKNOWN;
	return ai * bw_gbs < peak_gflops ? RL_BOUND_MEMORY : RL_BOUND_COMPUTE;
}

/* An owned string in the report, shared by rows that name the same roof. */
static const char *intern(struct rl_report *r, const char *s)
{
	char **n;

	for (size_t i = 0; i < r->n_strings; i++)
		if (strcmp(r->strings[i], s) == 0)
			return r->strings[i];
	n = realloc(r->strings, (r->n_strings + 1) * sizeof *n);
	if (!n)
		return NULL;
	r->strings = n;
	if (!(n[r->n_strings] = strdup(s)))
		return NULL;
	return n[r->n_strings++];
}

static int peak_name(struct rl_report *r, const struct rl_compute_roof *p,
		     const char **out)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%s %s", p->name, p->precision);
	*out = intern(r, buf);
	return *out ? 0 : RL_ENOMEM;
}

/* One paired figure in the method line: its best and the model's, and
 * whether its best is the roof (rl_roof_pair's rule). */
static size_t pair_figure_note(char *buf, size_t len,
			       const struct rl_pair_figure *f, const char *op)
{
	switch (f->use) {
	case RL_PAIR_LOWERED:
		return (size_t)snprintf(buf, len, " %s best %.1f GB/s (model "
					"%.1f; lowered: %u samples within "
					"%.0f%%)", op, f->best, f->model, f->n,
					RL_PAIR_AGREE * 100);
	case RL_PAIR_KEPT_FEW:
		return (size_t)snprintf(buf, len, " %s best %.1f GB/s, below "
					"the model's %.1f, kept (%u sample%s; "
					"a roof is lowered on %d within "
					"%.0f%%)", op, f->best, f->model, f->n,
					f->n > 1 ? "s" : "",
					RL_PAIR_LOWER_SAMPLES,
					RL_PAIR_AGREE * 100);
	case RL_PAIR_KEPT_SPREAD:
		return (size_t)snprintf(buf, len, " %s %.1f-%.1f GB/s, below "
					"the model's %.1f, kept (%u samples "
					"spread %.0f%%)", op, f->lo, f->best,
					f->model, f->n,
					(f->best - f->lo) / f->best * 100);
	case RL_PAIR_KEPT_CLOSE:
		return (size_t)snprintf(buf, len, " %s best %.1f GB/s, %.0f%% "
					"below the model's %.1f, kept (a roof "
					"is lowered from %.0f%% below, on %d "
					"samples)", op, f->best,
					(1 - f->best / f->model) * 100,
					f->model, RL_PAIR_AGREE * 100,
					RL_PAIR_LOWER_SAMPLES);
	case RL_PAIR_KEPT_REFUTED:
		return (size_t)snprintf(buf, len, " %s best %.1f GB/s, below "
					"the model's %.1f, kept (region '%s' "
					"ran above it)", op, f->best, f->model,
					f->refuted_by);
	case RL_PAIR_RAISED:
	default:
		return (size_t)snprintf(buf, len, " %s best %.1f GB/s (model "
					"%.1f)", op, f->best, f->model);
	}
}

/* issue 38: "; DRAM roof paired: ..." where the row's thread count had
 * samples around the timing runs, "; DRAM roof: the model's (...)" where
 * the run paired others only, "" without pairing. */
static void pair_note(const struct rl_report *rep, unsigned threads,
		      char *buf, size_t len)
{
	const struct rl_pair_figure *t, *r;
	size_t n = 0;

	buf[0] = '\0';
	if (!rep->n_pair)
		return;
	t = rl_pair_find(rep->pair, rep->n_pair, RL_PAIR_TRIAD, threads);
	r = rl_pair_find(rep->pair, rep->n_pair, RL_PAIR_READ, threads);
	if ((!t || !(t->model > 0)) && (!r || !(r->model > 0))) {
		snprintf(buf, len, "; DRAM roof: the model's (no samples on "
			 "%u thread%s around the timing runs)", threads,
			 threads > 1 ? "s" : "");
		return;
	}
	n = (size_t)snprintf(buf, len, "; DRAM roof paired: %u sample%s "
			     "around the %u timing run%s, %u thread%s:",
			     (t ? t->n : 0) + (r ? r->n : 0),
			     (t ? t->n : 0) + (r ? r->n : 0) > 1 ? "s" : "",
			     rep->roof_check.timing_runs,
			     rep->roof_check.timing_runs > 1 ? "s" : "",
			     threads, threads > 1 ? "s" : "");
	for (int i = 0; i < 2 && n < len; i++) {
		const struct rl_pair_figure *f = i ? r : t;
		if (!f || !(f->model > 0))
			continue;
		if (i && t && t->model > 0)
			n += (size_t)snprintf(buf + n, len - n, ",");
		if (n < len)
			n += pair_figure_note(buf + n, len - n, f,
					      i ? "read" : "triad");
	}
	if (rl_pair_placed(t) && t->model > 0 && n < len)
		snprintf(buf + n, len - n, ", update and fill scaled with the "
			 "triad");
}

/* The method text of the placement: generic (no per-row figures), so
 * that rows placed the same way share one method line. */
static int place_note(struct rl_report *rep, struct rl_region_row *row,
		      const struct rl_bw_roof *dram, const char *ceiling_note)
{
	char buf[1024], paired[512];
	double w[RL_MIX_POINTS], g[RL_MIX_POINTS];
	const char *roofs;

	if (row->basis == RL_BASIS_DECLARED)
		roofs = "roofs: declared figures against the triad (STREAM, 24 "
			"B/element) roofs and the best peak";
	else if (isnan(row->write_frac[RL_LEVELS - 1]))
		roofs = "roofs: the triad's (read/write split not counted)";
	else if (rl_mix_points(dram, w, g) < 2 ||
		 !(dram->read_gbs > 0 || dram->write_gbs > 0 ||
		   dram->write_nt_gbs > 0))
		roofs = "roofs: the triad's (this machine model has no "
			"read-only or fill points: rlprof probe --force)";
	else
		roofs = "roofs: each level's bandwidth for the region's "
			"read/write mix (1/BW linear in the write fraction "
			"between the probed read-only, triad, update and fill "
			"points)";
	if (ceiling_note) {
		static const char *const wn[4] = {"scalar", "128-bit",
						  "256-bit", "512-bit"};
		char missing[64] = "";
		size_t n = 0;
		for (int i = 0; row->code_width && !row->timed_isa && i < 4;
		     i++)
			if (isnan(row->flops_width[i]))
				n += (size_t)snprintf(missing + n,
						      sizeof missing - n, "%s%s",
						      n ? ", " : "", wn[i]);
		snprintf(buf, sizeof buf, "%s; ceiling: %s%s%s%s", roofs,
			 ceiling_note, n ? " (" : "", missing,
			 n ? " flops not counted: taken as none)" : "");
	} else
		snprintf(buf, sizeof buf, "%s", roofs);
	if (ceiling_note && rep->clock_scale > 1 && rep->model &&
	    strlen(buf) < sizeof buf)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
			 "; ceilings scaled x%.2f to the core's clock around "
			 "the timing run (%.2f GHz; probed at %.2f)",
			 rep->clock_scale, rep->model->clock_ghz *
			 rep->clock_scale, rep->model->clock_ghz);
	pair_note(rep, row->roof_threads, paired, sizeof paired);
	if (strlen(buf) + strlen(paired) < sizeof buf)
		strcat(buf, paired);
	row->place_note = intern(rep, buf);
	return row->place_note ? 0 : RL_ENOMEM;
}

/* The ceiling's method under --count-with: flops counted in another
 * build than the timed one, whose ISA (and FMA use) decides the ceiling. */
static const char *count_with_note(const struct rl_region_row *row,
				   const struct rl_compute_roof *roof,
				   const struct rl_compute_roof *peak)
{
	if (!row->timed_isa)
		return "the best peak (--count-with: the timed build's ISA is "
		       "unknown; --timed-isa names it)";
	if (roof == peak && row->code_width != rl_roof_width(peak))
		return "the best peak (no ceiling of the timed build's ISA in "
		       "the model)";
	if (rl_known(row->fma_share))
		return "the timed build's ISA, without FMA (--count-with: "
		       "flops counted in another build; the timed build's "
		       "code has no FMA at that width)";
	return "the timed build's ISA (--count-with: flops counted in another "
	       "build; its FMA use not counted: the optimistic bound)";
}

/* A region that moves data and does no flops (copy, fill): held against
 * the bandwidth roof of each level it moved bytes through, for its own
 * read/write mix; the level nearest its roof (the highest % of it)
 * binds. Declared figures only: declared bytes over the time against
 * the DRAM STREAM roof. */
static int place_data_movement(struct rl_report *rep,
			       struct rl_region_row *row,
			       const struct rl_bw_roof *dram, unsigned threads)
{
	const struct rl_machine *m = rep->machine;
	char label[96];
	double best = NAN;

	if (!rl_known(row->time_s) || !(row->time_s > 0))
		return 0;
	if (rl_known(row->flops)) {
		for (int l = 0; l < RL_LEVELS; l++) {
			const struct rl_bw_roof *b;
			struct rl_mix mx;
			double pct;
			if (!rl_known(row->level_bytes[l]) ||
			    !(row->level_bytes[l] > 0))
				continue;
			b = rl_roof_bw_at(m, level_names[l], threads);
			if (!b || !(b->moved_gbs > 0))
				continue;
			rl_mix_roof(b, row->write_frac[l], &mx);
			if (!(mx.gbs > 0))
				continue;
			pct = row->level_bytes[l] / row->time_s * 1e-9 /
			      mx.gbs * 100;
			if (rl_known(best) && pct <= best)
				continue;
			best = pct;
			row->bound_roof = b->level;
			rl_mix_label(label, sizeof label, b->level, &mx);
			if (!(row->roof_label = intern(rep, label)))
				return RL_ENOMEM;
			row->roof_gbs = mx.gbs;
			row->roof_bw = b;
			row->mix_clamped = mx.clamped != 0;
		}
		if (!rl_known(best))
			return 0;
		row->basis = RL_BASIS_COUNTED;
	} else {
		if (!rl_known(row->bytes_expected) ||
		    !(row->bytes_expected > 0) || !(dram->stream_gbs > 0))
			return 0;
		best = row->bytes_expected / row->time_s * 1e-9 /
		       dram->stream_gbs * 100;
		row->basis = RL_BASIS_DECLARED;
		row->bound_roof = dram->level;
		snprintf(label, sizeof label, "%s triad", dram->level);
		if (!(row->roof_label = intern(rep, label)))
			return RL_ENOMEM;
		row->roof_gbs = dram->stream_gbs;
		row->roof_bw = dram;
	}
	row->data_movement = true;
	row->bound = RL_BOUND_MEMORY;
	row->roof_threads = threads;
	/* Valgrind's time says nothing of a hardware roof */
	row->roof_pct = !row->simulated || row->time_native ? best : NAN;
	char note[512], paired[256];
	pair_note(rep, threads, paired, sizeof paired);
	snprintf(note, sizeof note, "roofs: no flops: the bytes moved per "
		 "second against each level's bandwidth for the region's "
		 "read/write mix; the level nearest its roof binds%s", paired);
	row->place_note = intern(rep, note);
	return row->place_note ? 0 : RL_ENOMEM;
}

int rl_report_place(struct rl_report *rep, struct rl_region_row *row)
{
	const struct rl_machine *m = rep->machine;
	const struct rl_compute_roof *peak;
	const struct rl_bw_roof *dram;
	unsigned threads = row->n_threads ? row->n_threads : 1;
	const char *prec;
	char label[96];
	int rc;

	if (!m)
		return 0;
	threads = rl_roof_threads(m, threads);
	if (!threads)
		return 0;
	prec = row->precision && strcmp(row->precision, "f32") == 0 ? "f32"
								     : "f64";
	if (rep->place_memo.threads != threads ||
	    strcmp(rep->place_memo.prec, prec) != 0) {
		rep->place_memo.peak = rl_roof_peak_at(m, prec, threads);
		rep->place_memo.dram = rl_roof_bw_at(m, "DRAM", threads);
		rep->place_memo.threads = threads;
		snprintf(rep->place_memo.prec, sizeof rep->place_memo.prec,
			 "%s", prec);
	}
	peak = rep->place_memo.peak;
	dram = rep->place_memo.dram;
	if (!peak || !dram)
		return 0;
	row->best_peak = peak;
	row->roof_threads = threads;

	/* No floating-point work: no roofline, but a bandwidth roof (copy,
	 * fill: % of the roof for their read/write mix) */
	if ((rl_known(row->flops) && row->flops <= 0) ||
	    (!rl_known(row->flops) && rl_known(row->flops_expected) &&
	     row->flops_expected <= 0))
		return place_data_movement(rep, row, dram, threads);
	if (rl_known(row->flops) && rl_known(row->dram_bytes) &&
	    rl_known(row->gflops)) {
		struct rl_ceiling ce;

		rl_pick_ceiling(m, prec, threads, row->code_width,
				row->fma_share, peak, &ce);
		if (!ce.roof)
			return 0;
		if (rep->count_with && row->time_native)
			ce.note = count_with_note(row, ce.roof, peak);
		rl_ceiling_label(label, sizeof label, &ce);
		if (!(row->ceiling = intern(rep, label)))
			return RL_ENOMEM;
		row->ceiling_roof = ce.roof;
		row->fma_pair = ce.pair;
		row->ceiling_gflops = ce.gflops;
		row->basis = RL_BASIS_COUNTED;
		row->bound = RL_BOUND_COMPUTE;
		row->roof_gflops = ce.gflops;
		row->bound_roof = row->roof_label = row->ceiling;
		row->roof_gbs = NAN;
		for (int l = 0; l < RL_LEVELS; l++) {
			const struct rl_bw_roof *b;
			struct rl_mix mx;
			double slope;
			if (!rl_known(row->level_ai[l]))
				continue; /* unknown, or no bytes crossed */
			b = rl_roof_bw_at(m, level_names[l], threads);
			if (!b || !(b->moved_gbs > 0))
				continue;
			rl_mix_roof(b, row->write_frac[l], &mx);
			if (!(mx.gbs > 0))
				continue;
			slope = row->level_ai[l] * mx.gbs;
			if (slope < row->roof_gflops) {
				row->roof_gflops = slope;
				row->bound = RL_BOUND_MEMORY;
				row->bound_roof = b->level;
				rl_mix_label(label, sizeof label, b->level, &mx);
				if (!(row->roof_label = intern(rep, label)))
					return RL_ENOMEM;
				row->roof_gbs = mx.gbs;
				row->roof_bw = b;
				row->mix_clamped = mx.clamped != 0;
			}
		}
		/* under the simulated PMU the time is Valgrind's, many times
		 * the native one: the bound holds (it depends on AI only), a
		 * percentage of a hardware roof would not -- unless the time
		 * came from a native timing run (time_native) */
		row->roof_pct = row->roof_gflops > 0 &&
					(!row->simulated || row->time_native)
					? row->gflops / row->roof_gflops * 100
					: NAN;
		return place_note(rep, row, dram, ce.note);
	} else if (rl_known(row->ai_expected) &&
		   rl_known(row->gflops_expected) && dram->stream_gbs > 0) {
		row->basis = RL_BASIS_DECLARED;
		row->bound = rl_bound_of(peak->gflops, dram->stream_gbs,
					 row->ai_expected);
		row->roof_gflops = rl_attainable_gflops(
			peak->gflops, dram->stream_gbs, row->ai_expected);
		if ((rc = peak_name(rep, peak, &row->ceiling)))
			return rc;
		row->ceiling_roof = peak;
		row->ceiling_gflops = peak->gflops;
		if (row->bound == RL_BOUND_MEMORY) {
			row->bound_roof = dram->level;
			snprintf(label, sizeof label, "%s triad", dram->level);
			if (!(row->roof_label = intern(rep, label)))
				return RL_ENOMEM;
			row->roof_gbs = dram->stream_gbs;
			row->roof_bw = dram;
		} else {
			row->bound_roof = row->roof_label = row->ceiling;
		}
		row->roof_pct = row->roof_gflops > 0
					? row->gflops_expected /
						  row->roof_gflops * 100
					: NAN;
		return place_note(rep, row, dram, NULL);
	}
	return 0;
}
