/* Loops per rank (tests/cli/test_e2e_loops.c): each MPI rank runs the
 * same triad, pass after pass, no annotation: 2 flops per element, N
 * elements a pass, so each rank counts 2 N x passes flops in the triad
 * loop, the run 2 x that on 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 65536
static double a[N], b[N], c[N];

int main(int argc, char **argv)
{
	long passes = argc > 1 ? atol(argv[1]) : 100;
	int rank = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (long i = 0; i < N; i++) { /* loop:mpi.init */
		b[i] = (double)i;
		c[i] = (double)(N - i);
	}
	for (long p = 0; p < passes; p++) /* loop:mpi.passes */
		for (long i = 0; i < N; i++) /* loop:mpi.triad */
			a[i] = b[i] + 3.0 * c[i];
	printf("rank %d: %g\n", rank, a[N / 2]);
	MPI_Finalize();
	return 0;
}
