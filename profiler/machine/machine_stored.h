/*
 * The machine model stored with the results (machine_stored.c):
 * DIR/machine.json, written by rlprof run, read by rlprof report, in the
 * format of the cache file (machine.h).
 */
#ifndef RL_MACHINE_STORED_H
#define RL_MACHINE_STORED_H

#include <stddef.h>

#include "machine/machine_file.h"

#define RL_MACHINE_STORED_NAME "machine.json"

int rl_machine_stored_path(char *buf, size_t len, const char *dir);
int rl_machine_store(const char *dir, const struct rl_machine *m, char *err,
		     size_t errlen);
/* RL_ENOENT when DIR has none (results of an older rlprof). */
int rl_machine_load_stored(const char *dir, struct rl_machine *m, char *err,
			   size_t errlen);

#endif
