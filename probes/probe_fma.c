/* Compute ceilings, per ISA width (scalar 64, 128, 256, 512 bits) and
 * step (one FMA, or a multiply then an add), per precision, on one core
 * and on all cores. One sweep over the number of independent chains per
 * width (f64, with the width's FMA when the CPU has FMA, else multiply +
 * add) gives the single-chain rate (latency), the plateau and the chains
 * needed to saturate (Little's law: latency x units); every other
 * variant of that width then runs only at that chain count (multiply +
 * add also at 1.5x, 2x and 14: its chain is longer), and at one chain. Names:
 * rl_ceiling_name ("avx512-fma", "avx512", "sse-fma", "sse2",
 * "scalar-fma", "scalar", ...); kinds "peak" (vector widths), "scalar"
 * (the scalar width), "single-chain", and "add-only" (the best FMA
 * width with adds). Every roof has width_bits and fma set. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/probe_steps.h"
#include "common/rl_error.h"

static long iters_for(unsigned chains, int quick)
{
	/* about 0.2 ms (quick) or 0.45 ms per trial at 4 cycles latency
	 * and 3.5 GHz: short trials, many of them, so one quiet moment on
	 * a busy machine is enough for the best */
	long base = quick ? 1600000 : 3200000;
	return base / (chains < 8 ? 8 : chains);
}

static unsigned trials(const struct probe_ctx *c)
{
	return c->o->quick ? 3 : 8;
}

static int run(struct probe_ctx *c, enum rl_isa isa, enum rl_chain_op op,
	       int f32, int add_only, unsigned chains, unsigned threads,
	       struct rl_chain_result *r, char *err, size_t errlen)
{
	struct rl_chain_params p = {
		.isa = isa, .f32 = f32, .add_only = add_only, .op = op,
		.chains = chains, .threads = threads, .cpus = c->cpu->cpus,
		.iters = iters_for(chains, c->o->quick),
		.trials = trials(c),
	};
	return rl_probe_chains(&p, r, err, errlen);
}

static struct rl_compute_roof *add_roof(struct probe_ctx *c)
{
	if (c->m->n_compute >= RL_MACHINE_MAX_COMPUTE)
		return NULL;
	struct rl_compute_roof *r = &c->m->compute[c->m->n_compute++];
	memset(r, 0, sizeof *r);
	return r;
}

static struct rl_compute_roof *
fill(struct probe_ctx *c, enum rl_isa isa, int fma, const char *kind,
     int f32, unsigned threads, double gflops, double theo, unsigned chains,
     double lat, const char *method)
{
	struct rl_compute_roof *r = add_roof(c);
	if (!r)
		return NULL;
	snprintf(r->name, sizeof r->name, "%s", rl_ceiling_name(isa, fma));
	snprintf(r->kind, sizeof r->kind, "%s", kind);
	snprintf(r->precision, sizeof r->precision, "%s", f32 ? "f32" : "f64");
	r->threads = threads;
	r->gflops = gflops;
	r->theoretical_gflops = theo;
	r->chains = chains;
	r->latency_cycles = lat;
	r->width_bits = rl_isa_width_bits(isa);
	r->fma = fma;
	snprintf(r->method, sizeof r->method, "%s", method);
	return r;
}

static const unsigned full_chains[] = { 1,  2,  3,  4,  5,  6,  7,
					8,  9,  10, 11, 12, 14, 16,
					18, 20, 24, 28, 32 };
static const unsigned quick_chains[] = { 1, 2, 3, 4, 6, 8, 10, 12, 16, 24, 32 };

/* What the width's sweep found. */
struct width_sweep {
	unsigned sat;      /* chains reaching 95% of the plateau */
	double top, one;   /* plateau and single-chain GFLOP/s (f64) */
	double lat;        /* single-chain latency, cycles */
	double lclk;       /* clock under the FMA load (vector FMA), GHz */
};

static int sweep_width(struct probe_ctx *c, enum rl_isa isa,
		       enum rl_chain_op op, struct width_sweep *w, char *err,
		       size_t errlen)
{
	const int quick = c->o->quick;
	const unsigned *ks = quick ? quick_chains : full_chains;
	unsigned n_k = quick ? sizeof quick_chains / sizeof quick_chains[0]
			     : sizeof full_chains / sizeof full_chains[0];
	double g[RL_FMA_MAX_CHAINS + 1] = { 0 };
	const double fps = rl_chain_flops_per_step(isa, 0, 0);
	/* the clock under this ISA's FMA load (vector FMA widths), sampled
	 * between the sweep's runs so that its best trial comes from the
	 * same stretch of time as the plateau's (a shared host's clock
	 * moves in 100 MHz steps); 2 units for the add count: see probe.h */
	const int load = op == RL_CHAIN_FMA &&
			 (isa == RL_ISA_AVX2 || isa == RL_ISA_AVX512);
	struct rl_chain_result r;
	int rc;
	/* the plateau seen: `flat` points in a row none 2% above the best
	 * before them (the units are full; more chains only spill) */
	const unsigned flat = quick ? 2 : 3;
	unsigned since_top = 0;
	memset(w, 0, sizeof *w);
	for (unsigned i = 0; i < n_k && since_top < flat; i++) {
		if ((rc = run(c, isa, op, 0, 0, ks[i], 1, &r, err, errlen)))
			return rc;
		g[ks[i]] = r.best_gflops;
		since_top = r.best_gflops > w->top * 1.02 ? 0 : since_top + 1;
		if (r.best_gflops > w->top)
			w->top = r.best_gflops;
		if (load) {
			double l = rl_probe_load_clock_ghz(isa, 0, 2, 20000, 3,
							   NULL, NULL);
			if (l > w->lclk)
				w->lclk = l;
		}
	}
	w->sat = ks[n_k - 1];
	for (unsigned i = 0; i < n_k; i++)
		if (g[ks[i]] > 0 && g[ks[i]] >= 0.95 * w->top) {
			w->sat = ks[i];
			break;
		}
	w->one = g[1];
	w->lat = c->clock_ghz > 0 && g[1] > 0 ? fps * c->clock_ghz / g[1] : 0;
	return 0;
}

/* Units (FMA) or multiply-add pairs per cycle from a plateau: whole
 * FMA units; pairs in halves (three ports for adds and muls: 1.5). */
static double units_of(const struct probe_ctx *c, double gflops, double fps,
		       int fma)
{
	double ghz = c->clock_ghz;
	if (!(ghz > 0) || !(gflops > 0))
		return 0;
	double u = gflops / (fps * ghz);
	u = fma ? round(u) : round(u * 2) / 2;
	return u < 1 ? 1 : u;
}

/* One variant (width, step, precision): peak and single chain on one
 * core and all cores. */
static int variant(struct probe_ctx *c, enum rl_isa isa, enum rl_chain_op op,
		   enum rl_chain_op swept, int f32, const struct width_sweep *w,
		   struct rl_compute_roof *best_fma1, char *err, size_t errlen)
{
	const int fma = op == RL_CHAIN_FMA;
	const double fps = rl_chain_flops_per_step(isa, f32, 0);
	const unsigned lanes = rl_isa_lanes(isa, f32);
	const char *opname = fma ? "fma" : "mul+add";
	const char *kind = isa == RL_ISA_SCALAR ? "scalar" : "peak";
	char method[128];
	struct rl_chain_result r;
	int rc;
	double peak = 0, one = 0;
	unsigned k = w->sat;
	if (op == swept && !f32) {
		peak = w->top;
		one = w->one;
	} else {
		/* a multiply-add chain step is longer than the FMA the
		 * sweep saturated: try 1.5x and twice the chains too (1.5x
		 * still fits AVX2's 16 registers where 2x spills) */
		unsigned cand[4] = { w->sat, w->sat + (w->sat + 1) / 2,
				     2 * w->sat, 14 };
		for (int i = 1; i < 4; i++)
			if (cand[i] > RL_FMA_MAX_CHAINS)
				cand[i] = RL_FMA_MAX_CHAINS;
		/* 14: the most that fit 16 vector registers beside x and y
		 * (AVX2) when 1.5x the FMA's count does not */
		int nc = op == swept ? 1 : 4;
		for (int i = 0; i < nc; i++) {
			int seen = 0;
			for (int j = 0; j < i; j++)
				seen |= cand[j] == cand[i];
			if (seen)
				continue;
			if ((rc = run(c, isa, op, f32, 0, cand[i], 1, &r, err,
				      errlen)))
				return rc;
			if (r.best_gflops > peak) {
				peak = r.best_gflops;
				k = cand[i];
			}
		}
		if ((rc = run(c, isa, op, f32, 0, 1, 1, &r, err, errlen)))
			return rc;
		one = r.best_gflops;
	}
	double ghz = c->clock_ghz;
	double units = units_of(c, peak, fps, fma);
	double lat = ghz > 0 && one > 0 ? fps * ghz / one : 0;
	if (units > c->extra->fma_units[isa] && (fma || !rl_isa_has_fma(c->cpu, isa)))
		c->extra->fma_units[isa] = (unsigned)units;
	double theo1 = units * ghz * lanes * 2;
	double lclk = 0;
	const int vload = fma && (isa == RL_ISA_AVX2 || isa == RL_ISA_AVX512);
	unsigned lunits = vload && units >= 1 ? (unsigned)units : 0;
	if (lunits)
		lclk = op == swept && !f32 && lunits == 2
			       ? w->lclk
			       : rl_probe_load_clock_ghz(isa, f32, lunits, 20000,
							 c->o->quick ? 4 : 10,
							 NULL, NULL);
	struct rl_compute_roof *e;
	snprintf(method, sizeof method,
		 "%u chains %s best of %u, %g %s/cycle inferred", k, opname,
		 trials(c), units, opname);
	e = fill(c, isa, fma, kind, f32, 1, peak, theo1, k, lat, method);
	if (e && lclk > 0) {
		e->load_clock_ghz = lclk;
		e->theoretical_load_gflops =
			rl_theoretical_gflops(1, lclk, units, lanes);
	}
	if (e && fma && (!best_fma1->name[0] || e->gflops > best_fma1->gflops))
		*best_fma1 = *e;
	snprintf(method, sizeof method, "1 chain %s: latency %.1f cycles",
		 opname, lat);
	fill(c, isa, fma, "single-chain", f32, 1, one, 0, 1, lat, method);
	if (c->threads < 2)
		return 0;
	double lall = 0;
	if (lunits)
		lall = rl_probe_load_clock_all_ghz(isa, f32, lunits, 20000, 8,
						   c->threads, c->cpu->cpus);
	if ((rc = run(c, isa, op, f32, 0, k, c->threads, &r, err, errlen)))
		return rc;
	if (lunits) {
		double l = rl_probe_load_clock_all_ghz(
			isa, f32, lunits, 20000, 8, c->threads, c->cpu->cpus);
		if (l > lall)
			lall = l;
	}
	snprintf(method, sizeof method, "%u chains %s on %u cores best of %u",
		 k, opname, c->threads, trials(c));
	e = fill(c, isa, fma, kind, f32, c->threads, r.best_gflops,
		 theo1 * c->threads, k, lat, method);
	if (e && lall > 0) {
		e->load_clock_ghz = lall;
		e->theoretical_load_gflops =
			rl_theoretical_gflops(c->threads, lall, units, lanes);
	}
	if ((rc = run(c, isa, op, f32, 0, 1, c->threads, &r, err, errlen)))
		return rc;
	snprintf(method, sizeof method, "1 chain %s on %u cores", opname,
		 c->threads);
	fill(c, isa, fma, "single-chain", f32, c->threads, r.best_gflops, 0, 1,
	     lat, method);
	return 0;
}

static int add_only(struct probe_ctx *c, enum rl_isa isa, int f32,
		    unsigned sat, char *err, size_t errlen)
{
	/* adds may have another latency: try the FMA's chain count and
	 * twice it, keep the better */
	unsigned cand[2] = { sat, sat * 2 > RL_FMA_MAX_CHAINS
					  ? RL_FMA_MAX_CHAINS : sat * 2 };
	double best = 0;
	unsigned best_k = sat;
	struct rl_chain_result r;
	int rc;
	for (int i = 0; i < 2; i++) {
		if ((rc = run(c, isa, RL_CHAIN_OWN, f32, 1, cand[i], 1, &r, err,
			      errlen)))
			return rc;
		if (r.best_gflops > best) {
			best = r.best_gflops;
			best_k = cand[i];
		}
	}
	char method[128];
	double units = c->extra->fma_units[isa];
	double theo = units * c->clock_ghz * rl_isa_lanes(isa, f32);
	struct rl_compute_roof *e;
	snprintf(method, sizeof method, "%u chains add, no fma", best_k);
	if ((e = fill(c, isa, 1, "add-only", f32, 1, best, theo, best_k, 0,
		      method)))
		e->fma = 0;
	if (c->threads > 1) {
		if ((rc = run(c, isa, RL_CHAIN_OWN, f32, 1, best_k, c->threads,
			      &r, err, errlen)))
			return rc;
		snprintf(method, sizeof method,
			 "%u chains add, no fma, on %u cores", best_k,
			 c->threads);
		if ((e = fill(c, isa, 1, "add-only", f32, c->threads,
			      r.best_gflops, theo * c->threads, best_k, 0,
			      method)))
			e->fma = 0;
	}
	return 0;
}

/* One dependent chain of adds, and one of multiplies, per ISA width and
 * precision, on one core and on all: the ceilings of a reduction built
 * without reassociation (no -ffast-math), "add-chain" and "mul-chain",
 * which the analysis names when a region runs at one. */
static int op_chains(struct probe_ctx *c, char *err, size_t errlen)
{
	static const char *const kinds[2] = {"add-chain", "mul-chain"};
	struct rl_chain_result r;
	char method[128];
	int rc;

	for (int i = 0; i < RL_ISA_COUNT; i++) {
		enum rl_isa isa = (enum rl_isa)i;
		if (!rl_isa_usable(c->cpu, isa))
			continue;
		for (int f32 = 0; f32 < 2; f32++)
			for (int k = 0; k < 2; k++) {
				double fps = rl_chain_flops_per_step(isa, f32,
								     k == 0);
				double lat = 0;
				const unsigned tl[2] = {1, c->threads};
				for (int j = 0; j < (c->threads > 1 ? 2 : 1); j++) {
					unsigned t = tl[j];
					struct rl_compute_roof *e;
					if ((rc = run(c, isa,
						      k ? RL_CHAIN_MUL : RL_CHAIN_OWN,
						      f32, k == 0, 1, t, &r, err,
						      errlen)))
						return rc;
					if (t == 1 && r.best_gflops > 0)
						lat = fps * c->clock_ghz /
						      r.best_gflops / (k ? 2 : 1);
					snprintf(method, sizeof method,
						 "1 chain of dependent %s%s: "
						 "%.1f cycles each",
						 k ? "multiplies" : "adds",
						 t > 1 ? ", on every core" : "",
						 lat);
					if ((e = fill(c, isa, 0, kinds[k], f32, t,
						      r.best_gflops, 0, 1, lat,
						      method)))
						e->fma = 0;
				}
			}
	}
	probe_progress(c, "add and multiply chains", 0);
	return 0;
}

/* A reading of the core's rate beside the compute roofs (judged in
 * probe_core.c). */
static void core_mark(struct probe_ctx *c)
{
	struct rl_core_rate r = probe_core_read(c);
	size_t max = sizeof c->compute_fma / sizeof c->compute_fma[0];
	if (r.fma > 0 && c->n_compute_fma < max)
		c->compute_fma[c->n_compute_fma++] = r.fma;
}

int probe_compute_roofs(struct probe_ctx *c, char *err, size_t errlen)
{
	struct width_sweep ws[RL_ISA_COUNT];
	enum rl_chain_op swept[RL_ISA_COUNT];
	struct rl_compute_roof best[2] = { { .name = "" }, { .name = "" } };
	enum rl_isa best_isa[2] = { RL_ISA_SCALAR, RL_ISA_SCALAR };
	int rc;
	core_mark(c);
	for (int i = 0; i < RL_ISA_COUNT; i++) {
		enum rl_isa isa = (enum rl_isa)i;
		if (!rl_isa_usable(c->cpu, isa))
			continue;
		char what[96];
		swept[i] = c->cpu->fma ? RL_CHAIN_FMA : RL_CHAIN_MULADD;
		if ((rc = sweep_width(c, isa, swept[i], &ws[i], err, errlen)))
			return rc;
		/* the core's rate is read with as many scalar chains as fill
		 * its units (at least 10: latency 5 x 2 units) */
		if (isa == RL_ISA_SCALAR && ws[i].sat > c->core_chains)
			c->core_chains = ws[i].sat > 10 ? ws[i].sat : 10;
		for (int f32 = 0; f32 < 2; f32++) {
			for (int op = RL_CHAIN_FMA; op <= RL_CHAIN_MULADD; op++) {
				if (op == RL_CHAIN_FMA && !c->cpu->fma)
					continue;
				char before[sizeof best[0].name];
				memcpy(before, best[f32].name, sizeof before);
				if ((rc = variant(c, isa, (enum rl_chain_op)op,
						  swept[i], f32, &ws[i],
						  &best[f32], err, errlen)))
					return rc;
				if (strcmp(before, best[f32].name))
					best_isa[f32] = isa;
			}
		}
		snprintf(what, sizeof what, "%s chains 1..%u",
			 rl_ceiling_name(isa, c->cpu->fma),
			 (unsigned)RL_FMA_MAX_CHAINS);
		probe_progress(c, what, 2);
		core_mark(c);
	}
	for (int f32 = 0; f32 < 2; f32++)
		if (best[f32].name[0] &&
		    (rc = add_only(c, best_isa[f32], f32, best[f32].chains, err,
				   errlen)))
			return rc;
	rc = op_chains(c, err, errlen);
	core_mark(c);
	return rc;
}
