/*
 * data.c - the arrays the kernels work on: allocated 2 MiB-aligned and
 * first-touched here, outside any timed region. No huge pages are asked
 * for: the probe measures the roofs with the pages a program gets unasked
 * (probes/pool.c), and the kernels run on the same kind; where the kernel
 * compacts memory for advised ranges on a fault, asking made first touch
 * 17x slower on a fragmented VM.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define ALIGN_BYTES ((size_t)2 << 20)

static void *alloc_touched(size_t bytes)
{
	size_t rounded = (bytes + ALIGN_BYTES - 1) / ALIGN_BYTES * ALIGN_BYTES;
	void *p = aligned_alloc(ALIGN_BYTES, rounded);
	if (!p)
		return NULL;
	memset(p, 0, rounded);
	return p;
}

static int mul_overflows(size_t x, size_t y, size_t *out)
{
	if (y && x > SIZE_MAX / y)
		return 1;
	*out = x * y;
	return 0;
}

struct rl_kernel_data *rl_kernel_data_alloc(size_t n, size_t matmul_n,
					    int threads, char *err,
					    size_t errlen)
{
	struct rl_kernel_data *d = NULL;
	size_t bytes = 0, mbytes = 0;
	if (n < 16 || threads < 1 || mul_overflows(n, sizeof(double), &bytes) ||
	    mul_overflows(matmul_n, matmul_n, &mbytes) ||
	    mul_overflows(mbytes, sizeof(double), &mbytes)) {
		snprintf(err, errlen,
			 "invalid kernel sizes: %zu elements, %zu x %zu "
			 "matrices, %d threads",
			 n, matmul_n, matmul_n, threads);
		return NULL;
	}
	d = calloc(1, sizeof *d);
	if (!d)
		goto nomem;
	d->n = n;
	d->matmul_n = matmul_n;
	d->threads = threads;
	for (d->nx = 1; (d->nx + 1) * (d->nx + 1) <= n; d->nx++)
		;
	d->ny = n / d->nx;
	d->a = alloc_touched(bytes);
	d->b = alloc_touched(bytes);
	d->c = alloc_touched(bytes);
	if (!d->a || !d->b || !d->c)
		goto nomem;
	if (matmul_n) {
		d->ma = alloc_touched(mbytes);
		d->mb = alloc_touched(mbytes);
		d->mc = alloc_touched(mbytes);
		if (!d->ma || !d->mb || !d->mc)
			goto nomem;
	}
	return d;
nomem:
	snprintf(err, errlen,
		 "cannot allocate 3 arrays of %zu bytes and 3 of %zu bytes: %s",
		 bytes, mbytes, strerror(ENOMEM));
	rl_kernel_data_free(d);
	return NULL;
}

void rl_kernel_data_free(struct rl_kernel_data *d)
{
	if (!d)
		return;
	free(d->a);
	free(d->b);
	free(d->c);
	free(d->ma);
	free(d->mb);
	free(d->mc);
	free(d);
}
