/* Scalar read-only stream and fill (built with vectorization off, see
 * build.mk): the fallback when no SIMD path applies. Four independent
 * sums; no non-temporal fill. */
#include "probes/probe.h"

double rl_read_scalar(double *restrict a, double *restrict b,
		      double *restrict c, double s, size_t n);
double rl_fill_scalar(double *restrict a, double *restrict b,
		      double *restrict c, double s, size_t n);
double rl_update_scalar(double *restrict a, double *restrict b,
			double *restrict c, double s, size_t n);

double rl_read_scalar(double *restrict a, double *restrict b,
		      double *restrict c, double s, size_t n)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t i = 0;
	(void)s;
	for (; i + 2 <= n; i += 2) {
		s0 += a[i] + a[i + 1];
		s1 += b[i];
		s2 += c[i];
		s3 += b[i + 1] + c[i + 1];
	}
	for (; i < n; i++)
		s0 += a[i] + b[i] + c[i];
	return s0 + s1 + s2 + s3;
}

double rl_fill_scalar(double *restrict a, double *restrict b,
		      double *restrict c, double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] = c[i] = s;
	return 0;
}

/* The in-place update a[i] += s*b[i]: 24 B moved per element, c not
 * touched (see rw_avx512.c). */
double rl_update_scalar(double *restrict a, double *restrict b,
			double *restrict c, double s, size_t n)
{
	(void)c;
	for (size_t i = 0; i < n; i++)
		a[i] += s * b[i];
	return 0;
}
