/* Placeholder until the charts work lands. */
#include "render.h"
#include "rl_error.h"

int rl_render_plot(FILE *out, const struct rl_report *r, char *err,
		   size_t errlen)
{
	(void)out;
	(void)r;
	return rl_fail(err, errlen, RL_ENOTSUP, "--plot is not built yet");
}
