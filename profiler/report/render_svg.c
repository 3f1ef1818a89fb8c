/* Placeholder until the charts work lands. */
#include "render.h"
#include "rl_error.h"

static int render_svg(FILE *out, const struct rl_report *r,
		      const struct rl_render_options *opt, char *err,
		      size_t errlen)
{
	(void)out;
	(void)r;
	(void)opt;
	return rl_fail(err, errlen, RL_ENOTSUP, "the svg renderer is not built yet");
}

const struct rl_renderer rl_renderer_svg = {"svg", NULL, render_svg};
