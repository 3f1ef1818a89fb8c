/*
 * Process scope with OpenMP (tests/cli/test_e2e_omp.c): region "outer" on the
 * master thread around a 2-thread `parallel for` triad; inside the
 * parallel region each thread enters region "inner" around its share.
 * "outer" counts the work of both threads (process scope); "inner" is
 * counted per thread as before. Both declare 2 N flops and 24 N bytes in
 * total, per call.
 *
 *   omp_triad [N [CALLS]]
 *
 * CALLS (default 1) repeats "outer": the first call begins while the
 * process has one thread (libgomp starts its pool inside it), the next
 * ones with the pool already there.
 */
#include <rlprof.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1L << 20;
	double *a = malloc((size_t)n * sizeof *a);
	double *b = malloc((size_t)n * sizeof *b);
	double *c = malloc((size_t)n * sizeof *c);
	int calls = argc > 2 ? atoi(argv[2]) : 1;
	double s = 3.0, sum = 0;

	if (!a || !b || !c)
		return 1;
	for (long i = 0; i < n; i++) {
		b[i] = (double)i;
		c[i] = 1.0;
	}
	for (int k = 0; k < calls; k++) {
		RL_REGION_BEGIN("outer");
#pragma omp parallel num_threads(2)
		{
			RL_REGION_BEGIN("inner");
#pragma omp for schedule(static)
			for (long i = 0; i < n; i++)
				a[i] = b[i] + s * c[i];
			RL_REGION_END("inner");
		}
		RL_REGION_END("outer");
		RL_REGION_EXPECT("outer", 2.0 * (double)n, 24.0 * (double)n);
		RL_REGION_EXPECT("inner", 2.0 * (double)n, 24.0 * (double)n);
	}
	for (long i = 0; i < n; i++)
		sum += a[i];
	printf("sum %.0f\n", sum);
	free(a);
	free(b);
	free(c);
	return 0;
}
