/*
 * rl_diagnose: one line saying what a row's numbers mean, following the
 * roofline seeds. Pure function of the row and the machine model.
 *
 * Parts, the most important first, at most two joined by "; ":
 *   1. the position: no model / no counts / above its roof (the
 *      self-check's finding and cause, analysis_check.c), at (>= 70 %) or
 *      far below it, with the lever that fits (raise AI; fewer flops, or
 *      at an ISA ceiling under the machine's best peak, the build flags
 *      that reach it; latency and parallelism, naming a ceiling of the
 *      flops' own width when the attained rate sits on one:
 *      single-chain, add-only);
 *   2. the gap between counted and declared figures: flops off by more
 *      than a factor 2 first (the AI itself is then in doubt), else bytes
 *      (write-allocate at 1.2-1.6x, whole lines or poor reuse above, cache
 *      reuse below 0.8x), else flops off by more than 10 %.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/report.h"

#define AT_ROOF_PCT 70.0

static double ratio(double a, double b)
{
	return rl_known(a) && rl_known(b) && b > 0 && a >= 0 ? a / b : NAN;
}

static const char *ceiling_lever(const char *kind)
{
	if (strcmp(kind, "add-chain") == 0)
		return "one dependent add chain: split it into independent "
		       "accumulators, or let the compiler reassociate "
		       "(-ffast-math / -fassociative-math)";
	if (strcmp(kind, "mul-chain") == 0)
		return "one dependent multiply chain: split it into "
		       "independent partial products, or let the compiler "
		       "reassociate (-ffast-math / -fassociative-math)";
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

static const char *width_name(unsigned w)
{
	return w == 64 ? "scalar" : w == 128 ? "128-bit" : w == 256 ? "256-bit"
			 : "512-bit";
}

/* "flops are 100% 256-bit without FMA" */
static void flops_mix(FILE *o, const struct rl_region_row *row)
{
	int wi = row->code_width == 64 ? 0 : row->code_width == 128 ? 1
		 : row->code_width == 256 ? 2 : 3;
	double share = ratio(row->flops_width[wi], row->flops);
	char p[32];

	if (row->timed_isa) {
		fprintf(o, "the timed build is %s (its flops counted in "
			"another build)", row->timed_isa);
		return;
	}
	if (!rl_known(share))
		snprintf(p, sizeof p, "?");
	else if (share >= 0.9995)
		snprintf(p, sizeof p, "100%%");
	else
		snprintf(p, sizeof p, "%.3g%%", share * 100);
	fprintf(o, "flops are %s %s", p, width_name(row->code_width));
	if (!rl_known(row->fma_share))
		fputs(" (FMA not counted)", o);
	else if (row->fma_share <= 0.01)
		fputs(" without FMA", o);
	else if (row->fma_share >= 0.99)
		fputs(" with FMA", o);
	else
		fprintf(o, ", %s of them in FMAs",
			pct_text(p, sizeof p, row->fma_share * 100));
}

/* "; this machine's avx512-fma f64 peak is 3.7x higher: build with
 * -march=native (or -mavx512f -mfma -mprefer-vector-width=512)", when the
 * region's ceiling is well under the best peak; 1 when written. */
static int isa_advice(FILE *o, const struct rl_region_row *row,
		      const struct rl_machine *m)
{
	const struct rl_compute_roof *best = row->best_peak;
	double gap;
	unsigned bw;
	int bf;

	if (!best || !row->ceiling_roof || !row->code_width ||
	    !rl_known(row->ceiling_gflops) || !(row->ceiling_gflops > 0))
		return 0;
	gap = best->gflops / row->ceiling_gflops;
	if (!(gap >= 1.15))
		return 0;
	bw = rl_roof_width(best);
	bf = rl_roof_fma(best) == 1;
	if (bf && m) {
		/* FMA worth naming only where it is faster here (cores with
		 * separate add pipes run a multiply and an add as fast) */
		struct rl_ceiling nf;
		rl_pick_ceiling(m, best->precision, best->threads, bw, 0.0, best,
				&nf);
		if (nf.roof && rl_roof_fma(nf.roof) == 0 &&
		    best->gflops < 1.15 * nf.gflops)
			bf = 0;
	}
	fputs(": ", o);
	flops_mix(o, row);
	fprintf(o, "; this machine's %s %s peak is %.2g\xc3\x97 higher: ",
		best->name, best->precision, gap);
	if (row->code_width == 64) {
		fputs("vectorise (-O3 -march=native; a reduction also needs "
		      "-ffast-math or independent accumulators)", o);
		return 1;
	}
	fputs("build with -march=native", o);
	if (bw > row->code_width || (bf && !(row->fma_share > 0.5))) {
		fputs(" (or", o);
		if (bw == 512 && row->code_width < 512)
			fputs(" -mavx512f", o);
		else if (bw == 256 && row->code_width < 256)
			fputs(" -mavx2", o);
		if (bf && !(row->fma_share > 0.5))
			fputs(" -mfma", o);
		if (bw == 512 && row->code_width < 512)
			fputs(" -mprefer-vector-width=512", o);
		fputc(')', o);
	}
	return 1;
}

/* under this % of its roof a row's counted work is not what takes its
 * time (docs/advice.md) */
#define IDLE_PCT 0.1

/* The rate a chain ceiling stands for at the row's rate: the chain's, or
 * twice it (a dot product: a multiply feeding each add, two flops a
 * step), whichever the row is nearer (as rl_near_ceiling matched it). */
static double chain_rate(const struct rl_region_row *row,
			 const struct rl_compute_roof *c)
{
	if ((strcmp(c->kind, "add-chain") == 0 ||
	     strcmp(c->kind, "mul-chain") == 0) &&
	    fabs(log(row->gflops / (2 * c->gflops))) <
		    fabs(log(row->gflops / c->gflops)))
		return 2 * c->gflops;
	return c->gflops;
}

static void position(FILE *o, const struct rl_region_row *row,
		     const struct rl_machine *m)
{
	char p[32];
	const char *roof = row->roof_label ? row->roof_label : row->bound_roof;
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
	if (pct > RL_CHECK_PCT && row->check) {
		/* the self-check's finding, with its likeliest cause */
		fprintf(o, "self-check: %s", row->check);
	} else if (pct > RL_CHECK_PCT) {
		fprintf(o, "%s of %s, above it: the counts or the roof are off",
			pct_text(p, sizeof p, pct), roof);
	} else if (pct >= AT_ROOF_PCT && mem) {
		fprintf(o, "memory-bound at %s of %s: raise AI: tiling, "
			"fusion, smaller types", pct_text(p, sizeof p, pct), roof);
	} else if (pct >= AT_ROOF_PCT) {
		fprintf(o, "compute-bound at %s of %s", pct_text(p, sizeof p, pct),
			roof);
		if (!isa_advice(o, row, m))
			fputs(": at the roof, only fewer flops (a better "
			      "algorithm) or a lower precision help", o);
	} else {
		const struct rl_compute_roof *c = row->named_ceiling;
		if (mem)
			fprintf(o, "%s of the %s roof", pct_text(p, sizeof p, pct),
				roof);
		else if (row->code_width)
			fprintf(o, "%s of the %s ceiling",
				pct_text(p, sizeof p, pct), roof);
		else
			fprintf(o, "%s of the compute roof",
				pct_text(p, sizeof p, pct));
		if (pct < IDLE_PCT)
			fputs(": its counted work runs at under 0.1% of the roof, "
			      "so its time goes elsewhere (waiting: sleep, I/O, "
			      "locks, other processes; or code not counted): no "
			      "roofline lever applies", o);
		else if (c && strcmp(c->kind, "scalar") == 0)
			fprintf(o, ", near the scalar ceiling (%.3g GFLOP/s): %s",
				c->gflops, ceiling_lever(c->kind));
		else if (c && chain_rate(row, c) != c->gflops)
			fprintf(o, ", near twice the %s %s ceiling (%.3g GFLOP/s: "
				"a multiply feeding each step of the chain): %s",
				c->name, c->kind, chain_rate(row, c),
				ceiling_lever(c->kind));
		else if (c)
			fprintf(o, ", near the %s %s ceiling (%.3g GFLOP/s): %s",
				c->name, c->kind, c->gflops,
				ceiling_lever(c->kind));
		else if (mem && row->n_threads && m && m->cores &&
			 row->n_threads >= m->cores)
			fprintf(o, ": latency: %u threads ran it on %u CPUs: "
				"contiguous prefetch-friendly access, independent "
				"loads, software prefetch", row->n_threads,
				m->cores);
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
	char part[1024] = "";
	FILE *g = fmemopen(part, sizeof part, "w");
	if (!g)
		return;
	if (!flops_gap(g, row, 0.5, 2.0) && !bytes_gap(g, row))
		flops_gap(g, row, 0.9, 1.1);
	if (fclose(g) == 0 && (part[sizeof part - 1] = '\0', *part))
		fprintf(o, "%s%s", sep, part);
}

static void diagnose(FILE *o, const struct rl_region_row *row,
		     const struct rl_machine *machine)
{
	char ai[32];
	int flops = rl_known(row->flops), bytes = rl_known(row->dram_bytes);
	if (row->work_differs) {
		fputs("rates withheld: the timing run and the counting run did "
		      "different work in the same calls (work that follows the "
		      "clock, e.g. repeating until a time has passed): make the "
		      "work fixed, or time and count the same run (a counting "
		      "backend)", o);
		return;
	}
	if (row->data_movement && rl_known(row->roof_pct)) {
		char p[32];
		fprintf(o, "data movement (no flops) at %s of the %s roof: ",
			pct_text(p, sizeof p, row->roof_pct),
			row->roof_label ? row->roof_label : "bandwidth");
		fputs(row->roof_pct >= AT_ROOF_PCT
			      ? "at the bandwidth limit: move fewer bytes "
				"(fuse with the producer or consumer, smaller "
				"types, non-temporal stores for data not read "
				"again soon)"
			      : "below the bandwidth roof: contiguous access, "
				"larger blocks, more threads",
		      o);
	} else if (flops && row->flops == 0) {
		fputs("no floating-point work counted: the roofline does not "
		      "apply (integer or data-movement code)", o);
	} else if (!flops && !bytes) {
		if (rl_known(row->ai_expected)) {
			snprintf(ai, sizeof ai, "%.2g", row->ai_expected);
			fprintf(o, "no flop or byte counts (%s): declared "
				"AI %s, roof from declared figures",
				row->uncounted ? "the counting run stopped "
						 "before this region ended"
					       : "time backend",
				ai);
			if (machine && rl_known(row->roof_pct)) {
				fputs("; ", o);
				position(o, row, machine);
			} else if (!machine) {
				fputs("; no machine model: run rlprof probe", o);
			}
		} else if (row->uncounted) {
			fputs("not counted: the counting run stopped before this "
			      "region ended (see the warnings); time from the "
			      "native run", o);
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
}

char *rl_diagnose_in(struct rl_scratch *s, const struct rl_region_row *row,
		     const struct rl_machine *machine)
{
	if (!s->f && !(s->f = open_memstream(&s->text, &s->len)))
		return NULL;
	rewind(s->f);
	diagnose(s->f, row, machine);
	if (fflush(s->f) != 0 || !s->text)
		return NULL;
	return strndup(s->text, s->len);
}

void rl_scratch_close(struct rl_scratch *s)
{
	if (s->f)
		fclose(s->f);
	free(s->text);
	memset(s, 0, sizeof *s);
}

char *rl_diagnose(const struct rl_region_row *row,
		  const struct rl_machine *machine)
{
	struct rl_scratch s = {0};
	char *d = rl_diagnose_in(&s, row, machine);

	rl_scratch_close(&s);
	return d ? d : strdup("");
}
