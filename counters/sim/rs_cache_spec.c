/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rlprofsim: the cache levels given as text (--caches=48K:12,1M:8,...)
 * read into the specs the cache model (rs_cache.c) starts from. The
 * grammar is rlprof's own (profiler/formats/sim_caches.h), shared with
 * the command side; the tool (rs_main.c) and tests/simcache's rs-trace
 * read the option with it.
 */
#include "counters/sim/rs.h"
#include "pub_tool_libcprint.h"

Int rs_parse_caches(const HChar *text, struct rs_level_spec *spec,
		    HChar *err, Int errlen)
{
	struct rl_sim_cache_level got[RS_MAX_LEVELS];
	int level = 0, n = rl_sim_caches_parse(text, got, &level);

	for (Int i = 0; i < n; i++) {
		spec[i].size_bytes = got[i].size_bytes;
		spec[i].ways = got[i].ways;
	}
	if (n == RL_SIM_CACHES_TOO_MANY)
		VG_(snprintf)(err, errlen, "more than %d levels",
			      RS_MAX_LEVELS);
	else if (n == RL_SIM_CACHES_SHAPE)
		VG_(snprintf)(err, errlen,
			      "level %d: the size must be a multiple of ways "
			      "x 64 B (1 to 64 ways)", level);
	else if (n < 0 && level == 0)
		VG_(snprintf)(err, errlen, "no cache level");
	else if (n < 0)
		VG_(snprintf)(err, errlen, "level %d: expected SIZE:WAYS",
			      level);
	return n < 0 ? 0 : n;
}
