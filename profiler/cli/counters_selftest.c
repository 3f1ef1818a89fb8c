/* rlprof counters --selftest: the known-answer check now, through the
 * best hardware backend here or the one named, as a table. */
#include <stdio.h>
#include <string.h>

#include "cli/backend_choice.h"
#include "cli/commands.h"
#include "cli/counters_selftest.h"
#include "counters/selftest/kat_kernels.h"
#include "results/selftest_run.h"

#define EXIT_NOTHING 77 /* as scripts/check-hw-counters: nothing to check */

static bool hardware(const struct rl_backend_probe *p)
{
	const char *n = p->backend->name;

	return p->capability >= RL_CAP_FLOPS &&
	       (!strcmp(n, "perf") || !strcmp(n, "papi") || !strcmp(n, "likwid"));
}

static void print(const char *name, const struct rl_selftest *st)
{
	printf("known-answer check through '%s' (%.3f s%s)\n", name,
	       st->seconds, st->cached ? ", from the cache" : "");
	printf("  %-18s %16s %16s %8s\n", "event", "counted", "expected",
	       "factor");
	for (size_t i = 0; i < st->n; i++) {
		const struct rl_selftest_item *it = &st->items[i];
		printf("  %-18s %16.0f %16.0f %8.3f  %s\n",
		       rl_counter_name(it->counter), it->counted, it->expected,
		       it->factor,
		       it->ok ? "ok" : "WRONG: not used for placement");
	}
	if (st->why[0])
		printf("  %s\n", st->why);
}

int rl_counters_selftest(const struct rl_backend_probe *probes, size_t n,
			 const char *named, bool use_cache)
{
	const struct rl_backend_probe *p = NULL, *perf = NULL;
	struct rl_selftest st;
	char err[512] = "";
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(probes[i].backend->name, "perf"))
			perf = &probes[i];
		if (named ? !strcmp(probes[i].backend->name, named)
			  : !p && hardware(&probes[i]))
			p = &probes[i];
	}
	if (named && !p) {
		fprintf(stderr, "rlprof counters: no backend '%s'; see "
				"'rlprof counters'\n", named);
		return RL_EXIT_USAGE;
	}
	if (!p || !hardware(p)) {
		printf("known-answer check: %s (%s: %s); its kernels alone "
		       "take %.3f s here\n",
		       p ? "this backend does not count hardware flops"
			 : "no backend counts hardware flops here",
		       p ? p->backend->name : "perf",
		       p ? p->why : perf ? perf->why : "?", rl_kat_run_alone());
		return EXIT_NOTHING;
	}
	if (rl_selftest_standalone(p->backend, "", use_cache ? "" : NULL, &st,
				   err, sizeof err) < 0) {
		fprintf(stderr, "rlprof counters: the known-answer check "
				"through '%s' cannot run: %s\n",
			p->backend->name, err);
		return RL_EXIT_FAILURE;
	}
	print(p->backend->name, &st);
	for (size_t i = 0; i < st.n; i++)
		bad += !st.items[i].ok;
	return bad ? RL_EXIT_FAILURE : RL_EXIT_OK;
}
