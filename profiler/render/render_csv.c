/*
 * CSV renderer: one line per row, summed rows first (thread empty), then
 * per-thread rows (thread = tid). RFC 4180: fields with a comma, quote or
 * line break are quoted, quotes doubled. An unmeasured figure is an empty
 * cell, never 0.
 *
 * Counts (calls, flops, bytes) are exact integers (a count scaled up for
 * multiplexing is rounded to one); rates and ratios keep 6 significant
 * digits, times 9 (nanoseconds). The header of issue 2 is the prefix; the
 * placement columns follow it, then --loops' and --repeat's own.
 *
 * Text cells go through rl_csv_text (common/csv_cell.h): a cell that a
 * spreadsheet would read as a formula gets a leading single quote;
 * numbers rlprof writes are never touched.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "render/render.h"
#include "analysis/report_pack.h"
#include "render/render_trust.h"
#include "common/csv_cell.h"
#include "common/rl_error.h"

static const char csv_header[] =
	"region,thread,calls,time_s,flops,dram_read_bytes,dram_write_bytes,ai,"
	"flops_expected,bytes_expected,ai_expected,gflops,gbs,bound,roof_pct,"
	"backend,roof,ceiling,check,diagnosis,mpi_s";

static void csv_num(FILE *out, double x)
{
	fputc(',', out);
	if (rl_known(x) && isfinite(x))
		fprintf(out, "%.6g", x);
}

/* A count: an exact integer ("%.0f" prints a double's integral value
 * exactly, 199600200 and not 1.996e+08). */
static void csv_count(FILE *out, double x)
{
	fputc(',', out);
	if (rl_known(x) && isfinite(x))
		fprintf(out, "%.0f", x == 0 ? 0.0 : nearbyint(x));
}

static void csv_time(FILE *out, double x)
{
	fputc(',', out);
	if (rl_known(x) && isfinite(x))
		fprintf(out, "%.9g", x);
}

/* rlprof run --repeat: each timed figure's median and interval (report.h)
 * in columns of their own, after every other; empty on a row without. */
static const char interval_header[] =
	",interval,time_median_s,time_lo_s,time_hi_s,gflops_median,gflops_lo,"
	"gflops_hi,gbs_median,gbs_lo,gbs_hi,roof_pct_median,roof_pct_lo,"
	"roof_pct_hi";
#define INTERVAL_COLUMNS 13

static void csv_interval(FILE *out, const struct rl_region_row *row)
{
	struct rl_row_interval iv;
	const struct rl_figure_interval *f[3] = {&iv.gflops, &iv.gbs,
						 &iv.roof_pct};
	const char *kind;

	rl_row_interval(row, &iv);
	kind = rl_interval_kind_word(iv.kind);
	fputc(',', out);
	if (kind)
		fputs(kind, out);
	csv_time(out, iv.kind ? iv.time_s.median : NAN);
	csv_time(out, iv.kind ? iv.time_s.lo : NAN);
	csv_time(out, iv.kind ? iv.time_s.hi : NAN);
	for (int k = 0; k < 3; k++) {
		csv_num(out, iv.kind ? f[k]->median : NAN);
		csv_num(out, iv.kind ? f[k]->lo : NAN);
		csv_num(out, iv.kind ? f[k]->hi : NAN);
	}
}

static const char *bound_word(enum rl_bound b)
{
	return b == RL_BOUND_MEMORY ? "memory"
	       : b == RL_BOUND_COMPUTE ? "compute"
				       : "";
}

/* rlprof run --loops, sampled: the run's sampled time no loop holds, as
 * two rows after the others, "(outside loops)" (the program's code) and
 * "(other code)" (shared libraries, the loader): their time, its error,
 * and their share of the run's samples (the hot-loop rule's whole) in
 * the diagnosis; every other cell empty. */
static void time_rows(FILE *out, const struct rl_report *r)
{
	const struct rl_loop_time *t = &r->loops_time;
	static const char *const name[2] = {"(outside loops)", "(other code)"};
	static const char *const what[2] = {
		"in the program's code outside its loops",
		"in other code (shared libraries, the loader)"};
	char text[256];

	if (!r->loops_rule || !t->samples || !(t->period_s > 0))
		return;
	for (int k = 0; k < 2; k++) {
		double n = (double)(k ? t->other : t->outside);
		fputs(name[k], out);
		fputs(",,", out);
		csv_time(out, n * t->period_s);
		fputs(",,,,,,,,,,,,,,,,", out);
		snprintf(text, sizeof text, "%.1f%% of the run's %llu samples "
			 "of CPU time, %s", 100.0 * n / (double)t->samples,
			 (unsigned long long)t->samples, what[k]);
		rl_csv_text(out, text);
		fputs(",,", out);
		csv_time(out, sqrt(n) * t->period_s);
		for (int c = 0; r->repeat_times && c < INTERVAL_COLUMNS; c++)
			fputc(',', out);
		fputc('\n', out);
	}
}

static int render_csv(FILE *out, const struct rl_report *r,
		      const struct rl_render_options *opt, char *err,
		      size_t errlen)
{
	bool marks = rl_report_has_marks(r);
	char mark[512];

	(void)opt;
	fputs(csv_header, out);
	/* rlprof run --loops: two more columns */
	fputs(r->loops_rule ? ",loop_of,time_error_s" : "", out);
	fputs(r->repeat_times ? interval_header : "", out);
	/* scaled, withheld or wrong counters: one more (render_trust.h) */
	fputs(marks ? ",counter_marks\n" : "\n", out);
	for (size_t i = 0, n = rl_report_n_all(r); i < n; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);

		rl_csv_text(out, row->region);
		fputc(',', out);
		if (i >= r->n_summed)
			fprintf(out, "%" PRIu64, row->tid);
		fprintf(out, ",%" PRIu64, row->calls);
		csv_time(out, row->time_s);
		csv_count(out, row->flops);
		csv_count(out, row->dram_read_bytes);
		csv_count(out, row->dram_write_bytes);
		csv_num(out, row->ai);
		csv_count(out, row->flops_expected);
		csv_count(out, row->bytes_expected);
		csv_num(out, row->ai_expected);
		csv_num(out, row->gflops);
		csv_num(out, row->gbs);
		fputc(',', out);
		fputs(bound_word(row->bound), out);
		csv_num(out, row->roof_pct);
		fputc(',', out);
		rl_csv_text(out, r->backend);
		fputc(',', out);
		rl_csv_text(out, row->roof_label);
		fputc(',', out);
		rl_csv_text(out, row->ceiling);
		fputc(',', out);
		rl_csv_text(out, row->check);
		fputc(',', out);
		rl_csv_text(out, row->diagnosis);
		/* last: the other columns keep their index */
		csv_time(out, rl_row_mpi_s(row));
		/* rlprof run --loops: a hot loop's region (or "?" when not
		 * known), empty for a region */
		if (r->loops_rule) {
			fputc(',', out);
			if (row->loop)
				rl_csv_text(out, row->loop->parent
							 ? row->loop->parent
							 : "?");
			csv_time(out, row->loop ? row->time_error_s : NAN);
		}
		if (r->repeat_times)
			csv_interval(out, row);
		if (marks) {
			rl_row_marks(r, row, mark, sizeof mark);
			fputc(',', out);
			rl_csv_text(out, mark);
		}
		fputc('\n', out);
	}
	time_rows(out, r);
	if (ferror(out))
		return rl_fail(err, errlen, RL_EIO, "cannot write the csv report");
	return 0;
}

const struct rl_renderer rl_renderer_csv = {"csv", "report.csv", render_csv};
