/* rl_shell_quote(): words as a shell user would type them. */
#include "common/shell_quote.h"

char *rl_shell_quote(char *p, const char *w)
{
	int quote = !*w || strpbrk(w, " \t\n'\"\\$`*?&;|<>()") != NULL;

	if (quote)
		*p++ = '\'';
	for (; *w; w++) {
		if (quote && *w == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *w;
		}
	}
	if (quote)
		*p++ = '\'';
	return p;
}
