/*
 * Which counted figures a report may believe: the share of each region's
 * time a counter was counting, and the run's known-answer check (see
 * report_trust.h).
 */
#include "analysis/report_pack.h"
#include "analysis/report_trust.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report.h"
#include "common/rl_error.h"

#define BIT(c) (UINT64_C(1) << (c))

/* What a reader calls the counter: "DRAM bytes read", "f64 256-bit
 * flops"; the counter's own name otherwise. */
static const char *plain_name(int c, char *buf, size_t len)
{
	static const char *const width[] = {"scalar", "128-bit", "256-bit",
					    "512-bit"};

	if (c >= RL_C_FLOPS_F64_SCALAR && c <= RL_C_FLOPS_F64_512)
		snprintf(buf, len, "f64 %s flops",
			 width[c - RL_C_FLOPS_F64_SCALAR]);
	else if (c >= RL_C_FLOPS_F32_SCALAR && c <= RL_C_FLOPS_F32_512)
		snprintf(buf, len, "f32 %s flops",
			 width[c - RL_C_FLOPS_F32_SCALAR]);
	else if (c == RL_C_FLOPS_ANY)
		snprintf(buf, len, "flops");
	else if (c == RL_C_FLOPS_FMA)
		snprintf(buf, len, "FMA flops");
	else if (c == RL_C_DRAM_READ_BYTES)
		snprintf(buf, len, "DRAM bytes read");
	else if (c == RL_C_DRAM_WRITE_BYTES)
		snprintf(buf, len, "DRAM bytes written");
	else if (c == RL_C_DRAM_BYTES)
		snprintf(buf, len, "DRAM bytes");
	else
		snprintf(buf, len, "%s", rl_counter_name(c));
	return buf;
}

static bool caught(const struct rl_selftest *st, int c)
{
	const struct rl_selftest_item *it = rl_selftest_find(st, c);

	return it && !it->ok;
}

uint64_t rl_trust_row(struct rl_region_row *row, uint64_t provided,
		      const uint64_t enabled_ns[], const uint64_t running_ns[],
		      const struct rl_selftest *st)
{
	uint64_t withheld = 0, flops = rl_counter_kind_mask(RL_KIND_FLOPS) |
				       rl_counter_kind_mask(RL_KIND_FLOPS_PART);

	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(provided & BIT(c)))
			continue;
		if (caught(st, c))
			withheld |= BIT(c);
		if (!enabled_ns || enabled_ns[c] == 0)
			continue;
		/* floor: 49.9% is below 50%, never rounded up to it */
		double q = floor(100.0 * (double)running_ns[c] /
				 (double)enabled_ns[c]);
		row->share_pct[c] = (unsigned char)(q > 100 ? 100 : q);
		row->share_known |= BIT(c);
		if (row->share_pct[c] < RL_MIN_SHARE_PCT)
			withheld |= BIT(c);
	}
	if (withheld & flops & ~BIT(RL_C_FLOPS_FMA))
		withheld |= flops & provided;
	row->withheld = withheld;
	return withheld;
}

static int warn(struct rl_report *r, const char *kind, const char *region,
		const char *msg)
{
	return rl_warning_append(&r->warnings, &r->n_warnings, kind, region, 0,
				 msg);
}

static int selftest_warnings(struct rl_report *r)
{
	const struct rl_selftest *st = r->selftest;
	char msg[400], name[48];
	int rc;

	for (size_t i = 0; st && i < st->n; i++) {
		const struct rl_selftest_item *it = &st->items[i];
		if (it->ok)
			continue;
		plain_name(it->counter, name, sizeof name);
		if (isfinite(it->factor))
			snprintf(msg, sizeof msg,
				 "%s %.2fx the known answer: not used for "
				 "placement (the known-answer check counted "
				 "%.0f where its kernels do %.0f; tolerance "
				 "%.0f%%)",
				 name, it->factor, it->counted, it->expected,
				 100 * (rl_counter_kind_of(it->counter) ==
							RL_KIND_BYTES
						? RL_SELFTEST_BYTES_TOL
						: RL_SELFTEST_FLOPS_TOL));
		else
			snprintf(msg, sizeof msg,
				 "%s counted %.0f where the known-answer "
				 "check's kernels do none: not used for "
				 "placement",
				 name, it->counted);
		if ((rc = warn(r, "selftest", NULL, msg)))
			return rc;
	}
	return 0;
}

int rl_report_trust_warnings(struct rl_report *r)
{
	char msg[600], name[48];
	int rc;

	if ((rc = selftest_warnings(r)))
		return rc;
	for (size_t i = 0; i < r->n_summed; i++) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(r, i, &row_buf);
		size_t used = 0;
		for (int c = 0; c < RL_COUNTER_COUNT; c++) {
			int k;
			if (!(row->share_known & BIT(c)) ||
			    row->share_pct[c] >= RL_MIN_SHARE_PCT)
				continue;
			k = snprintf(msg + used, sizeof msg - used, "%s%s %u%%",
				     used ? ", " : "",
				     plain_name(c, name, sizeof name),
				     row->share_pct[c]);
			if (k < 0 || (size_t)k >= sizeof msg - used)
				break;
			used += (size_t)k;
		}
		if (!used)
			continue;
		snprintf(msg + used, sizeof msg - used,
			 " of the time in region '%s' (multiplexed): withheld, "
			 "below the %d%% a scaled figure needs; count fewer "
			 "events at once",
			 row->region, RL_MIN_SHARE_PCT);
		if ((rc = warn(r, "withheld", row->region, msg)))
			return rc;
	}
	return 0;
}

void rl_row_marks(const struct rl_report *r, const struct rl_region_row *row,
		  char *buf, size_t len)
{
	size_t used = 0;
	char name[48];

	if (len)
		buf[0] = '\0';
	for (int c = 0; c < RL_COUNTER_COUNT && len; c++) {
		const struct rl_selftest_item *it =
			rl_selftest_find(r->selftest, c);
		bool scaled = (row->share_known & BIT(c)) &&
			      row->share_pct[c] < 100;
		int k;
		plain_name(c, name, sizeof name);
		if (it && !it->ok && (row->withheld & BIT(c)))
			k = snprintf(buf + used, len - used,
				     "%s%s %.2fx the known answer: not used "
				     "for placement",
				     used ? "; " : "", name, it->factor);
		else if (scaled)
			k = snprintf(buf + used, len - used,
				     "%s%s counted %u%% of the time: %s",
				     used ? "; " : "", name, row->share_pct[c],
				     row->share_pct[c] < RL_MIN_SHARE_PCT
					     ? "withheld (below 50%)"
					     : "scaled");
		else
			continue;
		if (k < 0 || (size_t)k >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)k;
	}
}

char *rl_trust_diagnosis(const struct rl_region_row *row)
{
	uint64_t figures = rl_counter_kind_mask(RL_KIND_FLOPS) | rl_counter_kind_mask(RL_KIND_BYTES);
	char text[200];

	if (!(row->withheld & figures) || row->basis != RL_BASIS_NONE)
		return NULL;
	snprintf(text, sizeof text,
		 "not placed: its counts were withheld (counted under %d%% "
		 "of the time, or wrong in the known-answer check); see the "
		 "warnings",
		 RL_MIN_SHARE_PCT);
	return strdup(text);
}
