/* SPDX-License-Identifier: MIT */
/*
 * memcpy and memset under the simulated PMU: rlprof turns glibc's rep
 * movsb/stosb off (one byte per Valgrind block, many times slower than
 * the vector loops); the bytes counted stay those of the copy: register
 * <-> L1 within 0.5% of the bytes moved, DRAM the write-allocate model
 * (memcpy and the copy loop: 2 N read, N written; memset: N read for
 * the allocation, N written) within 1% (memcpy's reads 2%).
 */
#include <math.h>

#include "tests/lib/sim.h"

/* write-backs at the region's bounds: the region is charged exactly the
 * lines it dirtied, whatever happens to them later */
static const char *const small_caches[] = {"--sim-caches",
					   "16K:4,64K:8,256K:8",
					   "--sim-bounds", "region", NULL};

static void near(const char *region, const char *what, uint64_t got,
		 double want, double tol)
{
	cr_expect(fabs((double)got - want) <= tol * want,
		  "%s: %s %llu, want %.0f within %.1f%%", region, what,
		  (unsigned long long)got, want, 100 * tol);
}

Test(sim_memcpy, bytes_exact_without_rep_movsb, .timeout = 60)
{
	const double n = 512.0 * 1024 * 8; /* bytes per array */
	const char *prog[] = {E2E_PROG("sim_memcpy"), NULL};
	struct sim_run r;
	sim_need();
	sim_run(&r, small_caches, prog);
	cr_assert_eq(r.res.status, 0, "rlprof run: %s", r.res.err);
	sim_load(&r);
	cr_expect(strstr(r.note, "rep movsb/stosb off"),
		  "note does not say rep movsb is off: %s", r.note);
	struct sim_row *cp = sim_row_get(&r, "memcpy", -1);
	struct sim_row *st = sim_row_get(&r, "memset", -1);
	struct sim_row *lp = sim_row_get(&r, "copy_loop", -1);
	cr_assert_eq(cp->calls, 1);
	cr_assert_eq(st->calls, 1);
	cr_assert_eq(lp->calls, 1);
	near("memcpy", "l1_read_bytes", cp->c[RL_C_L1_READ_BYTES], n, 0.005);
	near("memcpy", "l1_write_bytes", cp->c[RL_C_L1_WRITE_BYTES], n, 0.005);
	/* glibc's vector loop hits the simulated L3 for about 1.8% of the
	 * reads where rep movsb hit nothing (the same code natively is
	 * rep movsb): 2% */
	near("memcpy", "dram_read_bytes", cp->c[RL_C_DRAM_READ_BYTES], 2 * n, 0.02);
	near("memcpy", "dram_write_bytes", cp->c[RL_C_DRAM_WRITE_BYTES], n, 0.01);
	near("memset", "l1_write_bytes", st->c[RL_C_L1_WRITE_BYTES], n, 0.005);
	near("memset", "dram_read_bytes", st->c[RL_C_DRAM_READ_BYTES], n, 0.01);
	near("memset", "dram_write_bytes", st->c[RL_C_DRAM_WRITE_BYTES], n, 0.01);
	near("copy_loop", "dram_read_bytes", lp->c[RL_C_DRAM_READ_BYTES], 2 * n, 0.01);
	near("copy_loop", "dram_write_bytes", lp->c[RL_C_DRAM_WRITE_BYTES], n, 0.01);
	/* memcpy moves what the loop moves */
	near("memcpy vs copy_loop", "dram bytes", sim_dram(cp), (double)sim_dram(lp),
	     0.02);
	sim_run_free(&r);
}
