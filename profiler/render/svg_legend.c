/*
 * roofline.svg: the legend under the chart (svg_draw.h): the key, every
 * region by number (at most RL_SVG_LEGEND_MAX, then how many are left
 * out), each name cut to fit its column with what the chart says of it,
 * and the notes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "render/svg_draw.h"

/* 0 a point labelled by its number, 1 another point on the chart, 2 a
 * point off the chart, 3 no point. */
static int legend_tier(const struct rl_svg *s, size_t i)
{
	struct rl_region_row row_buf;
	const struct rl_region_row *row =
		rl_report_row(s->r, i, &row_buf);
	const struct rl_svg_region *d = &s->reg[i];

	if (d->on_chart)
		return d->numbered ? 0 : 1;
	return rl_chart_has_counted(row) || rl_chart_has_declared(row) ? 2 : 3;
}

/* Which regions the legend lists (reg[i].listed): every one when there
 * are at most RL_SVG_LEGEND_MAX; else RL_SVG_LEGEND_MAX of them, taken in
 * this order: points labelled by their number (the legend is where that
 * number gets its name), the other points on the chart, regions whose
 * point is off the chart, regions without a point; report order within
 * each. They are listed in report order, with their report numbers. */
void rl_svg_legend_choose(struct rl_svg *s)
{
	size_t n = s->r->n_summed, room = RL_SVG_LEGEND_MAX;
	/* each region's tier worked out once, not once a tier (10^6 rows) */
	unsigned char *tiers = malloc(n ? n : 1);

	for (size_t i = 0; tiers && i < n; i++)
		tiers[i] = (unsigned char)legend_tier(s, i);
	for (int tier = 0; tier < 4; tier++)
		for (size_t i = 0; i < n; i++) {
			int t = tiers ? tiers[i] : legend_tier(s, i);
			if (t != tier)
				continue;
			if (n <= RL_SVG_LEGEND_MAX || room) {
				s->reg[i].listed = 1;
				if (room)
					room--;
			} else if (t <= 1) {
				s->left_on_chart++;
			} else if (t == 2) {
				s->left_off_chart++;
			} else {
				s->left_no_point++;
			}
		}
	free(tiers);
}

/* v with a comma every three digits: 99,880. */
static const char *grouped(char *buf, size_t len, size_t v)
{
	char d[32];
	int n = snprintf(d, sizeof d, "%zu", v);
	size_t o = 0;

	for (int i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
	return buf;
}

/* The two lines under a capped legend: how many regions it leaves out,
 * of which kind, and where they all are. */
static void write_legend_more(struct rl_svg *s, double x, double y)
{
	FILE *out = s->out;
	size_t left = s->left_on_chart + s->left_off_chart + s->left_no_point;
	const size_t part[3] = {s->left_on_chart, s->left_off_chart,
				s->left_no_point};
	static const char *const what[3] = {
		"on the chart (hover a point for its name)",
		"with a point off the chart",
		"without a point (no flops or no bytes)",
	};
	char a[32];
	const char *sep = "";

	fprintf(out, "<text class=\"legend-more\" x=\"%.1f\" y=\"%.1f\">"
		"\xe2\x80\xa6 and %s more region%s not listed here: report.json "
		"and report.csv have every region.</text>\n", x, y,
		grouped(a, sizeof a, left), left == 1 ? "" : "s");
	fprintf(out, "<text class=\"legend-more\" x=\"%.1f\" y=\"%.1f\">"
		"Not listed: ", x, y + 16);
	for (int k = 0; k < 3; k++) {
		if (!part[k])
			continue;
		fprintf(out, "%s%s %s", sep, grouped(a, sizeof a, part[k]),
			what[k]);
		sep = ", ";
	}
	fputs(".</text>\n", out);
}

/* Region i's legend entry at (lx, ly) in a column w px wide: marker,
 * number, name cut to leave room for what the chart says of it: its %
 * of its bandwidth roof (no flops), why it has no point, "off the chart"
 * or the cache level whose intensity it is drawn at. */
static void write_legend_entry(struct rl_svg *s, size_t i, double lx,
			       double ly, double w)
{
	FILE *out = s->out;
	struct rl_region_row row_buf;
	const struct rl_region_row *row =
		rl_report_row(s->r, i, &row_buf);
	const struct rl_svg_region *d = &s->reg[i];
	char num[24], suffix[160] = "", p[32], g[32];
	const char *why = NULL, *no = NULL;
	int moved = !d->on_chart && row->data_movement && rl_known(row->roof_pct);

	if (moved) /* copy, fill: their % of the bandwidth roof */
		snprintf(suffix, sizeof suffix, " (no flops: %s%% of %s)",
			 rl_chart_num(p, sizeof p, row->roof_pct),
			 row->bound_roof ? row->bound_roof : "its roof");
	else if (!d->on_chart && (no = rl_chart_no_point(row, &why)))
		snprintf(suffix, sizeof suffix, " (no point: %s)", no);
	else if (!d->on_chart)
		snprintf(suffix, sizeof suffix, " (off the chart)");
	else if (rl_svg_point_level(row) >= 0) /* at a cache level's intensity */
		snprintf(suffix, sizeof suffix, " (at %s)",
			 rl_chart_level_name(rl_svg_point_level(row)));
	snprintf(num, sizeof num, "%zu ", i + 1);
	double room = w - 14 - 8 - rl_svg_text_px(num, 64) - rl_svg_text_px(suffix, 160);
	size_t cut = 36;
	while (cut > 4 && rl_svg_text_px(row->region, cut) > room)
		cut--;
	rl_svg_marker(out, "key", row->precision, lx + 5, ly - 4,
		     rl_svg_color(i), "#000");
	fprintf(out, "<text class=\"legend-region\" x=\"%.1f\" y=\"%.1f\">%s",
		lx + 14, ly, num);
	rl_xml_escape_cut(out, row->region, cut);
	rl_xml_escape(out, suffix);
	if (moved) {
		fputs("<title>", out);
		rl_xml_escape(out, row->region);
		fprintf(out, ": no flops; %s GB/s, %s%% of the ",
			rl_chart_num(g, sizeof g, row->gbs),
			rl_chart_num(p, sizeof p, row->roof_pct));
		rl_xml_escape(out, row->roof_label ? row->roof_label : "");
		fprintf(out, " roof (%s GB/s)</title>",
			rl_chart_num(g, sizeof g, row->roof_gbs));
	} else if (no) {
		fputs("<title>", out);
		rl_xml_escape(out, row->region);
		fprintf(out, ": %s</title>", why);
	}
	fputs("</text>\n", out);
}

/* Key, listed regions, notes; returns the y below them. */
double rl_svg_legend(struct rl_svg *s, double y, int draw)
{
	FILE *out = s->out;
	const struct rl_chart *c = &s->c;
	double x = c->left;
	if (draw) {
		static const struct {
			const char *prec, *fill, *stroke, *text;
			int arrow; /* 1 an arrow, 2 a roof segment */
		} key[] = {
			{"f64", "#888", "#000", "counted", 0},
			{"f64", "#fff", "#888", "declared (RL_REGION_EXPECT)", 0},
			{NULL, NULL, NULL, "declared to counted", 1},
			{NULL, NULL, NULL, "its own roof", 2},
			{"f64", "#888", "#000", "f64", 0},
			{"f32", "#888", "#000", "f32", 0},
			{"mixed", "#888", "#000", "mixed", 0},
		};
		int segs = 0;
		for (size_t i = 0; i < s->r->n_summed; i++)
			segs |= s->reg[i].roof_seg;
		fprintf(out, "<g class=\"legend\">\n");
		for (size_t k = 0; k < sizeof key / sizeof key[0]; k++) {
			if (key[k].arrow == 2 && !segs)
				continue;
			if (key[k].arrow == 2) {
				/* as roof_segment() draws one, in grey */
				fprintf(out, "<line class=\"key-roof\" x1=\"%.1f\" "
					"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					"stroke=\"#555\" stroke-width=\"2.2\" "
					"stroke-opacity=\"0.75\"><title>a short "
					"segment through a point: the roof its "
					"region is held against (the bandwidth "
					"of its read/write mix, or its "
					"ceiling)</title></line>\n",
					x, y - 4, x + 16, y - 4);
				x += 22;
			} else if (key[k].arrow) {
				fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					"y2=\"%.1f\" stroke=\"#555\" "
					"marker-end=\"url(#rl-arrow)\"/>\n",
					x, y - 4, x + 16, y - 4);
				x += 28;
			} else {
				rl_svg_marker(out, "key", key[k].prec, x + 5, y - 4,
					     key[k].fill, key[k].stroke);
				x += 14;
			}
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y,
				key[k].text);
			x += rl_svg_text_px(key[k].text, 64) + 18;
		}
		x = c->left;
	}
	y += 18;
	const size_t cols = 3;
	const double colw = c->plot_w / cols;
	size_t n = s->r->n_summed, k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!s->reg[i].listed)
			continue;
		double lx = x + (double)(k % cols) * colw;
		double ly = y + (double)(k / cols) * 16;
		k++;
		if (!draw)
			continue;
		write_legend_entry(s, i, lx, ly, colw);
	}
	y += (double)((k + cols - 1) / cols) * 16;
	if (k < n) { /* capped: say how many are left out, and where */
		if (draw)
			write_legend_more(s, x, y);
		y += 2 * 16;
	}
	if (draw) {
		fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" "
			"fill=\"#444\">", x, y + 2);
		if (!c->has_model)
			fputs("no machine model: run rlprof probe. ", out);
		if (c->precision_assumed)
			fputs("Precision unknown for some regions: drawn against the "
			      "f64 roofs. ", out);
		if (c->n_checks)
			fprintf(out, "Red ring: above its roof by more than "
				"5%% (self-check: %zu region%s; see the report). ",
				c->n_checks, c->n_checks == 1 ? "" : "s");
		fputs("Hover a point or a roof for its figures.</text>\n", out);
		if (c->simulated && c->sim_valgrind_time)
			fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" "
				"fill=\"#444\">Simulated PMU (Valgrind): exact counts, "
				"but the program ran 10-60\xc3\x97 slower, so GFLOP/s sit "
				"far under the roofs: read the AI (x) position.</text>\n",
				x, y + 16);
		else if (c->simulated)
			fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" "
				"fill=\"#444\">Simulated PMU (Valgrind): exact counts; "
				"times from a native run of the program, so GFLOP/s are "
				"native speeds.</text>\n",
				x, y + 16);
		fputs("</g>\n", out);
	}
	return y + (s->c.simulated ? 30 : 14);
}


