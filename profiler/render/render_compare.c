/* rlprof compare's table (render_compare.h). */
#include <math.h>
#include <string.h>

#include "common/fmt_seconds.h"
#include "common/term_text.h"
#include "render/render_compare.h"

static void fmt_bound(char *b, size_t n, double pct)
{
	if (isnan(pct))
		snprintf(b, n, "-");
	else if (isinf(pct))
		snprintf(b, n, "%s", pct > 0 ? "inf" : "-100%");
	else
		snprintf(b, n, "%+.1f%%", pct);
}

static const char *verdict(const struct rl_time_cmp *tc)
{
	return isnan(tc->change_pct)		 ? "-"
	       : tc->verdict == RL_CHANGE_WORSE	 ? "slower"
	       : tc->verdict == RL_CHANGE_BETTER ? "faster"
	       : tc->unsure			 ? "unsure"
						 : "same";
}

static void put_seconds(char *b, size_t n, double s)
{
	if (isnan(s))
		snprintf(b, n, "-");
	else
		rl_fmt_seconds(b, n, s);
}

static void table_row(FILE *out, const char *region,
		      const struct rl_time_cmp *tc, const char *word)
{
	char name[40], a[32], b[32], ch[16], lo[16], hi[16];

	rl_term_cut(name, sizeof name, region, 24);
	put_seconds(a, sizeof a, tc->a_s);
	put_seconds(b, sizeof b, tc->b_s);
	fmt_bound(ch, sizeof ch, tc->change_pct);
	fmt_bound(lo, sizeof lo, tc->lo_pct);
	fmt_bound(hi, sizeof hi, tc->hi_pct);
	fprintf(out, "%-*s %10s %10s %10s %9s..%-8s  %s\n",
		24 + (int)(strlen(name) - rl_term_width(name)), name, a, b, ch,
		lo, hi, word);
}

void rl_render_compare_table(FILE *out, const struct rl_report_file *old,
			     const struct rl_report_file *new,
			     const struct rl_time_cmp *tc,
			     const struct rl_compare_runs *runs)
{
	char conf[16], head[32];
	struct rl_time_cmp none;

	memset(&none, 0, sizeof none);
	none.a_s = none.b_s = none.change_pct = none.lo_pct = none.hi_pct =
		NAN;
	snprintf(conf, sizeof conf, "%.3g%%", runs->confidence * 100);
	snprintf(head, sizeof head, "%s bounds", conf);
	fprintf(out, "%-24s %10s %10s %10s %19s  %s\n", "region", "old", "new",
		"change", head, "verdict");
	for (size_t i = 0; i < old->n_regions; i++)
		table_row(out, old->regions[i].region, &tc[i],
			  rl_report_file_find(new, old->regions[i].region)
				  ? verdict(&tc[i])
				  : "gone");
	for (size_t i = 0; i < new->n_regions; i++)
		if (!rl_report_file_find(old, new->regions[i].region))
			table_row(out, new->regions[i].region, &none, "new");
	if (runs->looks > 1)
		fprintf(out,
			"(medians of %zu and %zu runs, interleaved, at look "
			"%u of %u; bounds: Hodges-Lehmann change, Moses "
			"interval, %s each, so that all %u looks hold at "
			"95%%)\n",
			runs->n_old, runs->n_new, runs->look, runs->looks,
			conf, runs->looks);
	else
		fprintf(out,
			"(medians of %zu and %zu runs, interleaved; bounds: "
			"Hodges-Lehmann change, Moses interval, %s each)\n",
			runs->n_old, runs->n_new, conf);
}
