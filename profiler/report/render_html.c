/* Placeholder until the charts work lands. */
#include "render.h"
#include "rl_error.h"

static int render_html(FILE *out, const struct rl_report *r,
		      const struct rl_render_options *opt, char *err,
		      size_t errlen)
{
	(void)out;
	(void)r;
	(void)opt;
	return rl_fail(err, errlen, RL_ENOTSUP, "the html renderer is not built yet");
}

const struct rl_renderer rl_renderer_html = {"html", NULL, render_html};
