/*
 * Reading a live results file (DIR/raw/.rlprof-<pid>.live, format in
 * profiler/formats/live.h): what a process that died without writing
 * its JSON results (SIGKILL, the out-of-memory killer, _exit()) had
 * measured. Completed calls are kept; begins never ended are open_at_exit.
 */
#ifndef RL_RESULTS_LIVE_H
#define RL_RESULTS_LIVE_H

#include <stddef.h>

#include "results/run_results.h"

/* Load path into out (which the caller releases with
 * rl_results_release). complete = false, signal = 0, no warnings; end_ns
 * is the file's last modification. 0, or a negative RL_E* code with a
 * message naming the file. */
int rl_results_live_load(const char *path, struct rl_process_results *out,
			 char *err, size_t errlen);

/* Calls completed in all threads of r (0: nothing worth keeping). */
unsigned long long rl_results_total_calls(const struct rl_process_results *r);

#endif
