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

/* One function instance holding an address: the function itself
 * (DW_TAG_subprogram) or a copy of one inlined into it
 * (DW_TAG_inlined_subroutine), which names the place it was called
 * from. Strings are owned by the table. */
struct rl_dwarf_frame {
	uint64_t id;           /* its DIE's offset: one per instance */
	const char *name;      /* linkage name where there is one (mangled
				  C++), else its name; NULL not known */
	const char *call_file; /* an inlined copy's call site, else NULL */
	int call_line;         /* 0 when not known */
};

/* The function instances holding addr, outermost (the function) first,
 * at most max into out; returns how many there are (maybe more than
 * max), 0 when the DWARF says nothing of addr. d may be NULL. */
int rl_dwarf_frames(struct rl_dwarf_lines *d, uint64_t addr,
		    struct rl_dwarf_frame *out, int max);

void rl_dwarf_lines_close(struct rl_dwarf_lines *d);

#endif
