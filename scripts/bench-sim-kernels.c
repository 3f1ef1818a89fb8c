/* SPDX-License-Identifier: MIT */
/*
 * Kernels for scripts/bench-sim that rlprof-kernels does not have, built
 * by the script with -O3 -march=x86-64-v3 (AVX2 and FMA, as HPC code
 * built for a portable target):
 *   gemm_v3      C += alpha A B, PolyBench's i-k-j loop order (the j loop
 *                vectorised with FMA), N x N doubles
 *   copy_memcpy  STREAM Copy through libc's memcpy, N doubles
 *   scale_v3     STREAM Scale on the same arrays
 *   cg_v3        one conjugate-gradient iteration on a 27-point stencil
 *                matrix in CSR form, G x G x G rows (as HPCCG does it:
 *                sparse matrix-vector product, dot products, axpys)
 * Prints "NAME best MS ms" per kernel: the best of R repetitions, timed
 * in CPU time (CLOCK_PROCESS_CPUTIME_ID: under the simulator, the
 * simulator's own CPU time; the other guests of a shared VM count less).
 *
 * usage: bench-sim-kernels GEMM_N STREAM_N R [G]   (G: 48 by default)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

__attribute__((noinline)) static void gemm(size_t n, double alpha,
					   const double *a, const double *b,
					   double *c)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++) {
			double t = alpha * a[i * n + k];
			for (size_t j = 0; j < n; j++)
				c[i * n + j] += t * b[k * n + j];
		}
}

__attribute__((noinline)) static void scale(double *b, const double *c,
					    size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = 3.0 * c[i];
}

struct csr {
	size_t n;
	size_t *rowp;
	int *col;
	double *val;
};

/* The 27-point stencil on a g x g x g grid: 26 on the diagonal, -1 to
 * each neighbour (HPCCG's matrix). NULL arrays when out of memory. */
static void stencil_27pt(size_t g, struct csr *m)
{
	size_t n = g * g * g, k = 0;
	m->n = n;
	m->rowp = malloc((n + 1) * sizeof *m->rowp);
	m->col = malloc(27 * n * sizeof *m->col);
	m->val = malloc(27 * n * sizeof *m->val);
	if (!m->rowp || !m->col || !m->val)
		return;
	for (size_t z = 0; z < g; z++)
		for (size_t y = 0; y < g; y++)
			for (size_t x = 0; x < g; x++) {
				size_t row = (z * g + y) * g + x;
				m->rowp[row] = k;
				for (int dz = -1; dz <= 1; dz++)
					for (int dy = -1; dy <= 1; dy++)
						for (int dx = -1; dx <= 1; dx++) {
							long zz = (long)z + dz, yy = (long)y + dy, xx = (long)x + dx;
							if (zz < 0 || yy < 0 || xx < 0 || zz >= (long)g ||
							    yy >= (long)g || xx >= (long)g)
								continue;
							m->col[k] = (int)(((size_t)zz * g + (size_t)yy) * g + (size_t)xx);
							m->val[k++] = (dz || dy || dx) ? -1.0 : 26.0;
						}
			}
	m->rowp[n] = k;
}

__attribute__((noinline)) static void spmv(const struct csr *m,
					   const double *x, double *y)
{
	for (size_t i = 0; i < m->n; i++) {
		double s = 0;
		for (size_t k = m->rowp[i]; k < m->rowp[i + 1]; k++)
			s += m->val[k] * x[m->col[k]];
		y[i] = s;
	}
}

__attribute__((noinline)) static double ddot(size_t n, const double *x,
					     const double *y)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i] * y[i];
	return s;
}

/* w = alpha x + beta y */
__attribute__((noinline)) static void waxpby(size_t n, double alpha,
					     const double *x, double beta,
					     const double *y, double *w)
{
	for (size_t i = 0; i < n; i++)
		w[i] = alpha * x[i] + beta * y[i];
}

/* One CG iteration: p, r, x updated, *rr = r.r kept. */
static void cg_step(const struct csr *m, double *x, double *r, double *p,
		    double *ap, double *rr)
{
	spmv(m, p, ap);
	double alpha = *rr / ddot(m->n, p, ap);
	waxpby(m->n, 1.0, x, alpha, p, x);
	waxpby(m->n, 1.0, r, -alpha, ap, r);
	double rr1 = ddot(m->n, r, r);
	waxpby(m->n, 1.0, r, rr1 / *rr, p, p);
	*rr = rr1;
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: bench-sim-kernels GEMM_N STREAM_N R [G]\n");
		return 2;
	}
	size_t gn = strtoul(argv[1], NULL, 10), sn = strtoul(argv[2], NULL, 10);
	int reps = atoi(argv[3]);
	double *a = malloc(gn * gn * sizeof *a), *b = malloc(gn * gn * sizeof *b);
	double *c = malloc(gn * gn * sizeof *c);
	double *x = malloc(sn * sizeof *x), *y = malloc(sn * sizeof *y);
	if (!a || !b || !c || !x || !y || reps < 1) {
		fprintf(stderr, "bench-sim-kernels: out of memory or R < 1\n");
		return 1;
	}
	for (size_t i = 0; i < gn * gn; i++)
		a[i] = 1.0 / (double)(i + 1), b[i] = (double)(i % 7), c[i] = 0;
	for (size_t i = 0; i < sn; i++)
		x[i] = (double)i, y[i] = 0;
	struct csr m;
	stencil_27pt(argc == 5 ? strtoul(argv[4], NULL, 10) : 48, &m);
	double *cx = calloc(m.n, sizeof *cx), *cr = malloc(m.n * sizeof *cr);
	double *cp = malloc(m.n * sizeof *cp), *cap = malloc(m.n * sizeof *cap);
	if (!m.rowp || !m.col || !m.val || !cx || !cr || !cp || !cap) {
		fprintf(stderr, "bench-sim-kernels: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < m.n; i++) /* b = 1, x0 = 0: r = p = b */
		cr[i] = cp[i] = 1.0;
	double rr = ddot(m.n, cr, cr);
	double best[4] = {1e300, 1e300, 1e300, 1e300};
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		gemm(gn, 1.5, a, b, c);
		double t1 = now();
		memcpy(y, x, sn * sizeof *x);
		double t2 = now();
		scale(x, y, sn);
		double t3 = now();
		cg_step(&m, cx, cr, cp, cap, &rr);
		double t4 = now();
		double dt[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
		for (int k = 0; k < 4; k++)
			if (dt[k] < best[k])
				best[k] = dt[k];
	}
	printf("gemm_v3 best %.3f ms\ncopy_memcpy best %.3f ms\n"
	       "scale_v3 best %.3f ms\ncg_v3 best %.3f ms\n",
	       best[0] * 1e3, best[1] * 1e3, best[2] * 1e3, best[3] * 1e3);
	printf("check %g %g %g\n", c[gn * gn / 2], x[sn / 2], rr);
	return 0;
}
