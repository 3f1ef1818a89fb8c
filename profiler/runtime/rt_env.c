/*
 * The runtime's environment, read once (rt_env.h). The values are the
 * environment's own strings, taken when the runtime starts (its
 * constructor), before the program can change them.
 */
#include "runtime/rt_env.h"
#include "runtime/rl_results_now.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/auxv.h>

static const char *const names[RL_ENV_COUNT] = {
	[RL_ENV_OUT] = "RLPROF_OUT",
	[RL_ENV_RUN_ID] = "RLPROF_RUN_ID",
	[RL_ENV_BACKEND] = "RLPROF_BACKEND",
	[RL_ENV_BACKEND_OPTIONS] = "RLPROF_BACKEND_OPTIONS",
	[RL_ENV_WHOLE_PROGRAM] = "RLPROF_WHOLE_PROGRAM",
	[RL_ENV_CLOCK] = "RLPROF_CLOCK",
	[RL_ENV_SCOPE] = "RLPROF_SCOPE",
	[RL_ENV_MPI_CALLS] = "RLPROF_MPI_CALLS",
};

static const char *values[RL_ENV_COUNT];
static bool secure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
	secure = getauxval(AT_SECURE) != 0;
	for (int i = 0; i < RL_ENV_COUNT; i++)
		values[i] = secure ? NULL : secure_getenv(names[i]);
}

const char *rl_rt_env(enum rl_rt_env_var v)
{
	pthread_once(&once, read_env);
	return (unsigned)v < RL_ENV_COUNT ? values[v] : NULL;
}

bool rl_rt_env_secure(void)
{
	pthread_once(&once, read_env);
	return secure;
}

const char *rl_results_dir(void)
{
	const char *out = rl_rt_env(RL_ENV_OUT);
	return out && *out ? out : NULL;
}
