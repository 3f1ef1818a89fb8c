/*
 * Whether the table may be coloured by default (--color auto): only for
 * a terminal a person reads. Not when the output is not a terminal, not
 * when NO_COLOR is set to a non-empty value (https://no-color.org), not
 * when TERM is "dumb", and not in a rank of an MPI job: mpirun gives each
 * rank a pseudo-terminal whose output ends in a log (OMPI_COMM_WORLD_RANK,
 * PMIX_RANK or PMI_RANK in the environment).
 */
#ifndef RL_TERM_COLOR_H
#define RL_TERM_COLOR_H

#include <stdbool.h>

bool rl_term_color_auto(int fd);

#endif
