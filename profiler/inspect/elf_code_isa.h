/*
 * The vector width of a program's own floating-point arithmetic, read from
 * its code: every executable section of the file is decoded (Zydis, a
 * linear sweep; a byte that does not decode is stepped over) and each
 * add, sub, mul, div, sqrt and FMA on floating-point data (x86 mnemonics
 * ending ps, pd, ss or sd) is counted by width: 64 for scalar, else its
 * vector length (128 for legacy SSE, 128/256/512 for VEX and EVEX), and
 * the FMAs among them.
 * rlprof run --count-with holds the timed build against the ceiling of the
 * widest width found when no option and no GNU property note name its
 * ISA. Only the file's own code is read, not its shared libraries; code
 * behind a run-time CPU dispatch counts as if it ran. Prints nothing.
 */
#ifndef RL_ELF_CODE_ISA_H
#define RL_ELF_CODE_ISA_H

#include <stddef.h>

struct rl_code_isa {
	/* floating-point arithmetic instructions by width: [0] scalar,
	 * [1] 128-bit, [2] 256-bit, [3] 512-bit */
	unsigned long n[4];
	unsigned long n_fma[4]; /* of which fused multiply-adds */
	unsigned widest_bits; /* 64, 128, 256, 512; 0: none found */
	int widest_fma;       /* 1: FMAs among the widest, else 0 */
};

/* Whether rlprof was built with a decoder (libzydis-dev). */
int rl_code_isa_available(void);

/* RL_ENOTSUP with why in err: rlprof was built without a decoder (the
 * readers' answer then): "cannot <what> '<path>': ...", what saying what
 * the reader does ("read the code of", "find the loops of"). */
int rl_code_no_decoder(const char *what, const char *path, char *err,
		       size_t errlen);

/* Scan path's code into out. Fails with RL_ENOTSUP (built without a
 * decoder), RL_ENOENT, RL_EPERM, RL_EIO (cannot read it) or RL_EFORMAT
 * (not an x86-64 ELF file), with why in err. */
int rl_elf_code_isa(const char *path, struct rl_code_isa *out, char *err,
		    size_t errlen);

#ifdef RL_HAVE_ZYDIS
#include <Zydis/Zydis.h>
#include <libelf.h>
#include <stdint.h>

/* Called for each executable section of a file by rl_elf_code_walk: its
 * code (size bytes at file address addr) and a decoder ready for it;
 * elf for the file's tables. Nonzero stops the walk with that value. */
typedef int (*rl_code_section_fn)(void *ctx, const ZydisDecoder *dec,
				  Elf *elf, uint64_t addr,
				  const unsigned char *code, size_t size);

/* Opens path (an x86-64 ELF file) and calls fn for each of its executable
 * sections. 0, fn's nonzero value, or the errors of rl_elf_code_isa. */
int rl_elf_code_walk(const char *path, rl_code_section_fn fn, void *ctx,
		     char *err, size_t errlen);
#endif

/* The compute-ceiling ISA name (machine.h) of a width: "scalar", "sse2",
 * "avx2", "avx512"; NULL for 0. */
const char *rl_code_isa_ceiling(unsigned widest_bits);

#endif
