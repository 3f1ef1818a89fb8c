/* Text escaped for a terminal (profiler/common/term_text.c). */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "common/term_text.h"

static void expect_cut(const char *in, const char *want)
{
	char buf[256];

	rl_term_cut(buf, sizeof buf, in, 100);
	cr_expect_str_eq(buf, want, "'%s' shown as '%s', not '%s'", in, buf,
			 want);
}

Test(term_text, controls_are_escaped)
{
	expect_cut("a\x1b[31mb", "a\\x1b[31mb");
	expect_cut("a\xc2\x9b" "31m", "a\\u009b31m"); /* C1 CSI, UTF-8 */
	expect_cut("a\x9b" "31m", "a\\x9b31m");       /* C1 CSI, raw byte */
	expect_cut("tab\there", "tab\\there");
}

/* U+202E reversed the rest of a table row. */
Test(term_text, bidi_controls_are_escaped)
{
	expect_cut("x\xe2\x80\xae" "y", "x\\u202ey");  /* RLO */
	expect_cut("x\xe2\x80\xaa" "y", "x\\u202ay");  /* LRE */
	expect_cut("x\xe2\x81\xa6" "y", "x\\u2066y");  /* LRI */
	expect_cut("x\xe2\x81\xa9" "y", "x\\u2069y");  /* PDI */
	expect_cut("x\xe2\x80\x8f" "y", "x\\u200fy");  /* RLM */
	expect_cut("caf\xc3\xa9", "caf\xc3\xa9");      /* not a control */
	cr_expect_eq(rl_term_width("x\\u202ey"), 8);
}

Test(term_text, utf8_fix_replaces_invalid_bytes)
{
	char *s = rl_utf8_fix("a\x9b" "b\xc3\xa9");

	cr_assert_not_null(s);
	cr_expect_str_eq(s, "a\xef\xbf\xbd" "b\xc3\xa9");
	free(s);
	cr_expect_null(rl_utf8_fix(NULL));
}

/* Printable ASCII goes out in runs; what follows a run is still escaped,
 * and a cut still ends in an ellipsis. */
Test(term_text, plain_runs_mixed_with_escapes)
{
	char buf[64], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	rl_term_put(f, "ab\x1b" "cd\xc3\xa9" "ef\x01");
	rl_term_put(f, "");
	rl_term_put(f, NULL);
	rl_term_put(f, "plain");
	fclose(f);
	cr_expect_str_eq(text, "ab\\x1bcd\xc3\xa9" "ef\\x01plain");
	free(text);
	cr_expect_eq(rl_term_width("ab\x1b" "cd\xc3\xa9"), 9);
	cr_expect_eq(rl_term_width("region000001"), 12);
	cr_expect_eq(rl_term_cut(buf, sizeof buf, "region000001", 6), 6);
	cr_expect_str_eq(buf, "regio\xe2\x80\xa6");
	cr_expect_eq(rl_term_cut(buf, sizeof buf, "region000001", 12), 12);
	cr_expect_str_eq(buf, "region000001");
	/* a buffer too small: cut to what fits with the ellipsis */
	cr_expect_eq(rl_term_cut(buf, 5, "region", 40), 2);
	cr_expect_str_eq(buf, "r\xe2\x80\xa6");
}

static char *wrapped(const char *s, size_t col, size_t width)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	rl_term_wrap(f, s, col, width, 4);
	fclose(f);
	return text;
}

/* Prose (a diagnosis) wrapped at word boundaries to the width, the
 * continuation indented; escapes kept; a word longer than a line whole on
 * its own; width 0 leaves it one line. */
Test(term_text, wrap_at_words)
{
	char *t = wrapped("raise AI: tiling, fusion, smaller types", 6, 20);
	cr_expect_str_eq(t, "raise AI:\n    tiling, fusion,\n    smaller types");
	free(t);
	t = wrapped("ab \x1b[31m b", 5, 10);
	cr_expect_str_eq(t, "ab\n    \\x1b[31m\n    b");
	free(t);
	t = wrapped("short", 90, 100);
	cr_expect_str_eq(t, "short");
	free(t);
	t = wrapped("one two three", 0, 0);
	cr_expect_str_eq(t, "one two three");
	free(t);
}
