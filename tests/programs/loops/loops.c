/* Loops of known structure for rlprof inspect --loops and the simulator's
 * counts per loop (tests/inspect/test_loops.c, tests/counters/sim/test_sim_loops.c): each loop
 * statement is marked by a comment naming it, which the tests find to
 * know its line. No annotation. Flops per call, for n = N (argv[1]):
 *   nest3: 2 n^3 (a 3-deep nest: matmul)
 *   siblings: 2 loops side by side, n and 2 n flops
 *   dowhile: a do-while of n iterations, 1 flop each
 *   noloop: 1 flop, no loop
 */
#include <stdio.h>
#include <stdlib.h>

#define MAXN 64
static double a[MAXN][MAXN], b[MAXN][MAXN], c[MAXN][MAXN];
static double x[MAXN], y[MAXN];

__attribute__((noinline)) static void nest3(int n)
{
	for (int i = 0; i < n; i++) /* loop:nest3.i */
		for (int j = 0; j < n; j++) { /* loop:nest3.j */
			double s = c[i][j];
			for (int k = 0; k < n; k++) /* loop:nest3.k */
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

__attribute__((noinline)) static void siblings(int n)
{
	for (int i = 0; i < n; i++) /* loop:siblings.first */
		x[i] = x[i] + y[i];
	for (int i = 0; i < n; i++) /* loop:siblings.second */
		y[i] = y[i] * x[i] + 1.0;
}

__attribute__((noinline)) static double dowhile(int n)
{
	double s = 0;
	int i = 0;
	do {
		s += x[i];
	} while (++i < n); /* loop:dowhile */
	return s;
}

__attribute__((noinline)) static double noloop(double v)
{
	return v * 3.0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16;
	if (n < 1 || n > MAXN)
		return 2;
	for (int i = 0; i < n; i++) /* loop:main.init */
		for (int j = 0; j < n; j++) { /* loop:main.init.j */
			a[i][j] = i + j;
			b[i][j] = i - j;
		}
	nest3(n);
	siblings(n);
	printf("%g %g\n", dowhile(n), noloop(c[1][1]));
	return 0;
}
