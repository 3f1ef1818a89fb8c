/*
 * kernels.h - reference kernels with known flops and bytes.
 *
 * Each kernel is a row of data next to its code (LIKWID-bench style):
 * its name, precision, flops and bytes per element, and whether the byte
 * model is exact. The tests, `rlprof-kernels --list` and the demo read
 * these rows; nothing else restates the figures.
 *
 * Conventions
 *   - An element is one index of the kernel's loop: one array index for
 *     the streaming kernels and Horner, one interior grid point for the
 *     stencil, one multiply-add of the innermost loop for matmul (n^3 of
 *     them per product).
 *   - Flops: an FMA is 2 (a*b+c is 2 flops, fused or not). Flops of one
 *     call are EXACTLY flops_per_elem * elements + flops_extra: the
 *     compiled code executes that many floating-point operations whatever
 *     the vector width (flops_extra is the fixed lane combine at the end
 *     of a reduction: 7 adds for 8 partial sums).
 *   - bytes_per_elem: what the code names (STREAM convention: triad 24).
 *     bytes_wa_per_elem: what a write-allocate cache moves to and from
 *     DRAM (triad 32: the destination line is read before it is written).
 *   - exact: 1 when the byte model is what a streaming pass moves through
 *     DRAM once the arrays are far larger than the last-level cache; 0
 *     when it is a model (cache reuse of the stencil, matmul).
 *
 * Ownership: struct rl_kernel_data is allocated by rl_kernel_data_alloc()
 * and freed by rl_kernel_data_free(); the kernel rows are static constant
 * data, never freed. The kernel functions do not print.
 */
#ifndef RL_KERNELS_H
#define RL_KERNELS_H

#include <stddef.h>

enum rl_kernel_shape {
	RL_KSHAPE_ARRAY,  /* n elements per array */
	RL_KSHAPE_GRID,   /* interior of an nx x ny grid */
	RL_KSHAPE_MATMUL, /* matmul_n^3 multiply-adds */
};

/* Called by each worker thread of a threaded kernel around its share of
 * the work, on that thread (rlprof-kernels opens the region there, so
 * every thread is counted). May be NULL. */
typedef void (*rl_kernel_thread_hook)(const char *name, void *arg);

struct rl_kernel_data {
	size_t n;        /* elements per array */
	size_t nx, ny;   /* stencil grid, nx * ny <= n */
	size_t matmul_n; /* matrices are matmul_n x matmul_n doubles */
	int threads;     /* workers of the threaded kernels */
	void *a, *b, *c; /* n doubles each (f32 kernels use n floats) */
	double *ma, *mb, *mc;
	double result; /* what a reduction returned on its last call */
	/* Threaded kernels: begin/end around each worker's share. */
	rl_kernel_thread_hook thread_begin, thread_end;
	void *hook_arg;
};

struct rl_kernel {
	const char *name;      /* unique: "triad" */
	const char *group;     /* "stream", "f32", "stencil", "horner", ... */
	const char *precision; /* "f64" or "f32" */
	double flops_per_elem;
	double bytes_per_elem;    /* STREAM convention */
	double bytes_wa_per_elem; /* with write-allocate */
	double flops_extra;       /* per call, on top of the elements */
	int exact;                /* the byte model is exact at DRAM */
	enum rl_kernel_shape shape;
	const char *formula; /* what one element does, for --list and docs */
	/* Sets the inputs (outside any timed region). */
	void (*init)(struct rl_kernel_data *d);
	/* One repetition: the timed, counted work. */
	void (*run)(struct rl_kernel_data *d);
	/* Verifies the outputs after `reps` calls of run since init against
	 * the analytic values; 0 or RL_EINVAL with a message in err. */
	int (*check)(const struct rl_kernel_data *d, int reps, char *err,
		     size_t errlen);
};

/* The table: every kernel, in a fixed order. */
size_t rl_kernel_count(void);
const struct rl_kernel *rl_kernel_at(size_t i);
const struct rl_kernel *rl_kernel_find(const char *name); /* or NULL */

/* Whether name is a group ("stream", "horner", "matmul", "all", ...) or
 * a kernel name that selects k. */
int rl_kernel_selected_by(const struct rl_kernel *k, const char *name);
int rl_kernel_is_group(const char *name);

/* Elements, flops and bytes of one call of k on d. */
double rl_kernel_elems(const struct rl_kernel *k,
		       const struct rl_kernel_data *d);
double rl_kernel_flops(const struct rl_kernel *k,
		       const struct rl_kernel_data *d);
double rl_kernel_bytes(const struct rl_kernel *k,
		       const struct rl_kernel_data *d, int write_allocate);
/* Arithmetic intensity of the model, flops per byte (0 for copy/fill). */
double rl_kernel_ai(const struct rl_kernel *k, int write_allocate);

/* Allocates the arrays (64-byte aligned) and first-touches every page so
 * that no page fault lands in a timed region. n >= 16, matmul_n >= 0
 * (0: no matrices), threads >= 1. Returns NULL with a message in err
 * when n is too small or memory runs out. */
struct rl_kernel_data *rl_kernel_data_alloc(size_t n, size_t matmul_n,
					    int threads, char *err,
					    size_t errlen);
void rl_kernel_data_free(struct rl_kernel_data *d);

/* Rows contributed by each source file (table.c joins them). */
extern const struct rl_kernel rl_kernels_stream[];
extern const size_t rl_kernels_stream_count;
extern const struct rl_kernel rl_kernels_f32[];
extern const size_t rl_kernels_f32_count;
extern const struct rl_kernel rl_kernels_stencil[];
extern const size_t rl_kernels_stencil_count;
extern const struct rl_kernel rl_kernels_horner[];
extern const size_t rl_kernels_horner_count;
extern const struct rl_kernel rl_kernels_matmul[];
extern const size_t rl_kernels_matmul_count;
extern const struct rl_kernel rl_kernels_threaded[];
extern const size_t rl_kernels_threaded_count;

/* Shared by the kernel files: input patterns whose results are exact in
 * binary floating point, so checks compare exactly. */
static inline double rl_kpat_u(size_t i) /* 1, 2, 3, 4, 1, ... */
{
	return (double)(1 + (i & 3));
}
static inline double rl_kpat_sign(size_t i) /* +1 x8, -1 x8, ... */
{
	return ((i >> 3) & 1) ? -1.0 : 1.0;
}

#endif
