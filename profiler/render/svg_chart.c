/* Roofline chart geometry: roofs shown, axis ranges, pixel mapping
 * (documented in svg_chart.h), label placement, and XML escaping. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "common/rl_error.h"

#include "render/svg_chart.h"
#include "common/utf8.h"

const struct rl_compute_roof *rl_chart_peak_for(const struct rl_chart *c,
						const char *precision)
{
	const char *want = precision && strcmp(precision, "f32") == 0 ? "f32"
								       : "f64";
	for (size_t i = 0; i < c->n_flat; i++)
		if (c->flat[i].is_peak &&
		    strcmp(c->flat[i].roof->precision, want) == 0)
			return c->flat[i].roof;
	return NULL;
}

struct range {
	double lo, hi; /* log10, lo > hi when empty */
};

static void range_add(struct range *r, double v)
{
	if (!(v > 0) || !isfinite(v))
		return;
	double l = log10(v);
	if (l < r->lo)
		r->lo = l;
	if (l > r->hi)
		r->hi = l;
}

static void range_finish(struct range *r, double def_lo, double def_hi,
			 double *lo, double *hi)
{
	if (r->lo > r->hi) {
		*lo = def_lo;
		*hi = def_hi;
		return;
	}
	*lo = floor(r->lo - 0.15);
	*hi = ceil(r->hi + 0.15);
	while (*hi - *lo < 2) {
		*hi += 1;
		if (*hi - *lo < 2)
			*lo -= 1;
	}
	if (*hi - *lo > RL_CHART_MAX_DECADES)
		*lo = *hi - RL_CHART_MAX_DECADES;
}

void rl_chart_layout(struct rl_chart *c, const struct rl_report *r,
		     double plot_w, double plot_h)
{
	memset(c, 0, sizeof *c);
	c->left = RL_CHART_LEFT;
	c->top = RL_CHART_TOP;
	c->plot_w = plot_w;
	c->plot_h = plot_h;
	/* the roofs were chosen by the analysis (rl_report_choose_chart):
	 * drawn here as chosen */
	const struct rl_chart_roofs *ch = &r->chart;
	c->threads = ch->threads;
	c->show_f64 = ch->show_f64;
	c->show_f32 = ch->show_f32;
	c->precision_assumed = ch->precision_assumed;
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (row->simulated)
			c->simulated = 1;
		if (row->simulated && !row->time_native)
			c->sim_valgrind_time = 1;
		if (rl_known(row->dram_bytes) || row->basis == RL_BASIS_COUNTED)
			c->bytes_moved = 1;
	}

	c->has_model = r->machine != NULL;
	for (size_t l = 0; r->machine && l < ch->n_slope; l++) {
		const struct rl_bw_roof *b = ch->slope[l];
		double g = c->bytes_moved ? b->moved_gbs : b->stream_gbs;
		if (!(g > 0))
			g = c->bytes_moved ? b->stream_gbs : b->moved_gbs;
		c->slope[c->n_slope++] = (struct rl_chart_slope){b, g};
	}
	for (size_t f = 0; r->machine && f < ch->n_flat; f++) {
		c->flat[c->n_flat++] = (struct rl_chart_flat){
			ch->flat[f].roof, ch->flat[f].is_peak, -1};
		if (ch->flat[f].is_peak &&
		    ch->flat[f].roof->gflops > c->peak_max_gflops)
			c->peak_max_gflops = ch->flat[f].roof->gflops;
	}
	/* two ceilings of the same value are one line with both names */
	for (size_t f = 0; f < c->n_flat; f++)
		for (size_t g = 0; g < f && c->flat[f].merged_into < 0; g++)
			if (c->flat[g].merged_into < 0 &&
			    strcmp(c->flat[g].roof->precision,
				   c->flat[f].roof->precision) == 0 &&
			    fabs(c->flat[f].roof->gflops /
					 c->flat[g].roof->gflops - 1) < 0.005)
				c->flat[f].merged_into = (int)g;
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		c->n_checks += row->check != NULL && rl_chart_has_counted(row);
	}

	c->roof_threads = c->n_slope ? c->slope[0].roof->threads
			  : c->n_flat ? c->flat[0].roof->threads : 0;

	struct range x = {INFINITY, -INFINITY}, y = {INFINITY, -INFINITY};
	double ridge_max = 0, x_cap = INFINITY;
	for (size_t f = 0; f < c->n_flat; f++) {
		range_add(&y, c->flat[f].roof->gflops);
		if (!c->flat[f].is_peak)
			continue;
		for (size_t s = 0; s < c->n_slope; s++) {
			double ridge = c->flat[f].roof->gflops / c->slope[s].gbs;
			range_add(&x, ridge);
			if (ridge > ridge_max && isfinite(ridge))
				ridge_max = ridge;
		}
	}
	/* points far right of every ridge do not stretch the axis */
	if (ridge_max > 0)
		x_cap = ridge_max * pow(10, RL_CHART_X_BEYOND);
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (rl_chart_has_counted(row)) {
			range_add(&x, fmin(rl_chart_point_ai(row, NULL), x_cap));
			range_add(&y, row->gflops);
		}
		if (rl_chart_has_declared(row)) {
			range_add(&x, fmin(row->ai_expected, x_cap));
			range_add(&y, row->gflops_expected);
		}
	}
	range_finish(&x, -2, 2, &c->x_lo, &c->x_hi);
	range_finish(&y, -1, 3, &c->y_lo, &c->y_hi);
}

int rl_chart_offscale(const struct rl_chart *c, double ai)
{
	return ai > 0 && log10(ai) > c->x_hi;
}

double rl_chart_px_x(const struct rl_chart *c, double ai)
{
	return c->left + c->plot_w * (log10(ai) - c->x_lo) / (c->x_hi - c->x_lo);
}

double rl_chart_px_y(const struct rl_chart *c, double gflops)
{
	return c->top +
	       c->plot_h * (c->y_hi - log10(gflops)) / (c->y_hi - c->y_lo);
}

const char *rl_chart_num(char *buf, size_t len, double v)
{
	if (!rl_known(v) || !isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000 && fabs(v) < 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

int rl_placer_add(struct rl_placer *p, struct rl_quad q)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct rl_quad *nq = realloc(p->q, cap * sizeof *nq);
		if (!nq)
			return RL_ENOMEM;
		p->q = nq;
		p->cap = cap;
	}
	p->q[p->n++] = q;
	return 0;
}

struct rl_quad rl_rect_quad(double x, double y, double a, double dx0,
			     double dy0, double dx1, double dy1, int owner)
{
	struct rl_quad q = {.owner = owner};
	const double px[4] = {dx0, dx1, dx1, dx0}, py[4] = {dy0, dy0, dy1, dy1};
	double c = cos(a), s = sin(a);
	for (int i = 0; i < 4; i++) {
		q.x[i] = x + px[i] * c - py[i] * s;
		q.y[i] = y + px[i] * s + py[i] * c;
	}
	return q;
}

struct rl_quad rl_segment_quad(double x0, double y0, double x1, double y1,
				int owner)
{
	double a = atan2(y1 - y0, x1 - x0), len = hypot(x1 - x0, y1 - y0);
	struct rl_quad q = rl_rect_quad(x0, y0, a, 0, -1, len, 1, owner);
	q.is_line = 1;
	return q;
}

static int separated_on(const struct rl_quad *a, const struct rl_quad *b,
			int edge)
{
	double ex = a->x[(edge + 1) % 4] - a->x[edge];
	double ey = a->y[(edge + 1) % 4] - a->y[edge];
	double nx = -ey, ny = ex, amin = INFINITY, amax = -INFINITY;
	double bmin = INFINITY, bmax = -INFINITY;
	for (int i = 0; i < 4; i++) {
		double va = a->x[i] * nx + a->y[i] * ny;
		double vb = b->x[i] * nx + b->y[i] * ny;
		amin = fmin(amin, va);
		amax = fmax(amax, va);
		bmin = fmin(bmin, vb);
		bmax = fmax(bmax, vb);
	}
	return amax <= bmin || bmax <= amin;
}

/* Bounding boxes apart (touching counts as apart, as below): no overlap. */
static int boxes_apart(const struct rl_quad *a, const struct rl_quad *b)
{
	double ax0 = a->x[0], ax1 = a->x[0], ay0 = a->y[0], ay1 = a->y[0];
	double bx0 = b->x[0], bx1 = b->x[0], by0 = b->y[0], by1 = b->y[0];
	for (int i = 1; i < 4; i++) {
		ax0 = fmin(ax0, a->x[i]), ax1 = fmax(ax1, a->x[i]);
		ay0 = fmin(ay0, a->y[i]), ay1 = fmax(ay1, a->y[i]);
		bx0 = fmin(bx0, b->x[i]), bx1 = fmax(bx1, b->x[i]);
		by0 = fmin(by0, b->y[i]), by1 = fmax(by1, b->y[i]);
	}
	return ax1 <= bx0 || bx1 <= ax0 || ay1 <= by0 || by1 <= ay0;
}

static int quads_overlap(const struct rl_quad *a, const struct rl_quad *b)
{
	if (boxes_apart(a, b)) /* the common case, cheaply */
		return 0;
	for (int e = 0; e < 2; e++)
		if (separated_on(a, b, e) || separated_on(b, a, e))
			return 0;
	return 1;
}

int rl_placer_is_free(const struct rl_placer *p, const struct rl_quad *q,
		       int avoid_lines)
{
	for (int i = 0; i < 4; i++)
		if (q->x[i] < p->x0 || q->x[i] > p->x1 || q->y[i] < p->y0 ||
		    q->y[i] > p->y1)
			return 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->q[i].owner == q->owner && q->owner >= 0)
			continue;
		if (p->q[i].is_line && !avoid_lines)
			continue;
		if (quads_overlap(&p->q[i], q))
			return 0;
	}
	return 1;
}

/* Length of the valid UTF-8 sequence at s that XML takes, 0 if invalid
 * (U+FFFE and U+FFFF are not characters of XML). */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned cp;
	size_t n = rl_utf8_decode(s, &cp);

	return !n || cp == 0xfffe || cp == 0xffff ? 0 : n;
}

size_t rl_utf8_len(const char *s)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		size_t k = utf8_seq(p);
		p += k ? k : 1;
		n++;
	}
	return n;
}

/* The advance of each printable ASCII character in the chart's font
 * (DejaVu Sans, what the SVG names first), in thousandths of the font
 * size, as Chromium lays it out; another code point counts a whole em
 * (an ellipsis, an arrow: at most that). */
static const unsigned short advance[95] = {
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361,
	318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337,
	838, 838, 838, 531, 1000, 711, 686, 698, 770, 632, 575, 775, 752, 295,
	295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 594, 732, 684, 989,
	685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615,
	345, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 394, 521,
	392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
};

double rl_text_px(const char *s, size_t max_chars, double font)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	double em = 0;
	size_t n = 0;

	for (; *p && n < max_chars; n++) {
		size_t k = utf8_seq(p);
		em += *p >= 0x20 && *p < 0x7f ? advance[*p - 0x20] / 1000.0
					       : 1.0;
		p += k ? k : 1;
	}
	if (*p)
		em += 1.0; /* the ellipsis of a cut text */
	return em * font * 1.02; /* 2 % for kerning and hinting */
}

/* Printable ASCII that XML and HTML take as it is. */
static int plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' &&
	       c != '"' && c != '\'';
}

void rl_xml_escape_cut(FILE *out, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = 0;
	while (*p) {
		if (n == max_chars) {
			fputs("\xe2\x80\xa6", out);
			return;
		}
		if (plain(*p)) { /* a run of text that needs no escape, in
				    one write (one stdio call per character
				    was most of report.html's time) */
			const unsigned char *q = p;
			while (*q && n < max_chars && plain(*q)) {
				q++;
				n++;
			}
			fwrite(p, 1, (size_t)(q - p), out);
			p = q;
			continue;
		}
		size_t k = utf8_seq(p);
		n++;
		if (k == 0) {
			fputs("\xef\xbf\xbd", out);
			p++;
			continue;
		}
		if (k > 1) {
			fwrite(p, 1, k, out);
			p += k;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fputs("\xef\xbf\xbd", out);
			else
				fputc(*p, out);
		}
		p++;
	}
}

void rl_xml_escape(FILE *out, const char *s)
{
	rl_xml_escape_cut(out, s, (size_t)-1);
}
