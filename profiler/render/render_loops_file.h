/* rlprof run --loops: DIR/loops.json (render_loops_file.c), the format
 * formats/loops.h names and docs/formats.md describes. */
#ifndef RL_RENDER_LOOPS_FILE_H
#define RL_RENDER_LOOPS_FILE_H

#include "analysis/loop_figures.h"

/* Writes every loop of x with its counts, samples and whether it is hot
 * to path; program is the file whose loops they are. 0, or -1 when path
 * cannot be written (or out of memory). x's regions per loop gain their
 * nested loops' (a loop runs where its nested loops run). */
int rl_loops_file_write(struct rl_loop_figures *x, const char *program,
			const char *path);

#endif
