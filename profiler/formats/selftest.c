/* The known-answer check's tolerances (see selftest.h). */
#include "formats/selftest.h"

#include <math.h>

bool rl_selftest_within(int counter, double factor)
{
	double tol = rl_counter_kind_of(counter) == RL_KIND_BYTES
			     ? RL_SELFTEST_BYTES_TOL
			     : RL_SELFTEST_FLOPS_TOL;

	return isfinite(factor) && fabs(factor - 1) <= tol;
}

const struct rl_selftest_item *rl_selftest_find(const struct rl_selftest *st,
						int c)
{
	if (!st)
		return NULL;
	for (size_t i = 0; i < st->n; i++)
		if (st->items[i].counter == c)
			return &st->items[i];
	return NULL;
}
