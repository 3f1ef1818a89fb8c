/*
 * The command side of struct rl_launch (counters/backend.h): building the
 * argv and the extra environment of the program `rlprof run` starts.
 * rl_launch_prepend() and rl_launch_setenv() (declared in backend.h) are
 * what backends call from prepare_launch().
 *
 * Ownership: the launch owns argv, env and every string in them;
 * rl_launch_release() frees them. libexec_dir, options and raw_dir are
 * borrowed from the caller and must outlive the launch.
 */
#ifndef RL_LAUNCH_H
#define RL_LAUNCH_H

#include <stdbool.h>

#include "counters/backend.h"

/* argv copied; argv[argc] becomes NULL. */
int rl_launch_init(struct rl_launch *l, char *const *argv, size_t argc);
void rl_launch_release(struct rl_launch *l);

/* The value set by rl_launch_setenv(), or NULL. */
const char *rl_launch_getenv(const struct rl_launch *l, const char *name);

/* A new NULL-terminated environment: base without the names the launch
 * sets and without the names in drop (NULL-terminated, may be NULL), then
 * the launch's entries. The array is malloc'd (free() it); its strings
 * are borrowed from base and the launch. NULL when out of memory. */
char **rl_launch_environ(const struct rl_launch *l, char *const *base,
			 const char *const *drop);

#endif
