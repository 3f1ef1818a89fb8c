/* Reference for scripts/bench-probes: a STREAM-style triad with OpenMP,
 * built by the script with -O3 -march=native -fopenmp (never by make).
 * usage: stream_ref ELEMS TRIALS   (threads from OMP_NUM_THREADS)
 * prints the best triad GB/s at 24 B/element after one warm-up pass. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long n = atol(argv[1]);
	int trials = atoi(argv[2]);
	double *a = aligned_alloc(64, n * sizeof(double) + 64);
	double *b = aligned_alloc(64, n * sizeof(double) + 64);
	double *c = aligned_alloc(64, n * sizeof(double) + 64);
	if (!a || !b || !c || n < 1 || trials < 1)
		return 1;
	const double s = 3.0;
#pragma omp parallel for schedule(static)
	for (long i = 0; i < n; i++) {
		a[i] = 0;
		b[i] = 1;
		c[i] = 2;
	}
	double best = 1e30;
	for (int t = 0; t <= trials; t++) {
		double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
		for (long i = 0; i < n; i++)
			a[i] = b[i] + s * c[i];
		double dt = omp_get_wtime() - t0;
		if (t > 0 && dt < best)
			best = dt;
	}
	double check = 0;
	for (long i = 0; i < n; i += 4096)
		check += a[i];
	printf("%.3f %g\n", 24.0 * n / best / 1e9, check);
	return 0;
}
