/* A percentage given on the command line (parse_pct.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/parse_pct.h"

double rl_parse_pct(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (errno || end == s || *end || !isfinite(v) || v < 0)
		return -1;
	return v;
}

double rl_parse_pct_option(const char *name, const char *s)
{
	double v = rl_parse_pct(s);

	if (v < 0)
		fprintf(stderr,
			"rlprof: --%s '%s' is not a percentage: give a number "
			">= 0, e.g. --%s 10\n",
			name, s, name);
	return v;
}
