/*
 * The known-answer check of a hardware-counted run (results/selftest_run.c
 * runs it, DIR/run.json's "selftest" carries it, the analysis marks and
 * withholds what it caught: analysis/report_trust.h). Plain data.
 */
#ifndef RL_SELFTEST_H
#define RL_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/counter_ids.h"

#define RL_SELFTEST_FLOPS_TOL 0.01 /* |factor - 1| a flops event may read */
#define RL_SELFTEST_BYTES_TOL 0.10 /* ... and a DRAM bytes event */

/* One counter over the check's kernels. */
struct rl_selftest_item {
	int counter;      /* enum rl_counter */
	double counted;   /* what the backend counted (scaled) */
	double expected;  /* the kernels' known answer */
	double factor;    /* counted / expected; INFINITY when expected is 0
			     and something was counted */
	bool ok;          /* within its tolerance */
};

struct rl_selftest {
	bool ran;         /* false: not run (why says) */
	bool cached;      /* taken from the cache, not run now */
	double seconds;   /* what it cost this run (the cache lookup when
			     cached) */
	size_t n;
	struct rl_selftest_item items[RL_COUNTER_COUNT];
	char why[160];    /* when not run, or what was left unchecked */
};

/* |factor - 1| within the tolerance of the counter's kind (flops 1%,
 * bytes 10%). */
bool rl_selftest_within(int counter, double factor);

/* The item of counter c, NULL when the check did not cover it. */
const struct rl_selftest_item *rl_selftest_find(const struct rl_selftest *st,
						int c);

#endif
