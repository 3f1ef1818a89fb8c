/* The counters' trust in the outputs (see render_trust.h). */
#include "render/render_trust.h"
#include "analysis/report_pack.h"

#include <math.h>

#define BIT(c) (UINT64_C(1) << (c))

void rl_trust_jw_row(struct rl_jw *w, const struct rl_region_row *row)
{
	int n = 0;

	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(row->share_known & BIT(c)) || row->share_pct[c] >= 100)
			continue;
		if (!n++) {
			rl_jw_key(w, "counting_pct", 0);
			rl_jw_raw(w, "{");
		}
		rl_jw_field_u64(w, rl_counter_name(c), n == 1,
				row->share_pct[c]);
	}
	if (n)
		rl_jw_raw(w, "}");
	n = 0;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(row->withheld & BIT(c)))
			continue;
		if (!n++) {
			rl_jw_key(w, "withheld", 0);
			rl_jw_raw(w, "[");
		} else {
			rl_jw_raw(w, ",");
		}
		rl_jw_str(w, rl_counter_name(c));
	}
	if (n)
		rl_jw_raw(w, "]");
}

bool rl_report_has_marks(const struct rl_report *r)
{
	if (r->selftest)
		for (size_t i = 0; i < r->selftest->n; i++)
			if (!r->selftest->items[i].ok)
				return true;
	for (size_t i = 0, n = rl_report_n_all(r); i < n; i++) {
		struct rl_region_row buf;
		const struct rl_region_row *row = rl_report_row(r, i, &buf);
		if (row->withheld)
			return true;
		for (int c = 0; c < RL_COUNTER_COUNT; c++)
			if ((row->share_known & BIT(c)) &&
			    row->share_pct[c] < 100)
				return true;
	}
	return false;
}
