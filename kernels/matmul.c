/*
 * matmul.c - C += A*B for n x n row-major doubles: naive i-k-j loops and
 * the same loops tiled in b x b blocks.
 *
 * An element here is one multiply-add of the innermost loop, n^3 per
 * product: flops 2 per element, 2n^3 per call, exactly.
 * Byte models (not exact: they depend on what the caches keep):
 *   naive: the inner statement C[i][j] += a*B[k][j] reads B and C and
 *          writes C: 24 B per element (A[i][k] is held in a register),
 *          as if nothing were reused from cache.
 *   tiled: each b x b tile product loads one tile of A and one of B
 *          (2 * 8 b^2 bytes) for b^3 elements: 16/b B per element, so
 *          AI = b/8 in double precision (b/4 in single precision).
 *          b = RL_MATMUL_TILE = 64: three tiles take 96 KiB (L2).
 */
#include <stdio.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define NOINLINE __attribute__((noinline))
#define RL_MATMUL_TILE 64

static NOINLINE void matmul_ikj(double *restrict c, const double *restrict a,
				const double *restrict b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			double aik = a[i * n + k];
			for (size_t j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
}

static size_t min_size(size_t x, size_t y)
{
	return x < y ? x : y;
}

static NOINLINE void matmul_tiled(double *restrict c, const double *restrict a,
				  const double *restrict b, size_t n,
				  size_t t)
{
	for (size_t ii = 0; ii < n; ii += t)
		for (size_t kk = 0; kk < n; kk += t)
			for (size_t jj = 0; jj < n; jj += t) {
				size_t ie = min_size(ii + t, n);
				size_t ke = min_size(kk + t, n);
				size_t je = min_size(jj + t, n);
				for (size_t i = ii; i < ie; i++)
					for (size_t k = kk; k < ke; k++) {
						double aik = a[i * n + k];
						for (size_t j = jj; j < je; j++)
							c[i * n + j] +=
								aik *
								b[k * n + j];
					}
			}
}

/* A[i][k] = alpha(i) p(k), B[k][j] = q(k) beta(j): C = R alpha beta S
 * after R products, S = sum_k p(k) q(k); all small integers, exact. */
static double alpha(size_t i)
{
	return (double)(1 + i % 3);
}
static double beta(size_t j)
{
	return (double)(1 + j % 5);
}

static void matmul_init(struct rl_kernel_data *d)
{
	size_t n = d->matmul_n;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			d->ma[i * n + k] = alpha(i) * rl_kpat_u(k);
			d->mb[i * n + k] = rl_kpat_sign(i) * beta(k);
			d->mc[i * n + k] = 0.0;
		}
}

static int matmul_check(const char *name, const struct rl_kernel_data *d,
			int reps, char *err, size_t errlen)
{
	size_t n = d->matmul_n;
	double s = 0;
	for (size_t k = 0; k < n; k++)
		s += rl_kpat_u(k) * rl_kpat_sign(k);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double want = reps * alpha(i) * beta(j) * s;
			double got = d->mc[i * n + j];
			if (got != want) {
				snprintf(err, errlen,
					 "%s: C[%zu][%zu] is %.17g, expected "
					 "%.17g",
					 name, i, j, got, want);
				return RL_EINVAL;
			}
		}
	return 0;
}

static void naive_run(struct rl_kernel_data *d)
{
	matmul_ikj(d->mc, d->ma, d->mb, d->matmul_n);
}
static int naive_check(const struct rl_kernel_data *d, int reps, char *err,
		       size_t errlen)
{
	return matmul_check("matmul_naive", d, reps, err, errlen);
}

static void tiled_run(struct rl_kernel_data *d)
{
	matmul_tiled(d->mc, d->ma, d->mb, d->matmul_n, RL_MATMUL_TILE);
}
static int tiled_check(const struct rl_kernel_data *d, int reps, char *err,
		       size_t errlen)
{
	return matmul_check("matmul_tiled", d, reps, err, errlen);
}

const struct rl_kernel rl_kernels_matmul[] = {
	{"matmul_naive", "matmul", "f64", 2, 24, 24, 0, 0, RL_KSHAPE_MATMUL,
	 "C[i][j] += A[i][k]*B[k][j], loops i-k-j", matmul_init, naive_run,
	 naive_check},
	{"matmul_tiled", "matmul", "f64", 2, 16.0 / RL_MATMUL_TILE,
	 16.0 / RL_MATMUL_TILE, 0, 0, RL_KSHAPE_MATMUL,
	 "C[i][j] += A[i][k]*B[k][j], i-k-j in 64x64 tiles", matmul_init,
	 tiled_run, tiled_check},
};
const size_t rl_kernels_matmul_count =
	sizeof rl_kernels_matmul / sizeof rl_kernels_matmul[0];
