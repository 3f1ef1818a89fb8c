/*
 * The tests' one machine-model builder: a model of a made-up machine put
 * together roof by roof, with the figures each test passes. The adders
 * return the new entry so that a test sets what else it needs (a method,
 * read and write bandwidths, a width). Nothing here measures.
 */
#ifndef RL_TESTS_LIB_MACHINE_H
#define RL_TESTS_LIB_MACHINE_H

#include <stdint.h>

#include "formats/machine.h"

/* Clears m into a version-1 model of cores cores named cpu_model. */
void rl_test_machine_init(struct rl_machine *m, unsigned cores,
			  const char *cpu_model);
/* The same, allocated (calloc; the caller frees it); fails the test when
 * out of memory. */
struct rl_machine *rl_test_machine_new(unsigned cores, const char *cpu_model);

/* A bandwidth roof: level ("DRAM", "L1"...), threads, stream (triad's
 * 24 B/element) and moved (32 B/element) GB/s. */
struct rl_bw_roof *rl_test_machine_add_bw(struct rl_machine *m,
					  const char *level, unsigned threads,
					  double stream_gbs, double moved_gbs);
/* A compute roof: name ("avx2-fma"), kind ("peak", "scalar",
 * "single-chain"), precision ("f64", "f32"), threads, GFLOP/s. */
struct rl_compute_roof *rl_test_machine_add_compute(struct rl_machine *m,
						    const char *name,
						    const char *kind,
						    const char *precision,
						    unsigned threads,
						    double gflops);
/* A cache level ("L3"): claimed (sysfs) and effective (measured) bytes. */
struct rl_cache_level *rl_test_machine_add_level(struct rl_machine *m,
						 const char *level,
						 uint64_t claimed_bytes,
						 uint64_t effective_bytes);

/* The default test machine (calloc'd): 2 cores "Test CPU". DRAM: 1 thread
 * 24/30 GB/s (stream/moved), 2 threads 36/48. L2: 1 thread 80/100,
 * 2 threads 160/200. f64: scalar 5 (1 thread), avx2-fma peak 50 / 100;
 * f32 avx2-fma peak 100 / 200; ridge f64 1 thread (moved) = 50 / 30. */
struct rl_machine *rl_test_machine_default(void);
/* The default test machine's roofs, added to m (no allocation). */
void rl_test_machine_default_roofs(struct rl_machine *m);

/* The renderers' machine: cpu (NULL: none), 2 cores, version 0; DRAM
 * stream 24 / moved 30 GB/s at 1 thread and, when dram_roofs is 2,
 * 36 / 48 at 2; an avx2-fma f64 peak of peak_1t GFLOP/s at 1 thread and
 * peak_2t at 2 (0: no such peak). */
void rl_test_machine_render(struct rl_machine *m, const char *cpu,
			    int dram_roofs, double peak_1t, double peak_2t);

/* The charts' machine: two threads "Test CPU <9000> & co" (to be
 * escaped); L1 700, L2 300, L3 150 GB/s moved (2 threads), DRAM 25 (1)
 * and 40 (2); f64 avx512-fma peak 200 (2 threads), 100 (1), avx2-fma
 * 110, add-only 100, scalar 25, single-chain 3.4; f32 peak 400, scalar
 * 25. Every roof states a method. */
void rl_test_machine_charts(struct rl_machine *m);

#endif
