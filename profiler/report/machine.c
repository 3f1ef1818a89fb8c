/* Placeholder until the probes work lands: no model, lookups find nothing. */
#include <string.h>

#include "machine.h"
#include "rl_error.h"

int rl_machine_load(const char *path, struct rl_machine *m, char *err,
		    size_t errlen)
{
	memset(m, 0, sizeof *m);
	return rl_fail(err, errlen, RL_ENOTSUP, "cannot read '%s': machine models are not built yet", path);
}

int rl_machine_save(const char *path, const struct rl_machine *m, char *err,
		    size_t errlen)
{
	(void)m;
	return rl_fail(err, errlen, RL_ENOTSUP, "cannot write '%s': machine models are not built yet", path);
}

int rl_machine_cache_path(char *buf, size_t len, char *err, size_t errlen)
{
	(void)buf;
	(void)len;
	return rl_fail(err, errlen, RL_ENOTSUP, "machine models are not built yet");
}

int rl_machine_obtain(struct rl_machine *m, int allow_probe, int *probed,
		      char *err, size_t errlen)
{
	(void)allow_probe;
	memset(m, 0, sizeof *m);
	if (probed)
		*probed = 0;
	return rl_fail(err, errlen, RL_ENOTSUP, "machine models are not built yet");
}

const struct rl_bw_roof *rl_machine_bw(const struct rl_machine *m,
				       const char *level, unsigned threads)
{
	(void)m;
	(void)level;
	(void)threads;
	return NULL;
}

const struct rl_compute_roof *rl_machine_peak(const struct rl_machine *m,
					      const char *precision,
					      unsigned threads)
{
	(void)m;
	(void)precision;
	(void)threads;
	return NULL;
}

double rl_ridge(double peak_gflops, double bw_gbs)
{
	return peak_gflops / bw_gbs;
}
