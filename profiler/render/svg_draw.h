/*
 * roofline.svg's drawing state, shared by the files that draw it (private
 * to profiler/render/): render_svg.c (geometry, roofs, points, the
 * document), svg_place.c (where each label goes) and svg_legend.c (the
 * legend under the chart).
 */
#ifndef RL_RENDER_SVG_DRAW_H
#define RL_RENDER_SVG_DRAW_H

#include <stdio.h>

#include "analysis/report.h"
#include "render/svg_chart.h"

#define RL_SVG_FONT_PX 11.0
#define RL_SVG_POINT_R 4.5
/* a line of text from its baseline, as the browser boxes it (DejaVu
 * Sans: ascent 0.928 em, descent 0.236 em) */
#define RL_SVG_ASCENT (0.93 * RL_SVG_FONT_PX)
#define RL_SVG_DESCENT (0.24 * RL_SVG_FONT_PX)
#define RL_SVG_LABEL_CHARS 24
#define RL_SVG_MAX_PLACED 100 /* regions whose label spot is searched; the rest
			  are numbered beside their point (the search is
			  quadratic: thousands of regions took minutes) */
#define RL_SVG_PI 3.14159265358979323846
#define RL_SVG_LEGEND_MAX 120 /* legend entries at most: 40 lines; 10^5
				 regions made a chart 530,000 px tall */


struct rl_svg_label {
	double x, y, angle_deg;
	const char *anchor;
	int placed;
};

struct rl_svg_region {
	int counted, declared, on_chart;
	double cx, cy, dx, dy; /* counted and declared marker centres */
	struct rl_svg_label label;
	int numbered;
	int listed; /* in the legend */
	int offscale; /* right of the x axis: drawn at its edge */
	int roof_seg; /* the roof it was held against, drawn */
	double rx0, ry0, rx1, ry1;
};

struct rl_svg {
	FILE *out;
	const struct rl_report *r;
	struct rl_chart c;
	struct rl_placer pl;
	struct rl_svg_region *reg;
	struct rl_svg_label slope_label[RL_LEVELS], flat_label[RL_CHART_MAX_FLAT];
	char slope_text[RL_LEVELS][64], flat_text[RL_CHART_MAX_FLAT][160];
	double sx0[RL_LEVELS], sy0[RL_LEVELS], sx1[RL_LEVELS], sy1[RL_LEVELS];
	double fx0[RL_CHART_MAX_FLAT], fy[RL_CHART_MAX_FLAT];
	int slope_drawn[RL_LEVELS], flat_drawn[RL_CHART_MAX_FLAT];
	int any_numbered;
	size_t left_on_chart;  /* regions not listed: with a point drawn, */
	size_t left_off_chart; /* with a point outside the axes, */
	size_t left_no_point;  /* without a point */
};


/* A text's width in the chart's font size. */
static inline double rl_svg_text_px(const char *s, size_t max_chars)
{
	return rl_text_px(s, max_chars, RL_SVG_FONT_PX);
}

/* Region i's colour. */
const char *rl_svg_color(size_t i);
/* A marker of class cls (circle f64, square f32, diamond mixed). */
void rl_svg_marker(FILE *out, const char *cls, const char *prec, double x,
		   double y, const char *fill, const char *stroke);
/* The cache level whose intensity a row's counted point is drawn at
 * (rl_chart_point_ai), -1 when at DRAM's or without a point. */
int rl_svg_point_level(const struct rl_region_row *row);

/* svg_place.c: every label's place (peaks, slopes, regions, the other
 * ceilings, in that order); 0 or RL_ENOMEM. */
int rl_svg_place_labels(struct rl_svg *s);
/* The text of region i's label, and how many characters of it show. */
void rl_svg_region_label_text(const struct rl_svg *s, size_t i, char *buf,
			      size_t len, size_t *cut);

/* svg_legend.c: which regions the legend lists (reg[i].listed), then the
 * legend at y (drawn when draw, else only measured): the y below it. */
void rl_svg_legend_choose(struct rl_svg *s);
double rl_svg_legend(struct rl_svg *s, double y, int draw);

#endif
