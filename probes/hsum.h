/*
 * Horizontal sums of a vector register, for the chain kernels' checksums
 * (fma_*.c). Included by files built with different ISA flags: the 256-bit
 * ones exist only where the file is compiled with AVX.
 */
#ifndef RL_PROBE_HSUM_H
#define RL_PROBE_HSUM_H

#include <immintrin.h>

static inline double hsum128d(__m128d v)
{
	return _mm_cvtsd_f64(v) + _mm_cvtsd_f64(_mm_unpackhi_pd(v, v));
}

static inline double hsum128f(__m128 v)
{
	float f[4];
	_mm_storeu_ps(f, v);
	return (double)f[0] + f[1] + f[2] + f[3];
}

#ifdef __AVX__
static inline double hsum256d(__m256d v)
{
	return hsum128d(_mm_add_pd(_mm256_castpd256_pd128(v),
				   _mm256_extractf128_pd(v, 1)));
}

static inline double hsum256f(__m256 v)
{
	float f[8];
	_mm256_storeu_ps(f, v);
	double s = 0;
	for (int i = 0; i < 8; i++)
		s += f[i];
	return s;
}
#endif

#endif
