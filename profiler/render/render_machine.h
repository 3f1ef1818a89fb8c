/*
 * The machine model for a person (render_machine.c): what `rlprof probe`
 * prints. The JSON form is the model file itself (machine/machine_file.h).
 */
#ifndef RL_RENDER_MACHINE_H
#define RL_RENDER_MACHINE_H

#include <stdio.h>

#include "analysis/roof_choice.h"
#include "formats/machine.h"
#include "probes/probe.h"

/* The roofs as a table: the machine line, bandwidth per level (1 thread
 * and all), doubts, cache levels, compute roofs, the clocks, and the
 * ridge points of the roofs the analysis chose (rl_roof_ridges); path
 * (may be NULL) is where the model is cached. */
void rl_render_machine_table(FILE *out, const struct rl_machine *m,
			     const char *path,
			     const struct rl_ridge_set *ridges);

/* One row per roof: roof,kind,precision,threads,value,unit,method. */
void rl_render_machine_csv(FILE *out, const struct rl_machine *m);

/* The triad sweeps of --levels, GB/s per thread per working set. */
void rl_render_probe_sweeps(FILE *out, const struct rl_probe_extra *x);

#endif
