/*
 * stream_f32.c - single-precision triad and dot, to check that counts
 * and roofs are kept apart by precision. Same patterns as stream.c: all
 * values are small integers, exact in binary32 (the dot's 8 partial sums
 * stay within +-20 whatever n is).
 */
#include <stdint.h>
#include <stdio.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define NOINLINE __attribute__((noinline))

static const float triad_s = 3.0f;

static NOINLINE void triad_f32(float *restrict a, const float *restrict b,
			       const float *restrict c, float s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

/* As dot_f64 in stream.c: 8 lanes in an explicit vector, then 7
 * dependent adds, then the n mod 8 remaining elements. */
typedef float v8f __attribute__((vector_size(32)));

static NOINLINE float dot_f32(const float *restrict x, const float *restrict y,
			      size_t n)
{
	v8f acc = {0, 0, 0, 0, 0, 0, 0, 0};
	float lane[8];
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		v8f xv, yv;
		__builtin_memcpy(&xv, x + i, sizeof xv);
		__builtin_memcpy(&yv, y + i, sizeof yv);
		acc += xv * yv;
	}
	__builtin_memcpy(lane, &acc, sizeof lane);
	float s = lane[0];
	for (int j = 1; j < 8; j++)
		s += lane[j];
	for (; i < n; i++)
		s += x[i] * y[i];
	return s;
}

static void set_u(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)rl_kpat_u(i);
}

static void set_sign(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)rl_kpat_sign(i);
}

static void triad_f32_init(struct rl_kernel_data *d)
{
	set_u(d->b, d->n);
	set_sign(d->c, d->n);
}

static void triad_f32_run(struct rl_kernel_data *d)
{
	triad_f32(d->a, d->b, d->c, triad_s, d->n);
}

static int triad_f32_check(const struct rl_kernel_data *d, int reps,
			   char *err, size_t errlen)
{
	const float *a = d->a;
	(void)reps;
	for (size_t i = 0; i < d->n; i++) {
		float want = (float)(rl_kpat_u(i) + triad_s * rl_kpat_sign(i));
		if (a[i] != want) {
			snprintf(err, errlen,
				 "triad_f32: a[%zu] is %.9g, expected %.9g", i,
				 (double)a[i], (double)want);
			return RL_EINVAL;
		}
	}
	return 0;
}

static void dot_f32_init(struct rl_kernel_data *d)
{
	set_u(d->a, d->n);
	set_sign(d->b, d->n);
}

static void dot_f32_run(struct rl_kernel_data *d)
{
	d->result = dot_f32(d->a, d->b, d->n);
}

static int dot_f32_check(const struct rl_kernel_data *d, int reps, char *err,
			 size_t errlen)
{
	int64_t t = 0;
	(void)reps;
	for (size_t i = 0; i < d->n; i++)
		t += (int64_t)(1 + (i & 3)) * (((i >> 3) & 1) ? -1 : 1);
	if (d->result == (double)t)
		return 0;
	snprintf(err, errlen, "dot_f32: result is %.9g, expected %.9g",
		 d->result, (double)t);
	return RL_EINVAL;
}

const struct rl_kernel rl_kernels_f32[] = {
	{"triad_f32", "f32", "f32", 2, 12, 16, 0, 1, RL_KSHAPE_ARRAY,
	 "a[i] = b[i] + s*c[i] (float)", triad_f32_init, triad_f32_run,
	 triad_f32_check},
	{"dot_f32", "f32", "f32", 2, 8, 8, 7, 1, RL_KSHAPE_ARRAY,
	 "s += a[i]*b[i] (float, 8 partial sums)", dot_f32_init, dot_f32_run,
	 dot_f32_check},
};
const size_t rl_kernels_f32_count =
	sizeof rl_kernels_f32 / sizeof rl_kernels_f32[0];
