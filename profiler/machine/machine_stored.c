/*
 * The machine model stored with the results: DIR/machine.json, written by
 * rlprof run beside report.json, read back by rlprof report, so that a
 * report re-rendered later places the regions against the roofs they were
 * measured with, not against whatever the cache holds then (rlprof probe
 * --force changes the cache, never a results directory). Same format as
 * the cache file (machine.c's save and load).
 */
#include <stdio.h>

#include "machine/machine_stored.h"
#include "common/rl_error.h"

int rl_machine_stored_path(char *buf, size_t len, const char *dir)
{
	int n = snprintf(buf, len, "%s/%s", dir, RL_MACHINE_STORED_NAME);

	return n < 0 || (size_t)n >= len ? RL_EINVAL : 0;
}

int rl_machine_store(const char *dir, const struct rl_machine *m, char *err,
		     size_t errlen)
{
	char path[4096];

	if (rl_machine_stored_path(path, sizeof path, dir))
		return rl_fail(err, errlen, RL_EINVAL,
			       "the directory name '%s' is too long", dir);
	return rl_machine_save(path, m, err, errlen);
}

int rl_machine_load_stored(const char *dir, struct rl_machine *m, char *err,
			   size_t errlen)
{
	char path[4096];

	if (rl_machine_stored_path(path, sizeof path, dir))
		return rl_fail(err, errlen, RL_EINVAL,
			       "the directory name '%s' is too long", dir);
	return rl_machine_load(path, m, err, errlen);
}
