/*
 * The method line of a report row: where its flops and bytes come from,
 * built from the counters' own method texts and scopes, then recursion,
 * the placement's note, MPI and native timing (analysis.h); and the
 * report header's line on a --count-with run (report.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "common/rl_error.h"

#define BIT(c) (UINT64_C(1) << (c))

static const char *const level_names[3] = {"L1", "L2", "L3"};

/* Append text to a growing line. */
struct line {
	char buf[1024];
	size_t len;
};

static void line_add(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (l->len + n >= sizeof l->buf)
		n = sizeof l->buf - 1 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

/* "flops: m1, m2" over the provided counters in [first, last]: distinct
 * method texts, each tagged with a scope that the text does not state. */
static int group_methods(struct line *l, const char *label, uint64_t provided,
			 char *const method[], const unsigned char scope[],
			 int first, int last)
{
	const char *seen[RL_COUNTER_COUNT];
	size_t n_seen = 0;

	for (int c = first; c <= last; c++) {
		const char *m;
		char tagged[256];
		int dup = 0;

		if (!(provided & BIT(c)))
			continue;
		m = method[c] && *method[c] ? method[c]
					    : rl_scope_name(scope[c]);
		for (size_t i = 0; i < n_seen; i++)
			dup |= strcmp(seen[i], m) == 0;
		if (dup)
			continue;
		seen[n_seen++] = m;
		line_add(l, n_seen == 1 ? label : ", ");
		if (n_seen == 1)
			line_add(l, ": ");
		if (scope[c] == RL_SCOPE_SYSTEM && !strstr(m, "system"))
			snprintf(tagged, sizeof tagged, "%s (system-wide)", m);
		else if (scope[c] == RL_SCOPE_PROXY && !strstr(m, "proxy"))
			snprintf(tagged, sizeof tagged, "%s (proxy)", m);
		else
			snprintf(tagged, sizeof tagged, "%s", m);
		line_add(l, tagged);
	}
	return n_seen > 0;
}

static const char *method_of(char *const method[], const unsigned char scope[],
			     int c)
{
	return method[c] && *method[c] ? method[c] : rl_scope_name(scope[c]);
}

/* The DRAM counters the figure really comes from (analysis: read + write
 * when both exist, else the combined counter). */
static void dram_methods(struct line *l, uint64_t provided,
			 char *const method[], const unsigned char scope[])
{
	const int rd = RL_C_DRAM_READ_BYTES, wr = RL_C_DRAM_WRITE_BYTES;

	if ((provided & BIT(rd)) && (provided & BIT(wr))) {
		if (strcmp(method_of(method, scope, rd),
			   method_of(method, scope, wr)) == 0 &&
		    scope[rd] == scope[wr]) {
			group_methods(l, "bytes", provided, method, scope, rd,
				      wr);
		} else {
			group_methods(l, "dram read", provided, method, scope,
				      rd, rd);
			line_add(l, "; ");
			group_methods(l, "dram write", provided, method, scope,
				      wr, wr);
		}
	} else if (provided & BIT(RL_C_DRAM_BYTES)) {
		group_methods(l, "bytes", provided, method, scope,
			      RL_C_DRAM_BYTES, RL_C_DRAM_BYTES);
	} else if (!group_methods(l, "bytes", provided, method, scope, rd,
				  wr)) {
		line_add(l, "dram bytes: not counted");
	}
}

/* "; cache bytes: L1, L2 (simulated)": which levels, and how. */
static void cache_levels(struct line *l, uint64_t provided,
			 const unsigned char scope[])
{
	static const char *const how[] = {"per-thread", "system-wide", "proxy",
					  "simulated"};
	const char *sep = "; cache bytes: ";
	int sc = -1;

	for (int lv = 0; lv < 3; lv++) {
		int rd = RL_C_L1_READ_BYTES + 2 * lv, wr = rd + 1;
		if (!(provided & (BIT(rd) | BIT(wr))))
			continue;
		line_add(l, sep);
		line_add(l, level_names[lv]);
		sep = ", ";
		if (sc < 0)
			sc = scope[(provided & BIT(rd)) ? rd : wr];
	}
	if (sc >= 0 && sc < 4) {
		line_add(l, " (");
		line_add(l, how[sc]);
		line_add(l, ")");
	}
}

char *rl_method_line(uint64_t provided, char *const method[],
			 const unsigned char scope[], int declared)
{
	struct line l = {{0}, 0};
	uint64_t fb = provided & ((BIT(RL_C_FLOPS_ANY + 1) - 1) |
				  BIT(RL_C_DRAM_READ_BYTES) |
				  BIT(RL_C_DRAM_WRITE_BYTES) |
				  BIT(RL_C_DRAM_BYTES) |
				  BIT(RL_C_L1_READ_BYTES) |
				  BIT(RL_C_L1_WRITE_BYTES) |
				  BIT(RL_C_L2_READ_BYTES) |
				  BIT(RL_C_L2_WRITE_BYTES) |
				  BIT(RL_C_L3_READ_BYTES) |
				  BIT(RL_C_L3_WRITE_BYTES));

	if (!fb) {
		line_add(&l, provided ? "time only: no flop or byte counters"
				      : "time only: no counters");
		if (declared)
			line_add(&l, " (declared figures from RL_REGION_EXPECT)");
		return strdup(l.buf);
	}
	if (!group_methods(&l, "flops", provided, method, scope,
			   RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_ANY))
		line_add(&l, "flops: not counted");
	line_add(&l, "; ");
	dram_methods(&l, provided, method, scope);
	cache_levels(&l, provided, scope);
	return strdup(l.buf);
}

/* *line with text added: at the end (after "; "), or in front. */
static int method_add(char **line, const char *text, int in_front)
{
	size_t n = strlen(*line), k = strlen(text);
	char *m = malloc(n + k + 3);
	if (!m)
		return RL_ENOMEM;
	if (in_front)
		snprintf(m, n + k + 3, "%s%s", text, *line);
	else
		snprintf(m, n + k + 3, "%s; %s", *line, text);
	free(*line);
	*line = m;
	return 0;
}

int rl_row_method(const struct rl_report *rep, struct rl_region_row *row,
		  uint64_t provided, int uncounted, char *const method[],
		  const unsigned char scope[], int declared)
{
	char text[160];
	const char *mpi = row->mpi_known ||
					  rep->mpi_calls ==
						  RL_MPI_CALLS_UNWRAPPED
				  ? rl_mpi_method(rep->mpi_calls, provided)
				  : NULL;

	if (!(row->method = uncounted
				    ? strdup("time: native run (backend time); "
					     "no counts: the counting run "
					     "stopped before this region ended")
				    : rl_method_line(provided, method, scope,
						     declared)))
		return RL_ENOMEM;
	if (row->depth > 1) {
		/* docs/parallel.md, "Recursion" */
		snprintf(text, sizeof text,
			 "recursive (depth %llu): counted once, in each "
			 "outermost call; calls count every entry",
			 (unsigned long long)row->depth);
		if (method_add(&row->method, text, 0))
			return RL_ENOMEM;
	}
	if (row->place_note && method_add(&row->method, row->place_note, 0))
		return RL_ENOMEM;
	if (mpi && method_add(&row->method, mpi, 0))
		return RL_ENOMEM;
	if (row->work_differs &&
	    method_add(&row->method,
		       "rates withheld: the timing run and the counting run "
		       "did different work in the same calls (see the "
		       "warnings)",
		       0))
		return RL_ENOMEM;
	if (row->simulated && row->time_native &&
	    method_add(&row->method, "time: native run (backend time); ", 1))
		return RL_ENOMEM;
	return 0;
}

void rl_report_count_with_text(char *buf, size_t len,
			       const struct rl_report *r)
{
	const char *src = r->timed_isa_source ? r->timed_isa_source : "not said";
	const char *built = r->counted_build ? r->counted_build : "not said";

	if (!r->count_with)
		snprintf(buf, len, "%s", "");
	else if (r->timed_isa)
		snprintf(buf, len,
			 "--count-with: counted build %s; the timed build's "
			 "ceiling: %s%s, from %s",
			 built, r->timed_isa,
			 r->timed_no_fma ? " without FMA" : "", src);
	else
		snprintf(buf, len,
			 "--count-with: counted build %s; the timed build's "
			 "ceiling: the best peak, as its ISA is %s",
			 built, src);
}
