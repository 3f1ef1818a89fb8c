/*
 * roofline.svg: where each label goes (svg_draw.h). A label's box is its
 * text's width in DejaVu Sans (rl_text_px) and the font's full ascent and
 * descent, as a browser boxes it; it goes where it overlaps nothing
 * placed (rl_placer_is_free), and nowhere when no such place exists.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "common/rl_error.h"
#include "render/svg_draw.h"

/* Tries the candidate spots around (x, y) for a text of w pixels. */
static int place_near(struct rl_svg *s, double x, double y, double w,
		      int avoid_lines, double ring, struct rl_svg_label *l)
{
	static const struct {
		double dx, dy;
		const char *anchor;
	} spot[] = {
		{8, 4, "start"},   {-8, 4, "end"},   {6, -7, "start"},
		{6, 14, "start"},  {-6, -7, "end"},  {-6, 14, "end"},
		{0, -9, "middle"}, {0, 17, "middle"},
	};
	for (size_t k = 0; k < sizeof spot / sizeof spot[0]; k++) {
		double lx = x + ring * spot[k].dx, ly = y + ring * spot[k].dy;
		double x0 = strcmp(spot[k].anchor, "start") == 0 ? 0
			    : strcmp(spot[k].anchor, "end") == 0 ? -w
								 : -w / 2;
		struct rl_quad q = rl_rect_quad(lx, ly, 0, x0, -RL_SVG_ASCENT,
					  x0 + w, RL_SVG_DESCENT, -1);
		if (rl_placer_is_free(&s->pl, &q, avoid_lines)) {
			*l = (struct rl_svg_label){lx, ly, 0, spot[k].anchor, 1};
			return rl_placer_add(&s->pl, q) ? RL_ENOMEM : 1;
		}
	}
	return 0;
}

/* The text of region i's label on the chart: its name (or number), and
 * at the right edge where its point really is. */
void rl_svg_region_label_text(const struct rl_svg *s, size_t i, char *buf,
			      size_t len, size_t *cut)
{
	const struct rl_svg_region *d = &s->reg[i];
	struct rl_region_row row_buf;
	const struct rl_region_row *row =
		rl_report_row(s->r, i, &row_buf);
	char num[24], v[32];

	snprintf(num, sizeof num, "%zu", i + 1);
	*cut = RL_SVG_LABEL_CHARS;
	if (d->offscale) {
		char name[RL_SVG_LABEL_CHARS * 4 + 8];
		/* the name cut first, as the label shows it */
		size_t o = 0, n = 0;
		const char *p = d->numbered ? num : row->region;
		while (p[o] && n < RL_SVG_LABEL_CHARS && o + 4 < sizeof name) {
			o++;
			while ((p[o] & 0xC0) == 0x80)
				o++;
			n++;
		}
		snprintf(name, sizeof name, "%.*s%s", (int)o, p,
			 p[o] ? "\xe2\x80\xa6" : "");
		snprintf(buf, len, "%s \xe2\x86\x92 AI %s", name,
			 rl_chart_num(v, sizeof v, rl_chart_point_ai(row, NULL)));
		*cut = RL_SVG_LABEL_CHARS + 16;
		return;
	}
	snprintf(buf, len, "%s", d->numbered ? num : row->region);
}

/* Each region's label beside its point where it overlaps nothing: its
 * name, else its number, near the point and then a little farther out;
 * a point with no free room for either gets no label (the legend lists
 * it by number and colour, its <title> has its name). */
static int place_regions(struct rl_svg *s)
{
	char text[RL_SVG_LABEL_CHARS * 4 + 64];
	for (size_t i = 0; i < s->r->n_summed; i++) {
		struct rl_svg_region *d = &s->reg[i];
		size_t cut;
		if (!d->on_chart)
			continue;
		double x = d->counted ? d->cx : d->dx, y = d->counted ? d->cy : d->dy;
		int rc = 0;
		if (i >= RL_SVG_MAX_PLACED) { /* unsearched: its number beside it */
			d->numbered = s->any_numbered = 1;
			d->label = (struct rl_svg_label){x + 7, y + 4, 0, "start", 1};
			continue;
		}
		d->numbered = 0;
		for (int pass = 0; pass < 2 && rc == 0; pass++) {
			if (pass == 1)
				d->numbered = 1;
			rl_svg_region_label_text(s, i, text, sizeof text, &cut);
			double w = rl_svg_text_px(text, cut);
			for (int ring = 1; ring <= 2 && rc == 0; ring++)
				for (int lines = 1; lines >= 0 && rc == 0; lines--)
					rc = place_near(s, x, y, w, lines,
							ring == 1 ? 1 : 2.2,
							&d->label);
		}
		if (rc < 0)
			return rc;
		if (rc == 0) /* crowded: no label */
			d->label.placed = 0;
		if (d->numbered)
			s->any_numbered = 1;
	}
	return 0;
}

/* The labels of the peaks (peaks 1) or of the other flat roofs. */
static int place_flat_labels(struct rl_svg *s, int peaks)
{
	const struct rl_chart *c = &s->c;
	char v[32];
	for (size_t f = 0; f < c->n_flat; f++) {
		const struct rl_compute_roof *fr = c->flat[f].roof;
		if (!s->flat_drawn[f] || !c->flat[f].is_peak != !peaks)
			continue;
		/* "avx2 / avx512-fma f64 59.1 GFLOP/s": every ceiling of
		 * this value, one line */
		size_t n = 0;
		for (size_t g = f; g < c->n_flat; g++) {
			const struct rl_compute_roof *gr = c->flat[g].roof;
			if (g != f && c->flat[g].merged_into != (int)f)
				continue;
			int bare = c->flat[g].is_peak ||
				   strcmp(gr->name, gr->kind) == 0 ||
				   strcmp(gr->kind, "peak") == 0 ||
				   strcmp(gr->kind, "scalar") == 0;
			n += (size_t)snprintf(s->flat_text[f] + n,
					      sizeof s->flat_text[f] - n,
					      "%s%s%s%s", n ? " / " : "",
					      bare ? "" : gr->kind, bare ? "" : " ",
					      gr->name);
			if (n >= sizeof s->flat_text[f])
				n = sizeof s->flat_text[f] - 1;
		}
		snprintf(s->flat_text[f] + n, sizeof s->flat_text[f] - n,
			 " %s %s GFLOP/s", fr->precision,
			 rl_chart_num(v, sizeof v, fr->gflops));
		double w = rl_svg_text_px(s->flat_text[f], 160);
		double right = c->left + c->plot_w - 4;
		int done = 0;
		/* above or below the line, from its right end leftwards; a
		 * ceiling crowded under another (lines a few pixels apart)
		 * then crosses lines but no other label */
		for (int k = 0, pass = 0; pass < 2 && !done; k = 0, pass++)
		for (int below = 0; below < 2 && !done; below++) {
			for (k = 0; k < 32 && !done; k++) {
				double lx = right - k * 30;
				double ly = below ? s->fy[f] + RL_SVG_ASCENT + 3
						  : s->fy[f] - 4;
				struct rl_quad q = rl_rect_quad(lx, ly, 0, -w, -RL_SVG_ASCENT,
							  0, RL_SVG_DESCENT,
							  2000 + (int)f);
				if (lx - w < s->fx0[f] ||
				    !rl_placer_is_free(&s->pl, &q, pass == 0))
					continue;
				s->flat_label[f] = (struct rl_svg_label){lx, ly, 0, "end", 1};
				if (rl_placer_add(&s->pl, q))
					return RL_ENOMEM;
				done = 1;
			}
		}
		/* one that would overlap another label everywhere is left
		 * out (its line's <title> names it); a peak's always shown */
		if (!done && c->flat[f].is_peak)
			s->flat_label[f] = (struct rl_svg_label){right, s->fy[f] - 4, 0,
							  "end", 1};
	}
	return 0;
}

/* Along each slope from its lower end, above it then below, clear of
 * lines and then only of labels and markers; left out when nowhere is
 * clear (its line's <title> names it). */
static int place_slope_labels(struct rl_svg *s)
{
	const struct rl_chart *c = &s->c;
	char v[32];
	for (size_t i = 0; i < c->n_slope; i++) {
		if (!s->slope_drawn[i])
			continue;
		snprintf(s->slope_text[i], sizeof s->slope_text[i], "%s %s GB/s",
			 c->slope[i].roof->level,
			 rl_chart_num(v, sizeof v, c->slope[i].gbs));
		double w = rl_svg_text_px(s->slope_text[i], 64);
		double dx = s->sx1[i] - s->sx0[i], dy = s->sy1[i] - s->sy0[i];
		double len = hypot(dx, dy), a = atan2(dy, dx);
		int done = 0;
		for (int lines = 1; lines >= 0 && !done; lines--)
		for (int side = 0; side < 2 && !done; side++) {
			for (int k = 0; k < 12 && !done; k++) {
				double t = 0.04 + 0.07 * k;
				if (t * len + w > 0.97 * len)
					break;
				double lx = s->sx0[i] + t * dx, ly = s->sy0[i] + t * dy;
				double b = side ? 3 + RL_SVG_ASCENT : -3;
				struct rl_quad q = rl_rect_quad(lx, ly, a, 0, b - RL_SVG_ASCENT,
							  w, b + RL_SVG_DESCENT,
							  1000 + (int)i);
				if (!rl_placer_is_free(&s->pl, &q, lines))
					continue;
				/* baseline offset along the normal */
				s->slope_label[i] = (struct rl_svg_label){
					lx - b * sin(a), ly + b * cos(a),
					a * 180 / RL_SVG_PI, "start", 1};
				if (rl_placer_add(&s->pl, q))
					return RL_ENOMEM;
				done = 1;
			}
		}
		if (!done)
			s->slope_label[i].placed = 0;
	}
	return 0;
}

int rl_svg_place_labels(struct rl_svg *s)
{
	/* the roofs' own labels first: there are few, and a chart needs
	 * them; the regions' then, the other ceilings' where room is left */
	return place_flat_labels(s, 1) || place_slope_labels(s) ||
	       place_regions(s) || place_flat_labels(s, 0);
}
