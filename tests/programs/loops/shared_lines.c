/* Loops that share a "file:line (function)" label but are distinct code
 * (issue 39): rlprof must keep each its own row.
 *   - two nested loops written on one line (nest_one_line): N x N
 *     multiply-adds, 2 N^2 flops in all, in the inner loop;
 *   - one loop inlined twice into the same function (twice): sum() is
 *     always inlined, each copy adds N elements a pass (N x passes flops
 *     a copy);
 *   - an element-wise loop (axpy: no loop-carried floating-point value)
 *     and a reduction (dot: one dependent add chain), 2 N flops each.
 * Each loop statement carries a marker comment naming it. Built at -O2
 * without vectorisation and with -g (tests/build.mk). */
#include <stdio.h>
#include <stdlib.h>

#define N 2000
static double a[N], b[N], c[N];

__attribute__((noinline)) static double nest_one_line(void)
{
	double s = 0;
	for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += a[i] * b[j]; /* loop:oneline */
	return s;
}

static inline __attribute__((always_inline)) double sum(const double *v)
{
	double s = 0;
	for (int i = 0; i < N; i++) /* loop:sum */
		s += v[i];
	return s;
}

__attribute__((noinline)) static double twice(long passes)
{
	double x = 0, y = 0;
	for (long p = 0; p < passes; p++) { /* loop:twice.passes */
		x += sum(a); /* call:first */
		y += sum(b); /* call:second */
	}
	return x * y;
}

__attribute__((noinline)) static void axpy(long passes)
{
	for (long p = 0; p < passes; p++) /* loop:axpy.passes */
		for (int i = 0; i < N; i++) /* loop:axpy */
			c[i] = c[i] + 0.5 * a[i];
}

__attribute__((noinline)) static double dot(long passes)
{
	double s = 0;
	for (long p = 0; p < passes; p++) /* loop:dot.passes */
		for (int i = 0; i < N; i++) /* loop:dot */
			s += a[i] * b[i];
	return s;
}

int main(int argc, char **argv)
{
	long passes = argc > 1 ? atol(argv[1]) : 10;

	for (int i = 0; i < N; i++) { /* loop:init */
		a[i] = (double)(i % 7);
		b[i] = (double)(i % 5);
		c[i] = 1.0;
	}
	printf("%g %g %g\n", nest_one_line(), twice(passes), dot(passes));
	axpy(passes);
	printf("%g\n", c[N / 2]);
	return 0;
}
