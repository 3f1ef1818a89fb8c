/*
 * rlprof run: the known-answer check before a hardware-counted program
 * (results/selftest_run.h), through the backend and events the
 * program's launch will use; its result goes to run.json and the report.
 * Not for the simulator (exact by construction) nor time (no counters).
 */
#include <stdio.h>
#include <string.h>

#include "cli/run/run.h"
#include "results/selftest_run.h"

bool rl_run_selftest_applies(const struct rl_run_backend *backend)
{
	const struct rl_backend_probe *p = &backend->probes[backend->chosen];
	const char *name = p->backend->name;

	return p->capability >= RL_CAP_FLOPS &&
	       (strcmp(name, "perf") == 0 || strcmp(name, "papi") == 0 ||
		strcmp(name, "likwid") == 0);
}

void rl_run_selftest(struct rl_selftest *st,
		     const struct rl_run_options *opt,
		     const struct rl_run_backend *backend,
		     const struct rl_run_setup *setup)
{
	const struct rl_backend *be = backend->probes[backend->chosen].backend;
	char err[512] = "";
	size_t bad = 0;

	memset(st, 0, sizeof *st);
	if (!rl_run_selftest_applies(backend))
		return;
	if (opt->no_selftest) {
		snprintf(st->why, sizeof st->why, "not run: --no-selftest");
		return;
	}
	if (rl_selftest_for_launch(be, &setup->launch, setup->options,
				   "", st, err, sizeof err) < 0)
		snprintf(st->why, sizeof st->why, "not run: %s", err);
	for (size_t i = 0; i < st->n; i++)
		bad += !st->items[i].ok;
	if (!st->ran)
		fprintf(stderr, "rlprof: warning: the known-answer check of "
				"the counters did not run (%s): figures not "
				"checked\n",
			err);
	else
		rl_run_say(opt,
			   "known-answer check: %zu of %zu events within "
			   "tolerance (%.3f s%s)",
			   st->n - bad, st->n, st->seconds,
			   st->cached ? ", cached" : "");
}
