/* Showing a command line as a POSIX shell would take it. */
#ifndef RL_SHELL_QUOTE_H
#define RL_SHELL_QUOTE_H

#include <string.h>

/* Room rl_shell_quote() needs for word w: 4 bytes per byte + 2 quotes. */
static inline size_t rl_shell_quote_len(const char *w)
{
	return 4 * strlen(w) + 2;
}

/* Writes w at p, single-quoted when it is empty or holds a character a
 * shell would interpret; returns the new end (no NUL written). */
char *rl_shell_quote(char *p, const char *w);

#endif
