/* When the table is coloured by default (term_color.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/term_color.h"

static bool set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

bool rl_term_color_auto(int fd)
{
	const char *term = getenv("TERM");

	if (!isatty(fd) || set("NO_COLOR"))
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return !set("OMPI_COMM_WORLD_RANK") && !set("PMIX_RANK") &&
	       !set("PMI_RANK");
}
