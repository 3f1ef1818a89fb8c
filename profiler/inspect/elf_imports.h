/*
 * Which region APIs a program file calls through the dynamic linker: the
 * functions it imports (undefined symbols of .dynsym). `rlprof run` uses
 * it to preload a compatibility shim for programs annotated for LIKWID's
 * marker API or PAPI's high-level API, and to know that a program without
 * region records (Fortran, a direct rl_region_begin() call) still marks
 * regions. Only the program file itself is read: calls made from a shared
 * library it loads are not seen. Reads the file with libelf; prints
 * nothing.
 */
#ifndef RL_ELF_IMPORTS_H
#define RL_ELF_IMPORTS_H

#include <stdbool.h>
#include <stddef.h>

struct rl_elf_imports {
	bool likwid_marker; /* likwid_markerStartRegion (liblikwid) */
	bool papi_hl;       /* PAPI_hl_region_begin (libpapi) */
	bool rl_regions;    /* rl_region_begin (librlprof) */
	bool mpi_finalize;  /* MPI_Finalize (libmpi: C and C++ programs) */
};

/* Fills out (all false for a file that is not ELF or has no .dynsym).
 * Fails (RL_ENOENT, RL_EPERM, RL_EIO) only when the file cannot be read. */
int rl_elf_imports(const char *path, struct rl_elf_imports *out, char *err,
		   size_t errlen);

#endif
