// An OpenMP loop that gathers through a class's inlined accessors
// (omp_accessor.h), LULESH's shape: GCC nests the DWARF of the outlined
// body (gather's ._omp_fn.0) inside gather's, where libdw's
// dwarf_getscopes does not look, and the loop's first instruction is an
// accessor's (it was named omp_accessor.h:14). The loop is named by its
// own for statement, the line after the pragma GCC gives it.
#include <cstdio>
#include <cstdlib>

#include "omp_accessor.h"

static void gather(Domain &d, long numElem)
{
#pragma omp parallel for firstprivate(numElem)
	for (long e = 0; e < numElem; ++e) { // loop:acc.gather
		const int *n = d.nodes(e);
		double s = 0;
		for (int k = 0; k < 8; ++k)
			s += d.x(n[k]);
		d.y(e) = s;
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;
	Domain d(n);

	for (long i = 0; i < n; i++) { // loop:acc.init
		d.x(i) = (double)i;
		for (int k = 0; k < 8; k++)
			d.nodes(i)[k] = (int)((i + k) % n);
	}
	for (int p = 0; p < 20; p++) // loop:acc.passes
		gather(d, d.numElem());
	printf("%g\n", d.y(n / 2));
	return 0;
}
