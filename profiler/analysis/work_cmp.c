/* The counted work of a region in two reports (work_cmp.h). */
#include <math.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/work_cmp.h"

int rl_work_comparable(const struct rl_report_region *a,
		       const struct rl_report_region *b)
{
	return a->simulated && b->simulated;
}

static int differs(double a, double b)
{
	if (isnan(a) && isnan(b))
		return 0;
	if (isnan(a) || isnan(b))
		return (isnan(a) ? b : a) != 0;
	return a != b;
}

static size_t add(struct rl_work_diff *out, size_t n, const char *what,
		  double a, double b)
{
	if (!differs(a, b))
		return n;
	out[n].what = what;
	out[n].a = a;
	out[n].b = b;
	out[n].change_pct = rl_rel_change_pct(a, b);
	return n + 1;
}

size_t rl_work_compare(const struct rl_report_region *a,
		       const struct rl_report_region *b, bool bytes,
		       struct rl_work_diff *out)
{
	static const char *const level[4] = {"L1 bytes", "L2 bytes",
					     "L3 bytes", "DRAM bytes"};
	size_t n = 0;
	int by_prec = !isnan(a->flops_f64) || !isnan(a->flops_f32) ||
		      !isnan(b->flops_f64) || !isnan(b->flops_f32);

	if (by_prec) {
		n = add(out, n, "f64 flops", a->flops_f64, b->flops_f64);
		n = add(out, n, "f32 flops", a->flops_f32, b->flops_f32);
	} else {
		n = add(out, n, "flops", a->flops, b->flops);
	}
	for (int k = 0; bytes && k < 4; k++)
		n = add(out, n, level[k], a->level_bytes[k], b->level_bytes[k]);
	return n;
}

static void fmt_count(char *b, size_t n, double x)
{
	if (isnan(x))
		snprintf(b, n, "none");
	else
		snprintf(b, n, "%.6g", x);
}

void rl_work_diff_format(char *buf, size_t len, const struct rl_work_diff *d)
{
	char a[32], b[32];

	fmt_count(a, sizeof a, d->a);
	fmt_count(b, sizeof b, d->b);
	if (isnan(d->change_pct))
		snprintf(buf, len, "%s %s -> %s", d->what, a, b);
	else
		snprintf(buf, len, "%s %+.2f%% (%s -> %s)", d->what,
			 d->change_pct, a, b);
}
