/* Terminal-safe text (term_text.h). */
#include <stdlib.h>
#include <string.h>

#include "common/term_text.h"
#include "common/utf8.h"

int rl_bidi_control(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static size_t cp_cols(unsigned cp)
{
	if ((cp >= 0x300 && cp <= 0x36f) || cp == 0x200b ||
	    (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) ||
	    (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* The next piece of s as shown: into tok (>= 8 bytes, terminated), its
 * columns in *cols; returns the bytes of s it stands for (0 at the end). */
static size_t next_piece(const unsigned char *s, char tok[8], size_t *cols)
{
	static const char hex[] = "0123456789abcdef";
	unsigned cp;
	size_t n;

	if (!*s)
		return 0;
	n = rl_utf8_decode(s, &cp);
	if (n == 0) { /* invalid byte */
		tok[0] = '\\', tok[1] = 'x', tok[2] = hex[*s >> 4];
		tok[3] = hex[*s & 15], tok[4] = '\0';
		*cols = 4;
		return 1;
	}
	if (cp == '\t' || cp == '\n' || cp == '\r') {
		tok[0] = '\\';
		tok[1] = cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r';
		tok[2] = '\0';
		*cols = 2;
	} else if (cp < 0x20 || cp == 0x7f) {
		tok[0] = '\\', tok[1] = 'x', tok[2] = hex[cp >> 4];
		tok[3] = hex[cp & 15], tok[4] = '\0';
		*cols = 4;
	} else if ((cp >= 0x80 && cp <= 0x9f) || /* C1: CSI and friends */
		   rl_bidi_control(cp)) {        /* reorder what follows */
		tok[0] = '\\', tok[1] = 'u';
		for (int i = 0; i < 4; i++)
			tok[2 + i] = hex[(cp >> (12 - 4 * i)) & 15];
		tok[6] = '\0';
		*cols = 6;
	} else {
		memcpy(tok, s, n);
		tok[n] = '\0';
		*cols = cp_cols(cp);
	}
	return n;
}

/* The bytes of printable ASCII at the start of s: shown as they are, one
 * column each (most text is only that, and a piece at a time was most of
 * the time a table of 10^5 regions took). */
static size_t plain_run(const unsigned char *s)
{
	const unsigned char *q = s;

	while (*q >= 0x20 && *q < 0x7f)
		q++;
	return (size_t)(q - s);
}

size_t rl_term_cut(char *buf, size_t len, const char *s, size_t max_cols)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t cols = 0, used = 0, n, w, total = 0;
	char tok[8];

	if (!p[n = plain_run(p)] && n <= max_cols && n < len) { /* printable ASCII that fits: as it is */
		memcpy(buf, p, n + 1);
		return n;
	}
	/* does it fit whole? */
	for (const unsigned char *q = p; (n = next_piece(q, tok, &w)); q += n)
		total += w;
	buf[0] = '\0';
	while ((n = next_piece(p, tok, &w))) {
		size_t tl = strlen(tok);
		int last_room = total > max_cols; /* keep one column for … */
		if (cols + w + (size_t)last_room > max_cols ||
		    used + tl + 4 > len) {
			if (max_cols > cols && used + 4 <= len) {
				memcpy(buf + used, "\xe2\x80\xa6", 4);
				cols++;
			}
			return cols;
		}
		memcpy(buf + used, tok, tl + 1);
		used += tl;
		cols += w;
		p += n;
	}
	return cols;
}

void rl_term_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n, w;
	char tok[8];

	for (;;) {
		if ((n = plain_run(p))) {
			fwrite(p, 1, n, out);
			p += n;
		}
		if (!(n = next_piece(p, tok, &w)))
			break;
		fputs(tok, out);
		p += n;
	}
}

void rl_term_wrap(FILE *out, const char *s, size_t col, size_t width,
		  size_t indent)
{
	size_t n = strlen(s ? s : "");
	size_t len = 6 * n + 16; /* the longest escape, \u202e, per byte */
	char *buf = width ? malloc(len) : NULL;

	if (!buf) {
		rl_term_put(out, s);
		return;
	}
	rl_term_cut(buf, len, s, (size_t)-1);
	int first = 1;
	for (char *w = buf, *end; *w; w = end) {
		end = strchr(w, ' ');
		if (!end)
			end = w + strlen(w);
		char keep = *end;
		*end = '\0';
		size_t cols = rl_term_width(w);
		if (!first && col + 1 + cols > width && col > indent) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fputs(w, out);
		col += cols;
		first = 0;
		*end = keep;
		if (*end)
			end++;
	}
	free(buf);
}

size_t rl_term_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n, w, cols = 0;
	char tok[8];

	for (;;) {
		n = plain_run(p);
		cols += n;
		p += n;
		if (!(n = next_piece(p, tok, &w)))
			break;
		cols += w;
		p += n;
	}
	return cols;
}

size_t rl_utf8_seq(const unsigned char *s)
{
	unsigned cp;
	return rl_utf8_decode(s, &cp);
}

char *rl_utf8_fix(const char *s)
{
	char *fixed, *p;

	if (!s)
		return NULL;
	if (!(fixed = p = malloc(3 * strlen(s) + 1)))
		return NULL;
	for (const unsigned char *q = (const unsigned char *)s; *q;) {
		size_t k = rl_utf8_seq(q);
		if (k == 0) { /* U+FFFD REPLACEMENT CHARACTER */
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			q++;
		} else {
			memcpy(p, q, k);
			p += k;
			q += k;
		}
	}
	*p = '\0';
	return fixed;
}
