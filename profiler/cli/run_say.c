/* The output of rlprof run: progress lines (silenced by --quiet) and
 * warnings, on stderr. Its own file so that the run_*.c steps and
 * cmd_run.c all call down into it, never back into each other. */
#include <stdarg.h>
#include <stdio.h>

#include "cli/run.h"

void rl_run_say(const struct rl_run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->opt.quiet)
		return;
	fputs("rlprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void rl_run_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("rlprof: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
