/*
 * Writing one process's results file (formats/results.h) as a JSON
 * document: libc only, async-signal-tolerant (no malloc), so that the
 * runtime can flush from a fatal signal.
 */
#ifndef RL_RESULTS_WRITE_H
#define RL_RESULTS_WRITE_H

#include "formats/results.h"

/* 0, or a negative RL_E* code when a write failed. */
int rl_results_write_fd(int fd, const struct rl_process_results *r);

#endif
