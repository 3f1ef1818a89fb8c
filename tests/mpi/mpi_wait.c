/*
 * An MPI program for the MPI-time tests (test_e2e_mpi_time.c): rank 0
 * computes longer than the others, then the ranks meet.
 *
 *   mpi_wait [N]
 *
 * "work":  rank 0 does 8 N dependent adds, the others N (2 flops an
 *          iteration: 16 N and 2 N flops), no MPI call;
 * "dot":   a dot product of N elements (2 N flops, its own) and one
 *          MPI_Allreduce of its sum: placed by its own arithmetic, its MPI
 *          time beside it;
 * "sync":  one MPI_Allreduce and nothing else: its work is all MPI; the
 *          ranks other than 0 wait in it for rank 0, which arrives last
 *          (its "work" was 8 times theirs).
 */
#include <mpi.h>
#include <rlprof.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int rank = 0, size = 1;
	volatile double sink;
	double x = 1.0, y = 0.5, dot = 0, one = 1;
	double *a, *b;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	a = malloc((size_t)n * sizeof *a);
	b = malloc((size_t)n * sizeof *b);
	if (!a || !b)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (long i = 0; i < n; i++) {
		a[i] = 1.0;
		b[i] = 0.5;
	}

	RL_REGION_BEGIN("work");
	for (long i = 0, m = rank == 0 ? 8 * n : n; i < m; i++)
		x = x * 0.999999 + y; /* each on the last result: 2 flops */
	RL_REGION_END("work");
	sink = x;

	RL_REGION_BEGIN("sync");
	MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_DOUBLE, MPI_SUM,
		      MPI_COMM_WORLD);
	RL_REGION_END("sync");

	RL_REGION_BEGIN("dot");
	for (long i = 0; i < n; i++)
		dot = dot + a[i] * b[i];
	MPI_Allreduce(MPI_IN_PLACE, &dot, 1, MPI_DOUBLE, MPI_SUM,
		      MPI_COMM_WORLD);
	RL_REGION_END("dot");

	if (rank == 0)
		printf("dot %.1f sync %.0f over %d ranks\n", dot, one, size);
	(void)sink;
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
