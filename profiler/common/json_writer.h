/*
 * JSON written straight into a buffer and handed to a sink (write(2) in the
 * runtime, a stdio stream in report.json), with no allocation: the
 * runtime's results file is written from a fatal-signal handler too, and
 * report.json's regions at 10^5 regions were mostly a JSON tree built and
 * dumped one region at a time.
 *
 * Strings are escaped for JSON (quote, backslash, control characters, and
 * < > & so the text may sit inside HTML); bytes that are not valid UTF-8
 * become U+FFFD. A non-finite number is written null.
 */
#ifndef RL_JSON_WRITER_H
#define RL_JSON_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct rl_jw {
	/* takes n bytes at p: 0, or -1 when they could not be written */
	int (*sink)(void *ctx, const char *p, size_t n);
	void *ctx;
	int failed;     /* a sink call failed: the rest is dropped */
	size_t len;
	char buf[4096];
};

void rl_jw_init(struct rl_jw *w, int (*sink)(void *, const char *, size_t),
		void *ctx);
void rl_jw_flush(struct rl_jw *w);
void rl_jw_mem(struct rl_jw *w, const char *s, size_t n);
void rl_jw_raw(struct rl_jw *w, const char *s);
void rl_jw_u64(struct rl_jw *w, uint64_t v);
void rl_jw_i64(struct rl_jw *w, int64_t v);
/* Integral values exactly, others with 17 significant digits. */
void rl_jw_double(struct rl_jw *w, double d);
/* With digits significant digits ("%.*g"), always as a real (".0" added
 * to an integral value, as jansson's dump writes reals). */
void rl_jw_real(struct rl_jw *w, double d, int digits);
void rl_jw_str(struct rl_jw *w, const char *s); /* NULL: "" */
/* "key": (with a comma before it unless first) */
void rl_jw_key(struct rl_jw *w, const char *key, int first);
void rl_jw_field_u64(struct rl_jw *w, const char *key, int first,
		     uint64_t v);
void rl_jw_field_double(struct rl_jw *w, const char *key, int first,
			double v);
void rl_jw_field_str(struct rl_jw *w, const char *key, int first,
		     const char *v);

#endif
