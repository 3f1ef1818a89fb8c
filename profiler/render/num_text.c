#include <math.h>
#include <stdio.h>

#include "render/num_text.h"

void rl_num_text(char *b, size_t n, double x)
{
	double a = fabs(x);

	if (isnan(x) || !isfinite(x))
		snprintf(b, n, "-");
	else if (a == 0)
		snprintf(b, n, "0");
	else if (a >= 1e6 || a < 0.001)
		snprintf(b, n, "%.2e", x);
	else if (a >= 100)
		snprintf(b, n, "%.0f", x);
	else if (a >= 10)
		snprintf(b, n, "%.1f", x);
	else if (a >= 1)
		snprintf(b, n, "%.2f", x);
	else
		snprintf(b, n, "%.3f", x);
}
