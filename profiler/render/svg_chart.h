/*
 * Roofline chart geometry, shared by the SVG and HTML renderers and the
 * text plot: the roofs the analysis chose, the axis ranges, and the mapping from
 * (arithmetic intensity, GFLOP/s) to pixels.
 *
 * Roofs shown: as the analysis chose them (report.h, struct
 * rl_chart_roofs, filled by rl_report_choose_chart in
 * analysis/roof_choice.c): the roofs of one thread count T, the peaks and
 * ceilings per precision shown, every ceiling a row is held against or
 * its diagnosis names (dashed). The chart chooses none of them.
 * Slopes use the "moved" bandwidth (32 B per triad element, write-allocate
 * included: what counters see) when any row has counted bytes, else the
 * "stream" one (24 B, the convention of declared bytes).
 *
 * Axis mapping (log-log, whole decades at the ends):
 *   x_px = left + plot_w * (log10(ai)     - x_lo) / (x_hi - x_lo)
 *   y_px = top  + plot_h * (y_hi - log10(gflops)) / (y_hi - y_lo)
 * with x_lo/x_hi/y_lo/y_hi the log10 of the axis ends, chosen so every
 * point, ridge and compute roof lies inside with at least 0.15 decade of
 * room, at least two decades, at most RL_CHART_MAX_DECADES. The x axis
 * ends RL_CHART_X_BEYOND decades past the highest ridge: a point of higher
 * intensity (a cache-resident kernel at AI 10^5) is drawn at the right
 * edge with its value (rl_chart_offscale) instead of squeezing the rest.
 *
 * Each point is drawn with the roof its row was held against (the
 * analysis' roof_gbs / roof_gflops at the point's intensity), a short
 * segment in the point's colour: a point at 100 % of its roof sits on it.
 *
 * Everything here points into the report and its machine model.
 */
#ifndef RL_SVG_CHART_H
#define RL_SVG_CHART_H

#include <stdio.h>

#include "analysis/report.h"

#define RL_CHART_WIDTH 900.0
#define RL_CHART_LEFT 80.0
#define RL_CHART_TOP 64.0
#define RL_CHART_PLOT_W 780.0
#define RL_CHART_PLOT_H 440.0
#define RL_CHART_MAX_DECADES 12

struct rl_chart_slope {
	const struct rl_bw_roof *roof;
	double gbs;               /* moved or stream, see bytes_moved */
};

struct rl_chart_flat {
	const struct rl_compute_roof *roof;
	int is_peak;              /* 1: the peak of its precision */
	int merged_into;          /* -1, or the index of the drawn flat of
				     the same value (within 0.5 %) whose line
				     and label this one shares */
};

#define RL_CHART_X_BEYOND 2  /* decades past the highest ridge */

struct rl_chart {
	double left, top, plot_w, plot_h;
	double x_lo, x_hi, y_lo, y_hi;   /* log10 of the axis ends */
	unsigned threads;                /* T above */
	unsigned roof_threads;           /* threads of the roofs chosen
					    (DRAM slope, else first peak) */
	int has_model;                   /* machine model present */
	int bytes_moved;                 /* slopes at moved_gbs */
	int show_f64, show_f32;
	int precision_assumed;           /* some row's precision unknown */
	int simulated;                   /* some row from the simulated PMU */
	int sim_valgrind_time;           /* some such row timed under Valgrind
					    (no native timing run) */
	struct rl_chart_slope slope[RL_LEVELS];
	size_t n_slope;                  /* lowest bandwidth first */
	struct rl_chart_flat flat[RL_CHART_MAX_FLAT];
	size_t n_flat;                   /* peaks first */
	double peak_max_gflops;          /* highest peak shown, 0 none */
	size_t n_checks;                 /* points marked by the self-check */
};

/* The roofs r->chart holds and the axis ranges for the summed rows of r. */
void rl_chart_layout(struct rl_chart *c, const struct rl_report *r,
		     double plot_w, double plot_h);

double rl_chart_px_x(const struct rl_chart *c, double ai);
double rl_chart_px_y(const struct rl_chart *c, double gflops);

/* 1 when the row's point lies right of the x axis (drawn at the edge). */
int rl_chart_offscale(const struct rl_chart *c, double ai);

/* The compute roof a row is drawn against (its precision's peak), or
 * NULL. */
const struct rl_compute_roof *rl_chart_peak_for(const struct rl_chart *c,
						const char *precision);

/* Label placement: text boxes and roof lines as oriented rectangles
 * (quads); a label goes where its quad overlaps nothing placed
 * (separating-axis test) and stays inside the placer's box. */
struct rl_quad {
	double x[4], y[4];
	int owner; /* a label ignores obstacles of its own owner */
	int is_line;
};

struct rl_placer {
	struct rl_quad *q;
	size_t n, cap;
	double x0, y0, x1, y1; /* labels stay inside this box */
};

/* Appends q; 0 or RL_ENOMEM. The caller frees p->q. */
int rl_placer_add(struct rl_placer *p, struct rl_quad q);
/* Rectangle [dx0,dx1]x[dy0,dy1] in a frame at (x,y) rotated by a (rad). */
struct rl_quad rl_rect_quad(double x, double y, double a, double dx0,
			    double dy0, double dx1, double dy1, int owner);
/* A line segment, 2 px wide. */
struct rl_quad rl_segment_quad(double x0, double y0, double x1, double y1,
			       int owner);
/* Inside the box and clear of everything placed (of lines only when
 * avoid_lines), ignoring obstacles with q's own owner when that is >= 0. */
int rl_placer_is_free(const struct rl_placer *p, const struct rl_quad *q,
		      int avoid_lines);

/* Writes s with & < > " ' escaped for XML/HTML text and attributes;
 * invalid UTF-8 and control characters become U+FFFD. */
void rl_xml_escape(FILE *out, const char *s);
/* Same, at most max_chars characters, "…" appended when cut. */
void rl_xml_escape_cut(FILE *out, const char *s, size_t max_chars);
/* The width in pixels of s in the chart's font at font px, cut to
 * max_chars characters and an ellipsis as rl_xml_escape_cut writes it. */
double rl_text_px(const char *s, size_t max_chars, double font);
/* Number of characters (UTF-8 code points) of s. */
size_t rl_utf8_len(const char *s);

/* A figure with 3 significant digits, no exponent below 1e6. */
const char *rl_chart_num(char *buf, size_t len, double v);

/* The chart as one <svg> element (render_svg.c). standalone adds the XML
 * declaration. Returns 0 or a negative RL_E* code (write error). */
int rl_svg_write_chart(FILE *out, const struct rl_report *r, int standalone,
		       char *err, size_t errlen);

#endif
