/*
 * rl_diagnose: one line saying what a row's numbers mean, following the
 * roofline seeds. Pure function of the row and the machine model.
 *
 * Parts, the most important first, at most two joined by "; ":
 *   1. the position: no model / no counts / above, at (>= 70 %) or far
 *      below its roof, with the lever that fits (raise AI; fewer flops;
 *      latency and parallelism, naming a ceiling when the attained rate
 *      sits on one: single-chain, scalar, add-only);
 *   2. the gap between counted and declared figures: flops off by more
 *      than a factor 2 first (the AI itself is then in doubt), else bytes
 *      (write-allocate at 1.2-1.6x, whole lines or poor reuse above, cache
 *      reuse below 0.8x), else flops off by more than 10 %.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define AT_ROOF_PCT 70.0
#define ABOVE_ROOF_PCT 110.0

static double ratio(double a, double b)
{
	return rl_known(a) && rl_known(b) && b > 0 && a >= 0 ? a / b : NAN;
}

/* The ceiling (single-chain, scalar or add-only, any ISA) of the row's
 * precision that the attained rate sits near, within 25 %, or NULL; among
 * the roofs measured with the thread count closest to the row's. */
static const struct rl_compute_roof *
ceiling_hit(const struct rl_region_row *row, const struct rl_machine *m)
{
	const char *prec = row->precision && strcmp(row->precision, "f32") == 0
				   ? "f32" : "f64";
	static const char *const kinds[] = {"single-chain", "scalar",
					    "add-only"};
	const struct rl_compute_roof *best = NULL;
	double best_dist = log(1.25);
	int min_dt[3] = {-1, -1, -1};
	if (!m || !rl_known(row->gflops) || !(row->gflops > 0))
		return NULL;
	/* pass 0: per kind, the closest thread count; pass 1: the match */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE;
		     i++) {
			const struct rl_compute_roof *c = &m->compute[i];
			int k = 0;
			while (k < 3 && strcmp(c->kind, kinds[k]) != 0)
				k++;
			if (k == 3 || strcmp(c->precision, prec) != 0 ||
			    !(c->gflops > 0))
				continue;
			int dt = abs((int)c->threads - (int)row->n_threads);
			if (pass == 0) {
				if (min_dt[k] < 0 || dt < min_dt[k])
					min_dt[k] = dt;
				continue;
			}
			double dist = fabs(log(row->gflops / c->gflops));
			if (dt == min_dt[k] && dist <= best_dist) {
				best = c;
				best_dist = dist;
			}
		}
	}
	return best;
}

static const char *ceiling_lever(const char *kind)
{
	if (strcmp(kind, "single-chain") == 0)
		return "if it is one dependent chain, split it into "
		       "independent accumulators";
	if (strcmp(kind, "scalar") == 0)
		return "if it is not vectorised, vectorise it";
	return "if it uses no FMA, fuse multiplies and adds";
}

/* "92%", "1.8%", "0.014%" */
static const char *pct_text(char *buf, size_t len, double pct)
{
	snprintf(buf, len, pct >= 10 ? "%.0f%%" : "%.2g%%", pct);
	return buf;
}

static void position(FILE *o, const struct rl_region_row *row,
		     const struct rl_machine *m)
{
	char p[32];
	const char *roof = row->bound_roof;
	double pct = row->roof_pct;
	int mem = row->bound == RL_BOUND_MEMORY;
	if (row->simulated && !row->time_native &&
	    row->bound != RL_BOUND_UNKNOWN) {
		/* Valgrind dilates time: only the AI position means anything */
		fprintf(o, "%s-bound by its AI (roof: %s); simulated run, so "
			"GFLOP/s and %% of roof are not meaningful",
			mem ? "memory" : "compute",
			roof ? roof : mem ? "memory" : "compute");
		return;
	}
	if (row->bound == RL_BOUND_UNKNOWN || !rl_known(pct)) {
		fputs("no roof in the machine model for this precision and "
		      "thread count: rerun rlprof probe", o);
		return;
	}
	if (!roof)
		roof = mem ? "the memory" : "the compute";
	if (pct >= ABOVE_ROOF_PCT && mem && row->basis == RL_BASIS_COUNTED) {
		/* the bytes were counted at that level: no cache hit is in
		 * them, so the triad's roof is what falls short */
		fprintf(o, "%s of %s, above the triad-measured roof: this "
			"access mix (e.g. fewer writes) streams faster than the "
			"triad, or the machine was busier when probed (rlprof "
			"probe --force)", pct_text(p, sizeof p, pct), roof);
	} else if (pct >= ABOVE_ROOF_PCT && mem) {
		fprintf(o, "%s of %s, above it: the data is reused from "
			"cache, judge it against the cache-level roofs",
			pct_text(p, sizeof p, pct), roof);
	} else if (pct >= ABOVE_ROOF_PCT) {
		fprintf(o, "%s of %s, above it: the flop count or the roof "
			"is off (check the counted flops and rlprof probe)",
			pct_text(p, sizeof p, pct), roof);
	} else if (pct >= AT_ROOF_PCT && mem) {
		fprintf(o, "memory-bound at %s of %s: raise AI: tiling, "
			"fusion, smaller types", pct_text(p, sizeof p, pct), roof);
	} else if (pct >= AT_ROOF_PCT) {
		fprintf(o, "compute-bound at %s of %s: at the roof, only "
			"fewer flops (a better algorithm) or a lower precision "
			"help", pct_text(p, sizeof p, pct), roof);
	} else {
		const struct rl_compute_roof *c = ceiling_hit(row, m);
		fprintf(o, "%s of the %s roof", pct_text(p, sizeof p, pct),
			mem ? roof : "compute");
		if (c && strcmp(c->kind, "scalar") == 0)
			fprintf(o, ", near the scalar ceiling (%.3g GFLOP/s): %s",
				c->gflops, ceiling_lever(c->kind));
		else if (c)
			fprintf(o, ", near the %s %s ceiling (%.3g GFLOP/s): %s",
				c->name, c->kind, c->gflops,
				ceiling_lever(c->kind));
		else if (mem)
			fputs(": latency or too little parallelism: more threads, "
			      "contiguous prefetch-friendly access, independent "
			      "loads", o);
		else
			fputs(": latency or too little parallelism: independent "
			      "accumulators, vectorisation", o);
	}
	if (row->basis == RL_BASIS_DECLARED)
		fputs(" (declared figures)", o);
}

static int bytes_gap(FILE *o, const struct rl_region_row *row)
{
	double r = ratio(row->dram_bytes, row->bytes_expected);
	if (!rl_known(r) || (r >= 0.8 && r < 1.2))
		return 0;
	fprintf(o, r >= 0.1 ? "counted %.2f\xc3\x97 the declared bytes: "
			    : "counted %.2g\xc3\x97 the declared bytes: ", r);
	if (r < 0.8)
		fputs("part of the data came from cache (a cache-level roof "
		      "applies)", o);
	else if (r <= 1.6)
		fputs("write-allocate on stores; non-temporal stores would "
		      "avoid it", o);
	else
		fputs("whole cache lines or poor reuse (strided, scattered or "
		      "evicted data)", o);
	return 1;
}

static int flops_gap(FILE *o, const struct rl_region_row *row, double lo,
		     double hi)
{
	double r = ratio(row->flops, row->flops_expected);
	if (!rl_known(r) || (r > lo && r < hi))
		return 0;
	fprintf(o, r >= 0.1 ? "counted flops %.2f\xc3\x97 declared: "
			    : "counted flops %.2g\xc3\x97 declared: ", r);
	if (r < 1)
		fputs("the declaration overstates the work, or some arithmetic "
		      "is not counted (an FMA counted once, x87 or integer "
		      "code)", o);
	else
		fputs("extra work: redundant arithmetic, masked or remainder "
		      "vector lanes, or the declaration leaves some out", o);
	return 1;
}

/* Writes sep and the most important gap, or nothing. */
static void gap(FILE *o, const struct rl_region_row *row, const char *sep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *g = open_memstream(&buf, &len);
	if (!g)
		return;
	if (!flops_gap(g, row, 0.5, 2.0) && !bytes_gap(g, row))
		flops_gap(g, row, 0.9, 1.1);
	if (fclose(g) == 0 && buf && *buf)
		fprintf(o, "%s%s", sep, buf);
	free(buf);
}

char *rl_diagnose(const struct rl_region_row *row,
		  const struct rl_machine *machine)
{
	char *buf = NULL, ai[32];
	size_t len = 0;
	FILE *o = open_memstream(&buf, &len);
	if (!o)
		return strdup("");
	int flops = rl_known(row->flops), bytes = rl_known(row->dram_bytes);
	if (flops && row->flops == 0) {
		fputs("no floating-point work counted: the roofline does not "
		      "apply (integer or data-movement code)", o);
	} else if (!flops && !bytes) {
		if (rl_known(row->ai_expected)) {
			snprintf(ai, sizeof ai, "%.2g", row->ai_expected);
			fprintf(o, "no flop or byte counts (time backend): declared "
				"AI %s, roof from declared figures", ai);
			if (machine && rl_known(row->roof_pct)) {
				fputs("; ", o);
				position(o, row, machine);
			} else if (!machine) {
				fputs("; no machine model: run rlprof probe", o);
			}
		} else {
			fputs("no flop or byte counts and nothing declared: add "
			      "RL_REGION_EXPECT or use a counting backend (rlprof "
			      "counters)", o);
		}
	} else if (!bytes || !flops) {
		fprintf(o, "%s counted but no %s (no counter for it here): AI "
			"unknown", flops ? "flops" : "DRAM bytes",
			flops ? "DRAM bytes" : "flops");
		if (rl_known(row->ai_expected)) {
			snprintf(ai, sizeof ai, "%.2g", row->ai_expected);
			fprintf(o, ", declared AI %s", ai);
		}
	} else if (!machine) {
		fputs("no machine model: run rlprof probe", o);
		gap(o, row, "; ");
	} else {
		position(o, row, machine);
		gap(o, row, "; ");
	}
	if (fclose(o) != 0 || !buf) {
		free(buf);
		return strdup("");
	}
	return buf;
}
