/*
 * table.c - the kernel table: joins the rows each kernel file declares,
 * looks kernels up by name or group, and turns per-element figures into
 * per-call flops and bytes.
 */
#include <string.h>

#include "kernels/kernels.h"

struct part {
	const struct rl_kernel *rows;
	const size_t *count;
};

static const struct part parts[] = {
	{rl_kernels_stream, &rl_kernels_stream_count},
	{rl_kernels_f32, &rl_kernels_f32_count},
	{rl_kernels_stencil, &rl_kernels_stencil_count},
	{rl_kernels_horner, &rl_kernels_horner_count},
	{rl_kernels_matmul, &rl_kernels_matmul_count},
	{rl_kernels_threaded, &rl_kernels_threaded_count},
};

static const char *const groups[] = {
	"stream", "f32", "stencil", "horner", "matmul", "threads", "all",
};

size_t rl_kernel_count(void)
{
	size_t n = 0;
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++)
		n += *parts[p].count;
	return n;
}

const struct rl_kernel *rl_kernel_at(size_t i)
{
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
		if (i < *parts[p].count)
			return &parts[p].rows[i];
		i -= *parts[p].count;
	}
	return NULL;
}

const struct rl_kernel *rl_kernel_find(const char *name)
{
	for (size_t i = 0; i < rl_kernel_count(); i++)
		if (strcmp(rl_kernel_at(i)->name, name) == 0)
			return rl_kernel_at(i);
	return NULL;
}

int rl_kernel_is_group(const char *name)
{
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
		if (strcmp(groups[g], name) == 0)
			return 1;
	return 0;
}

int rl_kernel_selected_by(const struct rl_kernel *k, const char *name)
{
	return strcmp(name, "all") == 0 || strcmp(name, k->group) == 0 ||
	       strcmp(name, k->name) == 0;
}

double rl_kernel_elems(const struct rl_kernel *k,
		       const struct rl_kernel_data *d)
{
	switch (k->shape) {
	case RL_KSHAPE_ARRAY:
		return (double)d->n;
	case RL_KSHAPE_GRID:
		if (d->nx < 3 || d->ny < 3)
			return 0;
		return (double)(d->nx - 2) * (double)(d->ny - 2);
	case RL_KSHAPE_MATMUL:
		return (double)d->matmul_n * (double)d->matmul_n *
		       (double)d->matmul_n;
	}
	return 0;
}

double rl_kernel_flops(const struct rl_kernel *k,
		       const struct rl_kernel_data *d)
{
	return k->flops_per_elem * rl_kernel_elems(k, d) + k->flops_extra;
}

double rl_kernel_bytes(const struct rl_kernel *k,
		       const struct rl_kernel_data *d, int write_allocate)
{
	double per = write_allocate ? k->bytes_wa_per_elem : k->bytes_per_elem;
	return per * rl_kernel_elems(k, d);
}

double rl_kernel_ai(const struct rl_kernel *k, int write_allocate)
{
	double per = write_allocate ? k->bytes_wa_per_elem : k->bytes_per_elem;
	return per > 0 ? k->flops_per_elem / per : 0;
}
