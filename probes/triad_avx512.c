/* Triad with 512-bit loads and stores (compiled with -mavx512f, see
 * build.mk); plain stores and non-temporal stores (_mm512_stream_pd,
 * which needs 64-byte aligned a: the pool aligns every array to 2 MiB). */
#include <immintrin.h>

#include "probes/probe.h"

void rl_triad_avx512(double *restrict a, const double *restrict b,
		     const double *restrict c, double s, size_t n);
void rl_triad_avx512_nt(double *restrict a, const double *restrict b,
			const double *restrict c, double s, size_t n);

void rl_triad_avx512(double *restrict a, const double *restrict b,
		     const double *restrict c, double s, size_t n)
{
	const __m512d vs = _mm512_set1_pd(s);
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		__m512d c0 = _mm512_load_pd(c + i);
		__m512d c1 = _mm512_load_pd(c + i + 8);
		__m512d b0 = _mm512_load_pd(b + i);
		__m512d b1 = _mm512_load_pd(b + i + 8);
		_mm512_store_pd(a + i, _mm512_fmadd_pd(vs, c0, b0));
		_mm512_store_pd(a + i + 8, _mm512_fmadd_pd(vs, c1, b1));
	}
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
}

void rl_triad_avx512_nt(double *restrict a, const double *restrict b,
			const double *restrict c, double s, size_t n)
{
	const __m512d vs = _mm512_set1_pd(s);
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		__m512d c0 = _mm512_load_pd(c + i);
		__m512d c1 = _mm512_load_pd(c + i + 8);
		__m512d b0 = _mm512_load_pd(b + i);
		__m512d b1 = _mm512_load_pd(b + i + 8);
		_mm512_stream_pd(a + i, _mm512_fmadd_pd(vs, c0, b0));
		_mm512_stream_pd(a + i + 8, _mm512_fmadd_pd(vs, c1, b1));
	}
	for (; i < n; i++)
		a[i] = b[i] + s * c[i];
	_mm_sfence();
}
