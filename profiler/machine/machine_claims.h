/*
 * A machine model of what this machine claims, measured nothing: the CPU
 * (model name, ISA, logical CPUs this process may use, memory) and its
 * cache levels as sysfs says, else CPUID leaf 4 / 0x8000001D, read by the
 * calling process (under Valgrind the guest's CPUID is the simulator's,
 * so rlprof reads it, never the profiled program). No roofs: n_bw and
 * n_compute are 0, probed_at is "". -b sim takes its cache geometry from
 * it when no measured model is usable (run_sim_geometry.c).
 *
 * A claim that cannot be true here (rl_level_claims' "absurd": larger
 * than an eighth of the memory, a 1-way cache above 4 MiB, not larger
 * than the level above: a VM's CPUID) keeps its level with no size, so
 * the simulator does not model it and says why.
 */
#ifndef RL_MACHINE_CLAIMS_H
#define RL_MACHINE_CLAIMS_H

#include <stddef.h>

#include "machine/machine_file.h"

/* m filled (zeroed first). 0, or a negative code with the message when
 * the CPU cannot be read at all; *absurd (may be NULL) receives the
 * levels whose claim was not believed, "" when none ("L3 508 MiB
 * 1-way"). */
int rl_machine_from_claims(struct rl_machine *m, char *absurd,
			   size_t absurdlen, char *err, size_t errlen);

#endif
