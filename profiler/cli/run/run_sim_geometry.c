/* rlprof run -b sim: the simulated cache geometry when --sim-caches is not
 * given: from the cached machine model (profiler/machine/sim_geometry.h)
 * when one is usable, else from what the machine claims
 * (machine_claims.h). The counts never wait on a probe: with no model
 * cached, the probe for the report's roofs runs after the program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/machine_file.h"
#include "machine/machine_claims.h"
#include "cli/run/run.h"
#include "machine/sim_geometry.h"

#define ADVICE "give it with --sim-caches SIZE:WAYS,... from L1 out (e.g. " \
	       "48K:12,1M:16,32M:16)"

/* The geometry of what sysfs / CPUID claim, with why no model served. */
static int from_claims(struct rl_run_sim *sim, const char *no_model,
		       const struct rl_run_options *opt,
		       struct rl_sim_geometry *g, char *err, size_t errlen)
{
	struct rl_machine *m = calloc(1, sizeof *m);
	char why[512], absurd[256];
	int rc;

	if (!m)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	rc = rl_machine_from_claims(m, absurd, sizeof absurd, why, sizeof why);
	if (rc == 0)
		rc = rl_sim_geometry_derive(m, g, why, sizeof why);
	free(m);
	if (rc < 0)
		return rl_fail(
			err, errlen, RL_ENOENT,
			"no cache geometry for the simulator: no "
			"machine model (%s) and nothing claimed: %s; " ADVICE,
			no_model, why);
	sim->claims = true;
	if (absurd[0])
		rl_appendf(g->origin, sizeof g->origin,
			   ", claim not believed: %s", absurd);
	rl_run_say(opt,
		   "simulated caches as this machine claims them, "
		   "unmeasured (no usable machine model: %s)",
		   no_model);
	return 0;
}

int rl_run_sim_geometry(struct rl_run_sim *sim,
			const struct rl_run_model *model,
			const struct rl_run_options *opt,
			const struct rl_run_backend *backend, char *err,
			size_t errlen)
{
	const struct rl_machine *m = model->machine;
	struct rl_sim_geometry g;
	char why[1024], no_model[sizeof model->why];
	int rc;

	if (strcmp(rl_run_backend_name(backend), "sim") != 0 || opt->sim_caches)
		return 0;
	snprintf(no_model, sizeof no_model, "%s", model->why);
	if (!m || rl_sim_geometry_derive(m, &g, why, sizeof why) < 0) {
		if (m)
			snprintf(no_model, sizeof no_model,
				 "the machine model knows no cache sizes: %s",
				 why);
		if ((rc = from_claims(sim, no_model, opt, &g, err, errlen)) < 0)
			return rc;
	}
	snprintf(sim->caches, sizeof sim->caches, "%s", g.spec);
	snprintf(sim->origin, sizeof sim->origin, "%s", g.origin);
	return 0;
}
