/*
 * stencil.c - 5-point stencil on an nx x ny grid of doubles (2D Jacobi
 * step): out = w * (centre + north + south + west + east) on the interior.
 *
 * Flops per interior point: 4 adds + 1 multiply = 5, exactly.
 * Bytes per point: read 8 (each input is loaded from DRAM once if three
 * rows fit in cache: perfect reuse) + write 8 = 16; with write-allocate
 * 24. The model ignores the halo and assumes perfect reuse: not exact.
 */
#include <stdio.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define NOINLINE __attribute__((noinline))

static const double weight = 0.5;

static NOINLINE void stencil5_f64(double *restrict out,
				  const double *restrict in, size_t nx,
				  size_t ny, double w)
{
	for (size_t j = 1; j + 1 < ny; j++) {
		const double *r = in + j * nx;
		double *o = out + j * nx;
		for (size_t i = 1; i + 1 < nx; i++)
			o[i] = w * ((((r[i] + r[i - nx]) + r[i + nx]) + r[i - 1]) +
				    r[i + 1]);
	}
}

/* Input value at (i, j): a small integer, so results are exact. */
static double pat(size_t i, size_t j)
{
	return (double)(i % 3 + j % 5);
}

static void stencil_init(struct rl_kernel_data *d)
{
	double *in = d->a;
	for (size_t j = 0; j < d->ny; j++)
		for (size_t i = 0; i < d->nx; i++)
			in[j * d->nx + i] = pat(i, j);
}

static void stencil_run(struct rl_kernel_data *d)
{
	stencil5_f64(d->b, d->a, d->nx, d->ny, weight);
}

static int stencil_check(const struct rl_kernel_data *d, int reps, char *err,
			 size_t errlen)
{
	const double *out = d->b;
	(void)reps;
	for (size_t j = 1; j + 1 < d->ny; j++)
		for (size_t i = 1; i + 1 < d->nx; i++) {
			double want = weight * (pat(i, j) + pat(i, j - 1) +
						pat(i, j + 1) + pat(i - 1, j) +
						pat(i + 1, j));
			double got = out[j * d->nx + i];
			if (got != want) {
				snprintf(err, errlen,
					 "stencil5: out[%zu][%zu] is %.17g, "
					 "expected %.17g",
					 j, i, got, want);
				return RL_EINVAL;
			}
		}
	return 0;
}

const struct rl_kernel rl_kernels_stencil[] = {
	{"stencil5", "stencil", "f64", 5, 16, 24, 0, 0, RL_KSHAPE_GRID,
	 "out[j][i] = w*(in[j][i] + in[j-1][i] + in[j+1][i] + in[j][i-1] + "
	 "in[j][i+1])",
	 stencil_init, stencil_run, stencil_check},
};
const size_t rl_kernels_stencil_count =
	sizeof rl_kernels_stencil / sizeof rl_kernels_stencil[0];
