/* Read-only stream and write-only fill with 128-bit loads and stores
 * (compiled with -msse2, see build.mk): the access-mix points beside
 * the triad. All three arrays are read (or written), so the working set
 * and the number of streams match the triad's. The read keeps 12
 * independent sums (latency x ports) and returns their total so the
 * loads cannot be dropped; the fill stores s (plain or non-temporal,
 * _mm_stream_pd: the pool aligns every array to 64 bytes). */
#include <emmintrin.h>

#include "probes/probe.h"

double rl_update_sse2(double *restrict a, double *restrict b,
			double *restrict c, double s, size_t n);
double rl_read_sse2(double *restrict a, double *restrict b,
		    double *restrict c, double s, size_t n);
double rl_fill_sse2(double *restrict a, double *restrict b,
		    double *restrict c, double s, size_t n);
double rl_fill_sse2_nt(double *restrict a, double *restrict b,
		     double *restrict c, double s, size_t n);

double rl_read_sse2(double *restrict a, double *restrict b,
		    double *restrict c, double s, size_t n)
{
	__m128d s0 = _mm_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
	__m128d s4 = s0, s5 = s0, s6 = s0, s7 = s0, s8 = s0, s9 = s0;
	__m128d s10 = s0, s11 = s0;
	size_t i = 0;
	(void)s;
	for (; i + 8 <= n; i += 8) {
		s0 = _mm_add_pd(s0, _mm_load_pd(a + i));
		s1 = _mm_add_pd(s1, _mm_load_pd(b + i));
		s2 = _mm_add_pd(s2, _mm_load_pd(c + i));
		s3 = _mm_add_pd(s3, _mm_load_pd(a + i + 2));
		s4 = _mm_add_pd(s4, _mm_load_pd(b + i + 2));
		s5 = _mm_add_pd(s5, _mm_load_pd(c + i + 2));
		s6 = _mm_add_pd(s6, _mm_load_pd(a + i + 4));
		s7 = _mm_add_pd(s7, _mm_load_pd(b + i + 4));
		s8 = _mm_add_pd(s8, _mm_load_pd(c + i + 4));
		s9 = _mm_add_pd(s9, _mm_load_pd(a + i + 6));
		s10 = _mm_add_pd(s10, _mm_load_pd(b + i + 6));
		s11 = _mm_add_pd(s11, _mm_load_pd(c + i + 6));
	}
	s0 = _mm_add_pd(_mm_add_pd(_mm_add_pd(s0, s1),
					 _mm_add_pd(s2, s3)),
			   _mm_add_pd(_mm_add_pd(s4, s5),
					 _mm_add_pd(s6, s7)));
	s0 = _mm_add_pd(s0, _mm_add_pd(_mm_add_pd(s8, s9),
					     _mm_add_pd(s10, s11)));
	double t = _mm_cvtsd_f64(s0) + _mm_cvtsd_f64(_mm_unpackhi_pd(s0, s0));
	for (; i < n; i++)
		t += a[i] + b[i] + c[i];
	return t;
}

double rl_fill_sse2(double *restrict a, double *restrict b,
		    double *restrict c, double s, size_t n)
{
	const __m128d v = _mm_set1_pd(s);
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		_mm_store_pd(a + i, v);
		_mm_store_pd(b + i, v);
		_mm_store_pd(c + i, v);
		_mm_store_pd(a + i + 2, v);
		_mm_store_pd(b + i + 2, v);
		_mm_store_pd(c + i + 2, v);
	}
	for (; i < n; i++)
		a[i] = b[i] = c[i] = s;
	return 0;
}

double rl_fill_sse2_nt(double *restrict a, double *restrict b,
		     double *restrict c, double s, size_t n)
{
	const __m128d v = _mm_set1_pd(s);
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		_mm_stream_pd(a + i, v);
		_mm_stream_pd(b + i, v);
		_mm_stream_pd(c + i, v);
		_mm_stream_pd(a + i + 2, v);
		_mm_stream_pd(b + i + 2, v);
		_mm_stream_pd(c + i + 2, v);
	}
	for (; i < n; i++)
		a[i] = b[i] = c[i] = s;
	_mm_sfence();
	return 0;
}

/* The in-place update a[i] += s*b[i] (daxpy's access: each line of a read,
 * then written back, no write-allocate): 24 B moved per element; c is not
 * touched (the caller gives 1.5x the elements for the same working set). */
double rl_update_sse2(double *restrict a, double *restrict b,
			double *restrict c, double s, size_t n)
{
	const __m128d v = _mm_set1_pd(s);
	size_t i = 0;
	(void)c;
	for (; i + 8 <= n; i += 8) {
		_mm_store_pd(a + i, _mm_add_pd(_mm_load_pd(a + i), _mm_mul_pd(v, _mm_load_pd(b + i))));
		_mm_store_pd(a + i + 2, _mm_add_pd(_mm_load_pd(a + i + 2),
					       _mm_mul_pd(v, _mm_load_pd(b + i + 2))));
		_mm_store_pd(a + i + 4, _mm_add_pd(_mm_load_pd(a + i + 4),
					       _mm_mul_pd(v, _mm_load_pd(b + i + 4))));
		_mm_store_pd(a + i + 6, _mm_add_pd(_mm_load_pd(a + i + 6),
					       _mm_mul_pd(v, _mm_load_pd(b + i + 6))));
	}
	for (; i < n; i++)
		a[i] += s * b[i];
	return 0;
}

/* The read over 1, 2 and 4 streams (read_streams.h). */
#define RL_RS_LANES 2
#define RL_RS_NAME(k) rl_read_sse2_s##k
#include "probes/read_streams.h"
