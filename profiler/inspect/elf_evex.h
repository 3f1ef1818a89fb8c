/*
 * AVX-512 code in a program, before it runs: the simulator (Valgrind)
 * cannot execute AVX-512 (EVEX-encoded) instructions, and a counting run
 * under it dies of SIGILL at the first one that runs, which on a long
 * program may be minutes in. This reads the program and the shared
 * libraries it brings (those found through its RPATH/RUNPATH or
 * LD_LIBRARY_PATH; not the system's, whose CPU dispatch the simulator's
 * CPUID steers away from AVX-512) and finds their EVEX instructions
 * (Zydis, a linear sweep of each executable section), by function (the
 * symbol table) and source line (DWARF, with -g). A function named for
 * AVX-512 (glibc's *_evex and *_avx512 variants linked into a static
 * program, GCC's target_clones '.avx512f' clones) is a CPU-dispatch
 * variant the simulator never takes: counted apart, not listed.
 * Prints nothing.
 */
#ifndef RL_ELF_EVEX_H
#define RL_ELF_EVEX_H

#include <stddef.h>

#define RL_EVEX_MAX_FUNCS 8
#define RL_EVEX_MAX_OBJECTS 16

struct rl_evex_func {
	char object[256]; /* the file: the program or one of its libraries */
	char name[128];   /* the function; "" for code outside any symbol */
	char file[256];   /* source of its first EVEX instruction; "" none */
	int line;
	unsigned long n;  /* EVEX instructions in it */
};

struct rl_evex_scan {
	unsigned long total;      /* EVEX instructions, dispatch variants aside */
	unsigned long dispatched; /* in functions named for AVX-512 */
	size_t n_funcs;           /* listed, the most instructions first */
	size_t more_funcs;        /* functions with EVEX code not listed */
	struct rl_evex_func funcs[RL_EVEX_MAX_FUNCS];
	size_t n_objects;         /* files read: the program, then libraries */
};

/* Scans path and the libraries it brings into out. Fails with RL_ENOTSUP
 * (built without a decoder), RL_ENOENT, RL_EPERM, RL_EIO (cannot read the
 * program), RL_EFORMAT (not an x86-64 ELF file) or RL_ENOMEM, with why in
 * err; a library that cannot be read is left out. */
int rl_elf_evex_scan(const char *path, struct rl_evex_scan *out, char *err,
		     size_t errlen);

#endif
