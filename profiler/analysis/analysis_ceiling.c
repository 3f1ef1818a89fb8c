/*
 * ISA ceilings: the compute ceiling a region is held against, from the
 * vector widths and the FMA share of its own flops (analysis.h; README
 * "Mix roofs, ISA ceilings and the self-check").
 *
 * Width: the narrowest width W such that the flops at widths wider than W
 * are under 1 % of the total. A width no counter covers is taken as
 * unused when it is narrower than W, or under the simulator (it has no
 * 512-bit counters: Valgrind runs no AVX-512), and the method line says
 * which; an uncounted width wider than W leaves the width unknown. Ignoring that 1 % lowers the bound by at
 * most 1 % (the time of those flops at a higher rate is not counted), and
 * a scalar loop with a vectorised prologue is held against the scalar
 * ceiling, not the vector one.
 *
 * FMA: with flops_fma counted, a share s of the flops done by FMAs; s >=
 * 99 %: the FMA ceiling of width W; s <= 1 %: the no-FMA one (a multiply
 * and an add per step); in between, both run on the same ports, so the
 * times add: P = 1 / (s / P_fma + (1 - s) / P_nofma). Without flops_fma
 * the FMA ceiling is used: the optimistic bound, said in the method line.
 *
 * Fallbacks, each said in the method line: no width counted, or no
 * ceiling of that width in the model: the best peak of the precision; a
 * no-FMA ceiling missing: the FMA one of the same width (optimistic).
 * rlprof run --count-with (counts from a portable build, time from the
 * native one): the timed build's ISA gives the width, its FMA use is not
 * counted (the FMA ceiling), and an unknown timed ISA gives the best peak.
 * Roofs from files written before width_bits/fma: width and FMA from the
 * name ("scalar" 64, "sse*" 128, "avx2*" 256, "avx512*" 512; "-fma").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/roof_choice.h"

#define WIDTH_SHARE 0.01
#define FMA_ALL 0.99
#define FMA_NONE 0.01

static const unsigned widths[4] = {64, 128, 256, 512};

unsigned rl_roof_width(const struct rl_compute_roof *c)
{
	if (c->width_bits)
		return c->width_bits;
	if (strncmp(c->name, "avx512", 6) == 0)
		return 512;
	if (strncmp(c->name, "avx", 3) == 0)
		return 256;
	if (strncmp(c->name, "sse", 3) == 0)
		return 128;
	if (strncmp(c->name, "scalar", 6) == 0)
		return 64;
	return 0;
}

/* 1 FMA, 0 not, -1 unknown (a file written before the field: "scalar"
 * was the FMA-based scalar plateau or not, by version). */
int rl_roof_fma(const struct rl_compute_roof *c)
{
	if (c->width_bits)
		return c->fma != 0;
	if (strstr(c->name, "fma"))
		return 1;
	return strcmp(c->name, "scalar") == 0 ? -1 : 0;
}

unsigned rl_code_width(const double fw[4])
{
	double tot = 0, wider = 0;

	int known = 0;

	for (int i = 0; i < 4; i++) {
		if (isnan(fw[i]))
			continue; /* not counted: taken as none (said) */
		known++;
		tot += fw[i];
	}
	if (!known || !(tot > 0))
		return 0;
	for (int i = 3; i >= 0; i--) {
		if (isnan(fw[i]))
			continue;
		if (wider + fw[i] >= WIDTH_SHARE * tot)
			return widths[i];
		wider += fw[i];
	}
	return 64;
}

unsigned rl_isa_width(const char *isa)
{
	if (!isa)
		return 0;
	if (strcmp(isa, "scalar") == 0)
		return 64;
	if (strncmp(isa, "sse", 3) == 0)
		return 128;
	if (strcmp(isa, "avx2") == 0 || strcmp(isa, "avx") == 0)
		return 256;
	if (strncmp(isa, "avx512", 6) == 0)
		return 512;
	return 0;
}

void rl_pick_ceiling(const struct rl_machine *m, const char *prec,
		     unsigned threads, unsigned width, double fma_share,
		     const struct rl_compute_roof *best_peak,
		     struct rl_ceiling *out)
{
	const struct rl_compute_roof *cf, *cn, *cu;
	double s = fma_share;

	memset(out, 0, sizeof *out);
	out->roof = best_peak;
	out->gflops = best_peak ? best_peak->gflops : NAN;
	out->share = NAN;
	if (!width) {
		out->note = "the best peak (flops by width not counted)";
		return;
	}
	cf = rl_roof_compute_at(m, prec, width, 1, threads);
	cn = rl_roof_compute_at(m, prec, width, 0, threads);
	cu = rl_roof_compute_at(m, prec, width, -1, threads);
	if (isnan(s)) {
		out->note = "the widest ISA the flops used, with FMA "
			    "(flops_fma not counted: the optimistic bound)";
		out->roof = cf ? cf : cu ? cu : cn;
	} else if (s >= FMA_ALL) {
		out->note = "the widest ISA the flops used, with FMA as "
			    "counted";
		out->roof = cf ? cf : cu;
	} else if (s <= FMA_NONE) {
		out->note = "the widest ISA the flops used, with FMA as "
			    "counted";
		out->roof = cn ? cn : cu;
		if (!out->roof && cf) {
			out->roof = cf;
			out->note = "the widest ISA the flops used (no no-FMA "
				    "ceiling of that width in the model: its "
				    "FMA ceiling, an optimistic bound)";
		}
	} else {
		out->note = "the widest ISA the flops used, with FMA as "
			    "counted (between the FMA and no-FMA ceilings: "
			    "1/P = s/P_fma + (1-s)/P_nofma)";
		if (cf && cn) {
			out->roof = cf;
			out->pair = cn;
			out->share = s;
			out->gflops = 1.0 / (s / cf->gflops +
					     (1 - s) / cn->gflops);
			return;
		}
		out->roof = cf ? cf : cu;
	}
	if (!out->roof) {
		out->roof = best_peak;
		out->note = "the best peak (no ceiling of the flops' width "
			    "in the model)";
	}
	out->gflops = out->roof ? out->roof->gflops : NAN;
}

void rl_ceiling_label(char *buf, size_t len, const struct rl_ceiling *c)
{
	if (!c->roof) {
		snprintf(buf, len, "?");
		return;
	}
	if (c->pair && !isnan(c->share)) {
		/* name the ISA without its "-fma" suffix */
		const char *fma = c->pair->name;
		snprintf(buf, len, "%s %s %.0f%% FMA", fma, c->roof->precision,
			 c->share * 100);
		return;
	}
	snprintf(buf, len, "%s %s", c->roof->name, c->roof->precision);
}

