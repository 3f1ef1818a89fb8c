/* A percentage given on the command line (parse_pct.h). */
#include <errno.h>
#include <math.h>
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
