/* Compute roofs: for each ISA and precision, a sweep over the number of
 * independent chains on one core gives the single-chain rate (latency),
 * the plateau (throughput) and the chains needed to saturate (Little's
 * law: latency x units); the plateau's chain count then runs on all
 * cores. Ceilings: "peak" per vector ISA, "scalar" (the scalar ISA's
 * plateau), "single-chain", and "add-only" (the best ISA with adds). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_int.h"
#include "rl_error.h"

static long iters_for(unsigned chains, int quick)
{
	/* about 0.2 ms (quick) or 0.45 ms per trial at 4 cycles latency
	 * and 3.5 GHz: short trials, many of them, so one quiet moment on
	 * a busy machine is enough for the best */
	long base = quick ? 1600000 : 3200000;
	return base / (chains < 8 ? 8 : chains);
}

static int run(struct probe_ctx *c, enum rl_isa isa, int f32, int add_only,
	       unsigned chains, unsigned threads, struct rl_chain_result *r,
	       char *err, size_t errlen)
{
	struct rl_chain_params p = {
		.isa = isa, .f32 = f32, .add_only = add_only,
		.chains = chains, .threads = threads, .cpus = c->cpu->cpus,
		.iters = iters_for(chains, c->o->quick),
		.trials = c->o->quick ? 3 : 8,
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

static void fill(struct rl_compute_roof *r, enum rl_isa isa, const char *kind,
		 int f32, unsigned threads, double gflops, double theo,
		 unsigned chains, double lat, const char *method)
{
	snprintf(r->name, sizeof r->name, "%s", rl_isa_name(isa));
	snprintf(r->kind, sizeof r->kind, "%s", kind);
	snprintf(r->precision, sizeof r->precision, "%s", f32 ? "f32" : "f64");
	r->threads = threads;
	r->gflops = gflops;
	r->theoretical_gflops = theo;
	r->chains = chains;
	r->latency_cycles = lat;
	snprintf(r->method, sizeof r->method, "%s", method);
}

static const unsigned quick_chains[] = { 1, 2, 3, 4, 6, 8, 10, 12, 16, 24, 32 };

static int one_isa(struct probe_ctx *c, enum rl_isa isa, int f32,
		   struct rl_compute_roof *best_peak1, char *err, size_t errlen)
{
	const int fma = rl_isa_has_fma(c->cpu, isa);
	const double fps = rl_chain_flops_per_step(isa, f32, 0);
	const unsigned lanes = rl_isa_lanes(isa, f32);
	const char *prec = f32 ? "f32" : "f64";
	const char *op = fma ? "fma" : "mul+add";
	unsigned n_k = c->o->quick ? sizeof quick_chains / sizeof quick_chains[0]
				   : RL_FMA_MAX_CHAINS;
	double g[RL_FMA_MAX_CHAINS + 1] = { 0 }, top = 0;
	unsigned ks[RL_FMA_MAX_CHAINS] = { 0 };
	char what[96], method[128];
	struct rl_chain_result r;
	int rc;

	/* FMA units for the load kernel's add count while sweeping: 2 (a
	 * core with more units only has its FMA ports less busy; one with
	 * fewer would leave the FMAs critical and undercount the cycles, so
	 * the clock is measured again after the sweep with the units it
	 * infers, see below) */
	const unsigned load_units = fma && isa != RL_ISA_SCALAR ? 2 : 0;
	double lclk = 0;
	snprintf(what, sizeof what, "%s %s chains 1..%u", rl_isa_name(isa), prec,
		 (unsigned)RL_FMA_MAX_CHAINS);
	for (unsigned i = 0; i < n_k; i++) {
		ks[i] = c->o->quick ? quick_chains[i] : i + 1;
		if ((rc = run(c, isa, f32, 0, ks[i], 1, &r, err, errlen)))
			return rc;
		g[ks[i]] = r.best_gflops;
		if (r.best_gflops > top)
			top = r.best_gflops;
		/* the clock under this ISA's FMA load (vector FMA ISAs),
		 * sampled between the sweep's runs so that its best trial
		 * comes from the same stretch of time as the plateau's (the
		 * clock of a shared host moves in 100 MHz steps) */
		if (load_units) {
			double l = rl_probe_load_clock_ghz(
				isa, f32, load_units, 20000, 3, NULL, NULL);
			if (l > lclk)
				lclk = l;
		}
	}
	probe_progress(c, what, 1);
	/* chains to saturate: the fewest reaching 95% of the plateau */
	unsigned sat = ks[n_k - 1];
	for (unsigned i = 0; i < n_k; i++)
		if (g[ks[i]] >= 0.95 * top) {
			sat = ks[i];
			break;
		}
	double ghz = c->clock_ghz;
	double lat = ghz > 0 && g[1] > 0 ? fps * ghz / g[1] : 0;
	/* FMA units: whole; mul+add pairs per cycle: halves (a core with
	 * three ports for adds and muls does 1.5 pairs per cycle) */
	double units = ghz > 0 ? top / (fps * ghz) : 0;
	units = fma ? round(units) : round(units * 2) / 2;
	if (units < 1 && ghz > 0)
		units = 1;
	double theo1 = units * ghz * lanes * 2;
	/* a core with another FMA unit count than the sweep's guess: the
	 * add chain must stay critical, so measure again with the right
	 * add count (after the sweep, not between its runs) */
	unsigned lunits = load_units && units >= 1 ? (unsigned)units : 0;
	if (lunits && lunits != load_units)
		lclk = rl_probe_load_clock_ghz(isa, f32, lunits, 20000,
					       c->o->quick ? 8 : 20, NULL,
					       NULL);
	const char *kind = isa == RL_ISA_SCALAR ? "scalar" : "peak";
	if (isa != RL_ISA_SCALAR && units > c->extra->fma_units[isa])
		c->extra->fma_units[isa] = (unsigned)units;
	if (isa == RL_ISA_SCALAR)
		c->extra->fma_units[isa] = (unsigned)units;

	struct rl_compute_roof *e;
	snprintf(method, sizeof method,
		 "%u chains %s best of %s, %g %s/cycle inferred", sat, op,
		 c->o->quick ? "3" : "8", units, op);
	if ((e = add_roof(c)))
		fill(e, isa, kind, f32, 1, g[sat] > top ? g[sat] : top, theo1,
		     sat, lat, method);
	if (e && lclk > 0) {
		e->load_clock_ghz = lclk;
		e->theoretical_load_gflops =
			rl_theoretical_gflops(1, lclk, units, lanes);
	}
	if (e && isa != RL_ISA_SCALAR &&
	    (!best_peak1->name[0] || e->gflops > best_peak1->gflops))
		*best_peak1 = *e;
	snprintf(method, sizeof method, "1 chain %s: latency %.1f cycles", op,
		 lat);
	if ((e = add_roof(c)))
		fill(e, isa, "single-chain", f32, 1, g[1], 0, 1, lat, method);
	if (c->threads > 1) {
		/* the all-core clock under this load, sampled just before
		 * and just after the all-core plateau's run */
		double lall = 0;
		if (lunits)
			lall = rl_probe_load_clock_all_ghz(
				isa, f32, lunits, 20000, 8, c->threads,
				c->cpu->cpus);
		if ((rc = run(c, isa, f32, 0, sat, c->threads, &r, err, errlen)))
			return rc;
		if (lunits) {
			double l = rl_probe_load_clock_all_ghz(
				isa, f32, lunits, 20000, 8, c->threads,
				c->cpu->cpus);
			if (l > lall)
				lall = l;
		}
		snprintf(method, sizeof method,
			 "%u chains %s on %u cores best of %s", sat, op,
			 c->threads, c->o->quick ? "3" : "8");
		if ((e = add_roof(c)))
			fill(e, isa, kind, f32, c->threads, r.best_gflops,
			     theo1 * c->threads, sat, lat, method);
		if (e && lall > 0) {
			e->load_clock_ghz = lall;
			e->theoretical_load_gflops = rl_theoretical_gflops(
				c->threads, lall, units, lanes);
		}
		if ((rc = run(c, isa, f32, 0, 1, c->threads, &r, err, errlen)))
			return rc;
		snprintf(method, sizeof method, "1 chain %s on %u cores", op,
			 c->threads);
		if ((e = add_roof(c)))
			fill(e, isa, "single-chain", f32, c->threads,
			     r.best_gflops, 0, 1, lat, method);
	}
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
		if ((rc = run(c, isa, f32, 1, cand[i], 1, &r, err, errlen)))
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
	if ((e = add_roof(c)))
		fill(e, isa, "add-only", f32, 1, best, theo, best_k, 0, method);
	if (c->threads > 1) {
		if ((rc = run(c, isa, f32, 1, best_k, c->threads, &r, err,
			      errlen)))
			return rc;
		snprintf(method, sizeof method,
			 "%u chains add, no fma, on %u cores", best_k,
			 c->threads);
		if ((e = add_roof(c)))
			fill(e, isa, "add-only", f32, c->threads, r.best_gflops,
			     theo * c->threads, best_k, 0, method);
	}
	return 0;
}

int probe_compute_roofs(struct probe_ctx *c, char *err, size_t errlen)
{
	for (int f32 = 0; f32 < 2; f32++) {
		struct rl_compute_roof best = { .name = "" };
		enum rl_isa best_isa = RL_ISA_SCALAR;
		for (int isa = 0; isa < RL_ISA_COUNT; isa++) {
			if (!rl_isa_usable(c->cpu, (enum rl_isa)isa))
				continue;
			char before[32];
			snprintf(before, sizeof before, "%s", best.name);
			int rc = one_isa(c, (enum rl_isa)isa, f32, &best, err,
					 errlen);
			if (rc)
				return rc;
			if (strcmp(before, best.name))
				best_isa = (enum rl_isa)isa;
		}
		if (best.name[0]) {
			int rc = add_only(c, best_isa, f32, best.chains, err,
					  errlen);
			if (rc)
				return rc;
		}
	}
	return 0;
}
