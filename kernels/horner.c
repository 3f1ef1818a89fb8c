/*
 * horner.c - y[i] = p(x[i]) for a polynomial of degree D with every
 * coefficient equal to c, by Horner's rule, D fixed at compile time and
 * the D steps fully unrolled: acc = c; D times acc = acc*x + c.
 *
 * Flops per element: 2D exactly (one multiply-add per step).
 * Bytes per element: read x 8 + write y 8 = 16; with write-allocate 24.
 * D = 1 .. 128 walks the arithmetic intensity from 1/8 to 16 flop/B
 * (STREAM bytes), across the ridge of any current machine.
 *
 * The elements are processed in blocks of HB so that HB independent
 * chains are in flight (one element is a chain of D dependent steps).
 */
#include <math.h>
#include <stdio.h>

#include "kernels.h"
#include "rl_error.h"

#define NOINLINE __attribute__((noinline))
#define HB 32 /* elements per block: independent multiply-add chains */

static const double coef = 0.5;
static const double xs[4] = {0.5, -0.5, 0.75, -0.25}; /* x[i] = xs[i & 3] */

#define HORNER_FN(D)                                                           \
	static NOINLINE void horner_##D(double *restrict y,                    \
					const double *restrict x, size_t n,    \
					double c)                              \
	{                                                                      \
		size_t i = 0;                                                  \
		for (; i + HB <= n; i += HB) {                                 \
			double acc[HB];                                        \
			for (size_t j = 0; j < HB; j++)                        \
				acc[j] = c;                                    \
			_Pragma("GCC unroll 128") for (int k = 0; k < D; k++)  \
				for (size_t j = 0; j < HB; j++)                \
					acc[j] = acc[j] * x[i + j] + c;        \
			for (size_t j = 0; j < HB; j++)                        \
				y[i + j] = acc[j];                             \
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
