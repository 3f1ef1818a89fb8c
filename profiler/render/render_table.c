/*
 * Table renderer: what `rlprof run` prints. Aligned columns with SI units,
 * "-" where a figure was not measured, the binding roof marked with '*',
 * the backend above, the method, diagnosis and warnings below (those
 * lines of text: table_text.c). Formats only what the analysis
 * computed. Every user string goes through
 * term_text.h: control characters and invalid UTF-8 are shown escaped
 * (\t, \x1b), so a name can neither break the alignment nor reach the
 * terminal as an escape sequence.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "analysis/report_pack.h"
#include "render/render_ranks.h"
#include "common/rl_error.h"
#include "common/term_text.h"
#include "render/num_text.h"
#include "render/table_text.h"

#define NCOL 13
#define CELL 256       /* bytes: REGION_COLS columns of up to 4 bytes */
#define REGION_COLS 60 /* a longer name is cut, ending in an ellipsis */

enum { C_REGION, C_THR, C_CALLS, C_TIME, C_SPREAD, C_FLOPS, C_BYTES, C_AI, C_AIDECL,
       C_GFLOPS, C_GBS, C_ROOFPCT, C_BOUND };

static const char *const col_head[NCOL] = {
	"region", "thr", "calls", "time", "spread", "flops", "DRAM bytes", "AI",
	"AI decl", "GFLOP/s", "GB/s", "% roof", "bound"};

typedef char cell_t[CELL];

/* SI prefix, 3 significant digits: "1.23 G", "45.6 MB". */
static void fmt_si(char *b, size_t n, double x, const char *unit)
{
	static const char pre[] = " kMGTPE";
	double a = fabs(x);
	int k = 0;
	char num[32];

	if (!rl_known(x) || !isfinite(x)) {
		snprintf(b, n, "-");
		return;
	}
	while (a >= 999.5 && k < 6) {
		a /= 1000;
		x /= 1000;
		k++;
	}
	rl_num_text(num, sizeof num, x);
	if (k == 0)
		snprintf(b, n, "%s%s%s", num, *unit ? " " : "", unit);
	else
		snprintf(b, n, "%s %c%s", num, pre[k], unit);
}

static void fmt_bound(char *b, size_t n, const struct rl_region_row *row)
{
	const char *word = row->bound == RL_BOUND_MEMORY    ? "memory"
			   : row->bound == RL_BOUND_COMPUTE ? "compute"
							    : NULL;
	if (!word) {
		snprintf(b, n, "-");
		return;
	}
	char roof[CELL / 2];
	rl_term_cut(roof, sizeof roof,
		    row->roof_label   ? row->roof_label
		    : row->bound_roof ? row->bound_roof
				      : "?",
		    30);
	snprintf(b, n, "%s %s*%s", word, roof,
		 row->basis == RL_BASIS_DECLARED ? " (decl)" : "");
}

/* rlprof run --repeat: the time's interval over the runs (report.h),
 * relative to its median: "-4/+12%"; "-" without. */
static void fmt_spread(char *b, size_t n, const struct rl_region_row *row)
{
	struct rl_row_interval iv;

	rl_row_interval(row, &iv);
	if (iv.kind == RL_INTERVAL_NONE || !(iv.time_s.median > 0)) {
		snprintf(b, n, "-");
		return;
	}
	snprintf(b, n, "-%.0f/+%.0f%%",
		 (iv.time_s.median - iv.time_s.lo) / iv.time_s.median * 100,
		 (iv.time_s.hi - iv.time_s.median) / iv.time_s.median * 100);
}

static void fill_cells(cell_t *c, const struct rl_region_row *row,
		       int thread_row, int show_pid)
{
	if (thread_row) {
		if (show_pid)
			snprintf(c[C_REGION], CELL, "  pid %ld tid %" PRIu64,
				 row->pid, row->tid);
		else
			snprintf(c[C_REGION], CELL, "  tid %" PRIu64, row->tid);
	} else if (row->loop) { /* a hot loop (rlprof run --loops) */
		char name[CELL];
		rl_term_cut(name, sizeof name, row->region, REGION_COLS - 5);
		snprintf(c[C_REGION], CELL, "loop %.240s", name);
	} else {
		rl_term_cut(c[C_REGION], CELL, row->region, REGION_COLS);
	}
	snprintf(c[C_THR], CELL, "%u", row->n_threads);
	if (row->loop)
		snprintf(c[C_CALLS], CELL, "-");
	else
		snprintf(c[C_CALLS], CELL, "%" PRIu64, row->calls);
	rl_time_text(c[C_TIME], CELL, row->time_s);
	fmt_spread(c[C_SPREAD], CELL, row);
	fmt_si(c[C_FLOPS], CELL, row->flops, "");
	fmt_si(c[C_BYTES], CELL, row->dram_bytes, "B");
	rl_num_text(c[C_AI], CELL, row->ai);
	rl_num_text(c[C_AIDECL], CELL, row->ai_expected);
	if (!rl_known(row->gflops) && rl_known(row->gflops_expected)) {
		char num[32];
		rl_num_text(num, sizeof num, row->gflops_expected);
		snprintf(c[C_GFLOPS], CELL, "%s d", num);
	} else {
		rl_num_text(c[C_GFLOPS], CELL, row->gflops);
	}
	rl_num_text(c[C_GBS], CELL, row->gbs);
	rl_num_text(c[C_ROOFPCT], CELL, row->roof_pct);
	fmt_bound(c[C_BOUND], CELL, row);
}

/* Padding counted in columns, not bytes (a name may be UTF-8). */
static void pad(FILE *out, size_t width, const char *cell)
{
	for (size_t k = rl_term_width(cell); k < width; k++)
		fputc(' ', out);
}

/* The columns shown and how wide (fit_columns): a table fits the
 * terminal by leaving out columns, then cutting names and roofs. */
struct layout {
	size_t w[NCOL];
	int show[NCOL];
	int absent[NCOL]; /* never shown in this report (not left out) */
	size_t bound_max; /* 0: the bound column whole */
};

static void print_line(FILE *out, const char *const c[NCOL],
		       const struct layout *lay, int color,
		       const char *bound_color)
{
	const size_t *w = lay->w;
	char cut[CELL * 2];

	for (int k = 0; k < NCOL; k++) {
		if (!lay->show[k])
			continue;
		if (k == C_REGION) {
			const char *s = c[k];
			if (rl_term_width(s) > w[k]) {
				rl_term_cut(cut, sizeof cut, s, w[k]);
				s = cut;
			}
			fputs(s, out);
			pad(out, w[k], s);
		} else if (k == C_BOUND) {
			/* last column: no padding, colour allowed */
			const char *s = c[k];
			if (lay->bound_max && rl_term_width(s) > lay->bound_max) {
				rl_term_cut(cut, sizeof cut, s, lay->bound_max);
				s = cut;
			}
			if (color && bound_color)
				fprintf(out, "  %s%s\033[0m", bound_color, s);
			else
				fprintf(out, "  %s", s);
		} else {
			fputs("  ", out);
			pad(out, w[k], c[k]);
			fputs(c[k], out);
		}
	}
	fputc('\n', out);
}

/* The rows printed for summed row s into ix: itself, then (--per-thread)
 * its threads. Returns how many. */
static size_t lines_of(const struct rl_report *r, size_t s,
		       const struct rl_render_options *opt, size_t *ix)
{
	struct rl_region_row row_buf;
	const struct rl_region_row *row =
		rl_report_row(r, s, &row_buf);
	size_t n = 0;

	ix[n++] = s;
	if (opt && opt->per_thread)
		for (size_t i = 0; i < row->thread_count; i++)
			ix[n++] = row->thread_first + i;
	return n;
}

/* Warnings under the table at most (a program that leaves 10^5 regions
 * open at exit has a warning each); the rest are counted. */
#define TABLE_MAX_WARNINGS 50

/* The regions' time in MPI calls, one line: "mpi_s (time in MPI calls,
 * the longest thread's): triad 0 us, exchange 1.38 ms (98%)"; nothing
 * when it was not measured. */
#define MPI_NAMED 8
static void print_mpi(FILE *out, const struct rl_report *r)
{
	size_t n = 0;
	char t[32];

	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		if (!row->mpi_known)
			continue;
		if (n == MPI_NAMED) {
			n++;
			continue;
		}
		fputs(n++ ? ", " : "mpi_s (time in MPI calls, the longest "
				   "thread's): ", out);
		rl_term_put(out, row->region);
		rl_time_text(t, sizeof t, row->mpi_s);
		fprintf(out, " %s", row->mpi_s > 0 ? t : "0");
		if (row->time_s > 0 && row->mpi_s > 0)
			fprintf(out, " (%.0f%%)", 100 * row->mpi_s / row->time_s);
	}
	if (n > MPI_NAMED)
		fprintf(out, " and %zu more (report.json)", n - MPI_NAMED);
	if (n)
		fputc('\n', out);
}

static void print_footer(FILE *out, const struct rl_report *r,
			 const struct rl_render_options *opt, int cut,
			 const struct layout *lay)
{
	int left_out = 0;

	fputc('\n', out);
	cut |= rl_table_methods(out, r, opt);
	if (r->loops_rule) {
		/* rlprof run --loops */
		fputs(r->n_loops ? "loops: rows 'loop FILE:LINE (FUNCTION)' are "
				 : "loops: no loop is a row; rows would be ",
		      out);
		rl_term_put(out, r->loops_rule);
		fputs(r->n_loops ? "; counts inclusive of nested loops, time "
				   "sampled (the method says +- how much)\n"
				 : "\n", out);
		char text[512];
		rl_report_loops_time_text(&r->loops_time, text, sizeof text);
		if (text[0]) {
			fputs("loops' time: ", out);
			fputs(text, out);
			fputc('\n', out);
		}
	}
	for (int k = 0; k < NCOL; k++)
		left_out |= !lay->show[k] && !lay->absent[k];
	if (cut || left_out) {
		/* short itself: "(fitted to 100 columns: no calls, AI decl;
		 * --verbose: lines whole)" */
		fprintf(out, "(fitted to %u columns:", opt->width);
		if (left_out) {
			const char *sep = " no ";
			for (int k = 0; k < NCOL; k++)
				if (!lay->show[k] && !lay->absent[k]) {
					fprintf(out, "%s%s", sep, col_head[k]);
					sep = ", ";
				}
			fputs(cut ? ";" : "", out);
		}
		fputs(cut ? " --verbose: lines whole" : "", out);
		fputs(")\n", out);
	}
	print_mpi(out, r);
	rl_table_legend(out, r, opt);
	rl_table_diagnoses(out, r, opt);
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		size_t col = 9;
		if (!row->check)
			continue;
		fputs("check: ", out);
		col += rl_table_put_name(out, row->region);
		fputs(": ", out);
		rl_term_wrap(out, row->check, col,
			     opt && !opt->verbose ? opt->width : 0, 4);
		fputc('\n', out);
	}
	if (r->n_checks)
		fprintf(out, "self-check: %zu region%s above %s roof by more "
			"than %.0f%%: the figures or the roofs are off there\n",
			r->n_checks, r->n_checks == 1 ? "" : "s",
			r->n_checks == 1 ? "its" : "their", RL_CHECK_PCT - 100);
	for (size_t i = 0; i < r->n_warnings && i < TABLE_MAX_WARNINGS; i++)
		rl_table_put_wrapped(out, "warning: ", r->warnings[i].message, opt);
	if (r->n_warnings > TABLE_MAX_WARNINGS)
		fprintf(out, "warning: ... and %zu more warnings: report.json "
			"(rlprof report -f json) has every one\n",
			r->n_warnings - TABLE_MAX_WARNINGS);
}

/* Every cell of every line in one buffer: a line's cells are short, and
 * fixed cells (3 KB a line) were 900 MB at 10^5 regions. */
struct cell_text {
	char *text;
	size_t used, cap;
	size_t *at; /* at[line * NCOL + k]: cell k of that line in text */
};

static int keep_cells(struct cell_text *t, size_t line, cell_t *c)
{
	for (int k = 0; k < NCOL; k++) {
		size_t n = strlen(c[k]) + 1;
		if (t->used + n > t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 1 << 16;
			char *x;
			while (cap < t->used + n)
				cap *= 2;
			if (!(x = realloc(t->text, cap)))
				return RL_ENOMEM;
			t->text = x;
			t->cap = cap;
		}
		memcpy(t->text + t->used, c[k], n);
		t->at[line * NCOL + k] = t->used;
		t->used += n;
	}
	return 0;
}

static void print_kept(FILE *out, const struct cell_text *t, size_t line,
		       const struct layout *lay, int color,
		       const char *bound_color)
{
	const char *c[NCOL];

	for (int k = 0; k < NCOL; k++)
		c[k] = t->text + t->at[line * NCOL + k];
	print_line(out, c, lay, color, bound_color);
}

static size_t total_width(const struct layout *lay)
{
	size_t t = lay->w[C_REGION];

	for (int k = 1; k < NCOL; k++)
		if (lay->show[k])
			t += 2 + lay->w[k];
	return t;
}

/* Fits the table in width columns (0: no limit): the least needed
 * columns left out first, then the region names cut (to 12 columns at
 * least), then the bound column (to 10). Never wrapped. */
static void fit_columns(struct layout *lay, unsigned width, int spread)
{
	static const int drop[] = {C_AIDECL, C_CALLS, C_FLOPS, C_THR,
				   C_BYTES, C_AI, C_GBS, C_SPREAD};
	size_t t;

	for (int k = 0; k < NCOL; k++) {
		lay->absent[k] = k == C_SPREAD && !spread;
		lay->show[k] = !lay->absent[k];
	}
	lay->bound_max = 0;
	if (!width)
		return;
	for (size_t i = 0; i < sizeof drop / sizeof drop[0] &&
			   total_width(lay) > width; i++)
		lay->show[drop[i]] = 0;
	t = total_width(lay);
	if (t > width && lay->w[C_REGION] > 12) {
		size_t over = t - width, room = lay->w[C_REGION] - 12;
		lay->w[C_REGION] -= over < room ? over : room;
	}
	t = total_width(lay);
	if (t > width && lay->w[C_BOUND] > 10) {
		size_t over = t - width, room = lay->w[C_BOUND] - 10;
		lay->bound_max = lay->w[C_BOUND] - (over < room ? over : room);
	}
}

static int render_table(FILE *out, const struct rl_report *r,
			const struct rl_render_options *opt, char *err,
			size_t errlen)
{
	cell_t line[NCOL];
	struct cell_text kept = {0};
	struct layout lay;
	size_t *w = lay.w, nl = 0, pids = 0, *ix, n_all = rl_report_n_all(r);
	int color = opt && opt->color, rc = 0, cut;
	struct rl_region_row buf, first;

	for (size_t i = r->n_summed; i < n_all; i++)
		pids |= rl_report_row(r, i, &buf)->pid !=
			rl_report_row(r, r->n_summed, &first)->pid;
	kept.at = malloc((n_all + 1) * NCOL * sizeof *kept.at);
	ix = malloc((n_all + 1) * sizeof *ix);
	if (!kept.at || !ix)
		rc = RL_ENOMEM;
	for (int k = 0; k < NCOL; k++) {
		snprintf(line[k], CELL, "%s", col_head[k]);
		w[k] = strlen(col_head[k]);
	}
	if (!rc)
		rc = keep_cells(&kept, 0, line);
	/* lines: header, then each summed row followed by its threads */
	nl = 1;
	for (size_t s = 0; s < r->n_summed && !rc; s++) {
		size_t n = lines_of(r, s, opt, ix);
		for (size_t j = 0; j < n && !rc; j++) {
			size_t i = ix[j];
			fill_cells(line, rl_report_row(r, i, &buf), i != s,
				   (int)pids);
			for (int k = 0; k < NCOL; k++) {
				size_t cw = rl_term_width(line[k]);
				if (cw > w[k])
					w[k] = cw;
			}
			rc = keep_cells(&kept, nl++, line);
		}
	}
	if (rc) {
		free(kept.at);
		free(kept.text);
		free(ix);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	fit_columns(&lay, opt ? opt->width : 0, r->repeat_times != NULL);
	cut = rl_table_header(out, r, opt);
	print_kept(out, &kept, 0, &lay, 0, NULL);
	nl = 1;
	for (size_t s = 0; s < r->n_summed; s++) {
		size_t n = lines_of(r, s, opt, ix);
		for (size_t j = 0; j < n; j++) {
			const struct rl_region_row *row =
				rl_report_row(r, ix[j], &buf);
			print_kept(out, &kept, nl++, &lay, color,
				   row->bound == RL_BOUND_MEMORY  ? "\033[33m"
				   : row->bound == RL_BOUND_COMPUTE ? "\033[32m"
								    : NULL);
		}
	}
	if (r->n_summed == 0)
		fputs("(no regions were entered)\n", out);
	free(kept.at);
	free(kept.text);
	free(ix);
	rl_ranks_table(out, r);
	print_footer(out, r, opt, cut, &lay);
	if (opt && opt->plot) {
		int rc;
		fputc('\n', out);
		if ((rc = rl_render_plot(out, r, err, errlen)))
			return rc;
	}
	if (ferror(out))
		return rl_fail(err, errlen, RL_EIO, "cannot write the table");
	return 0;
}

const struct rl_renderer rl_renderer_table = {"table", NULL, render_table};
