/*
 * The width a table on standard output may take (render.h), and the
 * short forms of its long lines.
 */
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "render/render.h"

unsigned rl_render_term_width(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;

	if (c && *c) {
		char *end;
		long n = strtol(c, &end, 10);
		if (!*end && n >= 20 && n <= 100000)
			return (unsigned)n;
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col >= 20)
		return ws.ws_col;
	return 0;
}
