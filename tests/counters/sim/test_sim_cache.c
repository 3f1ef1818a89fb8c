/* SPDX-License-Identifier: MIT */
/*
 * The simulator's cache model alone (counters/sim/rs_cache.c, built
 * natively as tests/simcache/rs-trace): the shortcut of generated code
 * and helpers (an access whose lines are among the two most recent of
 * their L1 sets calls no helper; the model learns their order later)
 * never changes a count against rs-trace-full, where every access walks
 * the model and compares the line with every way (no ways' bytes, see
 * rs_cache.c), for several hierarchies (one with an L1 whose set count is
 * not a power of two, ways from 1 to 24), every write-back mode, a random trace and streams
 * that share L1 sets; a store that misses L1, charged from what the fill
 * walk finds, and a dirty eviction trusting its hint are charged as a
 * search of every level would; a store stream over more than the caches
 * hold moves each of its lines once across every boundary; and a flush
 * (a counter read), a non-temporal store and an access across two lines
 * that generated code keeps inline leave the LRU order as it is.
 */
#include "tests/lib/run.h"

#define RS_TRACE RL_BUILD_DIR "/tests/simcache/rs-trace"
#define RS_TRACE_FULL RL_BUILD_DIR "/tests/simcache/rs-trace-full"

static char *trace_with(const char *bin, const char *caches,
			const char *bounds, const char *mode, const char *what)
{
	const char *argv[] = {bin, caches, bounds, mode, what, NULL};
	struct e2e_result r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "rs-trace %s %s %s %s: exit %d: %s", caches,
		     bounds, mode, what, r.status, r.err);
	free(r.err);
	return r.out;
}

static char *trace(const char *caches, const char *bounds, const char *mode,
		   const char *what)
{
	return trace_with(RS_TRACE, caches, bounds, mode, what);
}

/* bytes of counter NAME in rs-trace's output, -1 when absent */
static long long bytes(const char *out, const char *name)
{
	char key[32];
	snprintf(key, sizeof key, "%s ", name);
	for (const char *l = out; l && *l; l = strchr(l, '\n')) {
		if (*l == '\n')
			l++;
		if (strncmp(l, key, strlen(key)) == 0)
			return atoll(l + strlen(key));
	}
	return -1;
}

Test(sim_cache, mru_shortcut_changes_no_count)
{
	static const char *const caches[] = {
		"48K:12,1M:8,32M:16", "32K:8,256K:4", "4K:2,64K:16,1280K:20",
		"48K:12,2M:16,6M:24", "48K:12", "48K:8,512K:8",
		"8K:1,64K:4,256K:1"};
	static const char *const bounds[] = {"cause", "region", "raw"};
	static const char *const traces[] = {"random", "alias"};

	e2e_need(RS_TRACE);
	e2e_need(RS_TRACE_FULL);
	for (size_t c = 0; c < sizeof caches / sizeof *caches; c++)
		for (size_t b = 0; b < 3; b++)
			for (size_t t = 0; t < 2; t++) {
				char *slow = trace_with(RS_TRACE_FULL, caches[c],
							bounds[b], "slow",
							traces[t]);
				char *mru = trace(caches[c], bounds[b], "mru",
						  traces[t]);
				cr_expect_str_eq(mru, slow, "%s, bounds %s, %s: "
						 "with the shortcut\n%s\n"
						 "without\n%s", caches[c],
						 bounds[b], traces[t], mru, slow);
				cr_expect_gt(bytes(slow, "below_l1_read"), 0,
					     "%s, %s: no line read below L1:"
					     "\n%s", caches[c], traces[t], slow);
				free(slow);
				free(mru);
			}
}

Test(sim_cache, store_miss_charge_matches_a_search_first)
{
	/* Cause mode charges a store that misses L1 from what the fill walk
	 * finds below (and from the lines its write-backs push out) instead
	 * of searching every level first, and a dirty eviction looks for the
	 * line above only when its entry's hint says a level above may hold
	 * it; rs-trace-full searches every time. Small, few-way levels (one
	 * L2 smaller than its L1, so levels hold lines that the level above
	 * has not) push the stored line itself out during its own access,
	 * dirty or clean, before its walk has set the hints below, and leave
	 * it clean in one level and dirty in the next. */
	static const char *const caches[] = {
		"1K:2,2K:2,4K:2", "2K:4,1K:2,8K:4", "4K:4,2K:2,64K:8"};
	static const char *const traces[] = {"random", "alias"};

	e2e_need(RS_TRACE);
	e2e_need(RS_TRACE_FULL);
	for (size_t c = 0; c < sizeof caches / sizeof *caches; c++)
		for (size_t t = 0; t < 2; t++) {
			char *ref = trace_with(RS_TRACE_FULL, caches[c],
					       "cause", "slow", traces[t]);
			char *out = trace(caches[c], "cause", "slow",
					  traces[t]);
			cr_expect_str_eq(out, ref, "%s, %s: charged after the "
					 "walk\n%s\nsearched first\n%s",
					 caches[c], traces[t], out, ref);
			cr_expect_gt(bytes(ref, "below_l3_write"), 0,
				     "%s, %s: no line written below L3:\n%s",
				     caches[c], traces[t], ref);
			free(ref);
			free(out);
		}
}

Test(sim_cache, store_stream_moves_each_line_once)
{
	/* 64 MiB of stores through 48K + 1M + 4M: every line is read once
	 * (write-allocate) and written back once, at every boundary */
	static const char *const names[] = {
		"below_l1_read", "below_l1_write", "below_l2_read",
		"below_l2_write", "below_l3_read", "below_l3_write"};
	char *out;

	e2e_need(RS_TRACE);
	out = trace("48K:12,1M:8,4M:16", "cause", "mru", "stores:67108864");

	for (size_t k = 0; k < 6; k++)
		cr_expect_eq(bytes(out, names[k]), 67108864LL, "%s: %lld bytes, "
			     "want 67108864:\n%s", names[k], bytes(out, names[k]),
			     out);
	free(out);
}

/* rs-trace's trace what through a 2-way L1, in every write-back mode:
 * line reads and bytes written below L1, per mode (cause, region, raw) */
static void expect_lru(const char *what, long long reads,
		       const long long writes[3])
{
	static const char *const bounds[] = {"cause", "region", "raw"};

	e2e_need(RS_TRACE);
	for (size_t b = 0; b < 3; b++) {
		char *out = trace("4K:2", bounds[b], "mru", what);
		cr_expect_eq(bytes(out, "below_l1_read"), reads * 64,
			     "%s, bounds %s:\n%s", what, bounds[b], out);
		cr_expect_eq(bytes(out, "below_l1_write"), writes[b],
			     "%s, bounds %s:\n%s", what, bounds[b], out);
		free(out);
	}
}

Test(sim_cache, lru_order_survives_a_flush)
{
	/* A stored, B and A loaded, the counters read (a flush), C evicts
	 * B, A hits, B misses: 4 lines read from below L1; A was written
	 * once (charged at its store; at the flush with region; not yet with
	 * raw, as it is never evicted) */
	static const long long writes[3] = {64, 64, 0};
	expect_lru("lru", 4, writes);
}

Test(sim_cache, lru_order_survives_an_inline_access_across_lines)
{
	/* A, B and the line before A loaded, then 32 bytes across that line
	 * into A with no call (A the most recent, known to generated code
	 * only, through the second line's rs_l1_last), C evicts B, A hits,
	 * B misses: 5 lines read from below L1 (6 if the model took B for
	 * the most recent) */
	static const long long writes[3] = {0, 0, 0};
	expect_lru("lru-cross", 5, writes);
}

Test(sim_cache, lru_order_survives_a_non_temporal_store)
{
	/* A, B, A loaded (A the most recent, known to generated code only),
	 * a non-temporal store invalidates A (its emptied way keeps A's
	 * place, the most recent), C evicts B, the least recently used, B
	 * misses: 4 lines read from below L1 (3 if the model took B for the
	 * most recent); the store's 8 bytes go to DRAM */
	static const long long writes[3] = {8, 8, 8};
	expect_lru("lru-nt", 4, writes);
}
