/* rl_machine_obtain: the cached machine model, or a quick probe now. */
#include <string.h>

#include "cli/machine_obtain.h"
#include "common/rl_error.h"
#include "probes/probe.h"

int rl_machine_obtain(struct rl_machine *m, int allow_probe, int *probed,
		      char *err, size_t errlen)
{
	char path[4096];
	path[0] = 0;
	if (probed)
		*probed = 0;
	int rc = rl_machine_load_cached(m, path, sizeof path, err, errlen);
	if (rc != RL_ENOENT || !allow_probe || !path[0])
		return rc;
	struct rl_probe_options o = { .quick = 1 };
	if ((rc = rl_probe_machine(&o, m, NULL, err, errlen)))
		return rc;
	if (probed)
		*probed = 1;
	/* a model that cannot be cached is still this run's model */
	char ignored[256];
	rl_machine_save(path, m, ignored, sizeof ignored);
	return 0;
}
