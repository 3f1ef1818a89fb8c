/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rs-trace: the simulator's cache model (counters/sim/rs_cache.c), built
 * natively, fed a synthetic access trace; prints the byte counters.
 *
 *   rs-trace CACHES BOUNDS MODE TRACE
 *     CACHES  as --sim-caches (48K:12,1M:8,32M:16)
 *     BOUNDS  cause | region | raw (as --sim-bounds)
 *     MODE    slow: every access through the helpers;
 *             mru: as generated code does, an access whose lines are
 *             among the two most recent of their L1 sets (rs_l1_mru)
 *             calls no helper, and rs_l1_last is written after it
 * Built twice: rs-trace, and rs-trace-full with RS_CACHE_CHECK_ALL, where
 * the helpers too walk the model for every access (the reference).
 *     TRACE   random: 3 x 10^6 loads, stores (8 or 32 B, some crossing
 *             lines), non-temporal stores and flushes, over 8 MiB, half
 *             of them strided streams;
 *             alias: streams whose lines share L1 sets (alias_trace);
 *             lru-nt: lines A, B, C of one L1 set of 2 ways: load A,
 *             B, A (now the most recent), a non-temporal store to A
 *             (invalidated, its way still the most recent), load C
 *             (evicts B), load B (a miss);
 *             stores:N: 8-byte stores over N bytes, in order;
 *             triad:N[:P]: a = b + s c over arrays of N bytes, 32-byte
 *             accesses, P passes (the streaming case, for timing);
 *             lru-cross: lines A, B, C of one L1 set of 2 ways: load A,
 *             B, the line before A (another set), then 32 bytes across
 *             that line into A (both among the most recent of their sets:
 *             no call; A is now the most recent), load C (evicts B),
 *             load A (a hit), load B (a miss);
 *             lru: lines A, B, C of one L1 set (2 ways or more): store A,
 *             load B, load A, flush, load C (evicts B, the least recently
 *             used), load A (a hit), load B (a miss)
 *
 * Prints "NAME BYTES" for the boundary counters (rs.h), one per line:
 * below_l1_read, below_l1_write, below_l2_..., below_l3_... .
 * tests/counters/sim/test_sim_cache.c compares the modes and checks known totals.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "counters/sim/rs.h"

/* What rs_cache.c takes from Valgrind's core and from rs_main.c. */
void *vgPlain_malloc(const HChar *cc, SizeT n)
{
	void *p = malloc(n);
	(void)cc;
	if (!p) {
		fprintf(stderr, "rs-trace: out of memory\n");
		exit(1);
	}
	return p;
}

UInt vgPlain_snprintf(HChar *buf, Int size, const HChar *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, (size_t)size, fmt, ap);
	va_end(ap);
	return (UInt)n;
}

ULong rs_live[RS_NSLOTS];

static int mru_mode;

static UWord mru_test(UWord line, int store)
{
	UWord m = rs_l1_mru[line & (RS_MRU_N - 1)];
	return store ? m ^ (line << RS_ENTRY_SHIFT | 1)
		     : (m >> RS_ENTRY_SHIFT) ^ line;
}

/* What emit_mru_miss and emit_mru_last (rs_instrument.c) generate
 * around a helper. */
static void access(Addr a, UWord size, int store)
{
	UWord first = a >> RS_LINE_SHIFT, last = (a + size - 1) >> RS_LINE_SHIFT;
	int small = size <= RS_ONE_LINE_TEST_MAX; /* one line tested */
	UWord miss = mru_test(first, store) |
		     (small ? first ^ last : mru_test(last, store));
	if (!mru_mode || miss) {
		if (store)
			rs_cache_write_slow(a, size);
		else
			rs_cache_read_slow(a, size);
	}
	if (mru_mode) {
		if (!small)
			rs_l1_last[first & rs_l1_last_mask] = first;
		rs_l1_last[last & rs_l1_last_mask] = last;
	}
}

static void random_trace(void)
{
	const UWord span = 8UL << 20;
	ULong seed = 12345;
	for (long i = 0; i < 3000000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		UWord r = (UWord)(seed >> 33);
		Addr a = 0x10000000 + ((r & 3) == 0
			? (r >> 3) % span                        /* random */
			: (UWord)(i * 8 * (long)(1 + r % 3)) % span); /* streams */
		UWord size = (r >> 5) % 3 == 0 ? 32 : 8;
		switch ((r >> 8) % 16) {
		case 0: rs_cache_write_nt(a, size); break;
		case 1: if ((r >> 12) % 64 == 0) rs_cache_flush(); break;
		case 2: case 3: case 4: case 5: case 6: access(a, size, 1); break;
		default: access(a, size, 0); break;
		}
	}
}

/* Two or three streams (by phases) over arrays 192 KiB apart, so that
 * their lines share the L1 sets of every hierarchy the tests use (gemm's
 * rows of B and C, STREAM's arrays at 4 KiB multiples), 16 B off the
 * line, loads and stores of 8 or 32 B (half of the 32 B ones crossing a
 * line), some non-temporal stores and flushes. */
static void alias_trace(void)
{
	const UWord apart = 3UL << 16, span = 1UL << 20;
	ULong seed = 777;
	for (long i = 0; i < 2000000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		UWord r = (UWord)(seed >> 33);
		UWord streams = (i / 50000) % 2 ? 3 : 2;
		UWord k = (r >> 2) % streams;
		Addr a = 0x10000000 + k * apart + 16 +
			 ((UWord)(i / 4) * 8 + (r & 1) * 32) % span;
		UWord size = (r >> 5) % 2 ? 32 : 8;
		switch ((r >> 8) % 32) {
		case 0: rs_cache_write_nt(a, size); break;
		case 1: if ((r >> 13) % 64 == 0) rs_cache_flush(); break;
		case 2: case 3: case 4: case 5: case 6: case 7: case 8:
		case 9: case 10: access(a, size, 1); break;
		default: access(a, size, 0); break;
		}
	}
}

/* Three lines of one set of the level l1. */
static void one_set_lines(const struct rs_level_spec *l1, Addr line[3])
{
	UWord sets = (UWord)(l1->size_bytes >> RS_LINE_SHIFT) / l1->ways;
	for (int k = 0; k < 3; k++)
		line[k] = 0x10000000 + ((UWord)k * sets << RS_LINE_SHIFT);
}

int main(int argc, char **argv)
{
	struct rs_level_spec spec[RS_MAX_LEVELS];
	HChar err[128];
	Int n;

	if (argc != 5) {
		fprintf(stderr, "usage: rs-trace CACHES cause|region|raw slow|mru random|alias|stores:N|lru|lru-nt|lru-cross\n");
		return 2;
	}
	n = rs_parse_caches(argv[1], spec, err, (Int)sizeof err);
	if (n == 0) {
		fprintf(stderr, "rs-trace: '%s': %s\n", argv[1], err);
		return 2;
	}
	rs_bounds = !strcmp(argv[2], "cause") ? RS_BOUNDS_CAUSE
		  : !strcmp(argv[2], "region") ? RS_BOUNDS_REGION : RS_BOUNDS_RAW;
	mru_mode = !strcmp(argv[3], "mru");
	rs_cache_init(spec, n);
	if (!strcmp(argv[4], "random")) {
		random_trace();
	} else if (!strcmp(argv[4], "alias")) {
		alias_trace();
	} else if (!strcmp(argv[4], "lru-nt")) {
		Addr line[3];
		one_set_lines(&spec[0], line);
		access(line[0], 8, 0);
		access(line[1], 8, 0);
		access(line[0], 8, 0);
		rs_cache_write_nt(line[0], 8);
		access(line[2], 8, 0);
		access(line[1], 8, 0);
	} else if (!strcmp(argv[4], "lru")) {
		Addr line[3];
		one_set_lines(&spec[0], line);
		access(line[0], 8, 1);
		access(line[1], 8, 0);
		access(line[0], 8, 0);
		rs_cache_flush();
		access(line[2], 8, 0);
		access(line[0], 8, 0);
		access(line[1], 8, 0);
	} else if (!strcmp(argv[4], "lru-cross")) {
		Addr line[3];
		one_set_lines(&spec[0], line);
		access(line[0], 8, 0);
		access(line[1], 8, 0);
		access(line[0] - 64, 8, 0);
		access(line[0] - 16, 32, 0); /* the line before, then A */
		access(line[2], 8, 0);
		access(line[0], 8, 0);
		access(line[1], 8, 0);
	} else if (!strncmp(argv[4], "triad:", 6)) {
		/* a[i] = b[i] + s * c[i], 32-byte vectors, arrays of N bytes
		 * 1 MiB + 64 B apart, PASSES times: the streaming case */
		char *end;
		UWord bytes = strtoul(argv[4] + 6, &end, 0);
		long passes = *end == ':' ? strtol(end + 1, NULL, 0) : 1;
		Addr b = 0x10000000, c = b + bytes + (1UL << 20) + 64,
		     a = c + bytes + (1UL << 20) + 64;
		for (long p = 0; p < passes; p++)
			for (UWord o = 0; o < bytes; o += 32) {
				access(b + o, 32, 0);
				access(c + o, 32, 0);
				access(a + o, 32, 1);
			}
	} else if (!strncmp(argv[4], "stores:", 7)) {
		UWord bytes = strtoul(argv[4] + 7, NULL, 0);
		for (UWord o = 0; o < bytes; o += 8)
			access(0x10000000 + o, 8, 1);
	} else {
		fprintf(stderr, "rs-trace: unknown trace '%s'\n", argv[4]);
		return 2;
	}
	for (int k = RS_B1_R; k <= RS_B3_W; k++)
		printf("below_l%d_%s %llu\n", 1 + (k - RS_B1_R) / 2,
		       (k - RS_B1_R) % 2 ? "write" : "read",
		       (unsigned long long)rs_live[k]);
	return 0;
}
