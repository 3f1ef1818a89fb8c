/* Triad with 128-bit SSE2 loads and stores (multiply then add: SSE2 has
 * no FMA); plain and non-temporal stores (_mm_stream_pd, 16-byte aligned
 * a). */
#include <emmintrin.h>

#include "probes/probe.h"

void rl_triad_sse2(double *restrict a, const double *restrict b,
		   const double *restrict c, double s, size_t n);
void rl_triad_sse2_nt(double *restrict a, const double *restrict b,
		      const double *restrict c, double s, size_t n);

void rl_triad_sse2(double *restrict a, const double *restrict b,
		   const double *restrict c, double s, size_t n)
{
	const __m128d vs = _mm_set1_pd(s);
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		__m128d c0 = _mm_load_pd(c + i);
		__m128d c1 = _mm_load_pd(c + i + 2);
		__m128d b0 = _mm_load_pd(b + i);
		__m128d b1 = _mm_load_pd(b + i + 2);
		_mm_store_pd(a + i, _mm_add_pd(b0, _mm_mul_pd(vs, c0)));
		_mm_store_pd(a + i + 2, _mm_add_pd(b1, _mm_mul_pd(vs, c1)));
	}
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
}

void rl_triad_sse2_nt(double *restrict a, const double *restrict b,
		      const double *restrict c, double s, size_t n)
{
	const __m128d vs = _mm_set1_pd(s);
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		__m128d c0 = _mm_load_pd(c + i);
		__m128d c1 = _mm_load_pd(c + i + 2);
		__m128d b0 = _mm_load_pd(b + i);
		__m128d b1 = _mm_load_pd(b + i + 2);
		_mm_stream_pd(a + i, _mm_add_pd(b0, _mm_mul_pd(vs, c0)));
		_mm_stream_pd(a + i + 2, _mm_add_pd(b1, _mm_mul_pd(vs, c1)));
	}
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
	_mm_sfence();
}
