/*
 * The small text roofline of `rlprof report --format table --plot`:
 * PLOT_W x PLOT_H characters, log-log, the same roofs and axis ranges as
 * the SVG chart (svg_chart.c). '/' DRAM slope, '.' cache slopes, '=' peaks,
 * '-' ceilings; region i is the letter 'A'+i at its counted point and
 * 'a'+i at its declared one (beyond 26 regions: '#' and '+'). A legend
 * follows.
 */
#include <math.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "render/render.h"
#include "common/rl_error.h"
#include "render/svg_chart.h"
#include "common/term_text.h"

#define PLOT_W 60
#define PLOT_H 20
#define AXIS_W 8

struct grid {
	char cell[PLOT_H][PLOT_W + 1];
	const struct rl_chart *c;
};

static int col_of(const struct grid *g, double log_ai)
{
	const struct rl_chart *c = g->c;
	return (int)lround((log_ai - c->x_lo) / (c->x_hi - c->x_lo) *
			   (PLOT_W - 1));
}

static int row_of(const struct grid *g, double log_gflops)
{
	const struct rl_chart *c = g->c;
	return (int)lround((c->y_hi - log_gflops) / (c->y_hi - c->y_lo) *
			   (PLOT_H - 1));
}

static void put(struct grid *g, int row, int col, char ch)
{
	if (row >= 0 && row < PLOT_H && col >= 0 && col < PLOT_W)
		g->cell[row][col] = ch;
}

static void draw_slope(struct grid *g, double gbs, double top_gflops,
		       char ch)
{
	const struct rl_chart *c = g->c;
	double lg = log10(gbs), ltop = log10(top_gflops);
	double step = (c->x_hi - c->x_lo) / (PLOT_W - 1) / 4;
	for (double x = c->x_lo; x <= c->x_hi + 1e-9; x += step) {
		double y = x + lg;
		if (y > ltop + 1e-9 || y < c->y_lo)
			continue;
		put(g, row_of(g, y), col_of(g, x), ch);
	}
}

static void draw_flat(struct grid *g, double gflops, double from_log_ai,
		      char ch)
{
	int row = row_of(g, log10(gflops));
	if (row < 0 || row >= PLOT_H) /* off the axis range */
		return;
	for (int col = col_of(g, from_log_ai); col < PLOT_W; col++)
		if (g->cell[row][col] == ' ' || ch == '=')
			put(g, row, col, ch);
}

static char letter(size_t i, int declared)
{
	if (i < 26)
		return (char)((declared ? 'a' : 'A') + (int)i);
	return declared ? '+' : '#';
}

static void write_axes(FILE *out, const struct grid *g)
{
	const struct rl_chart *c = g->c;
	char lab[32];
	for (int row = 0; row < PLOT_H; row++) {
		lab[0] = '\0';
		for (int k = (int)c->y_lo; k <= (int)c->y_hi; k++)
			if (row_of(g, k) == row)
				rl_chart_num(lab, sizeof lab, pow(10, k));
		fprintf(out, "%*s |%s\n", AXIS_W - 2, lab, g->cell[row]);
	}
	fprintf(out, "%*s +", AXIS_W - 2, "");
	for (int col = 0; col < PLOT_W; col++) {
		int tick = 0;
		for (int k = (int)c->x_lo; k <= (int)c->x_hi; k++)
			tick |= col_of(g, k) == col;
		fputc(tick ? '+' : '-', out);
	}
	fputc('\n', out);
	/* decade labels centred under their ticks, skipped when crowded */
	char line[PLOT_W + AXIS_W + 16];
	memset(line, ' ', sizeof line - 1);
	line[sizeof line - 1] = '\0';
	int last_end = -1;
	for (int k = (int)c->x_lo; k <= (int)c->x_hi; k++) {
		rl_chart_num(lab, sizeof lab, pow(10, k));
		int len = (int)strlen(lab);
		int start = AXIS_W + col_of(g, k) - len / 2;
		if (start <= last_end || start + len >= (int)sizeof line - 1)
			continue;
		memcpy(line + start, lab, (size_t)len);
		last_end = start + len;
	}
	int end = (int)sizeof line - 2;
	while (end > 0 && line[end] == ' ')
		line[end--] = '\0';
	fprintf(out, "%s  flop/byte\n", line);
}

/* Appends one legend item, wrapping before column 100. */
static void item(FILE *out, int *col, const char *text)
{
	int len = (int)strlen(text);
	if (*col > 2 && *col + len + 2 > 100) {
		fputs(",\n   ", out);
		*col = 3;
	} else if (*col > 2) {
		fputs(", ", out);
		*col += 2;
	} else {
		fputs("  ", out);
		*col = 2;
	}
	fputs(text, out);
	*col += len;
}

static void write_legend(FILE *out, const struct rl_report *r,
			 const struct rl_chart *c)
{
	char a[32], b[32], t[240], n1[64], n2[64], n3[64];
	int col = 0;
	if (!c->has_model) {
		fputs("  no machine model: run rlprof probe\n", out);
	} else {
		for (size_t i = 0; i < c->n_slope; i++) {
			rl_term_cut(n1, sizeof n1, c->slope[i].roof->level, 12);
			snprintf(t, sizeof t, "%c %s %s GB/s",
				 strcmp(c->slope[i].roof->level, "DRAM") == 0 ? '/'
									     : '.',
				 n1,
				 rl_chart_num(a, sizeof a, c->slope[i].gbs));
			item(out, &col, t);
		}
		if (c->n_slope) {
			fprintf(out, " (%s)\n", c->bytes_moved
				? "moved bytes, 32 B/element"
				: "stream bytes, 24 B/element");
			col = 0;
		}
		for (size_t f = 0; f < c->n_flat; f++) {
			const struct rl_compute_roof *k = c->flat[f].roof;
			rl_term_cut(n1, sizeof n1, k->kind, 14);
			rl_term_cut(n2, sizeof n2, k->name, 14);
			rl_term_cut(n3, sizeof n3, k->precision, 6);
			if (c->flat[f].is_peak || strcmp(k->name, k->kind) == 0)
				snprintf(t, sizeof t, "%c %s %s %s GFLOP/s",
					 c->flat[f].is_peak ? '=' : '-',
					 c->flat[f].is_peak ? n2 : n1, n3,
					 rl_chart_num(a, sizeof a, k->gflops));
			else
				snprintf(t, sizeof t, "- %s %s %s %s GFLOP/s", n1,
					 n2, n3, rl_chart_num(a, sizeof a, k->gflops));
			item(out, &col, t);
		}
		if (c->n_flat)
			fprintf(out, " (%u thread%s)\n", c->roof_threads,
				c->roof_threads == 1 ? "" : "s");
	}
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		size_t w = rl_term_cut(n1, sizeof n1, row->region, 20);
		fprintf(out, "  %c %s%*s", letter(i, 0), n1, (int)(20 - w), "");
		int lv;
		double ai = rl_chart_point_ai(row, &lv);
		if (rl_chart_has_counted(row))
			fprintf(out, " AI %s%s%s, %s GFLOP/s",
				rl_chart_num(a, sizeof a, ai),
				lv == RL_LEVELS - 1 ? "" : " at ",
				lv == RL_LEVELS - 1 ? ""
						    : rl_chart_level_name(lv),
				rl_chart_num(b, sizeof b, row->gflops));
		if (rl_chart_has_declared(row))
			fprintf(out, "%s%c declared AI %s, %s GFLOP/s",
				rl_chart_has_counted(row) ? "; " : " ",
				letter(i, 1),
				rl_chart_num(a, sizeof a, row->ai_expected),
				rl_chart_num(b, sizeof b, row->gflops_expected));
		const char *why;
		if (rl_chart_no_point(row, &why))
			fprintf(out, " not on the plot: %s", why);
		if (row->bound != RL_BOUND_UNKNOWN && rl_known(row->roof_pct)) {
			fprintf(out, " (%s%% of ",
				rl_chart_num(a, sizeof a, row->roof_pct));
			rl_term_put(out, row->roof_label    ? row->roof_label
					 : row->bound_roof ? row->bound_roof
							   : "its roof");
			fputc(')', out);
		}
		if (row->check)
			fputs(" [above its roof: see check]", out);
		fputc('\n', out);
	}
}

int rl_render_plot(FILE *out, const struct rl_report *r, char *err,
		   size_t errlen)
{
	struct rl_chart c;
	struct grid g;
	rl_chart_layout(&c, r, PLOT_W - 1, PLOT_H - 1);
	g.c = &c;
	for (int row = 0; row < PLOT_H; row++) {
		memset(g.cell[row], ' ', PLOT_W);
		g.cell[row][PLOT_W] = '\0';
	}
	double top = c.peak_max_gflops > 0 ? c.peak_max_gflops : pow(10, c.y_hi);
	double gmax = c.n_slope ? c.slope[c.n_slope - 1].gbs : 0;
	for (size_t f = c.n_flat; f-- > 0;) {
		double gf = c.flat[f].roof->gflops;
		double from = gmax > 0 ? fmax(c.x_lo, log10(gf / gmax)) : c.x_lo;
		draw_flat(&g, gf, from, c.flat[f].is_peak ? '=' : '-');
	}
	for (size_t i = c.n_slope; i-- > 0;)
		draw_slope(&g, c.slope[i].gbs, top,
			   strcmp(c.slope[i].roof->level, "DRAM") == 0 ? '/' : '.');
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (rl_chart_has_declared(row))
			put(&g, row_of(&g, log10(row->gflops_expected)),
			    col_of(&g, log10(row->ai_expected)), letter(i, 1));
		if (rl_chart_has_counted(row))
			put(&g, row_of(&g, log10(row->gflops)),
			    col_of(&g, log10(rl_chart_point_ai(row, NULL))),
			    letter(i, 0));
	}
	fprintf(out, "Roofline (log-log): GFLOP/s against arithmetic intensity, "
		"%s\n", c.show_f32 && c.show_f64 ? "f64 and f32 roofs"
			: c.show_f32 ? "f32" : "f64");
	fprintf(out, "%*s\n", AXIS_W, "GFLOP/s");
	write_axes(out, &g);
	write_legend(out, r, &c);
	if (ferror(out))
		return rl_fail(err, errlen, RL_EIO, "cannot write the plot: %s",
			       rl_strerror(RL_EIO));
	return 0;
}
