/* The output of rlprof run: progress lines (silenced by --quiet) and
 * warnings, on stderr. Its own file so that the run_*.c steps and
 * cmd_run.c all call down into it, never back into each other.
 *
 * A line often quotes what came from the program or a file (a region
 * record's name expression and file, a path, a results file's text): the
 * whole line goes through the terminal escape (common/term_text.h), so no
 * raw control byte or bidirectional control reaches the terminal. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/run/run.h"
#include "common/term_text.h"

static void say(const char *prefix, const char *fmt, va_list ap)
{
	char line[4096], *big = NULL;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(line, sizeof line, fmt, ap);
	if (n >= (int)sizeof line && (big = malloc((size_t)n + 1)))
		vsnprintf(big, (size_t)n + 1, fmt, again);
	va_end(again);
	fputs(prefix, stderr);
	rl_term_put(stderr, big ? big : line);
	fputc('\n', stderr);
	free(big);
}

void rl_run_say(const struct rl_run_options *opt, const char *fmt, ...)
{
	va_list ap;

	if (opt->quiet)
		return;
	va_start(ap, fmt);
	say("rlprof: ", fmt, ap);
	va_end(ap);
}

void rl_run_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("rlprof: warning: ", fmt, ap);
	va_end(ap);
}
