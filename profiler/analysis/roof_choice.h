/*
 * The one place that chooses which of a machine model's roofs a figure is
 * held against (roof_choice.c). Every other part of rlprof asks here: the
 * placement of a row (analysis_roof.c), its ISA ceiling and the ceiling it
 * sits near (analysis_ceiling.c, diagnosis), the self-check
 * (analysis_check.c), the set of roofs the chart draws, the probe's ridge
 * points and the run's DRAM check (cli). Renderers draw what was chosen
 * here and choose nothing.
 *
 * Two rules, each written once:
 *   - a row's roofs are all of one thread count (rl_roof_threads), then
 *     taken at exactly that count (the *_at lookups): a level without a
 *     roof there is not used, never borrowed from another count;
 *   - outside a row (the probe's printout, the run's check), the roof of
 *     the count nearest the one asked for, fewer threads on a tie (the
 *     *_nearest lookups).
 * NULL (or 0) when the model has no such roof.
 */
#ifndef RL_ANALYSIS_ROOF_CHOICE_H
#define RL_ANALYSIS_ROOF_CHOICE_H

#include <stdbool.h>

#include "analysis/report.h"

/* have is nearer want than best is; on a tie, the fewer threads. */
bool rl_roof_nearer(unsigned have, unsigned best, unsigned want);

/* |a - b| */
unsigned rl_roof_thread_distance(unsigned a, unsigned b);

/* The bandwidth roof of level measured with exactly threads threads and
 * a triad figure. */
const struct rl_bw_roof *rl_roof_bw_at(const struct rl_machine *m,
				       const char *level, unsigned threads);

/* The best "peak" of a precision with exactly threads threads. */
const struct rl_compute_roof *rl_roof_peak_at(const struct rl_machine *m,
					      const char *prec,
					      unsigned threads);

/* The peak-like roof ("peak", or the scalar plateau "scalar") of a
 * precision, vector width and FMA-ness (1 FMA, 0 none, -1 unknown-FMA
 * roofs) with exactly threads threads, the faster on a tie. */
const struct rl_compute_roof *rl_roof_compute_at(const struct rl_machine *m,
						 const char *prec,
						 unsigned width, int fma,
						 unsigned threads);

/* The roof of level with a triad figure at the thread count nearest
 * threads. */
const struct rl_bw_roof *rl_roof_bw_nearest(const struct rl_machine *m,
					    const char *level,
					    unsigned threads);

/* The best "peak" of a precision at the thread count nearest threads. */
const struct rl_compute_roof *rl_roof_peak_nearest(const struct rl_machine *m,
						   const char *precision,
						   unsigned threads);

/* The probe's ridge points (rlprof probe): per precision (f64, f32) the
 * peak nearest threads, and the roof of each of rl_ridge_levels nearest
 * threads. */
#define RL_RIDGE_LEVELS 5
extern const char *const rl_ridge_levels[RL_RIDGE_LEVELS]; /* L1..L4, DRAM */
struct rl_ridge_set {
	const struct rl_compute_roof *peak[2]; /* f64, f32 */
	const struct rl_bw_roof *bw[RL_RIDGE_LEVELS];
};
void rl_roof_ridges(const struct rl_machine *m, unsigned threads,
		    struct rl_ridge_set *out);

/* The roofs paired with the timing runs (issue 38): struct
 * rl_pair_figure (report.h). */
/* *out = *m with each DRAM roof of a thread count that has at least
 * RL_PAIR_MIN_SAMPLES paired samples of an operation in c taken from
 * them (a roof never rests on a single pass; with fewer, the model's
 * figure stays, and the figure's model is 0): the triad (stream_gbs,
 * moved_gbs at 32/24 of it) and the read (read_gbs) at the best of their
 * samples where that is at or above the model's (RL_PAIR_RAISED). Below
 * the model's by RL_PAIR_AGREE or more, the best lowers the roof only
 * when at least RL_PAIR_LOWER_SAMPLES samples agree within RL_PAIR_AGREE
 * (RL_PAIR_LOWERED; closer to the model's: RL_PAIR_KEPT_CLOSE, the same
 * roof measured by shorter passes): short single passes read low on a noisy host more
 * often than the machine slows down, and a roof must stay an upper bound;
 * else the model's stays (RL_PAIR_KEPT_FEW, RL_PAIR_KEPT_SPREAD), as it
 * does for the figures whose bit (their index in fig) is set in refuted
 * (RL_PAIR_KEPT_REFUTED: a region of the run beat the lowered roof). The
 * points not sampled (update, fill, the non-temporal triad) are scaled
 * with the triad; a roof taken from samples has its doubt cleared (it was
 * measured again) and its method says paired. The figures into fig (at
 * most max); their count, 0 when no DRAM roof had figures (then *out is
 * *m). */
#define RL_PAIR_MIN_SAMPLES 2
#define RL_PAIR_LOWER_SAMPLES 3
#define RL_PAIR_AGREE 0.10 /* (best - lowest) / best */
size_t rl_roof_pair(const struct rl_machine *m, const struct rl_roof_check *c,
		    struct rl_machine *out, struct rl_pair_figure *fig,
		    size_t max, uint32_t refuted);
/* The compute ceilings paired with the core's clock around the timing
 * run (issue 38). The clock is read before and after the timing run as
 * the model's clock_ghz was read at probe time (results/roof_check.h),
 * so the two compare. Where the higher of the readings is more than
 * RL_CLOCK_RAISE above the model's clock (a host's turbo was off while
 * the probe ran: one probe of six on the Xeon guest read 3.59 GHz where
 * the others and every run read 4.09-4.19, and put the demo's Horner
 * kernels 10 points higher against their ceiling), every compute roof of
 * *out is scaled to it (its measured and theoretical GFLOP/s and its
 * load clock) and out->clock_ghz set to it: the core gave at least that
 * during the run. Never lowered: two readings of 2 ms each cannot show
 * that the core ran slower through a run, and a ceiling must stay an
 * upper bound. The factor, or 1 when *out is left as it was. */
#define RL_CLOCK_RAISE 0.02
double rl_roof_clock(struct rl_machine *out, const struct rl_roof_check *c);
/* Whether f's best is the roof (raised or lowered), not the model's. */
bool rl_pair_placed(const struct rl_pair_figure *f);
/* The paired figure a DRAM-bound row's roof comes from (the read for a
 * mix below 1/8 written, else the triad; declared figures and mixes not
 * counted: the triad), NULL when the row is not held against a DRAM roof
 * with a figure that has the model's. */
const struct rl_pair_figure *rl_pair_for_row(const struct rl_report *rep,
					     const struct rl_region_row *row);
/* The paired figures that lowered a roof which a row of r beat (above
 * RL_CHECK_PCT of it, timed 1 ms or more, counted, not declared): a bit
 * per figure (its index in r->pair), the first such region's name into
 * names (a figure refuted before is RL_PAIR_KEPT_REFUTED, not lowered).
 * A region of the run moved that much at that time, so the samples were
 * not the machine's limit: rl_report_build places the report again with
 * those bits as rl_roof_pair's refuted. */
uint32_t rl_pair_refuted(const struct rl_report *r,
			 char names[][RL_PAIR_NAME_LEN]);
/* The figure of op at exactly threads, NULL none. */
const struct rl_pair_figure *rl_pair_find(const struct rl_pair_figure *fig,
					  size_t n, enum rl_pair_op op,
					  unsigned threads);

#endif
