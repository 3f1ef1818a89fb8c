/*
 * Property test of region counts (tests/cli/test_e2e_counts.c, issue 24): one
 * program driven by seeds. Each seed makes a small random program of its
 * own regions ("s<seed>r<k>", RL_PROP_NAMES of them) that mixes work at
 * top level, nested regions, recursion (a region entered again while it
 * is open), OpenMP parallel regions and `parallel for` loops of 1-4
 * threads, repeated calls from different call sites. The program knows
 * the flops it did in each region, by the rules of the counts
 * (docs/parallel.md, "The rule" and "Recursion"):
 *  - work done by a thread counts once in every region open on that
 *    thread (a region open twice, recursively, counts it once);
 *  - work done inside a parallel region also counts in every region the
 *    main thread had open outside a parallel region when it began it
 *    (process scope), once.
 * Every flop is one scalar double add; the bookkeeping is integer only.
 *
 *   omp_prop FIRST COUNT EXPECTED_FILE
 *
 * runs seeds FIRST .. FIRST+COUNT-1 and writes one line per region that
 * was entered: "name flops calls".
 */
#include <rlprof.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RL_PROP_NAMES 5
#define MAX_SEEDS 200
#define MAX_OPEN 64
#define MAX_LEVEL 4

static char names[MAX_SEEDS][RL_PROP_NAMES][24];
static uint64_t want_flops[MAX_SEEDS][RL_PROP_NAMES];
static uint64_t want_calls[MAX_SEEDS][RL_PROP_NAMES];
static int cur; /* the seed being run, as an index */

/* This thread's open regions (indices), and the main thread's regions
 * open when the current parallel region began (process scope). */
static __thread int open_k[MAX_OPEN];
static __thread int n_open;
static int scope_k[MAX_OPEN];
static int n_scope;

static uint64_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* n adds, each on the last one's result (independent adds of the same
 * operands would let Valgrind's optimiser merge unrolled copies) */
static void flops(uint64_t n)
{
	double a = 0.0;
	__asm__ volatile("" : "+x"(a));
	for (uint64_t i = 0; i < n; i++) {
		a = a + 1.0;
		__asm__ volatile("" : "+x"(a));
	}
}

/* n flops by this thread: whom they count for */
static void account(uint64_t n, int in_par)
{
	int seen[RL_PROP_NAMES] = {0};
	for (int i = 0; i < n_open; i++)
		seen[open_k[i]] = 1;
	for (int i = 0; in_par && i < n_scope; i++)
		seen[scope_k[i]] = 1;
	for (int k = 0; k < RL_PROP_NAMES; k++)
		if (seen[k])
			__atomic_fetch_add(&want_flops[cur][k], n,
					   __ATOMIC_RELAXED);
}

static void work(uint64_t n, int in_par)
{
	flops(n);
	account(n, in_par);
}

static void body(uint64_t seed, int level, int in_par);

static void region(int k, uint64_t sub, int level, int in_par)
{
	rl_region_begin(names[cur][k]);
	__atomic_fetch_add(&want_calls[cur][k], 1, __ATOMIC_RELAXED);
	open_k[n_open++] = k;
	body(sub, level + 1, in_par);
	n_open--;
	rl_region_end(names[cur][k]);
}

/* a parallel region of nt threads, each running body(sub) */
static void parallel(int nt, uint64_t sub, int level)
{
	n_scope = n_open;
	memcpy(scope_k, open_k, sizeof open_k);
#pragma omp parallel num_threads(nt)
	{
		int saved = n_open;
		if (omp_get_thread_num() != 0)
			n_open = 0; /* a worker: nothing open on it */
		body(sub, level + 1, 1);
		n_open = saved;
	}
	n_scope = 0;
}

/* a parallel for of n iterations (one flop each) over nt threads */
static void parallel_for(int nt, uint64_t n)
{
	n_scope = n_open;
	memcpy(scope_k, open_k, sizeof open_k);
#pragma omp parallel num_threads(nt)
	{
		int saved = n_open;
		uint64_t mine = 0;
		double a = 0.0;
		if (omp_get_thread_num() != 0)
			n_open = 0;
		__asm__ volatile("" : "+x"(a));
#pragma omp for schedule(static)
		for (uint64_t i = 0; i < n; i++) {
			a = a + 1.0; /* on the last result: see flops() */
			__asm__ volatile("" : "+x"(a));
			mine++;
		}
		account(mine, 1);
		n_open = saved;
	}
	n_scope = 0;
}

static void body(uint64_t seed, int level, int in_par)
{
	uint64_t s = seed;
	int items = 1 + (int)(next(&s) % 3);

	for (int it = 0; it < items; it++) {
		uint64_t what = next(&s) % 8, sub = next(&s);
		uint64_t n = 50 + next(&s) % 500;
		int k = (int)(next(&s) % RL_PROP_NAMES);
		int nt = 1 + (int)(next(&s) % 4);
		int tid = in_par ? omp_get_thread_num() : 0;

		if (level >= MAX_LEVEL || n_open >= MAX_OPEN - 1)
			what = 0;
		switch (what) {
		case 0: /* work; in a parallel region, its amount depends on
			   the thread */
			work(n + 17 * (uint64_t)tid, in_par);
			break;
		case 1:
		case 2:
		case 3: /* a region: maybe one open already (recursion on
			   this thread, or on a worker one the main thread
			   holds open in process scope) */
			region(k, sub, level, in_par);
			break;
		case 4: /* the same body from two call sites */
			body(sub, level + 1, in_par);
			if (!in_par && n_open < MAX_OPEN - 1) {
				region(k, sub, level, in_par);
				break;
			}
			body(sub, level + 1, in_par);
			break;
		case 5:
			if (in_par) {
				work(n, in_par);
				break;
			}
			parallel(nt, sub, level);
			break;
		case 6:
			if (in_par) {
				work(n, in_par);
				break;
			}
			parallel_for(nt, n * 4);
			break;
		default: /* a region around a parallel region */
			if (in_par) {
				work(n, in_par);
				break;
			}
			rl_region_begin(names[cur][k]);
			__atomic_fetch_add(&want_calls[cur][k], 1,
					   __ATOMIC_RELAXED);
			open_k[n_open++] = k;
			parallel(nt, sub, level + 1);
			n_open--;
			rl_region_end(names[cur][k]);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	long first, count;
	FILE *f;

	if (argc != 4 || (first = atol(argv[1])) < 0 ||
	    (count = atol(argv[2])) < 1 || count > MAX_SEEDS) {
		fprintf(stderr, "usage: omp_prop FIRST COUNT(1-%d) FILE\n",
			MAX_SEEDS);
		return 2;
	}
	for (long i = 0; i < count; i++)
		for (int k = 0; k < RL_PROP_NAMES; k++)
			snprintf(names[i][k], sizeof names[i][k], "s%ldr%d",
				 first + i, k);
	for (cur = 0; cur < count; cur++) {
		uint64_t s = (uint64_t)(first + cur) * 2654435761u + 12345;
		next(&s);
		body(s, 0, 0);
	}
	if (!(f = fopen(argv[3], "w")))
		return 3;
	for (long i = 0; i < count; i++)
		for (int k = 0; k < RL_PROP_NAMES; k++)
			if (want_calls[i][k])
				fprintf(f, "%s %llu %llu\n", names[i][k],
					(unsigned long long)want_flops[i][k],
					(unsigned long long)want_calls[i][k]);
	return fclose(f) == 0 ? 0 : 3;
}
