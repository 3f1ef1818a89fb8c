/*
 * Finding a JSON value's extent in a text without decoding it: where a
 * reader decodes one part of a large file at a time with jansson
 * (json_loadb with JSON_DISABLE_EOF_CHECK) instead of the whole file as one
 * tree (analysis/report_file.c, results/results_stream.c). Brackets and
 * strings only: jansson decodes what is kept and says what is wrong.
 */
#ifndef RL_JSON_SCAN_H
#define RL_JSON_SCAN_H

#include <stddef.h>

/* JSON's whitespace from at: the position of the next token. */
size_t rl_json_skip_ws(const char *t, size_t len, size_t at);
/* The line of position at in t (1-based) and, into *column when not NULL,
 * its column (1-based, in bytes). */
int rl_json_line_of(const char *t, size_t at, int *column);
/* The end (one past) of the JSON string whose opening quote is t[at]: the
 * first quote after it not escaped; 0 when none. */
size_t rl_json_string_end(const char *t, size_t len, size_t at);
/* The end (one past) of the JSON value at t[at], found by its brackets
 * and strings alone; 0 when it does not end inside t. */
size_t rl_json_value_end(const char *t, size_t len, size_t at);
/* The members of the object whose '{' is t[at]: fn(ctx, t, key, key end,
 * value, value end) for each in turn (the key with its quotes); returns
 * the end (one past the '}'), or 0 when the object's punctuation is not
 * plain or fn returned nonzero (the caller then has jansson decode it,
 * and say what is wrong). */
typedef int rl_json_member_fn(void *ctx, const char *t, size_t k,
			      size_t kend, size_t v, size_t vend);
size_t rl_json_members(const char *t, size_t len, size_t at,
		       rl_json_member_fn *fn, void *ctx);

#endif
