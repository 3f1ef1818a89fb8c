/* Loops inside annotated regions (tests/cli/test_e2e_loops.c): "setup"
 * runs fill then scale, "solve" runs scale then dot, so scale runs in both.
 * Flops for n = argv[1]:
 *   fill: n (in setup)
 *   scale: n per call, 2 n in all (in setup and solve)
 *   dot: 2 n (in solve)
 */
#include <stdio.h>
#include <stdlib.h>

#include <rlprof.h>

#define MAXN 4096
static double x[MAXN], y[MAXN];

__attribute__((noinline)) static void fill(int n)
{
	for (int i = 0; i < n; i++) /* loop:fill */
		x[i] = x[i] + 1.0;
}

__attribute__((noinline)) static void scale(int n, double s)
{
	for (int i = 0; i < n; i++) /* loop:scale */
		y[i] = y[i] * s;
}

__attribute__((noinline)) static double dot(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++) /* loop:dot */
		s += x[i] * y[i];
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	double r;

	if (n < 1 || n > MAXN)
		return 2;
	rl_region_begin("setup");
	fill(n);
	scale(n, 0.5);
	rl_region_end("setup");
	rl_region_begin("solve");
	scale(n, 2.0);
	r = dot(n);
	rl_region_end("solve");
	printf("%g\n", r);
	return 0;
}
