/*
 * JSON renderer: the document's frame built with jansson, its regions and
 * checks (all of a run's size) streamed in place with the JSON writer of
 * the results files (json_writer.h); both escape every string. Numbers as
 * numbers; in the regions an unmeasured figure is left out (version 1
 * wrote null), elsewhere it is null. Schema
 * "rlprof-report" version RL_REPORT_VERSION, documented in README.md.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "analysis/report_pack.h"
#include "render/render_trust.h"
#include "common/json_writer.h"
#include "render/render_ranks.h"
#include "common/rl_error.h"
#include "common/term_text.h"

static const char *const level_keys[RL_LEVELS] = {"L1", "L2", "L3", "DRAM"};

static json_t *num(double x)
{
	return rl_known(x) && isfinite(x) ? json_real(x) : json_null();
}

/* A string; bytes that are not UTF-8 (jansson would refuse the whole
 * string, and the key would go missing) become U+FFFD. */
static json_t *str(const char *s)
{
	json_t *j;
	char *fixed;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	if (!(fixed = rl_utf8_fix(s)))
		return NULL;
	j = json_string(fixed);
	free(fixed);
	return j;
}

static const char *bound_word(enum rl_bound b)
{
	return b == RL_BOUND_MEMORY ? "memory"
	       : b == RL_BOUND_COMPUTE ? "compute"
				       : NULL;
}

static const char *basis_word(enum rl_basis b)
{
	return b == RL_BASIS_COUNTED ? "counted"
	       : b == RL_BASIS_DECLARED ? "declared"
					: NULL;
}

/* A region's figures (version 2), written straight with the JSON writer
 * (a jansson tree per region was most of report.json's time at 10^5
 * regions): what was not measured, or does not apply, is left out instead
 * of written null, and a flag only when true. Every object below starts
 * with a key of its own, so these all write a comma first. */
#define REAL_DIGITS 12 /* as JSON_REAL_PRECISION(12) in the rest */

static void put_num(struct rl_jw *w, const char *key, double x)
{
	if (!rl_known(x) || !isfinite(x))
		return;
	rl_jw_key(w, key, 0);
	rl_jw_real(w, x, REAL_DIGITS);
}

static void put_str(struct rl_jw *w, const char *key, const char *s)
{
	if (s)
		rl_jw_field_str(w, key, 0, s);
}

static void put_flag(struct rl_jw *w, const char *key, bool b)
{
	if (!b)
		return;
	rl_jw_key(w, key, 0);
	rl_jw_raw(w, "true");
}

/* {"L1": x, ...} with the known levels, left out when none is */
static void put_levels(struct rl_jw *w, const char *key, const double *v)
{
	int n = 0;

	for (int k = 0; k < RL_LEVELS; k++) {
		if (!rl_known(v[k]) || !isfinite(v[k]))
			continue;
		if (!n++) {
			rl_jw_key(w, key, 0);
			rl_jw_raw(w, "{");
		}
		rl_jw_key(w, level_keys[k], n == 1);
		rl_jw_real(w, v[k], REAL_DIGITS);
	}
	if (n)
		rl_jw_raw(w, "}");
}

/* The self-check finding of a row, as an object. */
static void put_check(struct rl_jw *w, const struct rl_region_row *row)
{
	rl_jw_raw(w, "{");
	rl_jw_field_str(w, "region", 1, row->region);
	put_str(w, "cause", row->check_cause);
	put_str(w, "roof", row->roof_label);
	put_num(w, "roof_pct", row->roof_pct);
	put_str(w, "message", row->check);
	rl_jw_raw(w, "}");
}

/* A hot loop's row: its sampling error, and on the summed row what the
 * loop is and the region it ran in. */
static void put_loop(struct rl_jw *w, const struct rl_region_row *row,
		     const struct rl_region_row *sum)
{
	const struct rl_loop_meta *m = row->loop;

	put_num(w, "time_error_s", row->time_error_s);
	if (sum)
		return;
	rl_jw_key(w, "loop", 0);
	rl_jw_raw(w, "{");
	rl_jw_field_str(w, "function", 1, m->function);
	put_str(w, "file", m->file);
	if (m->line > 0)
		rl_jw_field_u64(w, "line", 0, (uint64_t)m->line);
	put_str(w, "parent", m->parent);
	if (!isnan(m->period_s))
		rl_jw_field_u64(w, "samples", 0, m->samples);
	if (m->enclosing)
		put_str(w, "enclosing", m->enclosing);
	if (m->inlined)
		put_str(w, "inlined", m->inlined);
	if (m->chains.known) {
		rl_jw_key(w, "chains", 0);
		rl_jw_raw(w, "{");
		rl_jw_field_u64(w, "add", 1, m->chains.add);
		rl_jw_field_u64(w, "mul", 0, m->chains.mul);
		rl_jw_field_u64(w, "madd", 0, m->chains.madd);
		rl_jw_raw(w, "}");
	}
	rl_jw_raw(w, "}");
}

static int differs(const char *a, const char *b)
{
	return !a || !b || strcmp(a, b) != 0;
}

/* A summed row (sum NULL), or a thread's row of the summed row sum: the
 * region's name is the summed row's, and its method and diagnosis are
 * written only where they differ from the summed row's. Leaves the
 * object open. */
/* {"median": m, "lo": l, "hi": h}, or null when the figure is unknown. */
static void put_figure(struct rl_jw *w, const char *key,
		       const struct rl_figure_interval *f)
{
	rl_jw_key(w, key, 0);
	if (!rl_known(f->median) || !isfinite(f->median)) {
		rl_jw_raw(w, "null");
		return;
	}
	rl_jw_raw(w, "{");
	rl_jw_key(w, "median", 1);
	rl_jw_real(w, f->median, REAL_DIGITS);
	put_num(w, "lo", f->lo);
	put_num(w, "hi", f->hi);
	rl_jw_raw(w, "}");
}

/* rlprof run --repeat: each timed figure's median and interval over the
 * runs (report.h), and what the counts have instead. */
static void put_interval(struct rl_jw *w, const struct rl_region_row *row)
{
	struct rl_row_interval iv;

	rl_row_interval(row, &iv);
	if (iv.kind == RL_INTERVAL_NONE)
		return;
	rl_jw_key(w, "interval", 0);
	rl_jw_raw(w, "{");
	rl_jw_field_str(w, "kind", 1, rl_interval_kind_word(iv.kind));
	put_figure(w, "time_s", &iv.time_s);
	put_figure(w, "gflops", &iv.gflops);
	put_figure(w, "gbs", &iv.gbs);
	put_figure(w, "roof_pct", &iv.roof_pct);
	rl_jw_field_str(w, "counts", 0,
			row->simulated ? "exact (simulator): no interval"
				       : "the profiling run's: no interval");
	rl_jw_raw(w, "}");
}

static void put_row(struct rl_jw *w, const struct rl_region_row *row,
		    const struct rl_region_row *sum)
{
	rl_jw_raw(w, "{");
	if (sum) {
		rl_jw_key(w, "pid", 1);
		rl_jw_i64(w, row->pid);
		rl_jw_field_u64(w, "tid", 0, row->tid);
	} else {
		rl_jw_field_str(w, "region", 1, row->region);
		rl_jw_field_u64(w, "n_threads", 0, row->n_threads);
	}
	rl_jw_field_u64(w, "calls", 0, row->calls);
	if (row->depth > 1) /* recursion: the deepest, calls open at once */
		rl_jw_field_u64(w, "depth", 0, row->depth);
	put_num(w, "time_s", row->time_s);
	put_num(w, "mpi_s", rl_row_mpi_s(row)); /* time in MPI calls */
	put_num(w, "flops", row->flops);
	put_num(w, "flops_f64", row->flops_f64);
	put_num(w, "flops_f32", row->flops_f32);
	put_str(w, "precision", row->precision);
	put_num(w, "dram_read_bytes", row->dram_read_bytes);
	put_num(w, "dram_write_bytes", row->dram_write_bytes);
	put_num(w, "dram_bytes", row->dram_bytes);
	put_levels(w, "level_bytes", row->level_bytes);
	put_num(w, "ai", row->ai);
	put_levels(w, "level_ai", row->level_ai);
	put_num(w, "flops_expected", row->flops_expected);
	put_num(w, "bytes_expected", row->bytes_expected);
	put_num(w, "ai_expected", row->ai_expected);
	put_num(w, "gflops", row->gflops);
	put_num(w, "gbs", row->gbs);
	put_num(w, "gflops_expected", row->gflops_expected);
	put_str(w, "bound", bound_word(row->bound));
	put_str(w, "basis", basis_word(row->basis));
	put_str(w, "bound_roof", row->bound_roof);
	put_num(w, "roof_gflops", row->roof_gflops);
	put_num(w, "roof_pct", row->roof_pct);
	put_str(w, "roof", row->roof_label);
	put_num(w, "roof_gbs", row->roof_gbs);
	if (row->roof_threads)
		rl_jw_field_u64(w, "roof_threads", 0, row->roof_threads);
	if (row->data_movement) { /* no flops: roof_pct is of GB/s */
		rl_jw_key(w, "data_movement", 0);
		rl_jw_raw(w, "true");
	}
	if (row->repeat_runs > 1) { /* rlprof run --repeat */
		rl_jw_key(w, "repeat", 0);
		rl_jw_raw(w, "{");
		rl_jw_field_u64(w, "runs", 1, row->repeat_runs);
		put_num(w, "time_min_s", row->time_min_s);
		put_num(w, "time_median_s", row->time_median_s);
		put_num(w, "spread_pct", row->time_spread_pct);
		if (row->repeat_times_s) { /* each run's, for the gate's test */
			rl_jw_key(w, "times_s", 0);
			rl_jw_raw(w, "[");
			for (unsigned k = 0; k < row->repeat_n_times; k++) {
				if (k)
					rl_jw_raw(w, ",");
				if (isfinite(row->repeat_times_s[k]))
					rl_jw_real(w, row->repeat_times_s[k],
						   REAL_DIGITS);
				else
					rl_jw_raw(w, "null");
			}
			rl_jw_raw(w, "]");
		}
		put_interval(w, row);
		rl_jw_raw(w, "}");
	}
	put_levels(w, "write_share", row->write_frac);
	put_str(w, "ceiling", row->ceiling);
	put_num(w, "ceiling_gflops", row->ceiling_gflops);
	if (row->code_width)
		rl_jw_field_u64(w, "flops_width_bits", 0, row->code_width);
	put_num(w, "fma_share", row->fma_share);
	if (row->check) {
		rl_jw_key(w, "check", 0);
		put_check(w, row);
	}
	put_num(w, "scaled_ratio", row->scaled_ratio);
	rl_trust_jw_row(w, row);
	if (!sum || differs(sum->method, row->method))
		put_str(w, "method", row->method);
	if (!sum || differs(sum->diagnosis, row->diagnosis))
		put_str(w, "diagnosis", row->diagnosis);
	put_flag(w, "has_system_wide", row->has_system_wide);
	put_flag(w, "has_proxy", row->has_proxy);
	put_flag(w, "simulated", row->simulated);
	put_flag(w, "time_native", row->time_native);
	if (row->loop) /* rlprof run --loops: a hot loop (report_loops.c) */
		put_loop(w, row, sum);
}

static json_t *machine_json(const struct rl_machine *m)
{
	json_t *o, *bw, *cp;

	if (!m)
		return json_null();
	o = json_object();
	json_object_set_new(o, "cpu_model", str(m->cpu_model));
	json_object_set_new(o, "isa", str(m->isa));
	json_object_set_new(o, "cores", json_integer(m->cores));
	json_object_set_new(o, "clock_ghz", m->clock_ghz > 0
						    ? json_real(m->clock_ghz)
						    : json_null());
	json_object_set_new(o, "probed_at", str(m->probed_at));
	json_object_set_new(o, "quick", json_boolean(m->quick));
	json_object_set_new(o, "loadavg1", num(m->loadavg1 >= 0 &&
							 (m->loadavg1 > 0 ||
							  m->n_levels)
						       ? m->loadavg1 : NAN));
	bw = json_array();
	for (size_t i = 0; i < m->n_bw; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		json_t *e = json_object();
		json_object_set_new(e, "level", str(b->level));
		json_object_set_new(e, "threads", json_integer(b->threads));
		json_object_set_new(e, "stream_gbs", num(b->stream_gbs));
		json_object_set_new(e, "moved_gbs", num(b->moved_gbs));
		json_object_set_new(e, "nt_gbs", b->nt_gbs > 0
							 ? json_real(b->nt_gbs)
							 : json_null());
		json_object_set_new(e, "read_gbs", num(b->read_gbs > 0
							   ? b->read_gbs : NAN));
		json_object_set_new(e, "write_gbs", num(b->write_gbs > 0
							    ? b->write_gbs
							    : NAN));
		json_object_set_new(e, "write_nt_gbs",
				    num(b->write_nt_gbs > 0 ? b->write_nt_gbs
							    : NAN));
		json_object_set_new(e, "update_gbs",
				    num(b->update_gbs > 0 ? b->update_gbs
							  : NAN));
		json_object_set_new(e, "method", str(b->method));
		json_array_append_new(bw, e);
	}
	json_object_set_new(o, "bandwidth", bw);
	cp = json_array();
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		json_t *e = json_object();
		json_object_set_new(e, "name", str(c->name));
		json_object_set_new(e, "kind", str(c->kind));
		json_object_set_new(e, "precision", str(c->precision));
		json_object_set_new(e, "threads", json_integer(c->threads));
		json_object_set_new(e, "gflops", num(c->gflops));
		json_object_set_new(e, "width_bits", c->width_bits
							     ? json_integer(
								       c->width_bits)
							     : json_null());
		json_object_set_new(e, "fma", c->width_bits
						      ? json_boolean(c->fma)
						      : json_null());
		json_object_set_new(e, "method", str(c->method));
		json_array_append_new(cp, e);
	}
	json_object_set_new(o, "compute", cp);
	cp = json_array();
	for (size_t i = 0; i < m->n_levels && i < RL_MACHINE_MAX_LEVELS; i++) {
		const struct rl_cache_level *l = &m->levels[i];
		json_t *e = json_object();
		json_object_set_new(e, "level", str(l->level));
		json_object_set_new(e, "claimed_bytes",
				    l->claimed_bytes ? json_integer((json_int_t)
								l->claimed_bytes)
						     : json_null());
		json_object_set_new(e, "effective_bytes",
				    l->effective_bytes
					    ? json_integer((json_int_t)
								   l->effective_bytes)
					    : json_null());
		json_object_set_new(e, "effective_all_bytes",
				    l->effective_all_bytes
					    ? json_integer((json_int_t)l
								   ->effective_all_bytes)
					    : json_null());
		json_array_append_new(cp, e);
	}
	json_object_set_new(o, "levels", cp);
	return o;
}

/* rlprof run --count-with: the counted build and the timed build's
 * ISA (null when unknown), its FMA and where the ISA came from; null when
 * the run was not one */
static json_t *count_with_json(const struct rl_report *r)
{
	json_t *o;

	if (!r->count_with || !(o = json_object()))
		return json_null();
	json_object_set_new(o, "counted_build", str(r->counted_build));
	json_object_set_new(o, "timed_isa", str(r->timed_isa));
	json_object_set_new(o, "timed_no_fma", json_boolean(r->timed_no_fma));
	json_object_set_new(o, "timed_isa_source", str(r->timed_isa_source));
	return o;
}

/* rlprof run --loops: which loops are rows, and where the run's sampled
 * time went (the rule's whole: every sample); null without loops. */
static json_t *loops_json(const struct rl_report *r)
{
	const struct rl_loop_time *t = &r->loops_time;
	bool st = t->samples && t->period_s > 0;
	json_t *o, *part;

	if (!r->loops_rule || !(o = json_object()))
		return json_null();
	json_object_set_new(o, "rule", str(r->loops_rule));
	json_object_set_new(o, "samples", st ? json_integer((json_int_t)t->samples)
					     : json_null());
	json_object_set_new(o, "period_s", st ? json_real(t->period_s)
					      : json_null());
	json_object_set_new(o, "cpu_s", st ? json_real((double)t->samples *
						       t->period_s)
					   : json_null());
	for (int k = 0; k < 2; k++) {
		uint64_t n = k ? t->other : t->outside;
		part = json_object();
		json_object_set_new(part, "samples", st ? json_integer((json_int_t)n)
						       : json_null());
		json_object_set_new(part, "time_s", st ? json_real((double)n *
								  t->period_s)
						      : json_null());
		json_object_set_new(part, "share_pct",
				    st ? json_real(100.0 * (double)n /
						   (double)t->samples)
				       : json_null());
		json_object_set_new(o, k ? "other_code" : "outside_loops", part);
	}
	return o;
}

static json_t *report_json(const struct rl_report *r)
{
	json_t *doc = json_object(), *cnt = json_array(), *warn = json_array();

	json_object_set_new(doc, "format", json_string("rlprof-report"));
	json_object_set_new(doc, "version", json_integer(r->version));
	json_object_set_new(doc, "backend", str(r->backend));
	json_object_set_new(doc, "backend_reason", str(r->backend_reason));
	json_object_set_new(doc, "backend_note", str(r->backend_note));
	json_object_set_new(doc, "command", str(r->command));
	json_object_set_new(doc, "exit_status",
			    r->exit_status >= 0 ? json_integer(r->exit_status)
						: json_null());
	json_object_set_new(doc, "machine", machine_json(r->machine));
	json_object_set_new(doc, "count_with", count_with_json(r));
	if (r->selftest) /* the known-answer check of a counted run */
		json_object_set_new(doc, "selftest",
				    rl_selftest_json(r->selftest));
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		json_t *e;
		if (!(r->provided & (UINT64_C(1) << c)))
			continue;
		e = json_object();
		json_object_set_new(e, "name", json_string(rl_counter_name(c)));
		json_object_set_new(e, "unit", json_string(rl_counter_unit(c)));
		json_object_set_new(e, "scope",
				    json_string(rl_scope_name(r->scope[c])));
		json_object_set_new(e, "method", str(r->method[c]));
		json_array_append_new(cnt, e);
	}
	json_object_set_new(doc, "counters", cnt);
	/* written one region at a time by render_json (the regions of a
	 * large run would make the whole tree gigabytes) */
	json_object_set_new(doc, "regions", json_null());
	/* written with the regions (one writer for a finding) */
	json_object_set_new(doc, "checks", json_null());
	json_object_set_new(doc, "mpi", rl_ranks_json(r));
	if (r->loops_rule) /* rlprof run --loops */
		json_object_set_new(doc, "loops", loops_json(r));
	for (size_t i = 0; i < r->n_warnings; i++) {
		const struct rl_warning *w = &r->warnings[i];
		json_t *e = json_object();
		json_object_set_new(e, "kind", str(w->kind));
		json_object_set_new(e, "region", str(w->region));
		json_object_set_new(e, "tid", w->tid ? json_integer(
							       (json_int_t)w->tid)
						     : json_null());
		json_object_set_new(e, "message", str(w->message));
		json_array_append_new(warn, e);
	}
	json_object_set_new(doc, "warnings", warn);
	return doc;
}

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

static int file_sink(void *ctx, const char *p, size_t n)
{
	return fwrite(p, 1, n, ctx) == n ? 0 : -1;
}

/* "regions": one summed row at a time, each with its threads, one line
 * each */
static void put_regions(struct rl_jw *w, const struct rl_report *r)
{
	rl_jw_raw(w, r->n_summed ? "[\n    " : "[]");
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		put_row(w, row, NULL);
		rl_jw_raw(w, ",\"threads\":[");
		for (size_t k = row->thread_first;
		     k < row->thread_first + row->thread_count; k++) {
			struct rl_region_row buf;
			rl_jw_raw(w, k > row->thread_first ? "," : "");
			put_row(w, rl_report_row(r, k, &buf), row);
			rl_jw_raw(w, "}");
		}
		rl_jw_raw(w, "]");
		rl_scope_jw_add(w, r, i);
		rl_jw_raw(w, i + 1 < r->n_summed ? "},\n    " : "}\n  ]");
	}
}

/* "checks": the finding of every region that has one */
static void put_checks(struct rl_jw *w, const struct rl_report *r)
{
	int n = 0;

	rl_jw_raw(w, "[");
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		if (row->check) {
			rl_jw_raw(w, n++ ? ",\n    " : "\n    ");
			put_check(w, row);
		}
	}
	rl_jw_raw(w, n ? "\n  ]" : "]");
}

/* The text from *at up to the placeholder "\n  \"KEY\": null", then
 * what put writes in place of its null; *at moves past it. 0, or -1 when
 * the placeholder is missing. */
static int splice(struct rl_jw *w, const char **at, const char *key,
		  void (*put)(struct rl_jw *, const struct rl_report *),
		  const struct rl_report *r)
{
	char mark[64];
	const char *p;

	snprintf(mark, sizeof mark, "\n  \"%s\": null", key);
	if (!(p = strstr(*at, mark)))
		return -1;
	p += strlen(mark) - strlen("null");
	rl_jw_mem(w, *at, (size_t)(p - *at));
	put(w, r);
	*at = p + strlen("null");
	return 0;
}

static int render_json(FILE *out, const struct rl_report *r,
		       const struct rl_render_options *opt, char *err,
		       size_t errlen)
{
	json_t *doc = report_json(r);
	struct rl_jw *w;
	const char *at;
	char *text;
	int rc;

	(void)opt;
	if (!doc)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	text = json_dumps(doc, DUMP_FLAGS);
	json_decref(doc);
	if (!text || !(w = malloc(sizeof *w))) {
		free(text);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	/* the document around its regions and checks, which are streamed
	 * in place of their nulls (a string never holds a raw newline, so
	 * the placeholders are the keys) */
	rl_jw_init(w, file_sink, out);
	at = text;
	rc = splice(w, &at, "regions", put_regions, r) ||
	     splice(w, &at, "checks", put_checks, r);
	rl_jw_raw(w, at);
	rl_jw_raw(w, "\n");
	rl_jw_flush(w);
	rc = rc || w->failed || ferror(out);
	free(w);
	free(text);
	if (rc)
		return rl_fail(err, errlen, RL_EIO,
			       "cannot write the json report");
	return 0;
}

const struct rl_renderer rl_renderer_json = {"json", "report.json",
					     render_json};
