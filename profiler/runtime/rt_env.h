/*
 * librlprof's one reader of the environment (rt_env.c). Every setting
 * the runtime takes from the environment is read here, once, at start-up,
 * with secure_getenv: under secure execution (AT_SECURE: a setuid or
 * setgid program, or one with file capabilities) every entry reads as
 * unset, so such a program stays inactive and writes nothing where its
 * caller points it. Not installed.
 */
#ifndef RL_RT_ENV_H
#define RL_RT_ENV_H

#include <stdbool.h>

enum rl_rt_env_var {
	RL_ENV_OUT,             /* RLPROF_OUT: the results folder */
	RL_ENV_RUN_ID,          /* RLPROF_RUN_ID */
	RL_ENV_BACKEND,         /* RLPROF_BACKEND */
	RL_ENV_BACKEND_OPTIONS, /* RLPROF_BACKEND_OPTIONS */
	RL_ENV_WHOLE_PROGRAM,   /* RLPROF_WHOLE_PROGRAM */
	RL_ENV_CLOCK,           /* RLPROF_CLOCK */
	RL_ENV_SCOPE,           /* RLPROF_SCOPE */
	RL_ENV_MPI_CALLS,       /* RLPROF_MPI_CALLS */
	RL_ENV_COUNT
};

/* The value of v as the process started (NULL: unset, or secure
 * execution); read once, later changes to the environment are not seen. */
const char *rl_rt_env(enum rl_rt_env_var v);
/* Whether the process runs under secure execution (AT_SECURE). */
bool rl_rt_env_secure(void);

#endif
