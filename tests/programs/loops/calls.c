/* A time-step loop whose body only calls functions (issue 39: a loop's
 * total with the functions it calls, Advisor's "total"): every flop of
 * the run is in them, none in the loop itself.
 *   - kernel(): a loop of N elements, 2 flops each (a multiply, an add);
 *   - step(): no loop, 2 flops, and a call to kernel() again through
 *     twice(), so that work two calls deep counts too.
 * Per step 3 x 2 N + 2 flops; the steps loop's total is steps x that,
 * its own inclusive counts have none. Built at -O2 without vectorisation
 * and with -g (tests/build.mk); loops-calls-omp with -fopenmp, kernel's
 * loop then an OpenMP team's, whose workers' flops are in the total
 * too. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
static double a[N], b[N];

__attribute__((noinline)) static void kernel(void)
{
#pragma omp parallel for
	for (int i = 0; i < N; i++) /* loop:kernel */
		a[i] = a[i] * 0.5 + b[i];
}

__attribute__((noinline)) static void twice(void)
{
	kernel();
	kernel();
}

__attribute__((noinline)) static double step(double x)
{
	twice();
	return x * 1.5 + 0.25;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 100;
	double s = 0;

	for (long t = 0; t < steps; t++) { /* loop:steps */
		kernel();
		s = step(s);
	}
	printf("%d\n", s + a[N / 2] > 0);
	return 0;
}
