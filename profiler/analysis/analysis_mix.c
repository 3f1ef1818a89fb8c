/*
 * Mix roofs: the bandwidth of a memory level for a region's own read/write
 * mix (analysis.h; README "Mix roofs, ISA ceilings and the self-check").
 *
 * The probe measures each level at a few write fractions w = written /
 * (read + written) bytes, all in the "moved" convention (write-allocate
 * reads counted, as the counters count them): the read-only stream at
 * w = 0 (read_gbs), the triad at 1/4 (moved_gbs), the fill with plain
 * stores at 1/2 (write_gbs) and the fill with non-temporal stores at 1
 * (write_nt_gbs, the only way past 1/2), and the in-place update
 * a += s*b at 1/3 (update_gbs: daxpy's access, each line read and then
 * written, no write-allocate; a single thread bound by its reads moves
 * more this way than with the triad or the fill: 22.6 against 19.5 and
 * 20.8 GB/s on the Xeon guest, so without it daxpy stood at 114% of its
 * interpolated roof; where an update is slower than the triad and the
 * fill give at 1/3, it is left out: a roof is never lowered by it). The
 * non-temporal triad (w = 1/3) is left out: it
 * is a different store path from the plain stores a region at w = 1/3
 * uses.
 *
 * Between two neighbouring points the time per byte, 1/BW, is taken as
 * linear in w:
 *     1/BW(w) = (1 - t) / BW(w0) + t / BW(w1),  t = (w - w0) / (w1 - w0)
 * which is exact when reading a byte and writing a byte each cost a fixed
 * time (time = R x t_read + W x t_write), and follows the measured curve
 * wherever that does not hold, at every measured point. Outside the
 * measured points the nearest one is used and the mix is reported as
 * outside the probed range (clamped). A model without read-only and fill
 * points (older files) gives the triad roof for every mix.
 */
#include <math.h>
#include <stdio.h>

#include "analysis/analysis.h"

#define MIX_TOL 0.01 /* a mix this close to a point is that point */

int rl_mix_points(const struct rl_bw_roof *b, double w[RL_MIX_POINTS],
		  double gbs[RL_MIX_POINTS])
{
	const double pw[RL_MIX_POINTS] = {0, 0.25, 1.0 / 3, 0.5, 1};
	double pg[RL_MIX_POINTS] = {b->read_gbs, b->moved_gbs, b->update_gbs,
				    b->write_gbs, b->write_nt_gbs};
	int n = 0;

	/* a roof is what the best access at a mix reaches: the update
	 * counts only where it beats what the triad and the fill give at
	 * its w = 1/3 (t = 1/3 between them), never lowering a roof */
	if (pg[1] > 0 && pg[3] > 0 &&
	    !(pg[2] > 1.0 / ((2.0 / 3) / pg[1] + (1.0 / 3) / pg[3])))
		pg[2] = 0;

	for (int i = 0; i < RL_MIX_POINTS; i++) {
		if (!(pg[i] > 0) || !isfinite(pg[i]))
			continue;
		w[n] = pw[i];
		gbs[n] = pg[i];
		n++;
	}
	return n;
}

void rl_mix_roof(const struct rl_bw_roof *b, double w, struct rl_mix *out)
{
	double pw[RL_MIX_POINTS], pg[RL_MIX_POINTS];
	int n = rl_mix_points(b, pw, pg);

	out->gbs = b->moved_gbs > 0 ? b->moved_gbs : NAN;
	out->clamped = 0;
	out->triad_only = 1;
	out->w = w;
	if (isnan(w) || n == 0)
		return;
	if (n == 1 || !(b->read_gbs > 0 || b->write_gbs > 0 ||
			b->write_nt_gbs > 0)) {
		/* the triad alone: every mix gets it */
		out->gbs = pg[0];
		out->clamped = fabs(w - pw[0]) > MIX_TOL;
		return;
	}
	out->triad_only = 0;
	if (w <= pw[0]) {
		out->gbs = pg[0];
		out->clamped = w < pw[0] - MIX_TOL;
		return;
	}
	if (w >= pw[n - 1]) {
		out->gbs = pg[n - 1];
		out->clamped = w > pw[n - 1] + MIX_TOL;
		return;
	}
	for (int i = 0; i + 1 < n; i++) {
		if (w > pw[i + 1])
			continue;
		double t = (w - pw[i]) / (pw[i + 1] - pw[i]);
		out->gbs = 1.0 / ((1 - t) / pg[i] + t / pg[i + 1]);
		return;
	}
}

void rl_mix_label(char *buf, size_t len, const char *level,
		  const struct rl_mix *mix)
{
	if (mix->triad_only || isnan(mix->w))
		snprintf(buf, len, "%s triad", level);
	else
		snprintf(buf, len, "%s %.0f%% write", level, mix->w * 100);
}
