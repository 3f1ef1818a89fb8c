/*
 * For rlprof's own shims (profiler/mpi/: librlprof-mpi's PMPI wrappers),
 * not for programs: the calling thread enters and leaves an MPI call.
 * MPI calls are not the program's work: by default (RLPROF_MPI_CALLS
 * unset or "out") the backend stops counting the thread in between, when
 * it can (the simulator; struct rl_backend's pause), so the regions
 * around the call hold their own flops and bytes only. RLPROF_MPI_CALLS=in
 * (rlprof run --mpi-calls in) keeps the calls' work in the counts.
 * Calls nest (a wrapper calling another). Nothing happens when librlprof
 * is not active.
 */
#ifndef RL_MPI_CALLS_H
#define RL_MPI_CALLS_H

void rl_mpi_call_begin(void);
void rl_mpi_call_end(void);

#endif
