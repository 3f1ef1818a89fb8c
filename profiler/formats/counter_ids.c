/* Names, units and kinds of the counters in counter_ids.h. */
#include "formats/counter_ids.h"

#include <string.h>

static const struct {
	const char *name;
	const char *unit;
	enum rl_counter_kind kind;
} rl_counter_table[RL_COUNTER_COUNT] = {
#define RL_COUNTER_ROW(id, name, unit, kind) {name, unit, kind},
	RL_COUNTERS(RL_COUNTER_ROW)
#undef RL_COUNTER_ROW
};

static const char *const rl_scope_names[] = {"thread", "system", "proxy",
					     "simulated"};

const char *rl_counter_name(enum rl_counter c)
{
	return (unsigned)c < RL_COUNTER_COUNT ? rl_counter_table[c].name : "?";
}

const char *rl_counter_unit(enum rl_counter c)
{
	return (unsigned)c < RL_COUNTER_COUNT ? rl_counter_table[c].unit : "?";
}

enum rl_counter_kind rl_counter_kind_of(enum rl_counter c)
{
	return (unsigned)c < RL_COUNTER_COUNT ? rl_counter_table[c].kind
					      : RL_KIND_EXTRA;
}

int rl_counter_from_name(const char *name)
{
	for (int i = 0; i < RL_COUNTER_COUNT; i++)
		if (strcmp(rl_counter_table[i].name, name) == 0)
			return i;
	return -1;
}

const char *rl_scope_name(enum rl_scope s)
{
	return (unsigned)s < sizeof rl_scope_names / sizeof *rl_scope_names
		       ? rl_scope_names[s]
		       : "?";
}

int rl_scope_from_name(const char *name)
{
	for (unsigned i = 0; i < sizeof rl_scope_names / sizeof *rl_scope_names;
	     i++)
		if (strcmp(rl_scope_names[i], name) == 0)
			return (int)i;
	return -1;
}

uint64_t rl_counter_kind_mask(enum rl_counter_kind k)
{
	/* one expression from the list, no loop over the table: the
	 * analysis asks four times a row (6% of rlprof report's time at
	 * 10^6 regions x 2 threads with the loop) */
#define RL_KIND_BIT(id, name, unit, kind)                                    \
	| ((uint64_t)((kind) == k) << RL_C_##id)
	return 0 RL_COUNTERS(RL_KIND_BIT);
#undef RL_KIND_BIT
}
