/*
 * The table's lines of text (table_text.h): the header above the grid
 * (backend, note, command, machine) and, under it, the method lines, the
 * legend and the diagnoses. render_table.c lays out the grid and calls
 * them. Every user string goes through term_text.h, as in the grid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/name_index.h"
#include "analysis/report_pack.h"
#include "common/term_text.h"
#include "render/table_text.h"

/* prefix and text on one line; with a width (and not verbose) cut to it,
 * ending in an ellipsis: 1 when cut. */
static int put_long(FILE *out, const char *prefix, const char *text,
		    const char *suffix, const struct rl_render_options *opt)
{
	size_t used = strlen(prefix) + strlen(suffix);
	unsigned width = opt && !opt->verbose ? opt->width : 0;
	int cut = 0;

	fputs(prefix, out);
	if (width && used + rl_term_width(text) > width) {
		size_t cols = width > used + 8 ? width - used : 8;
		char *buf = malloc(cols * 4 + 16);
		if (buf) {
			rl_term_cut(buf, cols * 4 + 16, text, cols);
			cut = strcmp(buf, text) != 0;
			fputs(buf, out);
			free(buf);
		} else {
			rl_term_put(out, text);
		}
	} else {
		rl_term_put(out, text);
	}
	fputs(suffix, out);
	fputc('\n', out);
	return cut;
}

void rl_table_put_wrapped(FILE *out, const char *prefix, const char *text,
			  const struct rl_render_options *opt)
{
	fputs(prefix, out);
	rl_term_wrap(out, text, strlen(prefix),
		     opt && !opt->verbose ? opt->width : 0, 4);
	fputc('\n', out);
}

int rl_table_header(FILE *out, const struct rl_report *r,
		    const struct rl_render_options *opt)
{
	int cut = 0;
	char prefix[160];

	char name[128];
	rl_term_cut(name, sizeof name,
		    r->backend && *r->backend ? r->backend : "-", 24);
	snprintf(prefix, sizeof prefix, "backend: %s", name);
	if (r->backend_reason && *r->backend_reason) {
		/* the backend's name is plain (a registry name) */
		strncat(prefix, " (", sizeof prefix - strlen(prefix) - 1);
		cut |= put_long(out, prefix, r->backend_reason, ")", opt);
	} else {
		put_long(out, prefix, "", "", opt);
	}
	if (r->backend_note && *r->backend_note)
		cut |= put_long(out, "note: ", r->backend_note, "", opt);
	if (r->command) {
		char *c = malloc(strlen(r->command) + 32);
		if (c)
			sprintf(c, r->exit_status >= 0 ? "%s (exit status %d)"
						       : "%s", r->command,
				r->exit_status);
		rl_table_put_wrapped(out, "command: ", c ? c : r->command, opt);
		free(c);
	}
	if (r->count_with) {
		char cw[RL_COUNT_WITH_TEXT_MAX];
		rl_report_count_with_text(cw, sizeof cw, r);
		rl_table_put_wrapped(out, "", cw, opt);
	}
	if (r->machine) {
		fputs("machine: ", out);
		rl_term_put(out, *r->machine->cpu_model ? r->machine->cpu_model
							: "?");
		fprintf(out, ", %u threads%s\n", r->machine->cores,
			r->machine->quick ? ", quick probe" : "");
	} else
		fputs("machine: no model: bounds are not shown (run rlprof "
		      "probe)\n",
		      out);
	fputc('\n', out);
	return cut;
}

/* Summed row i's method line and name (a packed row unpacked). */
static const char *method_of(const struct rl_report *r, size_t i)
{
	struct rl_region_row buf;
	return rl_report_row(r, i, &buf)->method;
}

static const char *name_of(const struct rl_report *r, size_t i)
{
	struct rl_region_row buf;
	return rl_report_row(r, i, &buf)->region;
}

int rl_table_methods(FILE *out, const struct rl_report *r,
		     const struct rl_render_options *opt)
{
	int several = 0, cut = 0;
	const char *m0 = r->n_summed ? method_of(r, 0) : "";

	for (size_t i = 1; i < r->n_summed && !several; i++)
		several = strcmp(method_of(r, i), m0) != 0;
	if (opt && opt->width && !opt->verbose) {
		/* one line each, named by its first region when they differ */
		for (size_t i = 0; i < r->n_summed; i++) {
			const char *m = method_of(r, i);
			char prefix[64], name[40];
			int seen = 0, more = 0;
			for (size_t k = 0; k < i && !seen; k++)
				seen = strcmp(k ? method_of(r, k) : m0, m) == 0;
			if (seen)
				continue;
			for (size_t k = i + 1; k < r->n_summed && !more; k++)
				more = strcmp(method_of(r, k), m) == 0;
			rl_term_cut(name, sizeof name, name_of(r, i), 16);
			if (several)
				snprintf(prefix, sizeof prefix, "method [%s%s]: ",
					 name, more ? ", ..." : "");
			else
				snprintf(prefix, sizeof prefix, "method: ");
			cut |= put_long(out, prefix, m, "", opt);
		}
		return cut;
	}
	several = 0;

	for (size_t i = 1; i < r->n_summed && !several; i++)
		several = strcmp(method_of(r, i), m0) != 0;
	for (size_t i = 0; i < r->n_summed; i++) {
		const char *m = method_of(r, i);
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(k ? method_of(r, k) : m0, m) == 0;
		if (seen)
			continue;
		fputs("method: ", out);
		rl_term_put(out, m);
		if (several) {
			const char *sep = " [";
			for (size_t k = i; k < r->n_summed; k++) {
				if (strcmp(method_of(r, k), m) != 0)
					continue;
				fputs(sep, out);
				rl_term_put(out, name_of(r, k));
				sep = ", ";
			}
			fputc(']', out);
		}
		fputc('\n', out);
	}
	return cut;
}

void rl_table_legend(FILE *out, const struct rl_report *r,
		     const struct rl_render_options *opt)
{
	int bound = 0, decl = 0, sim = 0, sim_native = 0;

	for (size_t i = 0, n = rl_report_n_all(r); i < n; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		sim |= row->simulated && !row->time_native;
		sim_native |= row->simulated && row->time_native;
		bound |= row->bound != RL_BOUND_UNKNOWN;
		decl |= !rl_known(row->gflops) && rl_known(row->gflops_expected);
	}
	if (r->repeat_times && opt && opt->width && !opt->verbose)
		fputs("spread: the time's 90% interval over the --repeat runs, "
		      "from its median\n", out);
	else if (r->repeat_times)
		fputs("spread: each region's time over the rlprof run --repeat "
		      "runs: the 90% confidence interval of its median from "
		      "the runs' order statistics (fewer than 5 runs: fastest "
		      "to slowest), from the median; GFLOP/s, GB/s and % of "
		      "roof move inversely (report.json, report.csv: each "
		      "figure's median and bounds); counted flops and bytes "
		      "have no interval: the simulator's are exact, the "
		      "counters' come from the profiling run alone\n",
		      out);
	if (bound && opt && opt->width && !opt->verbose)
		fputs("* binding roof: the lowest at the region's AI, for its "
		      "read/write mix and ISA\n", out);
	else if (bound)
		fputs("* binding roof: the lowest roof at the region's "
		      "arithmetic intensity, each level's bandwidth for the "
		      "region's own write share (\"DRAM 33% write\"; \"triad\" "
		      "where the mix or the model's points are missing) and the "
		      "ceiling of the ISA its flops used (counted bytes against "
		      "write-allocate roofs; (decl): RL_REGION_EXPECT figures "
		      "against STREAM roofs)\n",
		      out);
	if (sim)
		fputs("simulated PMU: time ran under Valgrind (many times "
		      "slower), so GFLOP/s and GB/s are not native speeds and "
		      "no % of roof is given; AI and bound are exact\n",
		      out);
	if (sim_native && opt && opt->width && !opt->verbose)
		fputs("simulated PMU: exact counts, native times\n", out);
	else if (sim_native)
		fputs("simulated PMU: flops and bytes counted exactly by the "
		      "simulator, times from a native run of the program "
		      "(backend time), so GFLOP/s, GB/s and % of roof are "
		      "native\n",
		      out);
	if (decl)
		fputs("d: declared flops (RL_REGION_EXPECT) over the measured "
		      "time; nothing was counted\n",
		      out);
}

/* Regions that share one diagnosis, from this many on, get one line:
 * 10^5 regions without counts made 10^5 lines of the same advice. */
#define DIAG_GROUP 4
#define DIAG_NAMED 3 /* regions a shared line names */

struct diag_group {
	size_t n;                /* regions with this diagnosis */
	size_t named[DIAG_NAMED]; /* the first of them */
};

static const char *diagnosis_of(const struct rl_report *r, size_t i)
{
	struct rl_region_row buf;
	const struct rl_region_row *row = rl_report_row(r, i, &buf);
	return row->diagnosis && *row->diagnosis ? row->diagnosis : NULL;
}

/* Each summed row's group: the index of the first row with the same
 * diagnosis (group[i]), with the group's count there. 0 or RL_ENOMEM. */
static int group_diagnoses(const struct rl_report *r, size_t *group,
			   struct diag_group *g)
{
	struct rl_name_index ix = {0};
	int rc = 0;

	for (size_t i = 0; i < r->n_summed && !rc; i++) {
		const char *d = diagnosis_of(r, i);
		size_t k;
		if (!d)
			continue;
		if (!rl_name_index_get(&ix, d, &k))
			rc = rl_name_index_put(&ix, d, k = i);
		group[i] = k;
		if (g[k].n < DIAG_NAMED)
			g[k].named[g[k].n] = i;
		g[k].n++;
	}
	rl_name_index_release(&ix);
	return rc;
}

size_t rl_table_put_name(FILE *out, const char *name)
{
	char buf[512];
	rl_term_put(out, name);
	return rl_term_cut(buf, sizeof buf, name, (size_t)-1);
}

void rl_table_diagnoses(FILE *out, const struct rl_report *r,
			const struct rl_render_options *opt)
{
	unsigned width = opt && !opt->verbose ? opt->width : 0;
	size_t n = r->n_summed ? r->n_summed : 1;
	size_t *group = calloc(n, sizeof *group);
	struct diag_group *g = calloc(n, sizeof *g);
	int grouped = group && g && group_diagnoses(r, group, g) == 0;

	for (size_t i = 0; i < r->n_summed; i++) {
		const char *d = diagnosis_of(r, i);
		const struct diag_group *k = grouped ? &g[group[i]] : NULL;
		if (!d || (k && k->n >= DIAG_GROUP && group[i] != i))
			continue;
		size_t col = 0;
		if (k && k->n >= DIAG_GROUP) {
			for (size_t j = 0; j < DIAG_NAMED; j++) {
				fputs(j ? ", " : "", out);
				col += (j ? 2 : 0) +
				       rl_table_put_name(out, name_of(r, k->named[j]));
			}
			col += (size_t)fprintf(out, " and %zu more regions",
					       k->n - DIAG_NAMED);
		} else {
			col += rl_table_put_name(out, name_of(r, i));
		}
		fputs(": ", out);
		/* at the terminal's width: words wrapped, the rest of a
		 * diagnosis indented under its first line */
		rl_term_wrap(out, d, col + 2, width, 4);
		fputc('\n', out);
	}
	free(group);
	free(g);
}
