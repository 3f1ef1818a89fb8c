/*
 * horner.c - y[i] = p(x[i]) for a polynomial of degree D with every
 * coefficient equal to c, by Horner's rule, D fixed at compile time and
 * the D steps unrolled: acc = c; D times acc = acc*x + c.
 *
 * Flops per element: 2D exactly (one multiply-add per step).
 * Bytes per element: read x 8 + write y 8 = 16; with write-allocate 24.
 * D = 1 .. 128 walks the arithmetic intensity from 1/8 to 16 flop/B
 * (STREAM bytes), across the ridge of any current machine.
 *
 * Left to itself the compiler vectorises over i and gives each vector
 * its D dependent multiply-adds one after the other: at D >= 32 too few
 * independent operations are in flight and the loop runs near the
 * single-chain rate (latency-bound), far under the compute roof. So the
 * elements go in blocks of HN vectors (GCC/clang vector extensions, the
 * widest the target has: 8 lanes with AVX-512, 4 with AVX, 2 otherwise)
 * and every degree step updates the HN vectors one after the other, so
 * HN independent chains are always in flight: the multiply-add latency
 * (FMA: about 4 cycles on 2 pipes; without FMA, a multiply then an add)
 * is covered. HN is 12 with AVX-512 (32 registers: 12 accumulators, 12
 * x, c) and 8 otherwise (16 registers; one x is read from memory).
 *
 * The degree loop of a block is unrolled HU steps at a time rather than
 * fully: fully unrolled, GCC's expansion (TER) regroups the single-use
 * temporaries of the no-FMA build into one whole chain per vector,
 * serialising them again (horner128 ran at 8 GFLOP/s). A tail of fewer
 * than HN vectors runs the same steps one vector, then one element at a
 * time: 2D flops for every element, nothing padded.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define NOINLINE __attribute__((noinline))

#if defined(__AVX512F__)
#define HV_BYTES 64
#define HN 12 /* vectors per block: independent multiply-add chains */
#elif defined(__AVX__)
#define HV_BYTES 32
#define HN 8
#else
#define HV_BYTES 16
#define HN 8
#endif
typedef double hvec __attribute__((vector_size(HV_BYTES)));
#define HL ((size_t)(HV_BYTES / sizeof(double))) /* lanes per vector */
#define HU 8 /* degree steps per iteration of a block's degree loop */
#define HPRAGMA_(x) _Pragma(#x)
#define HPRAGMA(x) HPRAGMA_(x)

static const double coef = 0.5;
static const double xs[4] = {0.5, -0.5, 0.75, -0.25}; /* x[i] = xs[i & 3] */

static inline hvec hv_load(const double *p)
{
	hvec v;
	memcpy(&v, p, sizeof v);
	return v;
}

static inline void hv_store(double *p, hvec v)
{
	memcpy(p, &v, sizeof v);
}

#define HORNER_FN(D)                                                           \
	static NOINLINE void horner_##D(double *restrict y,                    \
					const double *restrict x, size_t n,    \
					double c)                              \
	{                                                                      \
		const hvec cv = (hvec){0} + c;                                 \
		size_t i = 0;                                                  \
		for (; i + HN * HL <= n; i += HN * HL) {                       \
			hvec xv[HN], acc[HN];                                  \
			_Pragma("GCC unroll 16") for (int j = 0; j < HN; j++)  \
			{                                                      \
				xv[j] = hv_load(x + i + j * HL);               \
				acc[j] = cv;                                   \
			}                                                      \
			HPRAGMA(GCC unroll HU) for (int k = 0; k < D; k++)     \
				_Pragma("GCC unroll 16") for (int j = 0;       \
							      j < HN; j++)     \
					acc[j] = acc[j] * xv[j] + cv;          \
			_Pragma("GCC unroll 16") for (int j = 0; j < HN; j++)  \
				hv_store(y + i + j * HL, acc[j]);              \
		}                                                              \
		for (; i + HL <= n; i += HL) {                                 \
			hvec xv = hv_load(x + i), acc = cv;                    \
			_Pragma("GCC unroll 128") for (int k = 0; k < D; k++)  \
				acc = acc * xv + cv;                           \
			hv_store(y + i, acc);                                  \
		}                                                              \
		for (; i < n; i++) {                                           \
			double acc = c;                                        \
			_Pragma("GCC unroll 128") for (int k = 0; k < D; k++)  \
				acc = acc * x[i] + c;                          \
			y[i] = acc;                                            \
		}                                                              \
	}                                                                      \
	static void horner##D##_run(struct rl_kernel_data *d)                  \
	{                                                                      \
		horner_##D(d->b, d->a, d->n, coef);                            \
	}                                                                      \
	static int horner##D##_check(const struct rl_kernel_data *d, int reps, \
				     char *err, size_t errlen)                 \
	{                                                                      \
		(void)reps;                                                    \
		return check(d, D, err, errlen);                               \
	}

static void horner_init(struct rl_kernel_data *d)
{
	double *x = d->a;
	for (size_t i = 0; i < d->n; i++)
		x[i] = xs[i & 3];
}

/* c * (1 + x + ... + x^D) = c * (x^(D+1) - 1) / (x - 1), x != 1 */
static double poly_closed(double x, int degree)
{
	return coef * (pow(x, degree + 1) - 1.0) / (x - 1.0);
}

static int check(const struct rl_kernel_data *d, int degree, char *err,
		 size_t errlen)
{
	const double *y = d->b;
	double want[4];
	for (int k = 0; k < 4; k++)
		want[k] = poly_closed(xs[k], degree);
	for (size_t i = 0; i < d->n; i++) {
		double w = want[i & 3];
		if (!(fabs(y[i] - w) <= 1e-12 * fabs(w) + 1e-300)) {
			snprintf(err, errlen,
				 "horner%d: y[%zu] is %.17g, expected %.17g",
				 degree, i, y[i], w);
			return RL_EINVAL;
		}
	}
	return 0;
}

HORNER_FN(1)
HORNER_FN(2)
HORNER_FN(4)
HORNER_FN(8)
HORNER_FN(16)
HORNER_FN(32)
HORNER_FN(64)
HORNER_FN(128)

#define ROW(D)                                                                 \
	{                                                                      \
		"horner" #D, "horner", "f64", 2.0 * D, 16, 24, 0, 1,           \
			RL_KSHAPE_ARRAY,                                       \
			"y[i] = p(x[i]), degree " #D ", Horner, unrolled",     \
			horner_init, horner##D##_run, horner##D##_check        \
	}

const struct rl_kernel rl_kernels_horner[] = {
	ROW(1), ROW(2), ROW(4), ROW(8), ROW(16), ROW(32), ROW(64), ROW(128),
};
const size_t rl_kernels_horner_count =
	sizeof rl_kernels_horner / sizeof rl_kernels_horner[0];
