/*
 * The loops of a program's own code, found in its machine code: each
 * function of the symbol table (.symtab, else .dynsym) is decoded (Zydis),
 * its control-flow graph built from direct branches (an indirect jump
 * ends a block with no known successor), its dominators computed, and
 * each back edge (a branch to a block that dominates it) closes a natural
 * loop; loops with one header are one loop. Loops nest as a tree by their
 * bodies. Each loop is named by its function and, from the DWARF line
 * table (libdw; -g), the source file and line of the branch that closes
 * it (the smallest such line in the header's file; the header's own line
 * when none), which for C's for and while is the loop statement's line.
 * Prints nothing.
 */
#ifndef RL_LOOPS_H
#define RL_LOOPS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One call site an inlined loop's function was inlined at: into the
 * function of the next entry (or the loop's func after the last). */
struct rl_loop_inline {
	char *func;      /* the inlined function, demangled */
	char *call_file; /* NULL when the DWARF does not say */
	int call_line;
};

/* Floating-point values carried from one iteration to the next through
 * an add, a multiply or both (a dependent chain, as in a reduction built
 * without reassociation), found in the loop's machine code
 * (inspect/loop_chains.c): a register that an add, subtract, multiply
 * or FMA of the loop both reads and writes, and that no other
 * instruction of the loop writes. */
struct rl_loop_chains {
	int known;       /* the code was read */
	unsigned add;    /* chains of adds (subtracts) only */
	unsigned mul;    /* of multiplies only */
	unsigned madd;   /* of FMAs, or of multiplies and adds */
};

struct rl_loop {
	uint64_t head;    /* the header's address (a file address) */
	int parent;       /* index in rl_loops.v, -1: outermost */
	int depth;        /* 0 outermost */
	size_t n_children;
	char *func;       /* the function's symbol, demangled */
	uint64_t func_addr;
	char *file;       /* NULL without a line table entry */
	int line;         /* 0 without */
	size_t n_blocks;  /* basic blocks of its body, nested loops' too */
	size_t n_insns;   /* instructions of its body, nested loops' too */
	char *scope;      /* the function whose statement it is: func, or
			     an inlined function (demangled) */
	struct rl_loop_inline *inl; /* scope's call sites, innermost
				       first; NULL when not inlined */
	size_t n_inl;
	int nth;          /* 1.. among loops of the same name, 0 unique */
	int library;      /* its statement is in a system header: file and
			     line are the program's call site holding it */
	struct rl_loop_chains chains;
};

/* A run of code whose innermost loop is loop (index + 1; 0: in a
 * function, in no loop). */
struct rl_loop_span {
	uint64_t lo, hi;
	unsigned loop;
};

struct rl_loops {
	struct rl_loop *v; /* in preorder: a parent before its children,
			      functions by address */
	size_t n;
	size_t n_funcs;    /* functions decoded */
	int have_lines;    /* the file has a DWARF line table */
	int have_symbols;  /* a symbol table with functions */
	struct rl_loop_span *span; /* sorted, disjoint: every function */
	size_t n_span;
};

/* Whether rlprof was built with the decoder (libzydis-dev). */
int rl_loops_available(void);

/* The loops of path's code into out (release it). Fails with RL_ENOTSUP
 * (built without a decoder), RL_ENOENT, RL_EPERM, RL_EIO, RL_EFORMAT
 * (not an x86-64 ELF file) or RL_ENOMEM, with why in err. */
int rl_loops_find(const char *path, struct rl_loops *out, char *err,
		  size_t errlen);

void rl_loops_release(struct rl_loops *l);

/* "file:line" or "function+0xOFF" of loop i into buf. */
void rl_loop_label(const struct rl_loops *l, size_t i, char *buf,
		   size_t len);

/* Loop i's name, unique in the program: "file:line (function)",
 * "file:line (inlined, inlined at file:line)" for a loop of an inlined
 * function, "function+0xOFF" without a line table; " #2" after a name
 * that two loops would share (numbered by header address). Functions
 * without their C++ parameter lists. */
void rl_loop_name(const struct rl_loops *l, size_t i, char *buf,
		  size_t len);

/* The spans as the simulator reads them (--sim-loops): a first line
 * "rlprof-loops 1", then "object PATH", then "span LO HI LOOP" per span
 * (hex addresses, decimal loop). 0 or -errno. */
int rl_loops_write_spans(const struct rl_loops *l, const char *object,
			 FILE *f);

#endif
