/* Scalar triad (built with vectorization off, see build.mk): the
 * fallback when no SIMD path applies. No non-temporal variant. */
#include "probes/probe.h"

void rl_triad_scalar(double *restrict a, const double *restrict b,
		     const double *restrict c, double s, size_t n);

void rl_triad_scalar(double *restrict a, const double *restrict b,
		     const double *restrict c, double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}
