/*
 * roofline.svg: the roofline chart as pure SVG (no scripts, no external
 * fonts), valid XML, every user string escaped. Geometry and the label
 * placer's tests in svg_chart.c; where each label goes in svg_place.c
 * (off each other, off the markers and off the roof lines), the legend
 * in svg_legend.c (at most RL_SVG_LEGEND_MAX regions, and how many it
 * leaves out); here the drawing: axes, roofs, points and the document.
 * Every point keeps its region's name in its <title>.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "render/render.h"
#include "common/rl_error.h"
#include "render/svg_chart.h"
#include "render/svg_draw.h"
#include "render/svg_error_bar.h"

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1",
	"#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#7f7f7f",
};

const char *rl_svg_color(size_t i)
{
	return palette[i % (sizeof palette / sizeof palette[0])];
}

void rl_svg_marker(FILE *out, const char *cls, const char *prec, double x,
		   double y, const char *fill, const char *stroke)
{
	/* hollow (declared) markers get a heavier outline */
	const char *sw = strcmp(cls, "declared") == 0 ? " stroke-width=\"1.6\""
						      : "";
	if (prec && strcmp(prec, "f32") == 0)
		fprintf(out,
			"<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			"height=\"%.2f\" fill=\"%s\" stroke=\"%s\"%s/>\n",
			cls, x - RL_SVG_POINT_R, y - RL_SVG_POINT_R, 2 * RL_SVG_POINT_R, 2 * RL_SVG_POINT_R,
			fill, stroke, sw);
	else if (prec && strcmp(prec, "mixed") == 0)
		fprintf(out,
			"<path class=\"%s\" d=\"M%.2f %.2fl%.2f %.2fl%.2f %.2fl%.2f "
			"%.2fz\" data-cx=\"%.2f\" data-cy=\"%.2f\" fill=\"%s\" "
			"stroke=\"%s\"%s/>\n",
			cls, x, y - 1.3 * RL_SVG_POINT_R, 1.3 * RL_SVG_POINT_R, 1.3 * RL_SVG_POINT_R,
			-1.3 * RL_SVG_POINT_R, 1.3 * RL_SVG_POINT_R, -1.3 * RL_SVG_POINT_R,
			-1.3 * RL_SVG_POINT_R, x, y, fill, stroke, sw);
	else
		fprintf(out,
			"<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\" "
			"fill=\"%s\" stroke=\"%s\"%s/>\n",
			cls, x, y, RL_SVG_POINT_R, fill, stroke, sw);
}

/* The cache level whose intensity a row's counted point is drawn at
 * (rl_chart_point_ai), -1 when at DRAM's or without a point. */
int rl_svg_point_level(const struct rl_region_row *row)
{
	int l;

	rl_chart_point_ai(row, &l);
	return l == RL_LEVELS - 1 ? -1 : l;
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
	if (rl_svg_point_level(row) >= 0)
		fprintf(out, "&#10;drawn at its %s intensity, %s flop/B: the "
			"level of the roof it is held against",
			rl_chart_level_name(rl_svg_point_level(row)),
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

static void write_label(FILE *out, const struct rl_svg_label *l, const char *cls,
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


static const char *flat_color(const struct rl_compute_roof *f, int two)
{
	return two && strcmp(f->precision, "f32") == 0 ? "#a0522d" : "#222";
}

/* Geometry of roof lines (pixels), added as obstacles. */
static int roof_geometry(struct rl_svg *s)
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
static int roof_segment(struct rl_svg *s, const struct rl_region_row *row,
			struct rl_svg_region *d)
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

static int region_geometry(struct rl_svg *s)
{
	const struct rl_chart *c = &s->c;
	for (size_t i = 0; i < s->r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(s->r, i, &row_buf);
		struct rl_svg_region *d = &s->reg[i];
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
		const double r = RL_SVG_POINT_R + 1;
		if (d->counted &&
		    rl_placer_add(&s->pl, rl_rect_quad(d->cx, d->cy, 0, -r, -r, r, r, -1)))
			return RL_ENOMEM;
		if (d->declared &&
		    rl_placer_add(&s->pl, rl_rect_quad(d->dx, d->dy, 0, -r, -r, r, r, -1)))
			return RL_ENOMEM;
		if (d->counted && d->declared &&
		    hypot(d->cx - d->dx, d->cy - d->dy) > 2 * RL_SVG_POINT_R + 4) {
			struct rl_quad q = rl_segment_quad(d->dx, d->dy, d->cx, d->cy, -1);
			if (rl_placer_add(&s->pl, q))
				return RL_ENOMEM;
		}
	}
	return 0;
}

static void write_axes(struct rl_svg *s)
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

static void write_roofs(struct rl_svg *s)
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

static void write_regions(struct rl_svg *s)
{
	FILE *out = s->out;
	for (size_t i = 0; i < s->r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(s->r, i, &row_buf);
		const struct rl_svg_region *d = &s->reg[i];
		const char *col = rl_svg_color(i);
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
		if (d->counted && d->declared && dist > 2 * RL_SVG_POINT_R + 4) {
			/* the arrow head is ~7 px long: stop the line short of
			 * the counted marker so the tip touches its edge */
			double a = atan2(d->cy - d->dy, d->cx - d->dx);
			double gap = RL_SVG_POINT_R + 1.5, head = dist > 26 ? 7.5 : 0;
			fprintf(out, "<line class=\"gap\" x1=\"%.2f\" y1=\"%.2f\" "
				"x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555\" "
				"stroke-width=\"1.2\"%s/>\n",
				d->dx + gap * cos(a), d->dy + gap * sin(a),
				d->cx - (gap + head) * cos(a),
				d->cy - (gap + head) * sin(a),
				head > 0 ? " marker-end=\"url(#rl-arrow)\"" : "");
		}
		if (d->declared)
			rl_svg_marker(out, "declared", row->precision, d->dx, d->dy,
				     "#fff", col);
		if (d->counted) {
			rl_svg_error_bar(out, &s->c, row, d->cx, col);
			rl_svg_marker(out, "point", row->precision, d->cx, d->cy, col,
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
				d->cx, d->cy, RL_SVG_POINT_R + 2.5, col);
		if (d->counted && row->check)
			/* the self-check's mark: above its roof */
			fprintf(out, "<circle class=\"check\" cx=\"%.2f\" "
				"cy=\"%.2f\" r=\"%.1f\" fill=\"none\" "
				"stroke=\"#d00\" stroke-width=\"2\"/>\n",
				d->cx, d->cy, RL_SVG_POINT_R + 4);
		fputs("</g>\n", out);
	}
}

static void write_labels(struct rl_svg *s)
{
	FILE *out = s->out;
	const struct rl_chart *c = &s->c;
	int two = c->show_f32 && c->show_f64;
	fputs("<g class=\"labels\" stroke=\"#fff\" stroke-width=\"3\" "
	      "paint-order=\"stroke\" stroke-linejoin=\"round\">\n", out);
	for (size_t i = 0; i < c->n_slope; i++)
		if (s->slope_drawn[i] && s->slope_label[i].placed)
			write_label(out, &s->slope_label[i], "label-roof", "#333",
				    s->slope_text[i], 64, RL_SVG_FONT_PX);
	for (size_t f = 0; f < c->n_flat; f++)
		if (s->flat_drawn[f] && s->flat_label[f].placed)
			write_label(out, &s->flat_label[f], "label-roof",
				    flat_color(c->flat[f].roof, two), s->flat_text[f],
				    160, RL_SVG_FONT_PX);
	for (size_t i = 0; i < s->r->n_summed; i++) {
		const struct rl_svg_region *d = &s->reg[i];
		char text[RL_SVG_LABEL_CHARS * 4 + 64];
		size_t cut;
		if (!d->on_chart || !d->label.placed)
			continue;
		/* at the edge it says where it really is */
		rl_svg_region_label_text(s, i, text, sizeof text, &cut);
		write_label(out, &d->label, "label-region", "#000", text, cut,
			    RL_SVG_FONT_PX);
	}
	fputs("</g>\n", out);
}

/* Whether some region ran with another thread count than the roofs'. */
static int mixed_threads(const struct rl_report *r, unsigned threads)
{
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row buf;
		unsigned n = rl_report_row(r, i, &buf)->n_threads;
		if ((n ? n : 1) != threads)
			return 1;
	}
	return 0;
}

static void write_header(struct rl_svg *s, double width, double height,
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
	struct rl_svg *s = calloc(1, sizeof *s);
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
	    rl_svg_place_labels(s)) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "cannot draw the chart: %s",
			     rl_strerror(RL_ENOMEM));
		goto out;
	}
	rl_svg_legend_choose(s);
	double legend_y = s->c.top + s->c.plot_h + 62;
	double height = rl_svg_legend(s, legend_y, 0) + 8;
	write_header(s, RL_CHART_WIDTH, height, standalone);
	write_axes(s);
	write_roofs(s);
	write_regions(s);
	write_labels(s);
	rl_svg_legend(s, legend_y, 1);
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
