/*
 * Source lines of code addresses, from a program's DWARF line table
 * (elfutils' libdw). Without debugging information (built without -g)
 * rl_dwarf_lines_open succeeds with no table and every lookup says 0.
 * Prints nothing.
 */
#ifndef RL_DWARF_LINES_H
#define RL_DWARF_LINES_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

struct rl_dwarf_lines;

/* A table for elf (which must outlive it); *out NULL when the file has no
 * DWARF. 0, or RL_ENOMEM. */
int rl_dwarf_lines_open(Elf *elf, struct rl_dwarf_lines **out);

/* 1 with *file (owned by the table) and *line for the code at addr (a
 * file address), else 0. d may be NULL. */
int rl_dwarf_line(struct rl_dwarf_lines *d, uint64_t addr, const char **file,
		  int *line);

void rl_dwarf_lines_close(struct rl_dwarf_lines *d);

#endif
