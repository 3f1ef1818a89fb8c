/* Loops of an OpenMP team inside an annotated region
 * (tests/cli/test_e2e_loops.c): the main thread opens "triad" around
 * the passes, each a `parallel for` of 2 threads over N elements of
 * 2 flops (static schedule: N/2 each). The region's counts hold both
 * threads' work (process scope), so the triad loop (in the function GCC
 * outlines, main._omp_fn.0) is the region's on both threads: N x passes
 * flops each, 2 N x passes in all. The init loop runs before the region:
 * its parent is <program>. */
#include <stdio.h>
#include <stdlib.h>

#include <rlprof.h>

#define N 65536
static double a[N], b[N], c[N];

int main(int argc, char **argv)
{
	long passes = argc > 1 ? atol(argv[1]) : 100;

	for (long i = 0; i < N; i++) { /* loop:ompr.init */
		b[i] = (double)i;
		c[i] = (double)(N - i);
	}
	rl_region_begin("triad");
	for (long p = 0; p < passes; p++) { /* loop:ompr.passes */
#pragma omp parallel for num_threads(2) schedule(static)
		for (long i = 0; i < N; i++) /* loop:ompr.triad */
			a[i] = b[i] + 3.0 * c[i];
	}
	rl_region_end("triad");
	printf("%g\n", a[N / 2]);
	return 0;
}
