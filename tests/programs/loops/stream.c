/* A triad over arrays larger than the small simulated caches the tests
 * give (--sim-caches 4K:4,16K:4,64K:4), pass after pass: a loop with DRAM
 * traffic under the simulator and native time enough to sample
 * (tests/cli/test_e2e_loops.c). No annotation. Flops: the triad loop
 * 2 x N per pass, passes = argv[1]; nothing else does a flop. argv[2]
 * "slow": the same loop does 4 flops per element (twice the flops, the
 * same bytes: rlprof diff names the loop, tests/cli/test_e2e_loops.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 65536
static double a[N], b[N], c[N];
static volatile double scale = 3.0;

int main(int argc, char **argv)
{
	long passes = argc > 1 ? atol(argv[1]) : 400;
	int slow = argc > 2 && strcmp(argv[2], "slow") == 0;

	for (long i = 0; i < N; i++) { /* loop:stream.init */
		b[i] = (double)i;
		c[i] = (double)(N - i);
	}
	for (long p = 0; p < passes; p++) { /* loop:stream.passes */
		double s = scale;
		for (long i = 0; i < N; i++) /* loop:stream.triad */
			a[i] = slow ? b[i] + s * c[i] + b[i] * c[i]
				    : b[i] + s * c[i];
	}
	printf("%g\n", a[N / 2]);
	return 0;
}
