/*
 * Text for a terminal (table, --plot, one-line error messages): every
 * control character (C0, DEL, C1), every Unicode bidirectional control
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: they reorder the
 * rest of the line), and every byte that is not valid UTF-8, shown as an
 * escape (\t, \n, \r, \xNN, \u0085, \u202e) so that a user string
 * (a region name, a command line, a file's field) can neither break the
 * alignment nor send a terminal escape sequence. Columns are counted per
 * code point (2 for East Asian wide ones, 0 for combining marks).
 */
#ifndef RL_TERM_TEXT_H
#define RL_TERM_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* s (NULL: "") escaped, into buf (len >= 8, always terminated), at most
 * max_cols columns: when cut, the last column is an ellipsis. Returns the
 * columns written. */
size_t rl_term_cut(char *buf, size_t len, const char *s, size_t max_cols);
/* s escaped, whole, to out. */
void rl_term_put(FILE *out, const char *s);
/* s escaped, to out, its words wrapped at width columns (0: not wrapped)
 * with continuation lines indented by indent; col is where the cursor
 * stands. A word longer than a line stands on its own line whole. */
void rl_term_wrap(FILE *out, const char *s, size_t col, size_t width,
		  size_t indent);
/* Columns of s, an already escaped (valid UTF-8) string. */
size_t rl_term_width(const char *s);
/* Bytes of the valid UTF-8 character at s, 0 when s[0] starts none. */
size_t rl_utf8_seq(const unsigned char *s);
/* 1 when code point cp is a bidirectional control (escaped above). */
int rl_bidi_control(unsigned cp);
/* A malloc'd copy of s (NULL: NULL) where every byte that is not valid
 * UTF-8 is U+FFFD: text a JSON library accepts (jansson refuses the whole
 * string otherwise, and the key goes missing). NULL when out of memory. */
char *rl_utf8_fix(const char *s);

#endif
