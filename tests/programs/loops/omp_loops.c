/* Loops per thread (tests/cli/test_e2e_loops.c): a 2-thread OpenMP
 * triad, pass after pass, no annotation. The triad loop (in the function
 * GCC outlines, main._omp_fn.0) does 2 flops per element, N elements a
 * pass split evenly between the 2 threads (static schedule): each thread
 * counts N x passes flops, both 2 N x passes. */
#include <stdio.h>
#include <stdlib.h>

#define N 65536
static double a[N], b[N], c[N];

int main(int argc, char **argv)
{
	long passes = argc > 1 ? atol(argv[1]) : 100;

	for (long i = 0; i < N; i++) { /* loop:omp.init */
		b[i] = (double)i;
		c[i] = (double)(N - i);
	}
	for (long p = 0; p < passes; p++) { /* loop:omp.passes */
#pragma omp parallel for num_threads(2) schedule(static)
		for (long i = 0; i < N; i++) /* loop:omp.triad */
			a[i] = b[i] + 3.0 * c[i];
	}
	printf("%g\n", a[N / 2]);
	return 0;
}
