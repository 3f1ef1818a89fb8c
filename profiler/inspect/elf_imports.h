/*
 * Which region APIs a program file calls through the dynamic linker: the
 * functions it imports (undefined symbols of .dynsym). `rlprof run` uses
 * it to preload a compatibility shim for programs annotated for LIKWID's
 * marker API or PAPI's high-level API, and to know that a program without
 * region records (Fortran, a direct rl_region_begin() call) still marks
 * regions. Only the program file itself is read: calls made from a shared
 * library it loads are not seen. The C names and their Fortran bindings
 * count alike. The symbol table (.symtab, when not stripped) also says
 * whether the program holds one of those APIs itself, linked from its
 * archive. Reads the file with libelf; prints nothing.
 */
#ifndef RL_ELF_IMPORTS_H
#define RL_ELF_IMPORTS_H

#include <stdbool.h>
#include <stddef.h>

struct rl_elf_imports {
	/* imported: likwid_markerStartRegion, or the Fortran binding
	 * likwid_markerstartregion_ (liblikwid) */
	bool likwid_marker;
	/* imported: PAPI_hl_region_begin, or the Fortran bindings
	 * papif_hl_region_begin_ ... (libpapi) */
	bool papi_hl;
	/* defined in the file itself (linked from liblikwid.a or libpapi.a,
	 * or a static program): no preloaded shim can take their place */
	bool likwid_marker_inside;
	bool papi_hl_inside;
	bool rl_regions;    /* rl_region_begin (librlprof) */
	bool mpi_finalize;  /* MPI_Finalize (libmpi: C and C++ programs) */
};

/* Fills out (all false for a file that is not ELF or has no symbols).
 * Fails (RL_ENOENT, RL_EPERM, RL_EIO) only when the file cannot be read. */
int rl_elf_imports(const char *path, struct rl_elf_imports *out, char *err,
		   size_t errlen);

#endif
