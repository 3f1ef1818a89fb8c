/* SPDX-License-Identifier: MIT */
/*
 * The --sim-caches text, "48K:12,1M:8,32M:16" (SIZE:WAYS per level, K, M
 * or G suffixes, 64-byte lines; "L1=48K:12" as the command's help writes it
 * is read too): parsed in one place for both sides, the sim backend in
 * librlprof (counters/backend_sim.c) and the Valgrind tool
 * (counters/sim/rs_cache.c), which is built without libc: so this is plain
 * C in a header, no library call. Each side words its own message from
 * the result.
 */
#ifndef RL_FORMATS_SIM_CACHES_H
#define RL_FORMATS_SIM_CACHES_H

#include "formats/sim_protocol.h"

struct rl_sim_cache_level {
	unsigned long long size_bytes;
	unsigned ways;
};

enum rl_sim_caches_error {
	RL_SIM_CACHES_SYNTAX = -1,   /* not SIZE:WAYS, or no level at all */
	RL_SIM_CACHES_TOO_MANY = -2, /* more than RS_MAX_LEVELS levels */
	RL_SIM_CACHES_SHAPE = -3,    /* 0 or over 64 ways, or a size that is
					not a multiple of ways x 64 B */
};

/* A decimal number with an optional K/M/G suffix at *s, advanced past it;
 * 0 digits read, or a value over 2^50, leave *s where it was. */
static inline int rl_sim_caches_size(const char **s,
				     unsigned long long *out)
{
	const char *p = *s;
	unsigned long long v = 0;
	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (unsigned long long)(*p++ - '0');
		if (v > (1ull << 50))
			return 0;
	}
	if (p == *s)
		return 0;
	if (*p == 'K' || *p == 'k')
		v <<= 10, p++;
	else if (*p == 'M' || *p == 'm')
		v <<= 20, p++;
	else if (*p == 'G' || *p == 'g')
		v <<= 30, p++;
	*s = p;
	*out = v;
	return 1;
}

/* The level count (1..RS_MAX_LEVELS) with lv[] filled, or a negative
 * enum rl_sim_caches_error; *level (may be NULL) gets the 1-based level
 * at fault. */
static inline int rl_sim_caches_parse(const char *text,
				      struct rl_sim_cache_level *lv,
				      int *level)
{
	const char *s = text;
	int n = 0;
	while (*s) {
		unsigned long long size, ways;
		if (level)
			*level = n + 1;
		if (n == RS_MAX_LEVELS)
			return RL_SIM_CACHES_TOO_MANY;
		if ((s[0] == 'L' || s[0] == 'l') && s[1] >= '1' &&
		    s[1] <= '9' && s[2] == '=')
			s += 3;
		if (!rl_sim_caches_size(&s, &size) || *s != ':')
			return RL_SIM_CACHES_SYNTAX;
		s++;
		if (!rl_sim_caches_size(&s, &ways) || s[-1] < '0' ||
		    s[-1] > '9' || (*s != ',' && *s != '\0'))
			return RL_SIM_CACHES_SYNTAX;
		if (ways == 0 || ways > 64 || size == 0 ||
		    size % (64ull * ways) != 0)
			return RL_SIM_CACHES_SHAPE;
		lv[n].size_bytes = size;
		lv[n].ways = (unsigned)ways;
		n++;
		if (*s)
			s++;
	}
	if (level)
		*level = n;
	return n ? n : RL_SIM_CACHES_SYNTAX;
}

/* The inverse of rl_sim_caches_size for one size: "48K", "2M", or bytes,
 * the shortest suffix that keeps it exact, into buf (len >= 24), always
 * terminated. Written for both sides: the command names the levels it
 * passes (counters/backend_sim.c) and the geometry it derives
 * (machine/sim_geometry.c). */
static inline void rl_sim_caches_size_text(unsigned long long b, char *buf,
					   unsigned long len)
{
	char digits[24];
	int n = 0;
	unsigned long i = 0;
	char suffix = 0;

	if (len == 0)
		return;
	if (b % (1ull << 20) == 0)
		b >>= 20, suffix = 'M';
	else if (b % 1024 == 0)
		b >>= 10, suffix = 'K';
	do
		digits[n++] = (char)('0' + b % 10);
	while ((b /= 10) && n < (int)sizeof digits);
	while (n > 0 && i + 1 < len)
		buf[i++] = digits[--n];
	if (suffix && i + 1 < len)
		buf[i++] = suffix;
	buf[i] = '\0';
}

#endif
