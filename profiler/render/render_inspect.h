/*
 * rlprof inspect's output (without --loops): what cli/cmd_inspect.c read
 * of a program, as text or one JSON document on stdout. The file's text
 * (names, expressions, file names of a binary that may be hostile) is
 * escaped for the terminal.
 */
#ifndef RL_RENDER_INSPECT_H
#define RL_RENDER_INSPECT_H

#include <limits.h>

#include "inspect/elf_code_isa.h"
#include "inspect/elf_evex.h"
#include "inspect/elf_imports.h"
#include "inspect/inspect_elf.h"

struct rl_inspect_view {
	const char *prog;                /* as found (PATH looked up) */
	const struct rl_elf_info *info;  /* its records and linkage */
	int code_read;                   /* 0: code holds its floating-point
					    code; -1: not read, why in
					    code_err */
	struct rl_code_isa code;
	char code_err[PATH_MAX + 160];
	struct rl_evex_scan *avx512;     /* NULL: none, or not read */
	struct rl_elf_imports imports;   /* what it calls; zero when not
					    read (a script, or regions
					    declared) */
};

void rl_render_inspect_text(const struct rl_inspect_view *v);
/* 0, or -1 (out of memory or stdout not written). */
int rl_render_inspect_json(const struct rl_inspect_view *v);

#endif
