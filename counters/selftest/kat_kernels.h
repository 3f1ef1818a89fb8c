/*
 * The known-answer kernels (kat_kernels.c): small loops whose flops per
 * precision, vector width and FMA, and whose DRAM bytes, are known
 * exactly, for the check every hardware-counted run makes of its events
 * (profiler/results/selftest_run.c). Each kernel adds what it did to a tally of the truth, so a
 * test's fault-injecting backend can count "the truth times a factor".
 */
#ifndef RL_KAT_KERNELS_H
#define RL_KAT_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/counter_ids.h"

/* Tries of each DRAM kernel, the least count kept: uncore counters count
 * other processes' traffic too, which only ever adds. */
#define RL_KAT_DRAM_TRIES 3

struct rl_kat_kernel {
	const char *name;   /* "f64 256-bit FMA", "DRAM triad" */
	bool runs_here;     /* the CPU has the instructions */
	int counter;        /* flops: its precision and width; -1 DRAM */
	unsigned lanes;
	bool fma;
	bool nontemporal;   /* DRAM: streaming stores */
	int index;          /* into the kernels' own table */
};

/* The kernels, flops first then DRAM; *n set. Cheap after the first call. */
const struct rl_kat_kernel *rl_kat_kernels(size_t *n);

/* Runs k (and tallies what it did with integers only: no floating-point
 * work but the kernel's). A DRAM kernel needs rl_kat_dram_prepare()
 * first, outside the measurement. */
void rl_kat_run(const struct rl_kat_kernel *k);
/* Adds what one run of k does to did[] (indexed by enum rl_counter):
 * called outside the measurement. */
void rl_kat_did(const struct rl_kat_kernel *k, double did[]);
/* Makes the DRAM arrays (once) and flushes them from every cache: -1
 * when they cannot be allocated. */
int rl_kat_dram_prepare(void);

/* What every kernel run in this process did so far (enum rl_counter
 * indexed, cumulative): the truth a fault injector scales. */
void rl_kat_truth(double truth[RL_COUNTER_COUNT]);

/* DRAM kernels' arrays: bytes per array (settable for tests; 0 keeps the
 * default of 1 MiB, which clflush makes come from DRAM whatever the
 * caches' size). */
void rl_kat_set_array_bytes(size_t bytes);
void rl_kat_release(void); /* frees the DRAM arrays */

/* Every kernel that runs here, as the check runs them (three tries of
 * each DRAM kernel), without counting: the seconds they took. */
double rl_kat_run_alone(void);

#endif
