/*
 * The machine model file: read, written, cached in $XDG_CACHE_HOME/rlprof/
 * (or ~/.cache/rlprof/) keyed by CPU model, core count and memory size,
 * and the lookups the report uses. The data and its conventions are
 * formats/machine.h. Nothing here measures: deciding to probe when there
 * is no model is the command's (cli/machine_obtain.h).
 */
#ifndef RL_MACHINE_H
#define RL_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/machine.h"

int rl_machine_load(const char *path, struct rl_machine *m, char *err,
		    size_t errlen);
int rl_machine_save(const char *path, const struct rl_machine *m, char *err,
		    size_t errlen);
/* The cache file for this machine (creates no directory). */
int rl_machine_cache_path(char *buf, size_t len, char *err, size_t errlen);

/* The model for this machine: the cached one when it exists and parses,
 * else (allow_probe != 0) a quick probe, cached for next time. Prints
 * nothing; *probed is set to 1 when it had to probe. */
/* The cached model of this machine (rl_machine_cache_path): 0, or
 * RL_ENOENT with a message when there is none or it is from an older
 * rlprof (it lacks fields the analysis needs: 'rlprof probe --force'),
 * or the error of a corrupt or newer file. On failure *m is zeroed;
 * *path (may be NULL) gets the cache path when it could be made. */
int rl_machine_load_cached(struct rl_machine *m, char *path, size_t pathlen,
			   char *err, size_t errlen);

/* ridge = peak / bandwidth, flop/byte */
double rl_ridge(double peak_gflops, double bw_gbs);

#endif
