/* Triad with 256-bit loads and stores (compiled with -mavx2 -mfma, see
 * build.mk); plain and non-temporal stores (_mm256_stream_pd, 32-byte
 * aligned a). */
#include <immintrin.h>

#include "probes/probe.h"

void rl_triad_avx2(double *restrict a, const double *restrict b,
		   const double *restrict c, double s, size_t n);
void rl_triad_avx2_nt(double *restrict a, const double *restrict b,
		      const double *restrict c, double s, size_t n);

void rl_triad_avx2(double *restrict a, const double *restrict b,
		   const double *restrict c, double s, size_t n)
{
	const __m256d vs = _mm256_set1_pd(s);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256d c0 = _mm256_load_pd(c + i);
		__m256d c1 = _mm256_load_pd(c + i + 4);
		__m256d b0 = _mm256_load_pd(b + i);
		__m256d b1 = _mm256_load_pd(b + i + 4);
		_mm256_store_pd(a + i, _mm256_fmadd_pd(vs, c0, b0));
		_mm256_store_pd(a + i + 4, _mm256_fmadd_pd(vs, c1, b1));
	}
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
}

void rl_triad_avx2_nt(double *restrict a, const double *restrict b,
		      const double *restrict c, double s, size_t n)
{
	const __m256d vs = _mm256_set1_pd(s);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		__m256d c0 = _mm256_load_pd(c + i);
		__m256d c1 = _mm256_load_pd(c + i + 4);
		__m256d b0 = _mm256_load_pd(b + i);
		__m256d b1 = _mm256_load_pd(b + i + 4);
		_mm256_stream_pd(a + i, _mm256_fmadd_pd(vs, c0, b0));
		_mm256_stream_pd(a + i + 4, _mm256_fmadd_pd(vs, c1, b1));
	}
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
	_mm_sfence();
}
