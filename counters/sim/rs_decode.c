/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the few facts the IR does not carry, read from the guest
 * instruction's bytes at its IMark: a non-temporal store (movnt*,
 * maskmov*), the VEX vector length, (v)addsubp* and (v)dpp*.
 *
 * Only legacy prefixes, REX, the 0F/0F38/0F3A maps and the two VEX forms
 * are decoded: enough to find the opcode. EVEX (0x62) never reaches here
 * (Valgrind 3.19 stops on it with SIGILL).
 */
#include "counters/sim/rs.h"
#include "pub_tool_libcbase.h"

static Bool is_legacy_prefix(UChar c)
{
	switch (c) {
	case 0x26: case 0x2E: case 0x36: case 0x3E: case 0x64: case 0x65:
	case 0x67: case 0xF0:
		return True;
	default:
		return False;
	}
}

void rs_decode(const UChar *b, UInt len, struct rs_insn *o)
{
	UInt i = 0, map = 0, pp = 0, op = 0;
	Bool vex = False;

	VG_(memset)(o, 0, sizeof *o);
	for (; i < len; i++) {
		if (b[i] == 0x66) {
			if (pp == 0)
				pp = 1;
		} else if (b[i] == 0xF3) {
			pp = 2;
		} else if (b[i] == 0xF2) {
			pp = 3;
		} else if (!is_legacy_prefix(b[i])) {
			break;
		}
	}
	if (i < len && (b[i] & 0xF0) == 0x40)
		i++; /* REX */
	if (i + 2 < len && b[i] == 0xC5) {
		vex = True;
		o->vex_256 = (b[i + 1] >> 2) & 1;
		pp = b[i + 1] & 3;
		map = 1;
		op = b[i + 2];
	} else if (i + 3 < len && b[i] == 0xC4) {
		vex = True;
		map = b[i + 1] & 0x1F;
		o->vex_256 = (b[i + 2] >> 2) & 1;
		pp = b[i + 2] & 3;
		op = b[i + 3];
	} else if (i + 1 < len && b[i] == 0x0F) {
		if (i + 2 < len && b[i + 1] == 0x38) {
			map = 2;
			op = b[i + 2];
		} else if (i + 2 < len && b[i + 1] == 0x3A) {
			map = 3;
			op = b[i + 2];
		} else {
			map = 1;
			op = b[i + 1];
		}
	}
	if (map == 1) {
		/* movntps/pd/ss/sd 0F 2B, movntq/movntdq 0F E7, movnti 0F C3,
		 * maskmovq/maskmovdqu 0F F7, and their VEX forms. */
		o->nt_store = op == 0x2B || op == 0xE7 || op == 0xC3 ||
			      op == 0xF7;
		/* addsubpd 66 0F D0, addsubps F2 0F D0 */
		o->addsub = op == 0xD0 && (pp == 1 || pp == 3);
	} else if (map == 2 && vex && pp == 1 && op >= 0x90 && op <= 0x93) {
		/* vgatherdp[sd], vgatherqp[sd], vpgather[dq][dq] */
		o->gather = True;
	} else if (map == 3 && pp == 1 && (op == 0x40 || op == 0x41)) {
		/* dpps 66 0F 3A 40, dppd 66 0F 3A 41: counted as Intel's
		 * FP_ARITH counters do, 2 flops per element of the vector
		 * whatever the mask (the imm8); vdpps ymm works on 2 lanes */
		Int elems = op == 0x41 ? 2 : 4;
		if (o->vex_256)
			elems *= 2;
		o->dpp_flops = 2 * elems;
		o->dpp_prec = op == 0x41 ? 0 : 1;
	}
}
