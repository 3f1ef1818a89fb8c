/*
 * What rlprof run (-b sim) and rlprof inspect say of a program's AVX-512
 * code (inspect/elf_evex.h): the functions that hold it, with source
 * lines where the program has debug information, and the rebuild that the
 * simulator can count (--count-with). One wording for both commands.
 */
#ifndef RL_RENDER_EVEX_H
#define RL_RENDER_EVEX_H

#include <stdio.h>

#include "inspect/elf_evex.h"

/* The listed functions, one line each: prefix, then "NAME (FILE:LINE):
 * N AVX-512 instructions" (the library's name when it is not program),
 * and a line for those not listed. Escaped for the terminal. */
void rl_evex_note_functions(FILE *out, const char *prefix,
			    const struct rl_evex_scan *s, const char *program);

/* The rebuild and the --count-with line for program (as the user named
 * it) with its arguments args (NULL-terminated, may be NULL). */
void rl_evex_note_rebuild(FILE *out, const char *prefix, const char *program,
			  char *const *args);

/* {instructions, dispatch_variants, functions: [{function, object,
 * file, line, instructions}], more_functions, files_read}; NULL out of
 * memory. */
struct json_t;
struct json_t *rl_evex_note_json(const struct rl_evex_scan *s);

#endif
