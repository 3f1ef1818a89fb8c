/* e2e: rlprof compare (tests/cli/test_e2e_compare.c). Region "work" does
 * PCT % of a fixed amount of f64 work (default 100): 2 flops per element
 * over an array of 2^16 doubles, 2 * 2^16 * 40 * PCT / 100 flops in all,
 * so that 101 is 1% more flops and 1000 ten times the work. An asm
 * barrier keeps the compiler from folding the passes. */
#include <stdlib.h>

#include "rlprof.h"

#define N (1u << 16)

static double a[N];

int main(int argc, char **argv)
{
	long pct = argc > 1 ? atol(argv[1]) : 100;
	size_t n = (size_t)N * 40 * (size_t)pct / 100;
	double s = 0;

	for (size_t i = 0; i < N; i++)
		a[i] = (double)i * 1e-6;
	RL_REGION_BEGIN("work");
	for (size_t k = 0; k < n; k++) {
		s += a[k % N] * 1.0000001; /* one multiply, one add */
		__asm__ volatile("" : "+x"(s));
	}
	RL_REGION_END("work");
	return s < 0; /* 0: s is a sum of non-negatives */
}
