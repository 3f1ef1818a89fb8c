/*
 * A report file written whole or not at all: the renderer writes into a
 * temporary file beside it (rl_file_open()), renamed into place once
 * complete, so a report of any size never sits in memory. A full disk leaves no partial file and its message
 * names the real cause ("No space left on device").
 */
#ifndef RL_RENDER_FILE_H
#define RL_RENDER_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "render/render.h"

/* r's rendering of rep into path (owned: a name in rlprof's output
 * directory, replaced rather than followed; else the user's -o, see
 * file_write.h). 0, or a negative RL_E* code with one
 * line in err ("cannot write the FORMAT report 'PATH': REASON"). */
int rl_render_file(const struct rl_renderer *r, const char *path,
		   bool owned, const struct rl_report *rep,
		   const struct rl_render_options *ropt, char *err,
		   size_t errlen);

#endif
