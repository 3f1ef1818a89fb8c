/*
 * What rlprof adds for threads and ranks, in each format: the MPI ranks
 * (report_ranks.h: the "mpi" object of report.json, a section of the
 * table and of report.html) and the process scope of regions
 * (report_scope.h: fields of each region in report.json, lines under the
 * table, a section of report.html). Called by render_json.c,
 * render_table.c and render_html.c.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "common/fmt_seconds.h"
#include "render/render_ranks.h"
#include "render/svg_chart.h"
#include "common/term_text.h"

static json_t *num(double x)
{
	return rl_known(x) && isfinite(x) ? json_real(x) : json_null();
}

static json_t *rank_or_null(long q)
{
	return q >= 0 ? json_integer(q) : json_null();
}

static json_t *str_or_null(const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	return j ? j : json_null();
}

void rl_scope_jw_add(struct rl_jw *w, const struct rl_report *r, size_t i)
{
	const struct rl_report_scope *k = r->process_scope;
	const struct rl_scope_row *x;

	if (!k || i >= k->n_rows)
		return;
	x = &k->rows[i];
	rl_jw_field_str(w, "scope", 0, x->process ? "process" : "thread");
	if (!x->process)
		return;
	rl_jw_field_u64(w, "threads_ran", 0, x->threads_ran);
	/* a region's fields: left out when unknown (report version 2) */
	if (rl_known(x->busy_threads) && isfinite(x->busy_threads)) {
		rl_jw_key(w, "busy_threads", 0);
		rl_jw_real(w, x->busy_threads, 12);
	}
	if (rl_known(x->cpu_s) && isfinite(x->cpu_s)) {
		rl_jw_key(w, "cpu_s", 0);
		rl_jw_real(w, x->cpu_s, 12);
	}
	rl_jw_field_str(w, "counted_threads",
			0, x->all_counted ? "all" : "calling");
	if (x->uncounted)
		rl_jw_field_str(w, "uncounted", 0, x->uncounted);
}

json_t *rl_ranks_json(const struct rl_report *r)
{
	const struct rl_report_ranks *k = r->ranks;
	json_t *o, *ranks, *missing, *rows, *aggs;

	if (!k)
		return json_null();
	o = json_object();
	ranks = json_array();
	missing = json_array();
	rows = json_array();
	aggs = json_array();
	json_object_set_new(o, "size", json_integer(k->size));
	json_object_set_new(o, "present", json_integer((json_int_t)k->n_present));
	for (long q = 0; q < k->size; q++) {
		json_t *e = json_object();
		json_object_set_new(e, "rank", json_integer(q));
		json_object_set_new(e, "host", str_or_null(k->hosts[q]));
		json_object_set_new(e, "present", json_boolean(!k->missing_why[q]));
		json_object_set_new(e, "missing_why", str_or_null(k->missing_why[q]));
		json_array_append_new(ranks, e);
		if (k->missing_why[q])
			json_array_append_new(missing, json_integer(q));
	}
	json_object_set_new(o, "ranks", ranks);
	json_object_set_new(o, "missing", missing);
	for (size_t i = 0; i < k->n_aggs; i++) {
		const struct rl_rank_agg *a = &k->aggs[i];
		json_t *e = json_object();
		json_object_set_new(e, "region", str_or_null(a->region));
		json_object_set_new(e, "ranks", json_integer(a->n_ranks));
		json_object_set_new(e, "calls", json_integer((json_int_t)a->calls));
		json_object_set_new(e, "flops_sum", num(a->flops_sum));
		json_object_set_new(e, "dram_bytes_sum", num(a->dram_bytes_sum));
		json_object_set_new(e, "time_max_s", num(a->time_max_s));
		json_object_set_new(e, "time_mean_s", num(a->time_mean_s));
		json_object_set_new(e, "time_min_s", num(a->time_min_s));
		json_object_set_new(e, "load_imbalance", num(a->imbalance));
		json_object_set_new(e, "slowest_rank",
				    a->slowest_rank >= 0
					    ? json_integer(a->slowest_rank)
					    : json_null());
		json_object_set_new(e, "gflops", num(a->gflops));
		json_object_set_new(e, "gbs", num(a->gbs));
		json_object_set_new(e, "mpi_max_s", num(a->mpi_max_s));
		json_object_set_new(e, "mpi_mean_s", num(a->mpi_mean_s));
		json_object_set_new(e, "mpi_imbalance", num(a->mpi_imbalance));
		json_object_set_new(e, "mpi_max_rank", rank_or_null(a->mpi_max_rank));
		json_object_set_new(e, "mpi_min_rank", rank_or_null(a->mpi_min_rank));
		json_object_set_new(e, "work_imbalance", num(a->work_imbalance));
		json_object_set_new(e, "work_max_rank", rank_or_null(a->work_max_rank));
		json_array_append_new(aggs, e);
	}
	json_object_set_new(o, "regions", aggs);
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct rl_rank_row *x = &k->rows[i];
		json_t *e;
		if (x->n_threads == 0)
			continue;
		e = json_object();
		json_object_set_new(e, "region", str_or_null(x->region));
		json_object_set_new(e, "rank", json_integer(x->rank));
		json_object_set_new(e, "host", str_or_null(k->hosts[x->rank]));
		json_object_set_new(e, "threads", json_integer(x->n_threads));
		json_object_set_new(e, "calls", json_integer((json_int_t)x->calls));
		json_object_set_new(e, "time_s", num(x->time_s));
		json_object_set_new(e, "flops", num(x->flops));
		json_object_set_new(e, "dram_bytes", num(x->dram_bytes));
		json_object_set_new(e, "flops_expected", num(x->flops_expected));
		json_object_set_new(e, "bytes_expected", num(x->bytes_expected));
		json_object_set_new(e, "gflops", num(x->gflops));
		json_object_set_new(e, "gbs", num(x->gbs));
		json_object_set_new(e, "mpi_s", num(x->mpi_s));
		json_array_append_new(rows, e);
	}
	json_object_set_new(o, "per_rank", rows);
	return o;
}

/* ---- table ------------------------------------------------------------ */

/* 3 significant digits with an SI prefix, "-" when unknown */
static const char *si(char *b, size_t n, double x, const char *unit)
{
	static const char pre[] = " kMGTPE";
	int p = 0;

	if (!rl_known(x) || !isfinite(x)) {
		snprintf(b, n, "-");
		return b;
	}
	while (fabs(x) >= 999.5 && p < 6) {
		x /= 1000;
		p++;
	}
	if (p)
		snprintf(b, n, "%.3g %c%s", x, pre[p], unit);
	else if (*unit)
		snprintf(b, n, "%.3g %s", x, unit);
	else
		snprintf(b, n, "%.3g", x);
	return b;
}

static const char *secs(char *b, size_t n, double s)
{
	if (!rl_known(s) || !isfinite(s))
		snprintf(b, n, "-");
	else
		rl_fmt_seconds(b, n, s);
	return b;
}

static size_t name_width(const struct rl_report_ranks *k)
{
	size_t w = 6;
	for (size_t i = 0; i < k->n_aggs; i++)
		if (rl_term_width(k->aggs[i].region) > w)
			w = rl_term_width(k->aggs[i].region);
	return w > 40 ? 40 : w;
}

static void put_name(FILE *out, const char *s, size_t w)
{
	size_t n = rl_term_width(s);
	rl_term_put(out, s);
	for (; n < w; n++)
		fputc(' ', out);
}

/* A region of process scope during which other threads ran: the table
 * and report.html say what its counts cover (with one thread, process
 * and thread scope are the same: report.json alone says "process"). */
static bool scope_shown(const struct rl_scope_row *x)
{
	return x->process && x->threads_ran >= 2;
}

/* One line per region of process scope. */
static void scope_table(FILE *out, const struct rl_report *r)
{
	const struct rl_report_scope *k = r->process_scope;
	bool first = true;

	for (size_t i = 0; k && i < k->n_rows; i++) {
		const struct rl_scope_row *x = &k->rows[i];
		struct rl_region_row buf;
		if (!scope_shown(x))
			continue;
		if (first)
			fputc('\n', out);
		first = false;
		rl_term_put(out, rl_report_row(r, i, &buf)->region);
		fprintf(out, ": process scope (begun on the main thread outside "
			"a parallel region): %u thread%s ran while it was open",
			x->threads_ran, x->threads_ran == 1 ? "" : "s");
		if (rl_known(x->busy_threads))
			fprintf(out, ", %.2f busy on average (CPU time of the "
				"process / wall time)", x->busy_threads);
		if (!r->provided)
			fputs("; no counters (time only)", out);
		else if (x->all_counted)
			fputs("; counts cover every thread", out);
		else {
			fputs("; counted in the calling thread only: ", out);
			rl_term_put(out, x->uncounted);
		}
		fputc('\n', out);
	}
}

void rl_ranks_table(FILE *out, const struct rl_report *r)
{
	const struct rl_report_ranks *k = r->ranks;
	char a[32], b[32], c[32], d[32], e[32];
	size_t w;
	bool mpi = false; /* the ranks' MPI time was measured */

	scope_table(out, r);
	if (!k)
		return;
	for (size_t i = 0; i < k->n_rows && !mpi; i++)
		mpi = rl_known(k->rows[i].mpi_s);
	w = name_width(k);
	fprintf(out, "\nMPI: %ld rank%s, %zu with results", k->size,
		k->size == 1 ? "" : "s", k->n_present);
	for (long q = 0, n = 0; q < k->size; q++)
		if (k->missing_why[q])
			fprintf(out, "%s%ld", n++ ? ", " : "; missing: rank ", q);
	fputc('\n', out);
	put_name(out, "region", w);
	fprintf(out, "  ranks  %10s  %10s  %9s  %9s  %9s%s\n", "flops sum",
		"DRAM bytes", "time max", "time mean", "imbalance",
		mpi ? "   mpi mean  mpi max/mean" : "");
	for (size_t i = 0; i < k->n_aggs; i++) {
		const struct rl_rank_agg *g = &k->aggs[i];
		put_name(out, g->region, w);
		fprintf(out, "  %5u  %10s  %10s  %9s  %9s  %9s", g->n_ranks,
			si(a, sizeof a, g->flops_sum, ""),
			si(b, sizeof b, g->dram_bytes_sum, "B"),
			secs(c, sizeof c, g->time_max_s),
			secs(d, sizeof d, g->time_mean_s),
			rl_known(g->imbalance)
				? (snprintf(e, sizeof e, "%.2f", g->imbalance), e)
				: "-");
		if (mpi)
			fprintf(out, "  %9s  %12s", secs(c, sizeof c, g->mpi_mean_s),
				rl_known(g->mpi_imbalance)
					? (snprintf(e, sizeof e, "%.2f",
						    g->mpi_imbalance), e)
					: "-");
		fputc('\n', out);
	}
	put_name(out, "region", w);
	fprintf(out, "  rank  %-12s  %10s  %10s  %9s%s\n", "host", "flops",
		"DRAM bytes", "time", mpi ? "  mpi_s" : "");
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct rl_rank_row *x = &k->rows[i];
		if (x->n_threads == 0)
			continue;
		put_name(out, x->region, w);
		fprintf(out, "  %4ld  ", x->rank);
		put_name(out, k->hosts[x->rank] ? k->hosts[x->rank] : "?", 12);
		fprintf(out, "  %10s  %10s  %9s", si(a, sizeof a, x->flops, ""),
			si(b, sizeof b, x->dram_bytes, "B"),
			secs(c, sizeof c, x->time_s));
		if (mpi)
			fprintf(out, "  %9s", secs(c, sizeof c, x->mpi_s));
		fputc('\n', out);
	}
}

/* ---- html ------------------------------------------------------------- */

static void td(FILE *out, double v)
{
	char buf[48];

	if (!rl_known(v) || !isfinite(v))
		fputs("<td class=\"muted\">-</td>", out);
	else
		fprintf(out, "<td data-v=\"%.17g\">%s</td>", v,
			si(buf, sizeof buf, v, "")); /* 50.3 M, not 5.03e+07 */
}

static void td_s(FILE *out, const char *s)
{
	fputs("<td class=\"t\">", out);
	rl_xml_escape(out, s ? s : "?");
	fputs("</td>", out);
}

static void scope_html(FILE *out, const struct rl_report *r)
{
	const struct rl_report_scope *k = r->process_scope;
	size_t n = 0;

	for (size_t i = 0; k && i < k->n_rows; i++)
		n += scope_shown(&k->rows[i]);
	if (!n)
		return;
	fputs("<h2 id=\"threads\">Regions of process scope</h2>\n<p>Begun on "
	      "the main thread outside a parallel region, they count every "
	      "thread of the process while open.</p>\n<table class=\"scope\">"
	      "\n<thead><tr><th>region</th><th>threads that ran</th><th>busy "
	      "threads (CPU / wall)</th><th>CPU time (s)</th><th>counted in "
	      "the calling thread only</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct rl_scope_row *x = &k->rows[i];
		struct rl_region_row buf;
		if (!scope_shown(x))
			continue;
		fputs("<tr>", out);
		td_s(out, rl_report_row(r, i, &buf)->region);
		td(out, x->threads_ran);
		td(out, x->busy_threads);
		td(out, x->cpu_s);
		td_s(out, x->uncounted ? x->uncounted : "-");
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* Rows each MPI table of report.html lists at most (regions x ranks can
 * be millions); the rest are counted, and report.json's "mpi" has all. */
#define HTML_MAX_RANK_ROWS 2000

static void more_rows(FILE *out, size_t left, int cols)
{
	if (left)
		fprintf(out, "<tr><td colspan=\"%d\">\xe2\x80\xa6 and %zu more "
			"rows: report.json (\"mpi\") has every one</td></tr>\n",
			cols, left);
}

void rl_ranks_html(FILE *out, const struct rl_report *r)
{
	size_t listed = 0;

	const struct rl_report_ranks *k = r->ranks;

	scope_html(out, r);
	if (!k)
		return;
	fprintf(out, "<h2 id=\"mpi\">MPI ranks</h2>\n<p>%ld rank%s, %zu with "
		"results.</p>\n", k->size, k->size == 1 ? "" : "s",
		k->n_present);
	for (long q = 0; q < k->size; q++)
		if (k->missing_why[q]) {
			fputs("<p class=\"warn\">", out);
			rl_xml_escape(out, k->missing_why[q]);
			fputs("</p>\n", out);
		}
	fputs("<table class=\"ranks\">\n<thead><tr><th>region</th><th>ranks"
	      "</th><th>flops (sum)</th><th>DRAM bytes (sum)</th><th>time max "
	      "(s)</th><th>time mean (s)</th><th>load imbalance (max/mean)"
	      "</th><th>slowest rank</th><th>MPI time mean (s)</th><th>MPI "
	      "time max/mean</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < k->n_aggs && i < HTML_MAX_RANK_ROWS; i++) {
		const struct rl_rank_agg *g = &k->aggs[i];
		fputs("<tr>", out);
		td_s(out, g->region);
		td(out, g->n_ranks);
		td(out, g->flops_sum);
		td(out, g->dram_bytes_sum);
		td(out, g->time_max_s);
		td(out, g->time_mean_s);
		td(out, g->imbalance);
		td(out, g->slowest_rank >= 0 ? (double)g->slowest_rank : NAN);
		td(out, g->mpi_mean_s);
		td(out, g->mpi_imbalance);
		fputs("</tr>\n", out);
	}
	more_rows(out, k->n_aggs > HTML_MAX_RANK_ROWS
			       ? k->n_aggs - HTML_MAX_RANK_ROWS : 0, 10);
	fputs("</tbody>\n</table>\n<table class=\"ranks\">\n<thead><tr><th>"
	      "region</th><th>rank</th><th>host</th><th>threads</th><th>calls"
	      "</th><th>time (s)</th><th>flops</th><th>DRAM bytes</th><th>"
	      "GFLOP/s</th><th>GB/s</th><th>MPI time (s)</th></tr></thead>\n"
	      "<tbody>\n", out);
	for (size_t i = 0; i < k->n_rows; i++) {
		const struct rl_rank_row *x = &k->rows[i];
		if (x->n_threads == 0)
			continue;
		if (listed++ == HTML_MAX_RANK_ROWS) {
			size_t left = 1;
			while (++i < k->n_rows)
				left += k->rows[i].n_threads != 0;
			more_rows(out, left, 11);
			break;
		}
		fputs("<tr>", out);
		td_s(out, x->region);
		td(out, (double)x->rank);
		td_s(out, k->hosts[x->rank]);
		td(out, x->n_threads);
		td(out, (double)x->calls);
		td(out, x->time_s);
		td(out, x->flops);
		td(out, x->dram_bytes);
		td(out, x->gflops);
		td(out, x->gbs);
		td(out, x->mpi_s);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}
