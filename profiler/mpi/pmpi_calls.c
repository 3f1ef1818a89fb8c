/*
 * librlprof-mpi: PMPI wrappers around the MPI calls a program spends its
 * communication in (point to point, completion, collectives). MPI calls
 * are not the program's work: each wrapper tells librlprof that the
 * thread enters and leaves MPI (rl_mpi_calls.h), so that a region around
 * an MPI_Allreduce holds its own flops and bytes, not those of the MPI
 * library's copies and of its progress engine spinning on a wait (under
 * the simulator, 0.5-6.6 MB of loads per call, different in every run).
 * `rlprof run --mpi-calls in` keeps them in. The time inside the calls
 * is the region's MPI time ("mpi_s" in the report) either way.
 */
#include <mpi.h>

#include "runtime/rl_mpi_calls.h"

#define PUBLIC __attribute__((visibility("default")))

/* loaded: the regions' MPI time is measured (their "mpi_ns") */
__attribute__((constructor)) static void rl_mpi_calls_load(void)
{
	rl_mpi_calls_present();
}

#define WRAP(name, params, args)                                      \
	PUBLIC int MPI_##name params                                  \
	{                                                             \
		int rc_;                                              \
		rl_mpi_call_begin();                                  \
		rc_ = PMPI_##name args;                               \
		rl_mpi_call_end();                                    \
		return rc_;                                           \
	}

WRAP(Send, (const void *b, int n, MPI_Datatype t, int d, int tag,
	    MPI_Comm c), (b, n, t, d, tag, c))
WRAP(Ssend, (const void *b, int n, MPI_Datatype t, int d, int tag,
	     MPI_Comm c), (b, n, t, d, tag, c))
WRAP(Recv, (void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c,
	    MPI_Status *st), (b, n, t, s, tag, c, st))
WRAP(Isend, (const void *b, int n, MPI_Datatype t, int d, int tag,
	     MPI_Comm c, MPI_Request *r), (b, n, t, d, tag, c, r))
WRAP(Irecv, (void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c,
	     MPI_Request *r), (b, n, t, s, tag, c, r))
WRAP(Sendrecv, (const void *sb, int sn, MPI_Datatype st, int d, int stag,
		void *rb, int rn, MPI_Datatype rt, int s, int rtag,
		MPI_Comm c, MPI_Status *status),
     (sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status))
WRAP(Wait, (MPI_Request *r, MPI_Status *st), (r, st))
WRAP(Waitall, (int n, MPI_Request r[], MPI_Status st[]), (n, r, st))
WRAP(Waitany, (int n, MPI_Request r[], int *i, MPI_Status *st),
     (n, r, i, st))
WRAP(Test, (MPI_Request *r, int *f, MPI_Status *st), (r, f, st))
WRAP(Testall, (int n, MPI_Request r[], int *f, MPI_Status st[]),
     (n, r, f, st))
WRAP(Probe, (int s, int tag, MPI_Comm c, MPI_Status *st), (s, tag, c, st))
WRAP(Iprobe, (int s, int tag, MPI_Comm c, int *f, MPI_Status *st),
     (s, tag, c, f, st))
WRAP(Barrier, (MPI_Comm c), (c))
WRAP(Bcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c),
     (b, n, t, root, c))
WRAP(Reduce, (const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op,
	      int root, MPI_Comm c), (sb, rb, n, t, op, root, c))
WRAP(Allreduce, (const void *sb, void *rb, int n, MPI_Datatype t,
		 MPI_Op op, MPI_Comm c), (sb, rb, n, t, op, c))
WRAP(Gather, (const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
	      MPI_Datatype rt, int root, MPI_Comm c),
     (sb, sn, st, rb, rn, rt, root, c))
WRAP(Scatter, (const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
	       MPI_Datatype rt, int root, MPI_Comm c),
     (sb, sn, st, rb, rn, rt, root, c))
WRAP(Allgather, (const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
		 MPI_Datatype rt, MPI_Comm c), (sb, sn, st, rb, rn, rt, c))
WRAP(Allgatherv, (const void *sb, int sn, MPI_Datatype st, void *rb,
		  const int rn[], const int disp[], MPI_Datatype rt,
		  MPI_Comm c), (sb, sn, st, rb, rn, disp, rt, c))
WRAP(Alltoall, (const void *sb, int sn, MPI_Datatype st, void *rb, int rn,
		MPI_Datatype rt, MPI_Comm c), (sb, sn, st, rb, rn, rt, c))
WRAP(Alltoallv, (const void *sb, const int sn[], const int sd[],
		 MPI_Datatype st, void *rb, const int rn[], const int rd[],
		 MPI_Datatype rt, MPI_Comm c),
     (sb, sn, sd, st, rb, rn, rd, rt, c))
WRAP(Reduce_scatter, (const void *sb, void *rb, const int rn[],
		      MPI_Datatype t, MPI_Op op, MPI_Comm c),
     (sb, rb, rn, t, op, c))
