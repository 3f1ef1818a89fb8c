/* A shared library with AVX-512 (EVEX) code, built with -O3 -g
 * -mavx512f -mprefer-vector-width=512 (tests/build.mk): evex_axpy's loop
 * is vectorised with 512-bit instructions; scale_avx512 is named as a
 * CPU-dispatch variant, which the AVX-512 scan (elf_evex.c) counts apart.
 * Only read by the tests, or run where the CPU has AVX-512. */
void evex_axpy(double a, const double *x, double *y, int n);
void scale_avx512(double *y, int n);

void evex_axpy(double a, const double *x, double *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] += a * x[i];
}

void scale_avx512(double *y, int n)
{
	for (int i = 0; i < n; i++)
		y[i] *= 2.0;
}
