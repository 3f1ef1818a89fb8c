/*
 * CSV renderer: one line per row, summed rows first (thread empty), then
 * per-thread rows (thread = tid). RFC 4180: fields with a comma, quote or
 * line break are quoted, quotes doubled. An unmeasured figure is an empty
 * cell, never 0.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "render.h"
#include "rl_error.h"

static const char csv_header[] =
	"region,thread,calls,time_s,flops,dram_read_bytes,dram_write_bytes,ai,"
	"flops_expected,bytes_expected,ai_expected,gflops,gbs,bound,roof_pct,"
	"backend\n";

static void csv_text(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, double x)
{
	fputc(',', out);
	if (rl_known(x) && isfinite(x))
		fprintf(out, "%.6g", x);
}

static const char *bound_word(enum rl_bound b)
{
	return b == RL_BOUND_MEMORY ? "memory"
	       : b == RL_BOUND_COMPUTE ? "compute"
				       : "";
}

static int render_csv(FILE *out, const struct rl_report *r,
		      const struct rl_render_options *opt, char *err,
		      size_t errlen)
{
	(void)opt;
	fputs(csv_header, out);
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct rl_region_row *row = &r->rows[i];

		csv_text(out, row->region);
		fputc(',', out);
		if (i >= r->n_summed)
			fprintf(out, "%" PRIu64, row->tid);
		fprintf(out, ",%" PRIu64, row->calls);
		csv_num(out, row->time_s);
		csv_num(out, row->flops);
		csv_num(out, row->dram_read_bytes);
		csv_num(out, row->dram_write_bytes);
		csv_num(out, row->ai);
		csv_num(out, row->flops_expected);
		csv_num(out, row->bytes_expected);
		csv_num(out, row->ai_expected);
		csv_num(out, row->gflops);
		csv_num(out, row->gbs);
		fputc(',', out);
		fputs(bound_word(row->bound), out);
		csv_num(out, row->roof_pct);
		fputc(',', out);
		csv_text(out, r->backend);
		fputc('\n', out);
	}
	if (ferror(out))
		return rl_fail(err, errlen, RL_EIO, "cannot write the csv report");
	return 0;
}

const struct rl_renderer rl_renderer_csv = {"csv", "report.csv", render_csv};
