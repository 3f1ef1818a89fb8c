/* Seconds for people (fmt_seconds.h). */
#include <stdio.h>

#include "common/fmt_seconds.h"

void rl_fmt_seconds(char *buf, size_t len, double s)
{
	if (s >= 1)
		snprintf(buf, len, "%.3g s", s);
	else if (s >= 1e-3)
		snprintf(buf, len, "%.3g ms", s * 1e3);
	else
		snprintf(buf, len, "%.3g us", s * 1e6);
}

void rl_fmt_seconds_fixed(char *buf, size_t len, double s)
{
	if (s >= 1)
		snprintf(buf, len, "%.2f s", s);
	else if (s >= 1e-3)
		snprintf(buf, len, "%.1f ms", s * 1e3);
	else
		snprintf(buf, len, "%.0f us", s * 1e6);
}
