/* The roofline chart's error bar (svg_error_bar.h). */
#include <math.h>

#include "render/svg_error_bar.h"

#define CAP 3.5 /* half the cap's width, px */

void rl_svg_error_bar(FILE *out, const struct rl_chart *c,
		      const struct rl_region_row *row, double cx,
		      const char *col)
{
	struct rl_row_interval iv;
	char m[32], lo[32], hi[32];
	double y0, y1;

	rl_row_interval(row, &iv);
	if (iv.kind == RL_INTERVAL_NONE || !isfinite(iv.gflops.lo) ||
	    !isfinite(iv.gflops.hi) || !(iv.gflops.lo > 0))
		return;
	y0 = rl_chart_px_y(c, iv.gflops.lo);
	y1 = rl_chart_px_y(c, iv.gflops.hi);
	fprintf(out,
		"<path class=\"error-bar\" d=\"M%.2f %.2fV%.2fM%.2f %.2fH%.2f"
		"M%.2f %.2fH%.2f\" stroke=\"%s\" stroke-width=\"1.2\" "
		"fill=\"none\"><title>GFLOP/s over %u runs: median %s, %s "
		"%s to %s</title></path>\n",
		cx, y0, y1, cx - CAP, y0, cx + CAP, cx - CAP, y1, cx + CAP, col,
		iv.runs, rl_chart_num(m, sizeof m, iv.gflops.median),
		iv.kind == RL_INTERVAL_MEDIAN90 ? "90% interval of the median"
						: "fastest to slowest run",
		rl_chart_num(lo, sizeof lo, iv.gflops.lo),
		rl_chart_num(hi, sizeof hi, iv.gflops.hi));
}
