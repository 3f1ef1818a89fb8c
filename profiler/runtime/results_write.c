/*
 * rl_results_write_fd(): one struct rl_process_results as a JSON document
 * (schema "rlprof-results" version 2, documented in README.md).
 *
 * Runs from a fatal-signal handler too, so: libc only, no malloc, no stdio
 * streams. Output goes through a buffer on the stack and write(2). Strings
 * are escaped for JSON (quote, backslash, control characters, and < > &
 * so the text may sit inside HTML); bytes that are not valid UTF-8 become
 * U+FFFD. Numbers are written as numbers; a non-finite double as null.
 */
#include "results.h"
#include "rl_error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct jw {
	int fd;
	int failed;
	size_t len;
	char buf[4096];
};

static void jw_flush(struct jw *w)
{
	size_t off = 0;
	while (off < w->len && !w->failed) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->failed = 1;
		else
			off += (size_t)n;
	}
	w->len = 0;
}

static void jw_mem(struct jw *w, const char *s, size_t n)
{
	while (n > 0) {
		if (w->len == sizeof w->buf)
			jw_flush(w);
		size_t k = sizeof w->buf - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
	}
}

static void jw_raw(struct jw *w, const char *s)
{
	jw_mem(w, s, strlen(s));
}

static void jw_double(struct jw *w, double d);

/* Above INT64_MAX a JSON reader (jansson) has no integer for it: written
 * as a real then. */
static void jw_u64(struct jw *w, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX) {
		jw_double(w, (double)v);
		return;
	}
	char tmp[24];
	size_t i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	jw_mem(w, tmp + i, sizeof tmp - i);
}

static void jw_i64(struct jw *w, int64_t v)
{
	if (v < 0) {
		jw_mem(w, "-", 1);
		jw_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		jw_u64(w, (uint64_t)v);
	}
}

/* Integral values print exactly as integers; others with 17 significant
 * digits (snprintf of %g needs no malloc for a double's range in glibc). */
static void jw_double(struct jw *w, double d)
{
	if (!isfinite(d)) {
		jw_raw(w, "null");
		return;
	}
	if (d == floor(d) && fabs(d) < 9.007199254740992e15) {
		jw_i64(w, (int64_t)d);
		return;
	}
	char tmp[40];
	int n = snprintf(tmp, sizeof tmp, "%.17g", d);
	if (n > 0 && (size_t)n < sizeof tmp)
		jw_mem(w, tmp, (size_t)n);
	else
		jw_raw(w, "null");
}

/* Length of the valid UTF-8 sequence at s (0 when invalid). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	unsigned cp = c & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void jw_str(struct jw *w, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	jw_mem(w, "\"", 1);
	while (n > 0) {
		unsigned c = s[0];
		size_t k = utf8_len(s, n);
		if (k == 0) {
			jw_raw(w, "\\ufffd");
			s++, n--;
			continue;
		}
		if (k > 1) {
			jw_mem(w, (const char *)s, k);
			s += k, n -= k;
			continue;
		}
		switch (c) {
		case '"':
			jw_raw(w, "\\\"");
			break;
		case '\\':
			jw_raw(w, "\\\\");
			break;
		case '\n':
			jw_raw(w, "\\n");
			break;
		case '\t':
			jw_raw(w, "\\t");
			break;
		case '\r':
			jw_raw(w, "\\r");
			break;
		default:
			if (c < 0x20 || c == 0x7f || c == '<' || c == '>' ||
			    c == '&') {
				char e[6] = {'\\', 'u', '0', '0', hex[c >> 4],
					     hex[c & 15]};
				jw_mem(w, e, sizeof e);
			} else {
				jw_mem(w, (const char *)s, 1);
			}
		}
		s++, n--;
	}
	jw_mem(w, "\"", 1);
}

/* "key": (with a leading comma unless first) */
static void jw_key(struct jw *w, const char *key, int first)
{
	if (!first)
		jw_mem(w, ",", 1);
	jw_str(w, key);
	jw_mem(w, ":", 1);
}

/* "key": value pairs, the comma before all but the first. */
static void jw_field_u64(struct jw *w, const char *key, int first, uint64_t v)
{
	jw_key(w, key, first);
	jw_u64(w, v);
}

static void jw_field_double(struct jw *w, const char *key, int first, double v)
{
	jw_key(w, key, first);
	jw_double(w, v);
}

static void jw_field_str(struct jw *w, const char *key, int first,
			 const char *v)
{
	jw_key(w, key, first);
	jw_str(w, v);
}

static void write_counter_defs(struct jw *w, const struct rl_process_results *r)
{
	int first = 1;
	jw_raw(w, "[");
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(r->provided >> c & 1))
			continue;
		jw_raw(w, first ? "\n  {" : ",\n  {");
		first = 0;
		jw_field_str(w, "name", 1, rl_counter_name((enum rl_counter)c));
		jw_field_str(w, "unit", 0, rl_counter_unit((enum rl_counter)c));
		jw_field_str(w, "scope", 0, rl_scope_name((enum rl_scope)r->scope[c]));
		jw_field_str(w, "method", 0, r->method[c]);
		if (c >= RL_C_EXTRA0 && c < RL_C_EXTRA0 + RL_EXTRA_MAX) {
			jw_field_str(w, "extra_name", 0, r->extra_name[c - RL_C_EXTRA0]);
		}
		jw_raw(w, "}");
	}
	jw_raw(w, "]");
}


/* {"value", "enabled_ns", "running_ns"} of one counter */
static void put_total(struct jw *w, const struct rl_counter_total *t)
{
	jw_raw(w, "{");
	jw_field_u64(w, "value", 1, t->value);
	jw_field_u64(w, "enabled_ns", 0, t->enabled_ns);
	jw_field_u64(w, "running_ns", 0, t->running_ns);
	jw_raw(w, "}");
}

/* "scope" of a region measured in process scope, its counters only when
 * some cover every thread */
static void write_scope(struct jw *w, const struct rl_region_stats *s)
{
	jw_key(w, "scope", 0);
	jw_raw(w, "{");
	jw_field_u64(w, "calls", 1, s->scope_calls);
	jw_field_u64(w, "time_ns", 0, s->scope_time_ns);
	jw_field_u64(w, "cpu_ns", 0, s->scope_cpu_ns);
	jw_field_u64(w, "cpu_unknown_ns", 0, s->scope_cpu_unknown_ns);
	jw_field_u64(w, "threads", 0, s->scope_threads);
	if (!s->scope_all) {
		jw_raw(w, "}");
		return;
	}
	jw_key(w, "all_threads", 0);
	jw_raw(w, "[");
	for (int c = 0, n = 0; c < RL_COUNTER_COUNT; c++)
		if (s->scope_all >> c & 1) {
			jw_raw(w, n++ ? ",\"" : "\"");
			jw_raw(w, rl_counter_name((enum rl_counter)c));
			jw_raw(w, "\"");
		}
	jw_raw(w, "]");
	jw_key(w, "counters", 0);
	jw_raw(w, "{");
	for (int c = 0, n = 0; s->scope_counters && c < RL_COUNTER_COUNT;
	     c++) {
		const struct rl_counter_total *t = &s->scope_counters[c];
		if (!(s->scope_all >> c & 1))
			continue;
		jw_key(w, rl_counter_name((enum rl_counter)c), !n++);
		put_total(w, t);
	}
	jw_raw(w, "}}");
}

static void write_region(struct jw *w, const struct rl_process_results *r,
			 const struct rl_region_stats *s)
{
	jw_raw(w, "{");
	jw_field_str(w, "name", 1, s->name);
	jw_field_u64(w, "calls", 0, s->calls);
	jw_field_u64(w, "time_ns", 0, s->time_ns);
	/* what is 0 (nothing declared, nothing left open, no counter, no
	 * process-scope counter) is left out: the reader's default, and at
	 * 10^5 regions the zeros and empty objects were most of the file
	 * and of the time jansson took to read it back */
	if (s->expect_calls) {
		jw_field_double(w, "expected_flops", 0, s->expected_flops);
		jw_field_double(w, "expected_bytes", 0, s->expected_bytes);
		jw_field_u64(w, "expect_calls", 0, s->expect_calls);
	}
	if (s->open_at_exit)
		jw_field_u64(w, "open_at_exit", 0, s->open_at_exit);
	if (s->scope_calls) /* process scope (rt_scope.h) */
		write_scope(w, s);
	if (!r->provided) {
		jw_raw(w, "}");
		return;
	}
	jw_key(w, "counters", 0);
	jw_raw(w, "{");
	int first = 1;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(r->provided >> c & 1))
			continue;
		jw_key(w, rl_counter_name((enum rl_counter)c), first);
		first = 0;
		/* No "scaled": readers compute it from the sums. A count
		 * known to be unknown (NAN), or never made, is null. */
		if (!s->counters || isnan(s->counters[c].scaled)) {
			jw_raw(w, "null");
			continue;
		}
		put_total(w, &s->counters[c]);
	}
	jw_raw(w, "}}");
}

static void write_threads(struct jw *w, const struct rl_process_results *r)
{
	jw_raw(w, "[");
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct rl_thread_results *t = &r->threads[i];
		jw_raw(w, i ? ",\n  {" : "\n  {");
		jw_field_u64(w, "tid", 1, t->tid);
		jw_field_u64(w, "index", 0, t->index);
		jw_key(w, "regions", 0);
		jw_raw(w, "[");
		for (size_t k = 0; k < t->n_regions; k++) {
			struct rl_counter_total room[RL_COUNTER_COUNT];
			struct rl_region_stats tmp = {.counters = room};
			const struct rl_region_stats *s = &tmp;
			jw_raw(w, k ? ",\n   " : "\n   ");
			if (t->regions)
				s = &t->regions[k];
			else
				t->region_at(t->ctx, k, &tmp);
			write_region(w, r, s);
		}
		jw_raw(w, "]}");
	}
	jw_raw(w, "]");
}

static void write_warnings(struct jw *w, const struct rl_process_results *r)
{
	jw_raw(w, "[");
	for (size_t i = 0; i < r->n_warnings; i++) {
		const struct rl_warning *x = &r->warnings[i];
		jw_raw(w, i ? ",\n  {" : "\n  {");
		jw_field_str(w, "kind", 1, x->kind);
		jw_key(w, "region", 0);
		if (x->region)
			jw_str(w, x->region);
		else
			jw_raw(w, "null");
		jw_field_u64(w, "tid", 0, x->tid);
		jw_field_str(w, "message", 0, x->message);
		jw_raw(w, "}");
	}
	jw_raw(w, "]");
}

int rl_results_write_fd(int fd, const struct rl_process_results *r)
{
	struct jw w;
	w.fd = fd;
	w.failed = 0;
	w.len = 0;

	jw_raw(&w, "{");
	jw_key(&w, "format", 1);
	jw_str(&w, RL_RESULTS_FORMAT);
	jw_key(&w, "version", 0);
	jw_i64(&w, RL_RESULTS_VERSION);
	jw_key(&w, "pid", 0);
	jw_i64(&w, r->pid);
	jw_key(&w, "ppid", 0);
	jw_i64(&w, r->ppid);
	jw_key(&w, "program", 0);
	jw_str(&w, r->program);
	jw_key(&w, "backend", 0);
	jw_str(&w, r->backend);
	jw_key(&w, "backend_note", 0);
	jw_str(&w, r->backend_note);
	jw_key(&w, "start_ns", 0);
	jw_u64(&w, r->start_ns);
	jw_key(&w, "end_ns", 0);
	jw_u64(&w, r->end_ns);
	jw_key(&w, "complete", 0);
	jw_raw(&w, r->complete ? "true" : "false");
	jw_key(&w, "signal", 0);
	jw_i64(&w, r->signal);
	jw_raw(&w, ",\n\"counters\":");
	write_counter_defs(&w, r);
	jw_raw(&w, ",\n\"threads\":");
	write_threads(&w, r);
	jw_raw(&w, ",\n\"warnings\":");
	write_warnings(&w, r);
	jw_raw(&w, "}\n");
	jw_flush(&w);
	return w.failed ? RL_EIO : 0;
}
