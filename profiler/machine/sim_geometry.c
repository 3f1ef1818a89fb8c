/*
 * The simulated PMU's default cache geometry from the machine model
 * (rules in sim_geometry.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/rl_error.h"
#include "formats/sim_caches.h"
#include "machine/sim_geometry.h"

#define LINE_BYTES 64u
#define ASSUMED_WAYS 16u
#define MUCH_SMALLER 4 /* measured below claimed / 4: simulate measured */

/* "48 KiB", "2 MiB", "66.8 MiB" */
static void human(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", b >> 20);
	else if (b >= (1u << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1u << 20));
	else if (b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64 " B", b);
}

/* ways x 64 B x 2^k nearest b by ratio (0 when b < ways x 64 B): a
 * plateau measured at 61 and at 67 MiB (two probes of one 2-vCPU guest)
 * is simulated as 64 MiB both times, where the largest not above it gave
 * 32 and 64, and the DRAM bytes counted for a 40 MiB working set
 * depended on the probe; the simulated size is within sqrt(2) of the
 * plateau, not within 2. */
static uint64_t round_pow2_sets(uint64_t b, unsigned ways)
{
	uint64_t sets = b / ((uint64_t)ways * LINE_BYTES), p = 1;
	if (sets == 0)
		return 0;
	while (p * 2 <= sets)
		p *= 2;
	/* sets / p >= sqrt(2): 2p is the nearer, as 2 p^2 <= sets^2 */
	if ((double)sets * (double)sets >= 2.0 * (double)p * (double)p)
		p *= 2;
	return p * ways * LINE_BYTES;
}

static const char *source_of(const struct rl_cache_level *l)
{
	return l->source[0] && strcmp(l->source, "none") != 0 ? l->source
							      : "claimed";
}

/* One level: its size, ways and origin clause; 0 when unknown. */
static uint64_t derive_level(const struct rl_cache_level *l, unsigned *ways,
			     char *why, size_t wlen)
{
	char c[32], e[32];
	uint64_t claimed = l->claimed_bytes, eff = l->effective_bytes, size;
	why[0] = '\0';
	*ways = l->ways >= 2 ? l->ways : ASSUMED_WAYS;
	human(claimed, c, sizeof c);
	human(eff, e, sizeof e);
	if (claimed && (!eff || eff >= claimed / MUCH_SMALLER)) {
		size = claimed - claimed % ((uint64_t)*ways * LINE_BYTES);
		rl_appendf(why, wlen, "%s", source_of(l));
		if (size != claimed)
			rl_appendf(why, wlen, " claims %s, rounded to ways x 64 B", c);
		if (!eff)
			rl_appendf(why, wlen, ", no plateau measured");
	} else if (eff) {
		size = round_pow2_sets(eff, *ways);
		rl_appendf(why, wlen, "measured plateau %s", e);
		if (claimed)
			rl_appendf(why, wlen, ", %s claims %s", source_of(l), c);
		else
			rl_appendf(why, wlen, ", no size claimed");
	} else {
		return 0;
	}
	if (l->ways < 2)
		rl_appendf(why, wlen, ", %u ways assumed (%s)", *ways,
		       l->ways ? "1-way claimed" : "ways unknown");
	return size;
}

int rl_sim_geometry_derive(const struct rl_machine *m,
			   struct rl_sim_geometry *g, char *err,
			   size_t errlen)
{
	char skipped[256] = "";
	memset(g, 0, sizeof *g);
	if (!m)
		return rl_fail(err, errlen, RL_ENOENT, "no machine model");
	size_t n = m->n_levels < RL_MACHINE_MAX_LEVELS ? m->n_levels
						       : RL_MACHINE_MAX_LEVELS;
	if (n == 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "the machine model has no cache levels");
	for (size_t i = 0; i < n; i++) {
		const struct rl_cache_level *l = &m->levels[i];
		char why[160], s[32];
		unsigned ways;
		uint64_t size = derive_level(l, &ways, why, sizeof why);
		const char *name = l->level[0] ? l->level : "L?";
		if (g->n == RL_SIM_GEOMETRY_LEVELS) {
			rl_appendf(skipped, sizeof skipped,
			       ", %s not simulated (3 levels at most)", name);
			continue;
		}
		if (size == 0) {
			if (g->n == 0)
				return rl_fail(err, errlen, RL_ENOENT,
					       "the machine model knows no "
					       "size for %s", name);
			rl_appendf(skipped, sizeof skipped,
			       ", %s and below not simulated (%s size "
			       "unknown)", name, name);
			break;
		}
		if (g->n > 0 && size <= g->size_bytes[g->n - 1]) {
			human(size, s, sizeof s);
			rl_appendf(skipped, sizeof skipped,
			       ", %s not simulated (%s, not larger than the "
			       "level above)", name, s);
			continue;
		}
		g->size_bytes[g->n] = size;
		g->ways[g->n] = ways;
		human(size, s, sizeof s);
		rl_appendf(g->origin, sizeof g->origin, "%s%s %s:%u (%s)",
		       g->n ? ", " : "", name, s, ways, why);
		rl_sim_caches_size_text(size, s, sizeof s);
		rl_appendf(g->spec, sizeof g->spec, "%s%s:%u", g->n ? "," : "", s,
		       ways);
		g->n++;
	}
	rl_appendf(g->origin, sizeof g->origin, "%s", skipped);
	return 0;
}
