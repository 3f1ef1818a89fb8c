/*
 * Renderers: one writer interface, one implementation per format (after
 * hyperfine's exporters). A renderer formats a built report; it computes
 * nothing the analysis did not.
 */
#ifndef RL_RENDER_H
#define RL_RENDER_H

#include <stdio.h>

#include "analysis/report.h"

struct rl_render_options {
	int plot;          /* table: draw a small text roofline (--plot) */
	int color;         /* table: ANSI colour allowed */
	int per_thread;    /* table: include per-thread rows */
	unsigned width;    /* table: the terminal's columns; 0 unlimited (a
			      file, a pipe). The table then fits it: columns
			      dropped, names and roofs cut, never wrapped;
			      the backend, note and method lines one short
			      line each, unless verbose */
	int verbose;       /* table: those lines in full (--verbose) */
};

/* The columns a table on stdout may take (rlprof run, rlprof report): the
 * COLUMNS environment variable when set, else the terminal's width when
 * stdout is one, else 0 (no limit). */
unsigned rl_render_term_width(void);

struct rl_renderer {
	const char *format;    /* "table", "json", "csv", "svg", "html" */
	const char *file_name; /* default file in the output dir, or NULL */
	int (*render)(FILE *out, const struct rl_report *r,
		      const struct rl_render_options *opt, char *err,
		      size_t errlen);
};

/* The small text roofline of `--plot` (render_plot.c). */
int rl_render_plot(FILE *out, const struct rl_report *r, char *err,
		   size_t errlen);

/* All renderers, in render_registry.c. NULL when unknown. */
const struct rl_renderer *rl_renderer_find(const char *format);
size_t rl_renderer_count(void);
const struct rl_renderer *rl_renderer_at(size_t i);

#endif
