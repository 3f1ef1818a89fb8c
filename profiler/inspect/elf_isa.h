/*
 * The x86 ISA level a program file says it needs: the
 * GNU_PROPERTY_X86_ISA_1_NEEDED property of its GNU property note
 * (.note.gnu.property). rlprof run --count-with holds the timed build
 * against the compute ceiling of that ISA. The property is only as good as
 * the toolchain that wrote it: gcc 12 and binutils 2.40 write "baseline"
 * even for -march=native unless the assembler was asked to mark what it
 * used, so a baseline (or absent) note says nothing about vector width.
 * Reads the file with libelf; prints nothing.
 */
#ifndef RL_ELF_ISA_H
#define RL_ELF_ISA_H

#include <stddef.h>

enum rl_isa_level {
	RL_ISA_LEVEL_NONE = 0,  /* no such note or property */
	RL_ISA_LEVEL_BASELINE,  /* x86-64 (SSE2) */
	RL_ISA_LEVEL_V2,        /* + SSE4.2, POPCNT */
	RL_ISA_LEVEL_V3,        /* + AVX, AVX2, FMA */
	RL_ISA_LEVEL_V4,        /* + AVX-512 F/BW/CD/DQ/VL */
};

/* The highest level the note names. Fails (elf_file.h: RL_ENOENT,
 * RL_EPERM, RL_EIO, RL_EINVAL, RL_EFORMAT) only when the file cannot be
 * read, is not a regular file or is not ELF. */
int rl_elf_isa_level(const char *path, enum rl_isa_level *level, char *err,
		     size_t errlen);

/* "x86-64-baseline", "x86-64-v2", ..., "none" */
const char *rl_isa_level_name(enum rl_isa_level level);

/* The widest vector ISA a level guarantees, in the compute-ceiling names of
 * machine.h ("sse2", "sse", "avx2", "avx512"), NULL for NONE. */
const char *rl_isa_level_ceiling(enum rl_isa_level level);

#endif
