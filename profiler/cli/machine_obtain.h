/*
 * The machine model a command works with: the cached one, or, when there
 * is none (or it is from an older rlprof) and the command may measure, a
 * quick probe now, cached for next time. A corrupt file or one from a
 * newer rlprof is never overwritten behind the user's back: its error
 * comes back and 'rlprof probe --force' replaces it.
 */
#ifndef RL_CLI_MACHINE_OBTAIN_H
#define RL_CLI_MACHINE_OBTAIN_H

#include "machine/machine_file.h"

/* 0, or a negative RL_E* code with a message; *probed (may be NULL) is 1
 * when the model was measured now. */
int rl_machine_obtain(struct rl_machine *m, int allow_probe, int *probed,
		      char *err, size_t errlen);

#endif
