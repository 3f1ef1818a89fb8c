/*
 * stream.c - the streaming kernels in double precision: triad, copy,
 * scale, add, dot, daxpy, sum, fill. One pass over n elements each.
 *
 * Inputs are small integers times +-1 (rl_kpat_u, rl_kpat_sign), so every
 * result is exact in binary64 and the checks compare exactly.
 * Reductions keep 8 independent partial sums (i mod 8) and combine them
 * with 7 adds at the end: flops = 2n + 7 (dot), n + 7 (sum), exactly,
 * with gcc and clang (see the reductions below).
 */
#include <stdint.h>
#include <stdio.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define NOINLINE __attribute__((noinline))

static const double triad_s = 3.0, scale_s = 3.0, daxpy_s = 3.0,
		    fill_s = 7.0;

/* ---- the kernels ---- */

static NOINLINE void triad_f64(double *restrict a, const double *restrict b,
			       const double *restrict c, double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

static NOINLINE void copy_f64(double *restrict c, const double *restrict a,
			      size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i];
}

static NOINLINE void scale_f64(double *restrict b, const double *restrict c,
			       double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = s * c[i];
}

static NOINLINE void add_f64(double *restrict c, const double *restrict a,
			     const double *restrict b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

static NOINLINE void daxpy_f64(double *restrict y, const double *restrict x,
			       double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		y[i] = s * x[i] + y[i];
}

static NOINLINE void fill_f64(double *restrict a, double s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = s;
}

/* Reductions: 8 partial sums in an explicit 8-lane vector (lane j takes
 * the elements i = j mod 8), so every lane of every vector operation
 * does work the model counts: a vectoriser left to pack scalar partial
 * sums may use 4-lane operations with 2 lanes live (clang 14 does, for
 * f32), which the CPU and the simulator count as flops. The lanes are
 * then added one after another (7 dependent adds: nothing to pack), and
 * the n mod 8 remaining elements after that. */
typedef double v8d __attribute__((vector_size(64)));

static double lanes_sum_f64(const v8d *p)
{
	double lane[8];
	__builtin_memcpy(lane, p, sizeof lane);
	double s = lane[0];
	for (int j = 1; j < 8; j++)
		s += lane[j];
	return s;
}

static NOINLINE double dot_f64(const double *restrict x,
			       const double *restrict y, size_t n)
{
	v8d acc = {0, 0, 0, 0, 0, 0, 0, 0};
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		v8d xv, yv;
		__builtin_memcpy(&xv, x + i, sizeof xv);
		__builtin_memcpy(&yv, y + i, sizeof yv);
		acc += xv * yv;
	}
	double s = lanes_sum_f64(&acc);
	for (; i < n; i++)
		s += x[i] * y[i];
	return s;
}

static NOINLINE double sum_f64(const double *restrict x, size_t n)
{
	v8d acc = {0, 0, 0, 0, 0, 0, 0, 0};
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		v8d xv;
		__builtin_memcpy(&xv, x + i, sizeof xv);
		acc += xv;
	}
	double s = lanes_sum_f64(&acc);
	for (; i < n; i++)
		s += x[i];
	return s;
}

/* ---- inputs, runs and checks ---- */

static void set_u(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = rl_kpat_u(i);
}

static void set_sign(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = rl_kpat_sign(i);
}

static int check_array(const char *name, const char *arr, const double *x,
		       size_t n, double (*want)(size_t, int), int reps,
		       char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		double w = want(i, reps);
		if (x[i] != w) {
			snprintf(err, errlen,
				 "%s: %s[%zu] is %.17g, expected %.17g", name,
				 arr, i, x[i], w);
			return RL_EINVAL;
		}
	}
	return 0;
}

static int check_value(const char *name, double got, double want, char *err,
		       size_t errlen)
{
	if (got == want)
		return 0;
	snprintf(err, errlen, "%s: result is %.17g, expected %.17g", name, got,
		 want);
	return RL_EINVAL;
}

/* triad: a = b + s*c with b = u, c = sign */
static void triad_init(struct rl_kernel_data *d)
{
	set_u(d->b, d->n);
	set_sign(d->c, d->n);
}
static void triad_run(struct rl_kernel_data *d)
{
	triad_f64(d->a, d->b, d->c, triad_s, d->n);
}
static double triad_want(size_t i, int reps)
{
	(void)reps;
	return rl_kpat_u(i) + triad_s * rl_kpat_sign(i);
}
static int triad_check(const struct rl_kernel_data *d, int reps, char *err,
		       size_t errlen)
{
	return check_array("triad", "a", d->a, d->n, triad_want, reps, err,
			   errlen);
}

/* copy: c = a with a = u */
static void copy_init(struct rl_kernel_data *d)
{
	set_u(d->a, d->n);
}
static void copy_run(struct rl_kernel_data *d)
{
	copy_f64(d->c, d->a, d->n);
}
static double copy_want(size_t i, int reps)
{
	(void)reps;
	return rl_kpat_u(i);
}
static int copy_check(const struct rl_kernel_data *d, int reps, char *err,
		      size_t errlen)
{
	return check_array("copy", "c", d->c, d->n, copy_want, reps, err,
			   errlen);
}

/* scale: b = s*c with c = u */
static void scale_init(struct rl_kernel_data *d)
{
	set_u(d->c, d->n);
}
static void scale_run(struct rl_kernel_data *d)
{
	scale_f64(d->b, d->c, scale_s, d->n);
}
static double scale_want(size_t i, int reps)
{
	(void)reps;
	return scale_s * rl_kpat_u(i);
}
static int scale_check(const struct rl_kernel_data *d, int reps, char *err,
		       size_t errlen)
{
	return check_array("scale", "b", d->b, d->n, scale_want, reps, err,
			   errlen);
}

/* add: c = a + b with a = u, b = sign */
static void add_init(struct rl_kernel_data *d)
{
	set_u(d->a, d->n);
	set_sign(d->b, d->n);
}
static void add_run(struct rl_kernel_data *d)
{
	add_f64(d->c, d->a, d->b, d->n);
}
static double add_want(size_t i, int reps)
{
	(void)reps;
	return rl_kpat_u(i) + rl_kpat_sign(i);
}
static int add_check(const struct rl_kernel_data *d, int reps, char *err,
		     size_t errlen)
{
	return check_array("add", "c", d->c, d->n, add_want, reps, err, errlen);
}

/* daxpy: y += s*x with x = u (in b), y = sign (in a); after R calls
 * y = sign + R*s*u */
static void daxpy_init(struct rl_kernel_data *d)
{
	set_sign(d->a, d->n);
	set_u(d->b, d->n);
}
static void daxpy_run(struct rl_kernel_data *d)
{
	daxpy_f64(d->a, d->b, daxpy_s, d->n);
}
static double daxpy_want(size_t i, int reps)
{
	return rl_kpat_sign(i) + reps * daxpy_s * rl_kpat_u(i);
}
static int daxpy_check(const struct rl_kernel_data *d, int reps, char *err,
		       size_t errlen)
{
	return check_array("daxpy", "y", d->a, d->n, daxpy_want, reps, err,
			   errlen);
}

/* fill: a = s */
static void fill_init(struct rl_kernel_data *d)
{
	(void)d;
}
static void fill_run(struct rl_kernel_data *d)
{
	fill_f64(d->a, fill_s, d->n);
}
static double fill_want(size_t i, int reps)
{
	(void)i;
	(void)reps;
	return fill_s;
}
static int fill_check(const struct rl_kernel_data *d, int reps, char *err,
		      size_t errlen)
{
	return check_array("fill", "a", d->a, d->n, fill_want, reps, err,
			   errlen);
}

/* dot: sum of u*sign; the partial sums stay within +-20, so exact */
static void dot_init(struct rl_kernel_data *d)
{
	set_u(d->a, d->n);
	set_sign(d->b, d->n);
}
static void dot_run(struct rl_kernel_data *d)
{
	d->result = dot_f64(d->a, d->b, d->n);
}
static double signed_u_total(size_t n)
{
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += (int64_t)(1 + (i & 3)) * (((i >> 3) & 1) ? -1 : 1);
	return (double)t;
}
static int dot_check(const struct rl_kernel_data *d, int reps, char *err,
		     size_t errlen)
{
	(void)reps;
	return check_value("dot", d->result, signed_u_total(d->n), err, errlen);
}

/* sum: sum of u*sign */
static void sum_init(struct rl_kernel_data *d)
{
	double *x = d->a;
	for (size_t i = 0; i < d->n; i++)
		x[i] = rl_kpat_u(i) * rl_kpat_sign(i);
}
static void sum_run(struct rl_kernel_data *d)
{
	d->result = sum_f64(d->a, d->n);
}
static int sum_check(const struct rl_kernel_data *d, int reps, char *err,
		     size_t errlen)
{
	(void)reps;
	return check_value("sum", d->result, signed_u_total(d->n), err, errlen);
}

/* ---- the rows ---- */

#define ROW(nm, fl, by, bywa, extra, formula)                                 \
	{                                                                      \
		#nm, "stream", "f64", fl, by, bywa, extra, 1, RL_KSHAPE_ARRAY, \
			formula, nm##_init, nm##_run, nm##_check               \
	}

const struct rl_kernel rl_kernels_stream[] = {
	ROW(triad, 2, 24, 32, 0, "a[i] = b[i] + s*c[i]"),
	ROW(copy, 0, 16, 24, 0, "c[i] = a[i]"),
	ROW(scale, 1, 16, 24, 0, "b[i] = s*c[i]"),
	ROW(add, 1, 24, 32, 0, "c[i] = a[i] + b[i]"),
	ROW(dot, 2, 16, 16, 7, "s += a[i]*b[i] (8 partial sums)"),
	ROW(daxpy, 2, 24, 24, 0, "y[i] = s*x[i] + y[i]"),
	ROW(sum, 1, 8, 8, 7, "s += a[i] (8 partial sums)"),
	ROW(fill, 0, 8, 16, 0, "a[i] = s"),
};
const size_t rl_kernels_stream_count =
	sizeof rl_kernels_stream / sizeof rl_kernels_stream[0];
