/*
 * The read-only stream over 1, 2 or 4 streams at a time: the family the
 * read roof is the best of, beside the three-array kernel (rw_*.c, three
 * streams). Each array (a, then b, then c) is cut into k parts read side
 * by side, so the bytes and the working set are those of the
 * three-stream read (24 B per element) and only the number of streams
 * the prefetchers follow changes: a plain C read loop over 2, 3 or 4
 * arrays moved 30.3-31.1 GB/s on one thread of the Xeon guest, over one
 * array 17.8, where the three-array kernel's quick roof was 25.5.
 *
 * Included once by each vector rw_<isa>.c (compiled with its ISA's
 * flags, build.mk) after defining RL_RS_LANES (f64 per register) and
 * RL_RS_NAME(k) (the kernel's name for k streams). Eight independent
 * sums in all (k streams x 8/k registers each).
 */
#ifndef RL_RS_LANES
#error "define RL_RS_LANES and RL_RS_NAME before including read_streams.h"
#endif

#include <string.h>

typedef double rl_rs_vec __attribute__((vector_size(RL_RS_LANES * 8)));

static inline __attribute__((always_inline)) rl_rs_vec
rl_rs_load(const double *p)
{
	rl_rs_vec v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* The sum of x[0..n) read as k streams side by side (k = 1, 2, 4): sum j
 * (0..7) takes register j % per of stream j / per, eight named sums
 * (an array of them stayed in memory under clang) */
#define RL_RS_ADD(j)                                                         \
	acc##j += rl_rs_load(x + (j / per) * part + i +                      \
			     (j % per) * RL_RS_LANES)
static inline __attribute__((always_inline)) double
rl_rs_array(const double *x, size_t n, const unsigned k)
{
	const unsigned per = 8 / k, step = per * RL_RS_LANES;
	const size_t part = n / k / step * step;
	rl_rs_vec acc0, acc1, acc2, acc3, acc4, acc5, acc6, acc7;
	memset(&acc0, 0, sizeof acc0);
	acc1 = acc2 = acc3 = acc4 = acc5 = acc6 = acc7 = acc0;
	for (size_t i = 0; i < part; i += step) {
		RL_RS_ADD(0);
		RL_RS_ADD(1);
		RL_RS_ADD(2);
		RL_RS_ADD(3);
		RL_RS_ADD(4);
		RL_RS_ADD(5);
		RL_RS_ADD(6);
		RL_RS_ADD(7);
	}
	acc0 += acc1 + acc2 + acc3 + acc4 + acc5 + acc6 + acc7;
	double t = 0;
	for (unsigned l = 0; l < RL_RS_LANES; l++)
		t += acc0[l];
	for (size_t i = k * part; i < n; i++)
		t += x[i];
	return t;
}

#define RL_RS_KERNEL(k)                                                      \
	double RL_RS_NAME(k)(double *restrict a, double *restrict b,         \
			     double *restrict c, double s, size_t n);        \
	double RL_RS_NAME(k)(double *restrict a, double *restrict b,         \
			     double *restrict c, double s, size_t n)         \
	{                                                                    \
		(void)s;                                                     \
		return rl_rs_array(a, n, k) + rl_rs_array(b, n, k) +         \
		       rl_rs_array(c, n, k);                                 \
	}

RL_RS_KERNEL(1)
RL_RS_KERNEL(2)
RL_RS_KERNEL(4)
