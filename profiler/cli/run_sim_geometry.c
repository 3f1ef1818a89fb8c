/* rlprof run -b sim: the simulated cache geometry when --sim-caches is not
 * given, derived from the machine model (profiler/model/sim_geometry.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/machine.h"
#include "cli/machine_obtain.h"
#include "cli/run.h"
#include "model/sim_geometry.h"

#define ADVICE "give it with --sim-caches SIZE:WAYS,... from L1 out (e.g. " \
	       "48K:12,1M:16,32M:16)"

int rl_run_sim_geometry(struct rl_run *run, char *err, size_t errlen)
{
	struct rl_machine *m;
	struct rl_sim_geometry g;
	char why[1024];
	int probed = 0, rc;

	if (strcmp(run->probes[run->chosen].backend->name, "sim") != 0 ||
	    run->opt.sim_caches)
		return 0;
	if (!(m = calloc(1, sizeof *m)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	rc = rl_machine_obtain(m, 0, &probed, why, sizeof why);
	if (rc == RL_ENOENT && !run->opt.no_probe) {
		rl_run_say(run, "no machine model cached: probing this machine "
			   "(--quick) for the simulated cache geometry...");
		rc = rl_machine_obtain(m, 1, &probed, why, sizeof why);
	}
	if (rc < 0) {
		free(m);
		return rl_fail(err, errlen, RL_ENOENT,
			       "no cache geometry for the simulator: %s; or "
			       ADVICE, why);
	}
	rc = rl_sim_geometry_derive(m, &g, why, sizeof why);
	free(m);
	if (rc < 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "no cache geometry for the simulator: %s: run "
			       "'rlprof probe --force', or " ADVICE, why);
	snprintf(run->sim_caches, sizeof run->sim_caches, "%s", g.spec);
	snprintf(run->sim_origin, sizeof run->sim_origin, "%s", g.origin);
	return 0;
}
