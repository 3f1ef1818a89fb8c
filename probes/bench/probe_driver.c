/* rlprof's probes on demand, for scripts/bench-probes (built by the
 * script against the build's probe objects, never by make).
 *   probe_driver triad ELEMS_TOTAL THREADS TRIALS [nt|wall]
 *       best triad GB/s (24 B/elem), arrays split over the threads;
 *       timed as the probe times it (one-pass arrays: best per 3 x 512 KiB
 *       chunk), or with `wall` as STREAM does: best wall time of whole
 *       passes (first thread's start to last thread's end)
 *   probe_driver fma f32|f64 THREADS
 *       scalar clock GHz, best ISA, plateau GFLOP/s, theoretical GFLOP/s
 *       at the scalar clock, clock under the ISA's FMA load (on THREADS
 *       cores, sampled between the sweep's runs), theoretical at it */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probe.h"

int main(int argc, char **argv)
{
	struct rl_cpu cpu;
	char err[256];
	if (argc < 4 || rl_cpu_detect(&cpu, err, sizeof err))
		return 2;
	unsigned threads = (unsigned)atoi(argv[3]);
	if (threads < 1 || threads > cpu.logical_cpus)
		return 2;
	enum rl_isa best = RL_ISA_SCALAR;
	for (int i = RL_ISA_COUNT - 1; i > 0; i--)
		if (rl_isa_usable(&cpu, (enum rl_isa)i)) {
			best = (enum rl_isa)i;
			break;
		}
	if (!strcmp(argv[1], "triad") && argc >= 5) {
		size_t per = (size_t)atol(argv[2]) / threads;
		struct rl_triad_pool *pool;
		if (rl_triad_pool_open(&pool, threads, cpu.cpus, per, err,
				       sizeof err)) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		struct rl_triad_params p = {
			.isa = best, .nt = argc > 5 && !strcmp(argv[5], "nt"),
			.whole_passes = argc > 5 && !strcmp(argv[5], "wall"),
			.threads = threads, .elems = per & ~(size_t)15,
			.trials = (unsigned)atoi(argv[4]), .min_trial_s = 0,
		};
		struct rl_triad_result r;
		int rc = rl_triad_pool_run(pool, &p, &r, err, sizeof err);
		rl_triad_pool_close(pool);
		if (rc) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		printf("%.3f\n", r.best_gbs);
		return 0;
	}
	if (!strcmp(argv[1], "fma")) {
		int f32 = !strcmp(argv[2], "f32");
		double ghz = rl_probe_clock_ghz(1000000, 60);
		double top = 0, lclk = 0;
		for (unsigned k = 1; k <= RL_FMA_MAX_CHAINS; k++) {
			struct rl_chain_params p = {
				.isa = best, .f32 = f32, .chains = k,
				.threads = threads, .cpus = cpu.cpus,
				.iters = 3200000 / (k < 8 ? 8 : k), .trials = 8,
			};
			struct rl_chain_result r;
			if (rl_probe_chains(&p, &r, err, sizeof err)) {
				fprintf(stderr, "%s\n", err);
				return 1;
			}
			if (r.best_gflops > top)
				top = r.best_gflops;
			double l = rl_probe_load_clock_all_ghz(
				best, f32, 2, 20000, 3, threads, cpu.cpus);
			if (l > lclk)
				lclk = l;
		}
		double fps = rl_chain_flops_per_step(best, f32, 0);
		double units = round(top / threads / (fps * ghz));
		if (units < 1)
			units = 1;
		unsigned lanes = rl_isa_lanes(best, f32);
		if (units != 2) /* keep the add chain critical */
			lclk = rl_probe_load_clock_all_ghz(best, f32,
							   (unsigned)units,
							   20000, 20, threads,
							   cpu.cpus);
		printf("%.3f %s %.1f %.1f %.3f %.1f\n", ghz, rl_isa_name(best),
		       top, rl_theoretical_gflops(threads, ghz, units, lanes),
		       lclk, rl_theoretical_gflops(threads, lclk, units, lanes));
		return 0;
	}
	return 2;
}
