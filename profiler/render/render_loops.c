/*
 * report.html's hot loops (rlprof run --loops): each loop's source lines,
 * read from the file the line table names (its absolute path where rlprof
 * run found it), a few lines around the loop's own, every character
 * escaped. A file that cannot be read here is said so, with why.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_loops.h"
#include "render/svg_chart.h"

#define LOOP_CONTEXT 2   /* lines shown before and after the loop's */
#define LINE_MAX_SHOWN 240 /* characters of one source line */

static void esc(FILE *out, const char *s)
{
	rl_xml_escape(out, s ? s : "");
}

/* The lines around m's line; 0, or -errno when the file cannot be read
 * (nothing written then). A line longer than LINE_MAX_SHOWN is cut. */
static int source_lines(FILE *out, const struct rl_loop_meta *m)
{
	const char *path = m->source ? m->source : m->file;
	FILE *f = fopen(path, "r");
	char buf[4096];
	long n = 0, from = m->line - LOOP_CONTEXT, to = m->line + LOOP_CONTEXT;
	int shown = 0, at_start = 1;

	if (!f)
		return -errno;
	while (fgets(buf, sizeof buf, f)) {
		size_t len = strlen(buf);
		int whole = len && buf[len - 1] == '\n';
		if (at_start)
			n++;
		at_start = whole;
		if (n < from || !at_start)
			continue; /* the rest of a long line: cut */
		if (n > to)
			break;
		if (whole)
			buf[len - 1] = '\0';
		if (!shown++)
			fputs("<pre class=\"src\">", out);
		fprintf(out, "<span class=\"%s\">%5ld  ",
			n == m->line ? "here" : "ctx", n);
		rl_xml_escape_cut(out, buf, LINE_MAX_SHOWN);
		fputs("</span>\n", out);
	}
	fclose(f);
	if (shown)
		fputs("</pre>\n", out);
	else
		fprintf(out, "<p class=\"muted\">line %ld is past the end of the "
			"file: the source changed since the build</p>\n",
			m->line);
	return 0;
}

void rl_loops_html(FILE *out, const struct rl_report *r)
{
	if (!r->loops_rule)
		return;
	fputs("<h2>Hot loops</h2>\n<p class=\"muted\">", out);
	if (!r->n_loops)
		fputs("No loop is a row; rows would be ", out);
	esc(out, r->loops_rule);
	fputs(r->n_loops ? "; each with its source lines.</p>\n" : ".</p>\n",
	      out);
	{
		char text[512];
		rl_report_loops_time_text(&r->loops_time, text, sizeof text);
		if (text[0]) {
			fputs("<p class=\"muted\">The run's sampled time: ", out);
			esc(out, text);
			fputs(".</p>\n", out);
		}
	}
	for (size_t i = 0; i < r->n_loops; i++) {
		const struct rl_loop_meta *m = &r->loops[i];
		int rc;

		fputs("<h3 class=\"loop\">", out);
		esc(out, m->name);
		fputs(" <span class=\"muted\">in ", out);
		esc(out, m->parent ? m->parent : "a region not known");
		fputs("</span></h3>\n", out);
		if (m->enclosing || m->inlined) {
			fputs("<p class=\"muted\">", out);
			if (m->enclosing) {
				fputs("nested in loop ", out);
				esc(out, m->enclosing);
			}
			if (m->enclosing && m->inlined)
				fputs("; ", out);
			if (m->inlined) {
				fputs("inlined: ", out);
				esc(out, m->inlined);
			}
			fputs("</p>\n", out);
		}
		if (!m->file || m->line <= 0) {
			fputs("<p class=\"muted\">no source line: the program "
			      "has no line table (build it with -g)</p>\n", out);
			continue;
		}
		if ((rc = source_lines(out, m)) < 0) {
			fputs("<p class=\"warn\">source not readable here: '", out);
			esc(out, m->source ? m->source : m->file);
			fputs("': ", out);
			esc(out, strerror(-rc));
			fputs("</p>\n", out);
		}
	}
}
