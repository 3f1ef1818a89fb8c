/* Loop-carried floating-point chains: which vector registers an
 * arithmetic instruction of the loop reads and writes and nothing else
 * of the loop writes. */
#include "inspect/loop_chains.h"

#include <string.h>

#ifdef RL_HAVE_ZYDIS

enum { OP_ADD = 1, OP_MUL = 2, OP_FMA = 4 };

static int ends_with_type(const char *m)
{
	size_t n = strlen(m);
	return n >= 2 && (strcmp(m + n - 2, "sd") == 0 ||
			  strcmp(m + n - 2, "ss") == 0 ||
			  strcmp(m + n - 2, "pd") == 0 ||
			  strcmp(m + n - 2, "ps") == 0);
}

/* The arithmetic an instruction is, by its mnemonic: OP_* or 0. */
static int op_kind(ZydisMnemonic mn)
{
	const char *m = ZydisMnemonicGetString(mn);

	if (!m)
		return 0;
	if (m[0] == 'v')
		m++;
	if (strncmp(m, "fmadd", 5) == 0 || strncmp(m, "fmsub", 5) == 0 ||
	    strncmp(m, "fnmadd", 6) == 0 || strncmp(m, "fnmsub", 6) == 0)
		return OP_FMA;
	if (!ends_with_type(m))
		return 0;
	if (strncmp(m, "add", 3) == 0 || strncmp(m, "sub", 3) == 0)
		return OP_ADD;
	if (strncmp(m, "mul", 3) == 0)
		return OP_MUL;
	return 0;
}

/* The vector register reg is part of, 0..31, or -1. */
static int vreg(ZydisRegister reg)
{
	ZydisRegister z = ZydisRegisterGetLargestEnclosing(
		ZYDIS_MACHINE_MODE_LONG_64, reg);
	if (z >= ZYDIS_REGISTER_ZMM0 && z <= ZYDIS_REGISTER_ZMM31)
		return (int)(z - ZYDIS_REGISTER_ZMM0);
	if (z >= ZYDIS_REGISTER_YMM0 && z <= ZYDIS_REGISTER_YMM15)
		return (int)(z - ZYDIS_REGISTER_YMM0);
	return -1;
}

void rl_loop_chains_find(const ZydisDecoder *dec, const unsigned char *code,
			 uint64_t addr, uint64_t size,
			 const uint64_t (*range)[2], size_t n,
			 struct rl_loop_chains *out)
{
	unsigned char chain[32] = {0}, other[32] = {0};

	memset(out, 0, sizeof *out);
	for (size_t r = 0; r < n; r++) {
		uint64_t at = range[r][0];
		while (at < range[r][1] && at >= addr && at - addr < size) {
			ZydisDecodedInstruction in;
			ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
			int kind, dst = -1, dst_read = 0;
			if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(
				    dec, code + (at - addr), size - (at - addr),
				    &in, op)))
				return; /* unreadable: nothing known */
			kind = op_kind(in.mnemonic);
			/* an accumulating arithmetic instruction writes its
			 * first operand and reads it (as an operand, or again
			 * as a source) */
			if (kind && in.operand_count > 0 &&
			    op[0].type == ZYDIS_OPERAND_TYPE_REGISTER &&
			    (dst = vreg(op[0].reg.value)) >= 0) {
				dst_read = (op[0].actions &
					    ZYDIS_OPERAND_ACTION_MASK_READ) != 0;
				for (unsigned k = 1; k < in.operand_count; k++)
					if (op[k].type == ZYDIS_OPERAND_TYPE_REGISTER &&
					    vreg(op[k].reg.value) == dst &&
					    (op[k].actions &
					     ZYDIS_OPERAND_ACTION_MASK_READ))
						dst_read = 1;
			}
			for (unsigned k = 0; k < in.operand_count; k++) {
				int v;
				if (op[k].type != ZYDIS_OPERAND_TYPE_REGISTER ||
				    !(op[k].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE) ||
				    (v = vreg(op[k].reg.value)) < 0)
					continue;
				if (k == 0 && v == dst && dst_read)
					chain[v] |= (unsigned char)kind;
				else
					other[v] = 1;
			}
			at += in.length;
		}
	}
	out->known = 1;
	for (int v = 0; v < 32; v++) {
		if (!chain[v] || other[v])
			continue;
		if (chain[v] == OP_ADD)
			out->add++;
		else if (chain[v] == OP_MUL)
			out->mul++;
		else
			out->madd++;
	}
}

#endif
