/*
 * Call site and recursion (tests/cli/test_e2e_counts.c, issue 24's repro):
 * region "kernel" holds an OpenMP `parallel for` of N flops (one add per
 * iteration, schedule static); it is called CALLS times at top level and
 * CALLS times inside region "outer". Whatever the thread count, "kernel"
 * did 2 CALLS N flops and "outer" CALLS N. Region "rec" calls itself
 * DEPTH levels deep with N flops at each level: it did DEPTH N flops in
 * one outermost call, DEPTH calls in all.
 *
 *   omp_callsite [N [CALLS [DEPTH]]]
 */
#include <rlprof.h>
#include <stdlib.h>

static long n = 100000;

/* one add per iteration, each on the last one's result (a loop of
 * independent adds of the same operands lets Valgrind's optimiser merge
 * the unrolled copies: the simulator then counts a quarter of them) */
static void kernel(void)
{
	RL_REGION_BEGIN("kernel");
#pragma omp parallel
	{
		double a = 0.0;
		__asm__ volatile("" : "+x"(a));
#pragma omp for schedule(static)
		for (long i = 0; i < n; i++) {
			a = a + 1.0;
			__asm__ volatile("" : "+x"(a));
		}
	}
	RL_REGION_END("kernel");
}

static void rec(int depth)
{
	RL_REGION_BEGIN("rec");
	double a = 0.0;
	__asm__ volatile("" : "+x"(a));
	for (long i = 0; i < n; i++) {
		a = a + 1.0;
		__asm__ volatile("" : "+x"(a));
	}
	if (depth > 1)
		rec(depth - 1);
	RL_REGION_END("rec");
}

int main(int argc, char **argv)
{
	int calls = argc > 2 ? atoi(argv[2]) : 10;
	int depth = argc > 3 ? atoi(argv[3]) : 4;

	if (argc > 1)
		n = atol(argv[1]);
	for (int k = 0; k < calls; k++)
		kernel();
	RL_REGION_BEGIN("outer");
	for (int k = 0; k < calls; k++)
		kernel();
	RL_REGION_END("outer");
	rec(depth);
	return 0;
}
