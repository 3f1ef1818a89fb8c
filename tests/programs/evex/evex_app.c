/* A program without AVX-512 code of its own that brings a library with
 * some (libevex.so, found through its RUNPATH $ORIGIN): rlprof run -b sim
 * must name the library's functions before anything runs. It calls them
 * only where the CPU has AVX-512. */
#include <stdio.h>

void evex_axpy(double a, const double *x, double *y, int n);
void scale_avx512(double *y, int n);

int main(void)
{
	static double x[64], y[64];

	for (int i = 0; i < 64; i++)
		x[i] = i;
	if (__builtin_cpu_supports("avx512f")) {
		evex_axpy(2.0, x, y, 64);
		scale_avx512(y, 64);
	}
	printf("%g\n", y[63]);
	return 0;
}
