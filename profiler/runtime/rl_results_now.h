/*
 * For rlprof's own shims (profiler/mpi/: librlprof-mpi), not for programs:
 * ends the process's measurement now and writes its results file, as at
 * exit. Regions still open are counted as open `when` ("at MPI_Finalize")
 * with a warning; later region calls are ignored, and the write at exit
 * is not repeated. Nothing happens when librlprof is not active (the
 * program was not started by rlprof run) or has written already.
 */
#ifndef RL_RESULTS_NOW_H
#define RL_RESULTS_NOW_H

void rl_results_write_now(const char *when);
/* The results folder rlprof run gave this process (RLPROF_OUT as the
 * runtime read it at start-up), or NULL: not under rlprof run, or under
 * secure execution (a setuid program), where nothing is written. */
const char *rl_results_dir(void);

#endif
