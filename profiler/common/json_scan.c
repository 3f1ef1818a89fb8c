/* A JSON value's extent in a text, not decoded (json_scan.h). */
#include <string.h>

#include "common/json_scan.h"

size_t rl_json_skip_ws(const char *t, size_t len, size_t at)
{
	while (at < len &&
	       (t[at] == ' ' || t[at] == '\t' || t[at] == '\n' || t[at] == '\r'))
		at++;
	return at;
}

int rl_json_line_of(const char *t, size_t at, int *column)
{
	int line = 1;
	const char *start = t;

	for (const char *p = t; (p = memchr(p, '\n', (size_t)(t + at - p)));
	     p++) {
		line++;
		start = p + 1;
	}
	if (column)
		*column = (int)(t + at - start) + 1;
	return line;
}

size_t rl_json_string_end(const char *t, size_t len, size_t at)
{
	for (at++; at < len;) {
		const char *q = memchr(t + at, '"', len - at);
		size_t k, bs = 0;

		if (!q)
			return 0;
		k = (size_t)(q - t);
		while (k - bs > at && t[k - bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			return k + 1;
		at = k + 1;
	}
	return 0;
}

size_t rl_json_value_end(const char *t, size_t len, size_t at)
{
	size_t depth = 0;

	if (at >= len)
		return 0;
	if (t[at] != '{' && t[at] != '[' && t[at] != '"') {
		for (; at < len; at++)
			switch (t[at]) {
			case ',': case '}': case ']':
			case ' ': case '\t': case '\n': case '\r':
				return at;
			}
		return at;
	}
	for (; at < len; at++) {
		switch (t[at]) {
		case '"':
			if (!(at = rl_json_string_end(t, len, at)))
				return 0;
			if (depth == 0)
				return at;
			at--;
			break;
		case '{': case '[':
			depth++;
			break;
		case '}': case ']':
			if (depth == 0)
				return 0;
			if (--depth == 0)
				return at + 1;
		}
	}
	return 0;
}

size_t rl_json_members(const char *t, size_t len, size_t at,
		       rl_json_member_fn *fn, void *ctx)
{
	at = rl_json_skip_ws(t, len, at + 1);
	if (at < len && t[at] == '}')
		return at + 1;
	while (at < len && t[at] == '"') {
		size_t k = at, kend = rl_json_string_end(t, len, at), v, vend;
		if (!kend)
			return 0;
		v = rl_json_skip_ws(t, len, kend);
		if (v >= len || t[v] != ':')
			return 0;
		v = rl_json_skip_ws(t, len, v + 1);
		if (!(vend = rl_json_value_end(t, len, v)) ||
		    fn(ctx, t, k, kend, v, vend))
			return 0;
		at = rl_json_skip_ws(t, len, vend);
		if (at < len && t[at] == '}')
			return at + 1;
		if (at >= len || t[at] != ',')
			return 0;
		at = rl_json_skip_ws(t, len, at + 1);
	}
	return 0;
}
