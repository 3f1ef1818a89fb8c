/*
 * For rlprof's own shims (profiler/mpi/: librlprof-mpi's PMPI wrappers),
 * not for programs: the calling thread enters and leaves an MPI call.
 * MPI calls are not the program's work: by default (RLPROF_MPI_CALLS
 * unset or "out") they are kept out of the counts, so the regions around
 * the call hold their own flops and bytes only: the backend stops
 * counting the thread in between (the simulator; struct rl_backend's
 * pause), or the runtime subtracts the thread's counts read at the
 * call's entry and exit (the other backends). RLPROF_MPI_CALLS=in
 * (rlprof run --mpi-calls in) keeps the calls' work in the counts.
 * Either way the time inside the calls is each region's MPI time. Calls
 * nest (a wrapper calling another). Nothing happens when librlprof is not
 * active.
 */
#ifndef RL_MPI_CALLS_H
#define RL_MPI_CALLS_H

/* librlprof-mpi is loaded (its constructor): regions get their MPI time
 * ("mpi_ns") in the results file, and the file says how MPI calls were
 * counted ("mpi_calls"). */
void rl_mpi_calls_present(void);
void rl_mpi_call_begin(void);
void rl_mpi_call_end(void);

#endif
