/*
 * JSON renderer: one document built with jansson (which escapes every
 * string), numbers as numbers; in the regions an unmeasured figure is left
 * out (version 1 wrote null), elsewhere it is null. Schema
 * "rlprof-report" version RL_REPORT_VERSION, documented in README.md.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "render_ranks.h"
#include "rl_error.h"
#include "term_text.h"

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

/* A region's figures (version 2): what was not measured, or does not
 * apply, is left out instead of written null, and a flag only when true:
 * at 10^5 regions the nulls were most of a 300 MB report.json. */
static void set_num(json_t *o, const char *key, double x)
{
	if (rl_known(x) && isfinite(x))
		json_object_set_new(o, key, json_real(x));
}

static void set_str(json_t *o, const char *key, const char *s)
{
	if (s)
		json_object_set_new(o, key, str(s));
}

static void set_flag(json_t *o, const char *key, bool b)
{
	if (b)
		json_object_set_new(o, key, json_true());
}

/* {"L1": x, ...} with the known levels, left out when none is */
static void set_levels(json_t *o, const char *key, const double *v)
{
	json_t *l = NULL;

	for (int k = 0; k < RL_LEVELS; k++) {
		if (!rl_known(v[k]) || !isfinite(v[k]))
			continue;
		if (!l)
			l = json_object();
		json_object_set_new(l, level_keys[k], json_real(v[k]));
	}
	if (l)
		json_object_set_new(o, key, l);
}

/* The self-check finding of a row. */
static json_t *check_json(const struct rl_region_row *row)
{
	json_t *o = json_object();

	set_str(o, "region", row->region);
	set_str(o, "cause", row->check_cause);
	set_str(o, "roof", row->roof_label);
	set_num(o, "roof_pct", row->roof_pct);
	set_str(o, "message", row->check);
	return o;
}

/* A summed row (sum NULL), or a thread's row of the summed row sum: the
 * region's name is the summed row's, and its method and diagnosis are
 * written only where they differ from the summed row's. */
static json_t *row_json(const struct rl_region_row *row,
			const struct rl_region_row *sum)
{
	json_t *o = json_object();

	if (sum) {
		json_object_set_new(o, "pid", json_integer(row->pid));
		json_object_set_new(o, "tid", json_integer((json_int_t)row->tid));
	} else {
		set_str(o, "region", row->region);
		json_object_set_new(o, "n_threads",
				    json_integer(row->n_threads));
	}
	json_object_set_new(o, "calls", json_integer((json_int_t)row->calls));
	set_num(o, "time_s", row->time_s);
	set_num(o, "flops", row->flops);
	set_num(o, "flops_f64", row->flops_f64);
	set_num(o, "flops_f32", row->flops_f32);
	set_str(o, "precision", row->precision);
	set_num(o, "dram_read_bytes", row->dram_read_bytes);
	set_num(o, "dram_write_bytes", row->dram_write_bytes);
	set_num(o, "dram_bytes", row->dram_bytes);
	set_levels(o, "level_bytes", row->level_bytes);
	set_num(o, "ai", row->ai);
	set_levels(o, "level_ai", row->level_ai);
	set_num(o, "flops_expected", row->flops_expected);
	set_num(o, "bytes_expected", row->bytes_expected);
	set_num(o, "ai_expected", row->ai_expected);
	set_num(o, "gflops", row->gflops);
	set_num(o, "gbs", row->gbs);
	set_num(o, "gflops_expected", row->gflops_expected);
	set_str(o, "bound", bound_word(row->bound));
	set_str(o, "basis", basis_word(row->basis));
	set_str(o, "bound_roof", row->bound_roof);
	set_num(o, "roof_gflops", row->roof_gflops);
	set_num(o, "roof_pct", row->roof_pct);
	set_str(o, "roof", row->roof_label);
	set_num(o, "roof_gbs", row->roof_gbs);
	set_levels(o, "write_share", row->write_frac);
	set_str(o, "ceiling", row->ceiling);
	set_num(o, "ceiling_gflops", row->ceiling_gflops);
	if (row->code_width)
		json_object_set_new(o, "flops_width_bits",
				    json_integer(row->code_width));
	set_num(o, "fma_share", row->fma_share);
	if (row->check)
		json_object_set_new(o, "check", check_json(row));
	set_num(o, "scaled_ratio", row->scaled_ratio);
	if (!sum || !sum->method || !row->method ||
	    strcmp(sum->method, row->method) != 0)
		set_str(o, "method", row->method);
	if (!sum || !sum->diagnosis || !row->diagnosis ||
	    strcmp(sum->diagnosis, row->diagnosis) != 0)
		set_str(o, "diagnosis", row->diagnosis);
	set_flag(o, "has_system_wide", row->has_system_wide);
	set_flag(o, "has_proxy", row->has_proxy);
	set_flag(o, "simulated", row->simulated);
	set_flag(o, "time_native", row->time_native);
	return o;
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
	{
		json_t *checks = json_array();
		for (size_t i = 0; i < r->n_summed; i++)
			if (r->rows[i].check)
				json_array_append_new(checks,
						      check_json(&r->rows[i]));
		json_object_set_new(doc, "checks", checks);
	}
	json_object_set_new(doc, "mpi", rl_ranks_json(r));
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
/* a region with its threads on one line (indent 0: ", " and ": " between
 * items, no newline): at 10^5 regions the indented form was 457 MB and
 * most of report.json's time */
#define ROW_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

/* json_dump_callback output gathered in buf and written in large pieces:
 * jansson calls back once per token, and a stdio call per token was a
 * third of report.json's time at 10^5 regions. */
struct gathered {
	FILE *out;
	size_t used;
	int failed;
	char buf[1 << 16];
};

static void flush_gathered(struct gathered *io)
{
	if (io->used && fwrite(io->buf, 1, io->used, io->out) != io->used)
		io->failed = 1;
	io->used = 0;
}

static int put_bytes(const char *p, size_t n, void *data)
{
	struct gathered *io = data;
	if (io->used + n > sizeof io->buf)
		flush_gathered(io);
	if (n > sizeof io->buf) {
		if (fwrite(p, 1, n, io->out) != n)
			io->failed = 1;
		return io->failed ? -1 : 0;
	}
	memcpy(io->buf + io->used, p, n);
	io->used += n;
	return io->failed ? -1 : 0;
}

/* "regions": one summed row at a time, each with its threads, one line
 * each */
static int put_regions(FILE *out, const struct rl_report *r)
{
	struct gathered *io = malloc(sizeof *io);
	int rc = 0;

	if (!io)
		return -1;
	io->out = out;
	io->used = 0;
	io->failed = 0;
	put_bytes(r->n_summed ? "[\n    " : "[]", 2 + 4 * !!r->n_summed, io);
	for (size_t i = 0; i < r->n_summed && !rc; i++) {
		const struct rl_region_row *row = &r->rows[i];
		json_t *o = row_json(row, NULL), *th = json_array();
		for (size_t k = row->thread_first;
		     k < row->thread_first + row->thread_count; k++)
			json_array_append_new(th, row_json(&r->rows[k], row));
		json_object_set_new(o, "threads", th);
		rl_scope_json_add(o, r, i);
		rc = json_dump_callback(o, put_bytes, io, ROW_FLAGS);
		json_decref(o);
		if (i + 1 < r->n_summed)
			put_bytes(",\n    ", 6, io);
		else
			put_bytes("\n  ]", 4, io);
	}
	flush_gathered(io);
	rc = rc || io->failed ? -1 : 0;
	free(io);
	return rc;
}

static int render_json(FILE *out, const struct rl_report *r,
		       const struct rl_render_options *opt, char *err,
		       size_t errlen)
{
	static const char key[] = "\n  \"regions\": null";
	json_t *doc = report_json(r);
	char *text, *at;
	int rc = -1;

	(void)opt;
	if (!doc)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	text = json_dumps(doc, DUMP_FLAGS);
	json_decref(doc);
	if (!text)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	/* the document around its regions, which are streamed in between
	 * (a string never holds a raw newline, so this is the key) */
	at = strstr(text, key);
	if (at) {
		at += sizeof key - 1 - strlen("null");
		rc = fwrite(text, 1, (size_t)(at - text), out) !=
				     (size_t)(at - text) ||
		     put_regions(out, r) < 0 ||
		     fputs(at + strlen("null"), out) == EOF;
	}
	free(text);
	if (rc != 0 || fputc('\n', out) == EOF || ferror(out))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot write the json report");
	return 0;
}

const struct rl_renderer rl_renderer_json = {"json", "report.json",
					     render_json};
