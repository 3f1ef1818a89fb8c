/*
 * roofline.svg: the roofline chart as pure SVG (no scripts, no external
 * fonts), valid XML, every user string escaped. Geometry and the label
 * placer in svg_chart.c; here the drawing, and where labels may go: off
 * each other, off the markers and off the roof lines. A region label that
 * finds no free place becomes its number, listed in the legend under the
 * chart. The legend lists at most RL_SVG_LEGEND_MAX regions (see
 * choose_listed) and says how many it leaves out; every point keeps its
 * region's name in its <title>.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "common/rl_error.h"
#include "render/svg_chart.h"
#include "render/svg_error_bar.h"

#define FONT_PX 11.0
#define POINT_R 4.5
/* a line of text from its baseline, as the browser boxes it (DejaVu
 * Sans: ascent 0.928 em, descent 0.236 em) */
#define ASCENT (0.93 * FONT_PX)
#define DESCENT (0.24 * FONT_PX)
#define LABEL_CHARS 24
#define MAX_PLACED 100 /* regions whose label spot is searched; the rest
			  are numbered beside their point (the search is
			  quadratic: thousands of regions took minutes) */
#define PI 3.14159265358979323846
#define RL_SVG_LEGEND_MAX 120 /* legend entries at most: 40 lines; 10^5
				 regions made a chart 530,000 px tall */

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1",
	"#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#7f7f7f",
};
#define N_PALETTE (sizeof palette / sizeof palette[0])

static double text_px(const char *s, size_t max_chars)
{
	return rl_text_px(s, max_chars, FONT_PX);
}

/* Decade label: 0.01, 100, 1e6. */
static void decade_label(char *buf, size_t len, int k)
{
	if (k >= 0 && k <= 5)
		snprintf(buf, len, "%.0f", pow(10, k));
	else if (k < 0 && k >= -3)
		snprintf(buf, len, "%.*f", -k, pow(10, k));
	else
		snprintf(buf, len, "1e%d", k);
}

struct label {
	double x, y, angle_deg;
	const char *anchor;
	int placed;
};

struct region_draw {
	int counted, declared, on_chart;
	double cx, cy, dx, dy; /* counted and declared marker centres */
	struct label label;
	int numbered;
	int listed; /* in the legend */
	int offscale; /* right of the x axis: drawn at its edge */
	int roof_seg; /* the roof it was held against, drawn */
	double rx0, ry0, rx1, ry1;
};

static void write_marker(FILE *out, const char *cls, const char *prec,
			 double x, double y, const char *fill,
			 const char *stroke)
{
	/* hollow (declared) markers get a heavier outline */
	const char *sw = strcmp(cls, "declared") == 0 ? " stroke-width=\"1.6\""
						      : "";
	if (prec && strcmp(prec, "f32") == 0)
		fprintf(out,
			"<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			"height=\"%.2f\" fill=\"%s\" stroke=\"%s\"%s/>\n",
			cls, x - POINT_R, y - POINT_R, 2 * POINT_R, 2 * POINT_R,
			fill, stroke, sw);
	else if (prec && strcmp(prec, "mixed") == 0)
		fprintf(out,
			"<path class=\"%s\" d=\"M%.2f %.2fl%.2f %.2fl%.2f %.2fl%.2f "
			"%.2fz\" data-cx=\"%.2f\" data-cy=\"%.2f\" fill=\"%s\" "
			"stroke=\"%s\"%s/>\n",
			cls, x, y - 1.3 * POINT_R, 1.3 * POINT_R, 1.3 * POINT_R,
			-1.3 * POINT_R, 1.3 * POINT_R, -1.3 * POINT_R,
			-1.3 * POINT_R, x, y, fill, stroke, sw);
	else
		fprintf(out,
			"<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" "
			"fill=\"%s\" stroke=\"%s\"%s/>\n",
			cls, x, y, POINT_R, fill, stroke, sw);
}

/* The cache level whose intensity a row's counted point is drawn at
 * (rl_chart_point_ai), -1 when at DRAM's or without a point. */
static int point_level(const struct rl_region_row *row)
{
	int l;

	rl_chart_point_ai(row, &l);
	return l == RL_LEVELS - 1 ? -1 : l;
}

static void write_region_title(FILE *out, const struct rl_region_row *row)
{
	char a[32], b[32], c[32], d[32];
	fputs("<title>", out);
	if (row->loop) {
		fputs("loop ", out);
		rl_xml_escape(out, row->region);
		fputs(" in ", out);
		rl_xml_escape(out, row->loop->parent ? row->loop->parent
						     : "a region not known");
		if (rl_known(row->time_error_s))
			fprintf(out, " (time +- %s s, sampled)",
				rl_chart_num(a, sizeof a, row->time_error_s));
	} else {
		rl_xml_escape(out, row->region);
	}
	fprintf(out, "&#10;AI %s flop/B counted, %s declared",
		rl_chart_num(a, sizeof a, row->ai),
		rl_chart_num(b, sizeof b, row->ai_expected));
	if (point_level(row) >= 0)
		fprintf(out, "&#10;drawn at its %s intensity, %s flop/B: the "
			"level of the roof it is held against",
			rl_chart_level_name(point_level(row)),
			rl_chart_num(c, sizeof c,
				     rl_chart_point_ai(row, NULL)));
	fprintf(out, "&#10;%s GFLOP/s, %s GB/s, %s s, %llu calls",
		rl_chart_num(a, sizeof a, row->gflops),
		rl_chart_num(b, sizeof b, row->gbs),
		rl_chart_num(c, sizeof c, row->time_s),
		(unsigned long long)row->calls);
	if (rl_known(row->gflops_expected))
		fprintf(out, "&#10;declared: %s GFLOP/s at the measured time",
			rl_chart_num(d, sizeof d, row->gflops_expected));
	if (row->bound != RL_BOUND_UNKNOWN && rl_known(row->roof_pct)) {
		fprintf(out, "&#10;%s-bound, %s%% of ",
			row->bound == RL_BOUND_MEMORY ? "memory" : "compute",
			rl_chart_num(a, sizeof a, row->roof_pct));
		rl_xml_escape(out, row->roof_label    ? row->roof_label
				   : row->bound_roof ? row->bound_roof
						     : "its roof");
	}
	if (row->check) {
		fputs("&#10;self-check: ", out);
		rl_xml_escape(out, row->check);
	}
	if (row->diagnosis && *row->diagnosis) {
		fputs("&#10;", out);
		rl_xml_escape(out, row->diagnosis);
	}
	fputs("</title>\n", out);
}

static void write_label(FILE *out, const struct label *l, const char *cls,
			const char *fill, const char *text, size_t cut,
			double font)
{
	fprintf(out,
		"<text class=\"%s\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" "
		"font-size=\"%.0f\" fill=\"%s\"",
		cls, l->x, l->y, l->anchor, font, fill);
	if (l->angle_deg != 0)
		fprintf(out, " transform=\"rotate(%.2f %.2f %.2f)\"", l->angle_deg,
			l->x, l->y);
	fputs(">", out);
	rl_xml_escape_cut(out, text, cut);
	fputs("</text>\n", out);
}


struct svg {
	FILE *out;
	const struct rl_report *r;
	struct rl_chart c;
	struct rl_placer pl;
	struct region_draw *reg;
	struct label slope_label[RL_LEVELS], flat_label[RL_CHART_MAX_FLAT];
	char slope_text[RL_LEVELS][64], flat_text[RL_CHART_MAX_FLAT][160];
	double sx0[RL_LEVELS], sy0[RL_LEVELS], sx1[RL_LEVELS], sy1[RL_LEVELS];
	double fx0[RL_CHART_MAX_FLAT], fy[RL_CHART_MAX_FLAT];
	int slope_drawn[RL_LEVELS], flat_drawn[RL_CHART_MAX_FLAT];
	int any_numbered;
	size_t left_on_chart;  /* regions not listed: with a point drawn, */
	size_t left_off_chart; /* with a point outside the axes, */
	size_t left_no_point;  /* without a point */
};

static const char *flat_color(const struct rl_compute_roof *f, int two)
{
	return two && strcmp(f->precision, "f32") == 0 ? "#a0522d" : "#222";
}

/* Geometry of roof lines (pixels), added as obstacles. */
static int roof_geometry(struct svg *s)
{
	struct rl_chart *c = &s->c;
	double xmin = pow(10, c->x_lo), xmax = pow(10, c->x_hi);
	double ymin = pow(10, c->y_lo), ymax = pow(10, c->y_hi);
	double top = c->peak_max_gflops > 0 ? c->peak_max_gflops : ymax;
	for (size_t i = 0; i < c->n_slope; i++) {
		double g = c->slope[i].gbs;
		double a0 = fmax(xmin, ymin / g), a1 = fmin(xmax, top / g);
		if (!(a0 < a1))
			continue;
		s->slope_drawn[i] = 1;
		s->sx0[i] = rl_chart_px_x(c, a0);
		s->sy0[i] = rl_chart_px_y(c, a0 * g);
		s->sx1[i] = rl_chart_px_x(c, a1);
		s->sy1[i] = rl_chart_px_y(c, a1 * g);
		if (rl_placer_add(&s->pl, rl_segment_quad(s->sx0[i], s->sy0[i],
						    s->sx1[i], s->sy1[i],
						    1000 + (int)i)))
			return RL_ENOMEM;
	}
	double gmax = c->n_slope ? c->slope[c->n_slope - 1].gbs : 0;
	for (size_t f = 0; f < c->n_flat; f++) {
		double g = c->flat[f].roof->gflops;
		double a0 = gmax > 0 ? fmax(xmin, g / gmax) : xmin;
		if (!(g >= ymin && g <= ymax) || !(a0 < xmax) ||
		    c->flat[f].merged_into >= 0)
			continue; /* a merged one shares its twin's line */
		s->flat_drawn[f] = 1;
		s->fx0[f] = rl_chart_px_x(c, a0);
		s->fy[f] = rl_chart_px_y(c, g);
		if (rl_placer_add(&s->pl, rl_segment_quad(s->fx0[f], s->fy[f],
						    c->left + c->plot_w, s->fy[f],
						    2000 + (int)f)))
			return RL_ENOMEM;
	}
	return 0;
}

/* The roof the analysis held the row against, at the point's intensity:
 * a short segment of its own mix slope (memory) or of its ceiling
 * (compute), so that a point at 100 % of its roof sits on a line. */
static int roof_segment(struct svg *s, const struct rl_region_row *row,
			struct region_draw *d)
{
	const struct rl_chart *c = &s->c;
	int declared = row->basis == RL_BASIS_DECLARED;
	double ai = declared ? row->ai_expected
			     : rl_chart_point_ai(row, NULL);
	double lo = pow(10, c->x_lo), hi = pow(10, c->x_hi);
	double a0, a1, y0, y1;

	if (!(declared ? d->declared : d->counted) || d->offscale ||
	    row->bound == RL_BOUND_UNKNOWN || !(row->roof_gflops > 0) ||
	    !(ai > 0))
		return 0;
	a0 = fmax(lo, ai / 1.8);
	a1 = fmin(hi, ai * 1.8);
	if (row->bound == RL_BOUND_MEMORY && row->roof_gbs > 0) {
		y0 = row->roof_gbs * a0;
		y1 = row->roof_gbs * a1;
	} else {
		y0 = y1 = row->roof_gflops;
	}
	if (!(y0 > 0) || !(y1 > 0) || log10(y1) > c->y_hi ||
	    log10(y0) < c->y_lo)
		return 0;
	d->roof_seg = 1;
	d->rx0 = rl_chart_px_x(c, a0);
	d->ry0 = rl_chart_px_y(c, y0);
	d->rx1 = rl_chart_px_x(c, a1);
	d->ry1 = rl_chart_px_y(c, y1);
	return rl_placer_add(&s->pl, rl_segment_quad(d->rx0, d->ry0, d->rx1,
						      d->ry1, -1));
}

static int region_geometry(struct svg *s)
{
	const struct rl_chart *c = &s->c;
	for (size_t i = 0; i < s->r->n_summed; i++) {
		const struct rl_region_row *row = &s->r->rows[i];
		struct region_draw *d = &s->reg[i];
		if (rl_chart_has_counted(row)) {
			double ai = rl_chart_point_ai(row, NULL);
			d->offscale = rl_chart_offscale(c, ai);
			d->cx = d->offscale ? c->left + c->plot_w
					    : rl_chart_px_x(c, ai);
			d->cy = rl_chart_px_y(c, row->gflops);
			d->counted = d->cx >= c->left - 0.5 &&
				     d->cx <= c->left + c->plot_w + 0.5 &&
				     d->cy >= c->top - 0.5 &&
				     d->cy <= c->top + c->plot_h + 0.5;
		}
		if (rl_chart_has_declared(row)) {
			d->dx = rl_chart_offscale(c, row->ai_expected)
					? c->left + c->plot_w
					: rl_chart_px_x(c, row->ai_expected);
			d->dy = rl_chart_px_y(c, row->gflops_expected);
			d->declared = d->dx >= c->left - 0.5 &&
				      d->dx <= c->left + c->plot_w + 0.5 &&
				      d->dy >= c->top - 0.5 &&
				      d->dy <= c->top + c->plot_h + 0.5;
		}
		d->on_chart = d->counted || d->declared;
		if (roof_segment(s, row, d))
			return RL_ENOMEM;
		const double r = POINT_R + 1;
		if (d->counted &&
		    rl_placer_add(&s->pl, rl_rect_quad(d->cx, d->cy, 0, -r, -r, r, r, -1)))
			return RL_ENOMEM;
		if (d->declared &&
		    rl_placer_add(&s->pl, rl_rect_quad(d->dx, d->dy, 0, -r, -r, r, r, -1)))
			return RL_ENOMEM;
		if (d->counted && d->declared &&
		    hypot(d->cx - d->dx, d->cy - d->dy) > 2 * POINT_R + 4) {
			struct rl_quad q = rl_segment_quad(d->dx, d->dy, d->cx, d->cy, -1);
			if (rl_placer_add(&s->pl, q))
				return RL_ENOMEM;
		}
	}
	return 0;
}

/* Tries the candidate spots around (x, y) for a text of w pixels. */
static int place_near(struct svg *s, double x, double y, double w,
		      int avoid_lines, double ring, struct label *l)
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
		struct rl_quad q = rl_rect_quad(lx, ly, 0, x0, -ASCENT,
					  x0 + w, DESCENT, -1);
		if (rl_placer_is_free(&s->pl, &q, avoid_lines)) {
			*l = (struct label){lx, ly, 0, spot[k].anchor, 1};
			return rl_placer_add(&s->pl, q) ? RL_ENOMEM : 1;
		}
	}
	return 0;
}

/* The text of region i's label on the chart: its name (or number), and
 * at the right edge where its point really is. */
static void region_label_text(const struct svg *s, size_t i, char *buf,
			      size_t len, size_t *cut)
{
	const struct region_draw *d = &s->reg[i];
	const struct rl_region_row *row = &s->r->rows[i];
	char num[24], v[32];

	snprintf(num, sizeof num, "%zu", i + 1);
	*cut = LABEL_CHARS;
	if (d->offscale) {
		char name[LABEL_CHARS * 4 + 8];
		/* the name cut first, as the label shows it */
		size_t o = 0, n = 0;
		const char *p = d->numbered ? num : row->region;
		while (p[o] && n < LABEL_CHARS && o + 4 < sizeof name) {
			o++;
			while ((p[o] & 0xC0) == 0x80)
				o++;
			n++;
		}
		snprintf(name, sizeof name, "%.*s%s", (int)o, p,
			 p[o] ? "\xe2\x80\xa6" : "");
		snprintf(buf, len, "%s \xe2\x86\x92 AI %s", name,
			 rl_chart_num(v, sizeof v, rl_chart_point_ai(row, NULL)));
		*cut = LABEL_CHARS + 16;
		return;
	}
	snprintf(buf, len, "%s", d->numbered ? num : row->region);
}

/* Each region's label beside its point where it overlaps nothing: its
 * name, else its number, near the point and then a little farther out;
 * a point with no free room for either gets no label (the legend lists
 * it by number and colour, its <title> has its name). */
static int place_regions(struct svg *s)
{
	char text[LABEL_CHARS * 4 + 64];
	for (size_t i = 0; i < s->r->n_summed; i++) {
		struct region_draw *d = &s->reg[i];
		size_t cut;
		if (!d->on_chart)
			continue;
		double x = d->counted ? d->cx : d->dx, y = d->counted ? d->cy : d->dy;
		int rc = 0;
		if (i >= MAX_PLACED) { /* unsearched: its number beside it */
			d->numbered = s->any_numbered = 1;
			d->label = (struct label){x + 7, y + 4, 0, "start", 1};
			continue;
		}
		d->numbered = 0;
		for (int pass = 0; pass < 2 && rc == 0; pass++) {
			if (pass == 1)
				d->numbered = 1;
			region_label_text(s, i, text, sizeof text, &cut);
			double w = text_px(text, cut);
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
static int place_flat_labels(struct svg *s, int peaks)
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
		double w = text_px(s->flat_text[f], 160);
		double right = c->left + c->plot_w - 4;
		int done = 0;
		/* above or below the line, from its right end leftwards; a
		 * ceiling crowded under another (lines a few pixels apart)
		 * then crosses lines but no other label */
		for (int k = 0, pass = 0; pass < 2 && !done; k = 0, pass++)
		for (int below = 0; below < 2 && !done; below++) {
			for (k = 0; k < 32 && !done; k++) {
				double lx = right - k * 30;
				double ly = below ? s->fy[f] + ASCENT + 3
						  : s->fy[f] - 4;
				struct rl_quad q = rl_rect_quad(lx, ly, 0, -w, -ASCENT,
							  0, DESCENT,
							  2000 + (int)f);
				if (lx - w < s->fx0[f] ||
				    !rl_placer_is_free(&s->pl, &q, pass == 0))
					continue;
				s->flat_label[f] = (struct label){lx, ly, 0, "end", 1};
				if (rl_placer_add(&s->pl, q))
					return RL_ENOMEM;
				done = 1;
			}
		}
		/* one that would overlap another label everywhere is left
		 * out (its line's <title> names it); a peak's always shown */
		if (!done && c->flat[f].is_peak)
			s->flat_label[f] = (struct label){right, s->fy[f] - 4, 0,
							  "end", 1};
	}
	return 0;
}

/* Along each slope from its lower end, above it then below, clear of
 * lines and then only of labels and markers; left out when nowhere is
 * clear (its line's <title> names it). */
static int place_slope_labels(struct svg *s)
{
	const struct rl_chart *c = &s->c;
	char v[32];
	for (size_t i = 0; i < c->n_slope; i++) {
		if (!s->slope_drawn[i])
			continue;
		snprintf(s->slope_text[i], sizeof s->slope_text[i], "%s %s GB/s",
			 c->slope[i].roof->level,
			 rl_chart_num(v, sizeof v, c->slope[i].gbs));
		double w = text_px(s->slope_text[i], 64);
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
				double b = side ? 3 + ASCENT : -3;
				struct rl_quad q = rl_rect_quad(lx, ly, a, 0, b - ASCENT,
							  w, b + DESCENT,
							  1000 + (int)i);
				if (!rl_placer_is_free(&s->pl, &q, lines))
					continue;
				/* baseline offset along the normal */
				s->slope_label[i] = (struct label){
					lx - b * sin(a), ly + b * cos(a),
					a * 180 / PI, "start", 1};
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

static void write_axes(struct svg *s)
{
	FILE *out = s->out;
	const struct rl_chart *c = &s->c;
	double l = c->left, t = c->top, r = c->left + c->plot_w,
	       b = c->top + c->plot_h;
	char buf[32];
	fputs("<g class=\"axes\">\n", out);
	for (int k = (int)c->x_lo; k <= (int)c->x_hi; k++) {
		double x = rl_chart_px_x(c, pow(10, k));
		if (k > (int)c->x_lo && k < (int)c->x_hi)
			fprintf(out, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" "
				"x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e6e6e6\"/>\n",
				x, t, x, b);
		fprintf(out, "<line class=\"tick\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\" stroke=\"#000\"/>\n", x, b, x, b + 6);
		decade_label(buf, sizeof buf, k);
		fprintf(out, "<text class=\"tick-label\" x=\"%.2f\" y=\"%.2f\" "
			"text-anchor=\"middle\">%s</text>\n", x, b + 19, buf);
		for (int m = 2; m <= 9 && k < (int)c->x_hi; m++) {
			double xm = rl_chart_px_x(c, m * pow(10, k));
			fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
				"y2=\"%.2f\" stroke=\"#000\"/>\n", xm, b, xm, b + 3);
		}
	}
	for (int k = (int)c->y_lo; k <= (int)c->y_hi; k++) {
		double y = rl_chart_px_y(c, pow(10, k));
		if (k > (int)c->y_lo && k < (int)c->y_hi)
			fprintf(out, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" "
				"x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e6e6e6\"/>\n",
				l, y, r, y);
		fprintf(out, "<line class=\"tick\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\" stroke=\"#000\"/>\n", l - 6, y, l, y);
		decade_label(buf, sizeof buf, k);
		fprintf(out, "<text class=\"tick-label\" x=\"%.2f\" y=\"%.2f\" "
			"text-anchor=\"end\">%s</text>\n", l - 9, y + 4, buf);
		for (int m = 2; m <= 9 && k < (int)c->y_hi; m++) {
			double ym = rl_chart_px_y(c, m * pow(10, k));
			fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
				"y2=\"%.2f\" stroke=\"#000\"/>\n", l - 3, ym, l, ym);
		}
	}
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
		"fill=\"none\" stroke=\"#000\"/>\n", l, t, c->plot_w, c->plot_h);
	fprintf(out, "<text class=\"axis-title\" x=\"%.2f\" y=\"%.2f\" "
		"text-anchor=\"middle\" font-size=\"12\">arithmetic intensity "
		"(flop/byte)</text>\n", l + c->plot_w / 2, b + 36);
	fprintf(out, "<text class=\"axis-title\" x=\"%.2f\" y=\"%.2f\" "
		"text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 "
		"%.2f %.2f)\">performance (GFLOP/s)</text>\n",
		l - 52, t + c->plot_h / 2, l - 52, t + c->plot_h / 2);
	fputs("</g>\n", out);
}

static void write_roofs(struct svg *s)
{
	FILE *out = s->out;
	const struct rl_chart *c = &s->c;
	int two = c->show_f32 && c->show_f64;
	char a[32], b[32];
	fputs("<g class=\"roofs\" fill=\"none\">\n", out);
	for (size_t i = 0; i < c->n_slope; i++) {
		const struct rl_bw_roof *br = c->slope[i].roof;
		if (!s->slope_drawn[i])
			continue;
		int dram = strcmp(br->level, "DRAM") == 0;
		fprintf(out, "<line class=\"roof-bw\" data-level=\"");
		rl_xml_escape(out, br->level);
		fprintf(out, "\" data-gbs=\"%.6g\" data-threads=\"%u\" x1=\"%.2f\" "
			"y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
			"stroke=\"%s\" stroke-width=\"%s\"><title>",
			c->slope[i].gbs, br->threads,
			s->sx0[i], s->sy0[i], s->sx1[i], s->sy1[i],
			dram ? "#222" : "#666", dram ? "1.8" : "1.2");
		rl_xml_escape(out, br->level);
		fprintf(out, " bandwidth, %u thread%s: %s GB/s moved (32 B/element, "
			"write-allocate), %s GB/s stream (24 B/element); ",
			br->threads, br->threads == 1 ? "" : "s",
			rl_chart_num(a, sizeof a, br->moved_gbs),
			rl_chart_num(b, sizeof b, br->stream_gbs));
		rl_xml_escape(out, br->method);
		fputs("</title></line>\n", out);
	}
	for (size_t f = 0; f < c->n_flat; f++) {
		const struct rl_compute_roof *fr = c->flat[f].roof;
		if (!s->flat_drawn[f])
			continue;
		fprintf(out, "<line class=\"%s\" data-kind=\"",
			c->flat[f].is_peak ? "roof-peak" : "roof-ceiling");
		rl_xml_escape(out, fr->kind);
		fprintf(out, "\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
			"stroke=\"%s\" stroke-width=\"%s\"%s><title>",
			s->fx0[f], s->fy[f], c->left + c->plot_w, s->fy[f],
			flat_color(fr, two), c->flat[f].is_peak ? "1.8" : "1.1",
			c->flat[f].is_peak ? "" : " stroke-dasharray=\"5 3\"");
		rl_xml_escape(out, fr->name);
		fputc(' ', out);
		rl_xml_escape(out, fr->kind);
		fputc(' ', out);
		rl_xml_escape(out, fr->precision);
		fprintf(out, ", %u thread%s: %s GFLOP/s measured, %s "
			"theoretical; ", fr->threads,
			fr->threads == 1 ? "" : "s",
			rl_chart_num(a, sizeof a, fr->gflops),
			fr->theoretical_gflops > 0
				? rl_chart_num(b, sizeof b, fr->theoretical_gflops)
				: "-");
		rl_xml_escape(out, fr->method);
		fputs("</title></line>\n", out);
	}
	/* ridge of each slope against each peak */
	for (size_t f = 0; f < c->n_flat; f++) {
		if (!c->flat[f].is_peak || !s->flat_drawn[f])
			continue;
		double g = c->flat[f].roof->gflops;
		for (size_t i = 0; i < c->n_slope; i++) {
			double ridge = g / c->slope[i].gbs;
			double x = rl_chart_px_x(c, ridge);
			if (!s->slope_drawn[i] || x < c->left - 0.5 ||
			    x > c->left + c->plot_w + 0.5)
				continue;
			fprintf(out, "<circle class=\"ridge\" cx=\"%.2f\" cy=\"%.2f\" "
				"r=\"3\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"1.4\">"
				"<title>ridge ", x, s->fy[f],
				flat_color(c->flat[f].roof, two));
			rl_xml_escape(out, c->slope[i].roof->level);
			fputs(" / ", out);
			rl_xml_escape(out, c->flat[f].roof->name);
			fputc(' ', out);
			rl_xml_escape(out, c->flat[f].roof->precision);
			fprintf(out, ": %s flop/byte</title></circle>\n",
				rl_chart_num(a, sizeof a, ridge));
		}
	}
	fputs("</g>\n", out);
}

static void write_regions(struct svg *s)
{
	FILE *out = s->out;
	for (size_t i = 0; i < s->r->n_summed; i++) {
		const struct rl_region_row *row = &s->r->rows[i];
		const struct region_draw *d = &s->reg[i];
		const char *col = palette[i % N_PALETTE];
		if (!d->on_chart)
			continue;
		if (row->loop) { /* a hot loop (rlprof run --loops) */
			fprintf(out, "<g class=\"region loop\" data-index=\"%zu\" "
				"data-parent=\"", i + 1);
			rl_xml_escape(out, row->loop->parent ? row->loop->parent
							    : "?");
			fputs("\">\n", out);
		} else {
			fprintf(out, "<g class=\"region\" data-index=\"%zu\">\n",
				i + 1);
		}
		write_region_title(out, row);
		double dist = hypot(d->cx - d->dx, d->cy - d->dy);
		if (d->counted && d->declared && dist > 2 * POINT_R + 4) {
			/* the arrow head is ~7 px long: stop the line short of
			 * the counted marker so the tip touches its edge */
			double a = atan2(d->cy - d->dy, d->cx - d->dx);
			double gap = POINT_R + 1.5, head = dist > 26 ? 7.5 : 0;
			fprintf(out, "<line class=\"gap\" x1=\"%.2f\" y1=\"%.2f\" "
				"x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\" "
				"stroke-width=\"1.2\"%s/>\n",
				d->dx + gap * cos(a), d->dy + gap * sin(a),
				d->cx - (gap + head) * cos(a),
				d->cy - (gap + head) * sin(a),
				head > 0 ? " marker-end=\"url(#rl-arrow)\"" : "");
		}
		if (d->declared)
			write_marker(out, "declared", row->precision, d->dx, d->dy,
				     "#fff", col);
		if (d->counted) {
			rl_svg_error_bar(out, &s->c, row, d->cx, col);
			write_marker(out, "point", row->precision, d->cx, d->cy, col,
				     "#000");
		}
		if (d->roof_seg) {
			char a[32], b[32];
			fprintf(out, "<line class=\"point-roof\" data-roof-pct=\"%s\" "
				"x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
				"stroke=\"%s\" stroke-width=\"2.2\" "
				"stroke-opacity=\"0.75\"><title>held against ",
				rl_known(row->roof_pct)
					? rl_chart_num(a, sizeof a, row->roof_pct) : "-",
				d->rx0, d->ry0, d->rx1, d->ry1, col);
			rl_xml_escape(out, row->roof_label ? row->roof_label
					   : row->ceiling ? row->ceiling : "its roof");
			if (row->bound == RL_BOUND_MEMORY && row->roof_gbs > 0)
				fprintf(out, ": %s GB/s", rl_chart_num(b, sizeof b,
								     row->roof_gbs));
			else
				fprintf(out, ": %s GFLOP/s",
					rl_chart_num(b, sizeof b, row->roof_gflops));
			if (row->roof_threads)
				fprintf(out, ", %u thread%s", row->roof_threads,
					row->roof_threads == 1 ? "" : "s");
			fputs("</title></line>\n", out);
		}
		if (d->counted && row->loop)
			/* a loop's mark: a dashed ring around its point */
			fprintf(out, "<circle class=\"loop-mark\" cx=\"%.2f\" "
				"cy=\"%.2f\" r=\"%.1f\" fill=\"none\" "
				"stroke=\"%s\" stroke-width=\"1.2\" "
				"stroke-dasharray=\"2 2\"/>\n",
				d->cx, d->cy, POINT_R + 2.5, col);
		if (d->counted && row->check)
			/* the self-check's mark: above its roof */
			fprintf(out, "<circle class=\"check\" cx=\"%.2f\" "
				"cy=\"%.2f\" r=\"%.1f\" fill=\"none\" "
				"stroke=\"#d00\" stroke-width=\"2\"/>\n",
				d->cx, d->cy, POINT_R + 4);
		fputs("</g>\n", out);
	}
}

static void write_labels(struct svg *s)
{
	FILE *out = s->out;
	const struct rl_chart *c = &s->c;
	int two = c->show_f32 && c->show_f64;
	fputs("<g class=\"labels\" stroke=\"#fff\" stroke-width=\"3\" "
	      "paint-order=\"stroke\" stroke-linejoin=\"round\">\n", out);
	for (size_t i = 0; i < c->n_slope; i++)
		if (s->slope_drawn[i] && s->slope_label[i].placed)
			write_label(out, &s->slope_label[i], "label-roof", "#333",
				    s->slope_text[i], 64, FONT_PX);
	for (size_t f = 0; f < c->n_flat; f++)
		if (s->flat_drawn[f] && s->flat_label[f].placed)
			write_label(out, &s->flat_label[f], "label-roof",
				    flat_color(c->flat[f].roof, two), s->flat_text[f],
				    160, FONT_PX);
	for (size_t i = 0; i < s->r->n_summed; i++) {
		const struct region_draw *d = &s->reg[i];
		char text[LABEL_CHARS * 4 + 64];
		size_t cut;
		if (!d->on_chart || !d->label.placed)
			continue;
		/* at the edge it says where it really is */
		region_label_text(s, i, text, sizeof text, &cut);
		write_label(out, &d->label, "label-region", "#000", text, cut,
			    FONT_PX);
	}
	fputs("</g>\n", out);
}

/* 0 a point labelled by its number, 1 another point on the chart, 2 a
 * point off the chart, 3 no point. */
static int legend_tier(const struct svg *s, size_t i)
{
	const struct rl_region_row *row = &s->r->rows[i];
	const struct region_draw *d = &s->reg[i];

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
static void choose_listed(struct svg *s)
{
	size_t n = s->r->n_summed, room = RL_SVG_LEGEND_MAX;

	for (int tier = 0; tier < 4; tier++)
		for (size_t i = 0; i < n; i++) {
			int t = legend_tier(s, i);
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
static void write_legend_more(struct svg *s, double x, double y)
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
static void write_legend_entry(struct svg *s, size_t i, double lx,
			       double ly, double w)
{
	FILE *out = s->out;
	const struct rl_region_row *row = &s->r->rows[i];
	const struct region_draw *d = &s->reg[i];
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
	else if (point_level(row) >= 0) /* at a cache level's intensity */
		snprintf(suffix, sizeof suffix, " (at %s)",
			 rl_chart_level_name(point_level(row)));
	snprintf(num, sizeof num, "%zu ", i + 1);
	double room = w - 14 - 8 - text_px(num, 64) - text_px(suffix, 160);
	size_t cut = 36;
	while (cut > 4 && text_px(row->region, cut) > room)
		cut--;
	write_marker(out, "key", row->precision, lx + 5, ly - 4,
		     palette[i % N_PALETTE], "#000");
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
static double write_legend(struct svg *s, double y, int draw)
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
				write_marker(out, "key", key[k].prec, x + 5, y - 4,
					     key[k].fill, key[k].stroke);
				x += 14;
			}
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y,
				key[k].text);
			x += text_px(key[k].text, 64) + 18;
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


/* Whether some region ran with another thread count than the roofs'. */
static int mixed_threads(const struct rl_report *r, unsigned threads)
{
	for (size_t i = 0; i < r->n_summed; i++)
		if ((r->rows[i].n_threads ? r->rows[i].n_threads : 1) != threads)
			return 1;
	return 0;
}

static void write_header(struct svg *s, double width, double height,
			 int standalone)
{
	FILE *out = s->out;
	const struct rl_chart *c = &s->c;
	const struct rl_machine *m = s->r->machine;
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"roofline\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
		"font-size=\"11\">\n", width, height, width, height);
	fputs("<defs><marker id=\"rl-arrow\" viewBox=\"0 0 10 10\" refX=\"1\" "
	      "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
	      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n",
	      out);
	fprintf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n",
		width, height);
	fprintf(out, "<text class=\"title\" x=\"%.1f\" y=\"22\" font-size=\"14\" "
		"font-weight=\"bold\">Roofline", c->left);
	if (m) {
		fputs(": ", out);
		rl_xml_escape(out, m->cpu_model);
	}
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"subtitle\" x=\"%.1f\" y=\"38\" fill=\"#333\">",
		c->left);
	if (c->show_f32 && c->show_f64)
		fputs("f64 and f32 regions, each against its own peak", out);
	else
		fputs(c->show_f32 ? "precision f32" : "precision f64", out);
	if (c->has_model && c->roof_threads)
		fprintf(out, " \xc2\xb7 roofs measured by rlprof probe with %u "
			"thread%s", c->roof_threads,
			c->roof_threads == 1 ? "" : "s");
	if (c->has_model && c->roof_threads != c->threads)
		fprintf(out, " (most regions ran with %u)", c->threads);
	else if (c->has_model && mixed_threads(s->r, c->threads))
		fputs(", as most regions ran", out);
	fputs("</text>\n", out);
	fprintf(out, "<text class=\"subtitle\" x=\"%.1f\" y=\"53\" fill=\"#333\">",
		c->left);
	if (c->bytes_moved)
		fputs("bytes: counted DRAM traffic (write-allocate included) "
		      "against triad roofs at 32 B/element", out);
	else
		fputs("bytes: as declared, against triad roofs at 24 B/element "
		      "(STREAM convention)", out);
	fputs("</text>\n", out);
	if (!c->has_model)
		fprintf(out, "<text class=\"note\" x=\"%.1f\" y=\"%.1f\" "
			"font-size=\"13\" fill=\"#b00\">no machine model: run rlprof "
			"probe</text>\n", c->left + 12, c->top + 22);
}

int rl_svg_write_chart(FILE *out, const struct rl_report *r, int standalone,
		       char *err, size_t errlen)
{
	struct svg *s = calloc(1, sizeof *s);
	int rc = 0;
	if (!s)
		return rl_fail(err, errlen, RL_ENOMEM, "cannot draw the chart: %s",
			       rl_strerror(RL_ENOMEM));
	s->out = out;
	s->r = r;
	rl_chart_layout(&s->c, r, RL_CHART_PLOT_W, RL_CHART_PLOT_H);
	s->pl.x0 = s->c.left + 1;
	s->pl.y0 = s->c.top + 1;
	s->pl.x1 = s->c.left + s->c.plot_w - 1;
	s->pl.y1 = s->c.top + s->c.plot_h - 1;
	s->reg = calloc(r->n_summed ? r->n_summed : 1, sizeof *s->reg);
	if (!s->reg || roof_geometry(s) || region_geometry(s) ||
	    place_flat_labels(s, 1) || place_slope_labels(s) ||
	    place_regions(s) || place_flat_labels(s, 0)) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "cannot draw the chart: %s",
			     rl_strerror(RL_ENOMEM));
		goto out;
	}
	choose_listed(s);
	double legend_y = s->c.top + s->c.plot_h + 62;
	double height = write_legend(s, legend_y, 0) + 8;
	write_header(s, RL_CHART_WIDTH, height, standalone);
	write_axes(s);
	write_roofs(s);
	write_regions(s);
	write_labels(s);
	write_legend(s, legend_y, 1);
	fputs("</svg>\n", out);
	if (ferror(out))
		rc = rl_fail(err, errlen, RL_EIO, "cannot write the chart: %s",
			     rl_strerror(RL_EIO));
out:
	free(s->reg);
	free(s->pl.q);
	free(s);
	return rc;
}

static int render_svg(FILE *out, const struct rl_report *r,
		      const struct rl_render_options *opt, char *err,
		      size_t errlen)
{
	(void)opt;
	return rl_svg_write_chart(out, r, 1, err, errlen);
}

const struct rl_renderer rl_renderer_svg = {"svg", "roofline.svg", render_svg};
