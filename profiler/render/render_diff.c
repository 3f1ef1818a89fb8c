/* rlprof diff as a table, JSON or CSV (render_diff.h). */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv_cell.h"
#include "render/render_diff.h"
#include "common/rl_error.h"
#include "common/term_text.h"
#include "render/num_text.h"

#define CELL 48

static bool known(double x) { return !isnan(x) && isfinite(x); }

/* "+12.3%" with a '*' when beyond the threshold, "-" when unknown. */
static void fmt_change(char *b, size_t n, double pct, enum rl_change c,
		       const char *unit)
{
	if (!known(pct))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%+.1f%s%s", pct, unit,
			 c != RL_CHANGE_NONE ? "*" : "");
}

static const char *or_dash(const char *s) { return s && *s ? s : "-"; }

struct col {
	const char *head;
	int left; /* left-aligned */
};

static const struct col cols[] = {
	{"region", 1},      {"time A", 0},      {"time B", 0},
	{"time chg", 0},    {"GFLOP/s A", 0},   {"GFLOP/s B", 0},
	{"GFLOP/s chg", 0}, {"AI A", 0},        {"AI B", 0},
	{"AI chg", 0},      {"% roof A", 0},    {"% roof B", 0},
	{"roof chg", 0},    {"roof A -> B", 1}, {"change", 1},
};
#define NCOL (sizeof cols / sizeof cols[0])

static void row_cells(const struct rl_diff_row *r, char cell[NCOL][CELL])
{
	static const struct rl_report_region none = {
		.calls = NAN, .time_s = NAN, .gflops = NAN, .ai = NAN,
		.roof_pct = NAN, .gflops_expected = NAN, .runs = 0,
		.time_min_s = NAN, .time_median_s = NAN, .spread_pct = NAN};
	const struct rl_report_region *a = r->a ? r->a : &none;
	const struct rl_report_region *b = r->b ? r->b : &none;
	char roof[2 * CELL + 8];

	rl_term_cut(cell[0], CELL, r->region, 30);
	rl_time_text(cell[1], CELL, a->time_s);
	rl_time_text(cell[2], CELL, b->time_s);
	fmt_change(cell[3], CELL, r->time_pct, r->time, "%");
	rl_num_text(cell[4], CELL, a->gflops);
	rl_num_text(cell[5], CELL, b->gflops);
	fmt_change(cell[6], CELL, r->gflops_pct, r->gflops, "%");
	rl_num_text(cell[7], CELL, a->ai);
	rl_num_text(cell[8], CELL, b->ai);
	fmt_change(cell[9], CELL, r->ai_pct, r->ai, "%");
	rl_num_text(cell[10], CELL, a->roof_pct);
	rl_num_text(cell[11], CELL, b->roof_pct);
	fmt_change(cell[12], CELL, r->roof_pct_delta, r->roof, " pt");
	if (r->a && r->b && r->roof_changed)
		snprintf(roof, sizeof roof, "%s -> %s*", or_dash(a->bound_roof),
			 or_dash(b->bound_roof));
	else
		snprintf(roof, sizeof roof, "%s",
			 or_dash(r->a ? a->bound_roof : b->bound_roof));
	rl_term_cut(cell[13], CELL, roof, 40);
	snprintf(cell[14], CELL, "%s", r->verdict);
}

static int render_table(FILE *out, const struct rl_diff *d,
			const struct rl_report_file *a,
			const struct rl_report_file *b)
{
	size_t w[NCOL];
	char(*cells)[NCOL][CELL] = calloc(d->n_rows + 1, sizeof *cells);

	if (!cells)
		return RL_ENOMEM;
	fputs("A: ", out);
	rl_term_put(out, a->path);
	/* the backend is the report file's text: shown escaped */
	fputs(" (backend ", out);
	rl_term_put(out, or_dash(a->backend));
	fputs(")\nB: ", out);
	rl_term_put(out, b->path);
	fputs(" (backend ", out);
	rl_term_put(out, or_dash(b->backend));
	fputs(")\n", out);
	fprintf(out,
		"chg: (B - A) / A, %% of roof in points; * marks a change "
		"beyond the noise\nthreshold of %.3g%% of A's value "
		"(--threshold), or another binding roof\n\n",
		d->threshold_pct);
	for (size_t c = 0; c < NCOL; c++)
		w[c] = strlen(cols[c].head);
	for (size_t i = 0; i < d->n_rows; i++) {
		row_cells(&d->rows[i], cells[i]);
		for (size_t c = 0; c < NCOL; c++) {
			size_t k = rl_term_width(cells[i][c]);
			if (k > w[c])
				w[c] = k;
		}
	}
	for (size_t c = 0; c < NCOL; c++)
		fprintf(out, "%s%-*s", c ? "  " : "",
			c + 1 < NCOL ? (int)w[c] : 0, cols[c].head);
	fputc('\n', out);
	for (size_t i = 0; i < d->n_rows; i++) {
		for (size_t c = 0; c < NCOL; c++) {
			const char *s = cells[i][c];
			size_t pad = w[c] - rl_term_width(s);
			if (c)
				fputs("  ", out);
			if (!cols[c].left)
				fprintf(out, "%*s", (int)pad, "");
			fputs(s, out);
			if (cols[c].left && c + 1 < NCOL)
				fprintf(out, "%*s", (int)pad, "");
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%zu region%s slower, %zu faster beyond %.3g%%\n",
		d->n_worse, d->n_worse == 1 ? "" : "s", d->n_better,
		d->threshold_pct);
	free(cells);
	return 0;
}

static json_t *jnum(double x) { return known(x) ? json_real(x) : json_null(); }

static json_t *jstr(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *jchange(enum rl_change c)
{
	return c == RL_CHANGE_WORSE    ? json_string("worse")
	       : c == RL_CHANGE_BETTER ? json_string("better")
				       : json_null();
}

static json_t *jside(const struct rl_report_region *r)
{
	if (!r)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "calls",
			 jnum(r->calls), "time_s", jnum(r->time_s), "gflops",
			 jnum(r->gflops), "ai", jnum(r->ai), "roof_pct",
			 jnum(r->roof_pct), "bound_roof", jstr(r->bound_roof),
			 "bound", jstr(r->bound));
}

static const char *presence_word(enum rl_presence p)
{
	return p == RL_ONLY_A ? "only_a" : p == RL_ONLY_B ? "only_b" : "both";
}

static int render_json(FILE *out, const struct rl_diff *d,
		       const struct rl_report_file *a,
		       const struct rl_report_file *b)
{
	json_t *regions = json_array(), *root;
	int rc;

	for (size_t i = 0; i < d->n_rows; i++) {
		const struct rl_diff_row *r = &d->rows[i];
		json_array_append_new(
			regions,
			json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:{s:o,"
				  "s:o,s:o,s:o},s:b,s:s}",
				  "region", r->region, "presence",
				  presence_word(r->presence), "a", jside(r->a),
				  "b", jside(r->b), "time_change_pct",
				  jnum(r->time_pct), "time_change_lo_pct",
				  jnum(r->lo_pct), "time_change_hi_pct",
				  jnum(r->hi_pct), "gflops_change_pct",
				  jnum(r->gflops_pct), "ai_change_pct",
				  jnum(r->ai_pct), "roof_pct_delta",
				  jnum(r->roof_pct_delta), "flagged", "time",
				  jchange(r->time), "gflops",
				  jchange(r->gflops), "ai", jchange(r->ai),
				  "roof_pct", jchange(r->roof),
				  "bound_roof_changed",
				  r->a && r->b && r->roof_changed, "verdict",
				  r->verdict));
	}
	root = json_pack("{s:s,s:i,s:s,s:s,s:f,s:o,s:I,s:I}", "format",
			 "rlprof-diff", "version", RL_DIFF_VERSION, "a",
			 a->path, "b", b->path, "threshold_pct",
			 d->threshold_pct, "regions", regions, "slower",
			 (json_int_t)d->n_worse, "faster",
			 (json_int_t)d->n_better);
	if (!root)
		return RL_ENOMEM;
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	fputc('\n', out);
	json_decref(root);
	return rc ? RL_EIO : 0;
}

static void csv_num(FILE *out, double x)
{
	fputc(',', out);
	if (known(x))
		fprintf(out, "%.6g", x);
}

static int render_csv(FILE *out, const struct rl_diff *d)
{
	fputs("region,presence,time_s_a,time_s_b,time_change_pct,gflops_a,"
	      "gflops_b,gflops_change_pct,ai_a,ai_b,ai_change_pct,roof_pct_a,"
	      "roof_pct_b,roof_pct_delta,bound_roof_a,bound_roof_b,verdict\n",
	      out);
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct rl_diff_row *r = &d->rows[i];
		const struct rl_report_region *a = r->a, *b = r->b;

		rl_csv_text(out, r->region);
		fprintf(out, ",%s", presence_word(r->presence));
		csv_num(out, a ? a->time_s : NAN);
		csv_num(out, b ? b->time_s : NAN);
		csv_num(out, r->time_pct);
		csv_num(out, a ? a->gflops : NAN);
		csv_num(out, b ? b->gflops : NAN);
		csv_num(out, r->gflops_pct);
		csv_num(out, a ? a->ai : NAN);
		csv_num(out, b ? b->ai : NAN);
		csv_num(out, r->ai_pct);
		csv_num(out, a ? a->roof_pct : NAN);
		csv_num(out, b ? b->roof_pct : NAN);
		csv_num(out, r->roof_pct_delta);
		fputc(',', out);
		rl_csv_text(out, a ? a->bound_roof : NULL);
		fputc(',', out);
		rl_csv_text(out, b ? b->bound_roof : NULL);
		fprintf(out, ",%s\n", r->verdict);
	}
	return 0;
}

int rl_render_diff(FILE *out, const struct rl_diff *d, const char *format,
		   const struct rl_report_file *a,
		   const struct rl_report_file *b, char *err, size_t errlen)
{
	int rc;

	if (strcmp(format, "table") == 0)
		rc = render_table(out, d, a, b);
	else if (strcmp(format, "json") == 0)
		rc = render_json(out, d, a, b);
	else if (strcmp(format, "csv") == 0)
		rc = render_csv(out, d);
	else
		return rl_fail(err, errlen, RL_EINVAL,
			       "unknown format '%s': use table, json or csv",
			       format);
	if (rc)
		return rl_fail(err, errlen, rc, "cannot write the comparison: %s",
			       rl_strerror(rc));
	return 0;
}
