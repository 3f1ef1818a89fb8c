/*
 * The table renderer's lines of text around its grid (table_text.c);
 * private to render_table.c. opt may be NULL; with a width (and not
 * --verbose) long lines are cut or wrapped to it.
 */
#ifndef RL_RENDER_TABLE_TEXT_H
#define RL_RENDER_TABLE_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "render/render.h"

/* backend, note, command, --count-with and machine lines, then a blank
 * line: 1 when a line was cut to the width. */
int rl_table_header(FILE *out, const struct rl_report *r,
		    const struct rl_render_options *opt);
/* Each distinct method once; with its regions when they differ. Cut to
 * the width like the header: 1 when cut. */
int rl_table_methods(FILE *out, const struct rl_report *r,
		     const struct rl_render_options *opt);
/* What the marks and figures mean, for the rows there are. */
void rl_table_legend(FILE *out, const struct rl_report *r,
		     const struct rl_render_options *opt);
/* "region: diagnosis" per region; a diagnosis that 4 or more regions
 * share (DIAG_GROUP) is one line, where its first region is: "a, b, c
 * and 99997 more regions: diagnosis" (every region's own is in
 * report.csv/json). */
void rl_table_diagnoses(FILE *out, const struct rl_report *r,
			const struct rl_render_options *opt);
/* prefix (plain), then text escaped and, at the terminal's width (not
 * --verbose), its words wrapped with the rest indented; a newline. */
void rl_table_put_wrapped(FILE *out, const char *prefix, const char *text,
			  const struct rl_render_options *opt);
/* A region's name, escaped: the columns it took. */
size_t rl_table_put_name(FILE *out, const char *name);

#endif
