/*
 * A conjugate-gradient mini-app shaped like HPCG (issue 24: its kernels
 * count at their formulas serial, with 2 threads and with 2 ranks), for
 * tests/cli/test_e2e_cg.c. A 3D 7-point Poisson problem on an n^3 grid
 * per rank, the ranks stacked along z (halo planes exchanged with
 * MPI_Sendrecv before each product), preconditioned by a multigrid
 * V-cycle of LEVELS grids (n, n/2, ...). Every kernel is an OpenMP
 * `parallel for schedule(static)` annotated with its region:
 *  - "spmv"   y = A x (halo exchange first):     2 nnz flops
 *  - "dot"    x.y, threads' partial sums added,
 *             then MPI_Allreduce:                2 rows + (T - 1), T the
 *                                                team's threads
 *  - "waxpby" w = alpha x + beta y:              2 rows when alpha or
 *                                                beta is 1, else 3 rows
 *  - "mg"     the V-cycle: smoothing (rows), spmv, waxpby, restriction
 *             by injection (0), the next level (mg again: recursion,
 *             each level inside the same region name), prolongation
 *             (coarse rows), spmv, waxpby, correction (2 rows); the
 *             coarsest level smooths only (rows)
 *  - "cg"     the iterations: the kernels above plus its own scalar
 *             work: alpha and beta (1 division each), sqrt of r.r (1)
 * and some calls at top level, outside "cg" (the residual before and
 * after, the error).
 *
 * The program counts what each region should count, by the rules of
 * docs/parallel.md: work counts in every region open when it is done, a
 * region open twice (mg's recursion) counts it once, every entry is a
 * call. Its bookkeeping is integer only; MPI calls are not the program's
 * work (rlprof keeps them out of the counts by default).
 *
 *   cg_mini [N [ITERS [OUT]]]      N = 16, ITERS = 8 by default
 *
 * OUT: the file prefix to write "OUT.RANK", one line per region:
 * "name flops calls".
 */
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <rlprof.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEVELS 3
#define MAX_THREADS 256

enum { R_CG, R_MG, R_SPMV, R_DOT, R_WAXPBY, R_COUNT };
static const char *const region_name[R_COUNT] = {"cg", "mg", "spmv", "dot",
						 "waxpby"};

/* What each region should count, and the regions open now (the program
 * enters regions on its main thread only, outside parallel regions). */
static uint64_t want_flops[R_COUNT], want_calls[R_COUNT];
static int open_id[64], n_open;

static void begin(int id)
{
	RL_REGION_BEGIN(region_name[id]);
	want_calls[id]++;
	open_id[n_open++] = id;
}

static void end(int id)
{
	n_open--;
	RL_REGION_END(region_name[id]);
}

/* flops done now: once in every region open (once however often open) */
static void account(uint64_t flops)
{
	int seen[R_COUNT] = {0};
	for (int i = 0; i < n_open; i++)
		seen[open_id[i]] = 1;
	for (int k = 0; k < R_COUNT; k++)
		if (seen[k])
			want_flops[k] += flops;
}

/* a scalar the compiler cannot see through (a constant alpha of -1 would
 * let it turn a multiply and an add into one subtraction) */
static double opaque(double v)
{
	__asm__ volatile("" : "+x"(v));
	return v;
}

/* One grid: n^3 rows, vectors of rows + 2 n^2 (the halo planes below
 * and above), the matrix in compressed rows. */
struct level {
	int n;
	long rows, len, nnz;
	long *rowptr;
	long *col;
	double *val, *dinv;
	double *r, *z, *t; /* the V-cycle's vectors at this level */
	struct level *coarse;
};

static int rank, size;

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);
	if (!p) {
		fprintf(stderr, "cg_mini: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	return p;
}

/* the column of (x, y, z), z from -1 (halo below) to n (halo above) */
static long column(const struct level *l, int x, int y, int z)
{
	long plane = (long)l->n * l->n, xy = (long)y * l->n + x;
	if (z < 0)
		return l->rows + xy;
	if (z >= l->n)
		return l->rows + plane + xy;
	return z * plane + xy;
}

static struct level *level_new(int n, int depth)
{
	static const int d[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
				    {0, 1, 0},	{0, 0, -1}, {0, 0, 1}};
	struct level *l = xcalloc(1, sizeof *l);
	long nzg = (long)n * size, i = 0, k = 0;

	l->n = n;
	l->rows = (long)n * n * n;
	l->len = l->rows + 2L * n * n;
	l->rowptr = xcalloc(l->rows + 1, sizeof *l->rowptr);
	l->col = xcalloc(7 * l->rows, sizeof *l->col);
	l->val = xcalloc(7 * l->rows, sizeof *l->val);
	l->dinv = xcalloc(l->rows, sizeof *l->dinv);
	l->r = xcalloc(l->len, sizeof *l->r);
	l->z = xcalloc(l->len, sizeof *l->z);
	l->t = xcalloc(l->len, sizeof *l->t);
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++, i++) {
				l->rowptr[i] = k;
				l->col[k] = i;
				l->val[k++] = 6.0;
				for (int e = 0; e < 6; e++) {
					int xx = x + d[e][0], yy = y + d[e][1];
					int zz = z + d[e][2];
					long gz = (long)rank * n + zz;
					if (xx < 0 || xx >= n || yy < 0 ||
					    yy >= n || gz < 0 || gz >= nzg)
						continue;
					l->col[k] = column(l, xx, yy, zz);
					l->val[k++] = -1.0;
				}
				l->dinv[i] = 1.0 / 6.0;
			}
	l->rowptr[i] = k;
	l->nnz = k;
	if (depth + 1 < LEVELS)
		l->coarse = level_new(n / 2, depth + 1);
	return l;
}

/* the halo planes of v from the ranks below and above */
static void exchange(const struct level *l, double *v)
{
	int plane = l->n * l->n;
	int down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
	int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;

	MPI_Sendrecv(v, plane, MPI_DOUBLE, down, 1, v + l->rows + plane,
		     plane, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	MPI_Sendrecv(v + l->rows - plane, plane, MPI_DOUBLE, up, 2,
		     v + l->rows, plane, MPI_DOUBLE, down, 2, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
}

/* y = A x: 2 nnz */
static void spmv(const struct level *l, double *x, double *y)
{
	begin(R_SPMV);
	exchange(l, x);
#pragma omp parallel for schedule(static)
	for (long i = 0; i < l->rows; i++) {
		double sum = 0.0;
		for (long k = l->rowptr[i]; k < l->rowptr[i + 1]; k++)
			sum += l->val[k] * x[l->col[k]];
		y[i] = sum;
	}
	account(2 * (uint64_t)l->nnz);
	end(R_SPMV);
}

/* x.y over the ranks: 2 rows, and T - 1 adds of the T threads' partial
 * sums (the MPI_Allreduce is MPI's work, not the program's) */
static double dot(long n, const double *x, const double *y)
{
	double part[MAX_THREADS], local, global = 0.0;
	int nt = 1;

	begin(R_DOT);
#pragma omp parallel num_threads(omp_get_max_threads() < MAX_THREADS ? \
					 omp_get_max_threads() : MAX_THREADS)
	{
		double s = 0.0;
#pragma omp for schedule(static)
		for (long i = 0; i < n; i++)
			s += x[i] * y[i];
		part[omp_get_thread_num()] = s;
		if (omp_get_thread_num() == 0)
			nt = omp_get_num_threads();
	}
	local = part[0];
	for (int t = 1; t < nt; t++)
		local += part[t];
	MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	account(2 * (uint64_t)n + (uint64_t)(nt - 1));
	end(R_DOT);
	return global;
}

/* w = alpha x + beta y: 2 n when alpha or beta is 1 (HPCG's cases), else
 * 3 n */
static void waxpby(long n, double alpha, const double *x, double beta,
		   const double *y, double *w)
{
	begin(R_WAXPBY);
	alpha = opaque(alpha);
	beta = opaque(beta);
	if (alpha == 1.0) {
#pragma omp parallel for schedule(static)
		for (long i = 0; i < n; i++)
			w[i] = x[i] + beta * y[i];
		account(2 * (uint64_t)n);
	} else if (beta == 1.0) {
#pragma omp parallel for schedule(static)
		for (long i = 0; i < n; i++)
			w[i] = alpha * x[i] + y[i];
		account(2 * (uint64_t)n);
	} else {
#pragma omp parallel for schedule(static)
		for (long i = 0; i < n; i++)
			w[i] = alpha * x[i] + beta * y[i];
		account(3 * (uint64_t)n);
	}
	end(R_WAXPBY);
}

/* z = M^-1 r: one V-cycle from level l down */
static void mg(struct level *l, const double *r, double *z)
{
	struct level *c = l->coarse;

	begin(R_MG);
#pragma omp parallel for schedule(static)
	for (long i = 0; i < l->rows; i++)
		z[i] = r[i] * l->dinv[i];
	account((uint64_t)l->rows);
	if (c) {
		int n = l->n, nc = c->n;
		/* t = r - A z, injected into the coarse grid's r */
		spmv(l, z, l->t);
		waxpby(l->rows, 1.0, r, -1.0, l->t, l->t);
#pragma omp parallel for schedule(static)
		for (long ic = 0; ic < c->rows; ic++) {
			long x = ic % nc, y = ic / nc % nc, zz = ic / nc / nc;
			c->r[ic] = l->t[(2 * zz * n + 2 * y) * n + 2 * x];
		}
		mg(c, c->r, c->z);
#pragma omp parallel for schedule(static)
		for (long ic = 0; ic < c->rows; ic++) {
			long x = ic % nc, y = ic / nc % nc, zz = ic / nc / nc;
			z[(2 * zz * n + 2 * y) * n + 2 * x] += c->z[ic];
		}
		account((uint64_t)c->rows);
		/* z += D^-1 (r - A z) */
		spmv(l, z, l->t);
		waxpby(l->rows, 1.0, r, -1.0, l->t, l->t);
#pragma omp parallel for schedule(static)
		for (long i = 0; i < l->rows; i++)
			z[i] += l->dinv[i] * l->t[i];
		account(2 * (uint64_t)l->rows);
	}
	end(R_MG);
}

static void write_counts(const char *prefix)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s.%d", prefix, rank);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int k = 0; k < R_COUNT; k++)
		fprintf(f, "%s %llu %llu\n", region_name[k],
			(unsigned long long)want_flops[k],
			(unsigned long long)want_calls[k]);
	if (fclose(f) != 0) {
		perror(path);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 16;
	int iters = argc > 2 ? atoi(argv[2]) : 8, provided;
	struct level *A;
	double *x, *b, *r, *z, *p, *Ap, *e;
	double rtz = 0.0, rtz_old, alpha, beta, normr0, normr = 0.0, err;
	long len;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (n < 1 << LEVELS || n % (1 << (LEVELS - 1)) != 0 || iters < 1) {
		if (rank == 0)
			fprintf(stderr, "cg_mini: N must be a multiple of %d "
					"from %d, ITERS at least 1\n",
				1 << (LEVELS - 1), 1 << LEVELS);
		MPI_Finalize();
		return 2;
	}
	A = level_new(n, 0);
	len = A->len;
	x = xcalloc(len, sizeof *x);
	b = xcalloc(len, sizeof *b);
	r = A->r; /* the finest level's vectors are CG's r and z */
	z = A->z;
	p = xcalloc(len, sizeof *p);
	Ap = xcalloc(len, sizeof *Ap);
	e = xcalloc(len, sizeof *e);
	for (long i = 0; i < A->rows; i++)
		e[i] = 1.0 + (double)((i * 7 + rank) % 11) / 16.0;

	/* top level: b = A e, r = b - A x (x = 0), |r0| */
	spmv(A, e, b);
	spmv(A, x, Ap);
	waxpby(A->rows, 1.0, b, -1.0, Ap, r);
	normr0 = sqrt(dot(A->rows, r, r));

	begin(R_CG);
	for (int k = 1; k <= iters; k++) {
		mg(A, r, z);
		rtz_old = rtz;
		rtz = dot(A->rows, r, z);
		if (k == 1) {
			memcpy(p, z, A->rows * sizeof *p);
		} else {
			beta = rtz / rtz_old;
			account(1);
			waxpby(A->rows, 1.0, z, beta, p, p);
		}
		spmv(A, p, Ap);
		alpha = rtz / dot(A->rows, p, Ap);
		account(1);
		waxpby(A->rows, alpha, p, 1.0, x, x);
		waxpby(A->rows, 1.0, r, -alpha, Ap, r);
		normr = sqrt(dot(A->rows, r, r));
		account(1);
	}
	end(R_CG);

	/* top level again: the true residual and the error (2 (x - e)) */
	spmv(A, x, Ap);
	waxpby(A->rows, 1.0, b, -1.0, Ap, Ap);
	waxpby(A->rows, 2.0, x, -2.0, e, e);
	err = dot(A->rows, e, e);

	if (rank == 0)
		printf("cg_mini: %d ranks, %d^3 each, %d iterations: "
		       "|r|/|r0| %.3e, |2(x-e)|^2 %.3e\n",
		       size, n, iters, normr / normr0, err);
	if (argc > 3)
		write_counts(argv[3]);
	MPI_Finalize();
	return 0;
}
