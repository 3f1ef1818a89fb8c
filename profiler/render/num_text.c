#include <math.h>
#include <stdio.h>

#include "render/num_text.h"

void rl_time_text(char *b, size_t n, double s)
{
	static const struct {
		double from, scale;
		const char *unit;
	} u[] = {{1, 1, "s"}, {1e-3, 1e3, "ms"}, {1e-6, 1e6, "us"},
		 {0, 1e9, "ns"}};
	double a = fabs(s);
	char num[32];
	size_t k = 0;

	if (isnan(s) || !isfinite(s)) {
		snprintf(b, n, "-");
		return;
	}
	while (k < 3 && a != 0 && a < u[k].from)
		k++;
	rl_num_text(num, sizeof num, s * u[k].scale);
	snprintf(b, n, "%s %s", num, u[k].unit);
}

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
