/*
 * An MPI program for the MPI end-to-end tests: rank r runs the triad over
 * (r + 1) * N elements in region "triad" (so rank 1 does twice the work of
 * rank 0: a load imbalance), declares its flops and bytes, and the ranks
 * meet in a barrier in region "exchange".
 *
 *   mpi_triad [N] [--die RANK]
 *
 * --die RANK: that rank kills itself with SIGKILL after its triad (what the
 * kernel's out-of-memory killer does), before the barrier.
 */
#include <mpi.h>
#include <rlprof.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t n = 100000;
	int rank = 0, size = 1, die = -1;
	double *a, *b, *c, s = 3.0, sum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--die") == 0 && i + 1 < argc)
			die = atoi(argv[++i]);
		else
			n = strtoul(argv[i], NULL, 10);
	}
	n *= (size_t)rank + 1;
	a = malloc(n * sizeof *a);
	b = malloc(n * sizeof *b);
	c = malloc(n * sizeof *c);
	if (!a || !b || !c)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (size_t i = 0; i < n; i++) {
		b[i] = (double)i;
		c[i] = 1.0;
	}
	RL_REGION_BEGIN("triad");
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
	RL_REGION_END("triad");
	RL_REGION_EXPECT("triad", 2.0 * (double)n, 24.0 * (double)n);
	if (rank == die)
		kill(getpid(), SIGKILL);
	for (size_t i = 0; i < n; i++)
		sum += a[i];
	RL_REGION_BEGIN("exchange");
	MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM,
		      MPI_COMM_WORLD);
	RL_REGION_END("exchange");
	if (rank == 0)
		printf("sum %.0f over %d ranks\n", sum, size);
	free(a);
	free(b);
	free(c);
	MPI_Finalize();
	return 0;
}
