/*
 * Where a loop of a program's code is in its source (inspect/loops.c's
 * names): through the DWARF's function instances, inlined copies
 * included (libdw). The loop's function instance is the innermost one
 * that holds its header and every branch closing it; each of those
 * addresses is seen from that instance: its own line when the address
 * is the instance's own code, else the line of the call that inlined the
 * code it is in. The loop's line is the smallest line of its closing
 * branches in the header's file, else the header's line (the statement
 * line of C's for and while). A loop whose statement is in a system
 * header (/usr/..., std::fill's inlined into a vector's constructor) is
 * placed at the innermost call site in the program's own source that
 * inlined it. Prints nothing.
 */
#ifndef RL_LOOP_NAMES_H
#define RL_LOOP_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "inspect/dwarf_lines.h"
#include "inspect/loops.h"

#define RL_LOOP_MAX_INLINE 16

/* Strings owned by the DWARF table. */
struct rl_loop_where {
	const char *file;  /* NULL: no line for the loop */
	int line;
	const char *scope; /* the inlined function holding the loop (its
			      linkage name, else name), NULL: the symbol's */
	struct {
		const char *func, *call_file;
		int call_line;
	} inl[RL_LOOP_MAX_INLINE]; /* scope's call sites, innermost first */
	size_t n_inl;
	int library;       /* the loop's statement is in a system header
			      (/usr/...): file and line are the call site
			      in the program's own source that holds it */
};

/* The loop of header address head closed by the branches at latch[0..n)
 * into out. */
void rl_loop_where(struct rl_dwarf_lines *dw, uint64_t head,
		   const uint64_t *latch, size_t n, struct rl_loop_where *out);

/* The loop statement a loop's line stands for: GCC gives an
 * OpenMP-outlined loop's closing branch, and the calls that share its
 * iterations out, the line of its directive (LULESH: "#pragma omp
 * parallel for" above each loop; CloverLeaf: "!$OMP PARALLEL", an IF,
 * "!$OMP DO ... &" and its continuation, then the DO). When line is such
 * a directive, the first loop statement (for, while, do: any case) after
 * it and not after last, a line inside the loop (so that only the loop's
 * own statement can be found); else line itself, also where the source
 * cannot be read here. */
int rl_loop_statement_line(const char *file, int line, int last);

/* out's scope, inline chain and func (demangled) set on v from w and the
 * symbol: 0 or RL_ENOMEM. */
int rl_loop_name_set(struct rl_loop *v, const char *symbol,
		     const struct rl_loop_where *w);

/* nth set on every loop of l whose name another loop shares: 0 or
 * RL_ENOMEM. */
int rl_loop_names_number(struct rl_loops *l);

/* The parts of a loop freed (func, file, scope, the inline chain). */
void rl_loop_name_free(struct rl_loop *v);

#endif
