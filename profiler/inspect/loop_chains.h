/*
 * The floating-point dependency chains a loop carries from one iteration
 * to the next, read from its machine code (Zydis): a vector register
 * (xmm/ymm/zmm, one register whatever its width) that an add, subtract,
 * multiply or FMA of the loop's body both reads and writes, and that no
 * other instruction of the body writes, carries its value through the
 * loop: a chain (a reduction built without reassociation: s += a[i]).
 * An element-wise loop loads each value anew: no chain. Without the
 * decoder (libzydis-dev) nothing is found (known stays 0). Prints
 * nothing.
 */
#ifndef RL_LOOP_CHAINS_H
#define RL_LOOP_CHAINS_H

#include <stddef.h>
#include <stdint.h>

#include "inspect/loops.h"

#ifdef RL_HAVE_ZYDIS
#include <Zydis/Zydis.h>

/* The chains of the body made of the code ranges range[0..n) (file
 * addresses [lo, hi)) of a function whose code (size bytes) starts at
 * address addr. */
void rl_loop_chains_find(const ZydisDecoder *dec, const unsigned char *code,
			 uint64_t addr, uint64_t size,
			 const uint64_t (*range)[2], size_t n,
			 struct rl_loop_chains *out);
#endif

#endif
