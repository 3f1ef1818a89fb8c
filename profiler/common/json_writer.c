/* JSON into a buffer and a sink, no allocation (json_writer.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/json_writer.h"
#include "common/utf8.h"

void rl_jw_init(struct rl_jw *w, int (*sink)(void *, const char *, size_t),
		void *ctx)
{
	w->sink = sink;
	w->ctx = ctx;
	w->failed = 0;
	w->len = 0;
}

void rl_jw_flush(struct rl_jw *w)
{
	if (w->len && !w->failed && w->sink(w->ctx, w->buf, w->len) != 0)
		w->failed = 1;
	w->len = 0;
}

void rl_jw_mem(struct rl_jw *w, const char *s, size_t n)
{
	while (n > 0) {
		if (w->len == sizeof w->buf)
			rl_jw_flush(w);
		size_t k = sizeof w->buf - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
	}
}

void rl_jw_raw(struct rl_jw *w, const char *s)
{
	rl_jw_mem(w, s, strlen(s));
}


/* Above INT64_MAX a JSON reader (jansson) has no integer for it: written
 * as a real then. */
void rl_jw_u64(struct rl_jw *w, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX) {
		rl_jw_double(w, (double)v);
		return;
	}
	char tmp[24];
	size_t i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rl_jw_mem(w, tmp + i, sizeof tmp - i);
}

void rl_jw_i64(struct rl_jw *w, int64_t v)
{
	if (v < 0) {
		rl_jw_mem(w, "-", 1);
		rl_jw_u64(w, (uint64_t)0 - (uint64_t)v);
	} else {
		rl_jw_u64(w, (uint64_t)v);
	}
}

/* Integral values print exactly as integers; others with 17 significant
 * digits (snprintf of %g needs no malloc for a double's range in glibc). */
void rl_jw_double(struct rl_jw *w, double d)
{
	if (!isfinite(d)) {
		rl_jw_raw(w, "null");
		return;
	}
	if (d == floor(d) && fabs(d) < 9.007199254740992e15) {
		rl_jw_i64(w, (int64_t)d);
		return;
	}
	char tmp[40];
	int n = snprintf(tmp, sizeof tmp, "%.17g", d);
	if (n > 0 && (size_t)n < sizeof tmp)
		rl_jw_mem(w, tmp, (size_t)n);
	else
		rl_jw_raw(w, "null");
}

void rl_jw_real(struct rl_jw *w, double d, int digits)
{
	char tmp[48];
	int n;

	if (!isfinite(d)) {
		rl_jw_raw(w, "null");
		return;
	}
	n = snprintf(tmp, sizeof tmp - 2, "%.*g", digits, d);
	if (n <= 0 || (size_t)n >= sizeof tmp - 2) {
		rl_jw_raw(w, "null");
		return;
	}
	if (!strpbrk(tmp, ".e")) {
		memcpy(tmp + n, ".0", 2);
		n += 2;
	}
	rl_jw_mem(w, tmp, (size_t)n);
}

/* The bytes at the start of s written as they are: printable ASCII but
 * the quote, the backslash and < > &. */
static size_t plain_run(const unsigned char *s, size_t n)
{
	size_t k = 0;

	while (k < n && s[k] >= 0x20 && s[k] < 0x7f && s[k] != '"' &&
	       s[k] != '\\' && s[k] != '<' && s[k] != '>' && s[k] != '&')
		k++;
	return k;
}

void rl_jw_str(struct rl_jw *w, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s);
	rl_jw_mem(w, "\"", 1);
	while (n > 0) {
		unsigned c = s[0];
		size_t k = plain_run(s, n);
		if (k) { /* most text: copied as it is, a run at a time */
			rl_jw_mem(w, (const char *)s, k);
			s += k, n -= k;
			continue;
		}
		unsigned cp;
		k = rl_utf8_decode(s, &cp);
		if (k == 0) {
			rl_jw_raw(w, "\\ufffd");
			s++, n--;
			continue;
		}
		if (k > 1) {
			rl_jw_mem(w, (const char *)s, k);
			s += k, n -= k;
			continue;
		}
		switch (c) {
		case '"':
			rl_jw_raw(w, "\\\"");
			break;
		case '\\':
			rl_jw_raw(w, "\\\\");
			break;
		case '\n':
			rl_jw_raw(w, "\\n");
			break;
		case '\t':
			rl_jw_raw(w, "\\t");
			break;
		case '\r':
			rl_jw_raw(w, "\\r");
			break;
		default:
			if (c < 0x20 || c == 0x7f || c == '<' || c == '>' ||
			    c == '&') {
				char e[6] = {'\\', 'u', '0', '0', hex[c >> 4],
					     hex[c & 15]};
				rl_jw_mem(w, e, sizeof e);
			} else {
				rl_jw_mem(w, (const char *)s, 1);
			}
		}
		s++, n--;
	}
	rl_jw_mem(w, "\"", 1);
}

void rl_jw_key(struct rl_jw *w, const char *key, int first)
{
	if (!first)
		rl_jw_mem(w, ",", 1);
	rl_jw_str(w, key);
	rl_jw_mem(w, ":", 1);
}

void rl_jw_field_u64(struct rl_jw *w, const char *key, int first, uint64_t v)
{
	rl_jw_key(w, key, first);
	rl_jw_u64(w, v);
}

void rl_jw_field_double(struct rl_jw *w, const char *key, int first, double v)
{
	rl_jw_key(w, key, first);
	rl_jw_double(w, v);
}

void rl_jw_field_str(struct rl_jw *w, const char *key, int first,
			 const char *v)
{
	rl_jw_key(w, key, first);
	rl_jw_str(w, v);
}
