/* rlprof's probes on demand, for scripts/bench-probes (built by the
 * script against the build's probe objects, never by make).
 *   probe_driver triad ELEMS_TOTAL THREADS TRIALS [nt]
 *       best triad GB/s (24 B/elem), arrays split over the threads
 *   probe_driver fma f32|f64 THREADS
 *       clock GHz, best ISA, plateau GFLOP/s, theoretical GFLOP/s */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"

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
		double top = 0;
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
		}
		double fps = rl_chain_flops_per_step(best, f32, 0);
		double units = round(top / threads / (fps * ghz));
		if (units < 1)
			units = 1;
		printf("%.3f %s %.1f %.1f\n", ghz, rl_isa_name(best), top,
		       threads * ghz * units * fps);
		return 0;
	}
	return 2;
}
