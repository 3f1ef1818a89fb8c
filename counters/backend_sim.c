/* SPDX-License-Identifier: MIT */
/*
 * The sim backend: a simulated PMU, the Valgrind tool rlprofsim
 * (counters/sim/, GPL-2.0-or-later, a separate program).
 *
 * Command side (rlprof run): probe() looks for `valgrind` on PATH and the
 * tool in ../libexec/rlprof/ next to the rlprof binary; prepare_launch()
 * runs the program under `valgrind --tool=rlprofsim` with the cache
 * geometry of the options (sim-caches: given with --sim-caches, or derived
 * by rlprof run from the machine model, sim-origin then saying where each
 * level's size came from; profiler/machine/sim_geometry.h), glibc's native
 * non-temporal threshold, glibc's rep movsb/stosb off (slow under
 * Valgrind) and passive OpenMP waiting;
 * explain_exit() recognises the simulator's AVX-512 failure. That side
 * is backend_sim_launch.c's.
 *
 * Runtime side (librlprof in the profiled process): read() asks the tool,
 * through a Valgrind client request, for the calling thread's counters
 * (write-backs are charged as --sim-bounds says: cause, region or raw;
 * see counters/sim/rs_cache.c). The request
 * is a few no-op instructions when not under Valgrind; init() fails then.
 */
#include "formats/sim_caches.h"
#include "formats/sim_protocol.h"
#include "counters/backend_sim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- runtime side (in the profiled process) ---- */

static int sim_nlevels; /* set once by init(), read-only afterwards */

static int sim_request(uint64_t *slots, unsigned long req)
{
	unsigned long r = VALGRIND_DO_CLIENT_REQUEST_EXPR(
		(unsigned long)-1, req, slots, RS_NSLOTS, 0, 0, 0);
	if (r != 0 || slots[RS_VERSION] != RS_PROTOCOL)
		return RL_ENOTSUP;
	return 0;
}

/* Counter for boundary b (1..n) of an n-level hierarchy; writes at +1. */
static enum rl_counter boundary_read(int b, int n)
{
	if (b == n)
		return RL_C_DRAM_READ_BYTES;
	return b == 1 ? RL_C_L2_READ_BYTES : RL_C_L3_READ_BYTES;
}

static void set_method(struct rl_backend_setup *s, enum rl_counter c,
		       const char *fmt, const char *a, const char *b)
{
	s->provided |= 1ull << c;
	s->scope[c] = RL_SCOPE_SIMULATED;
	snprintf(s->method[c], sizeof s->method[c], fmt, a, b);
}

static int sim_init(const char *options, struct rl_backend_setup *setup,
		    char *err, size_t errlen)
{
	static const char *const lname[] = {"L1", "L2", "L3", "DRAM"};
	uint64_t slots[RS_NSLOTS] = {0};
	char info[384] = "", vg[16], geom[128] = "";
	const char *env_note = secure_getenv("RLPROF_SIM_NOTE");

	if (!RUNNING_ON_VALGRIND)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "the sim backend needs the simulator: run the "
			       "program with 'rlprof run -b sim'");
	if (sim_request(slots, SIM_REQ(RS_REQ_READ)) < 0)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "running under Valgrind but not under its "
			       "rlprofsim tool: run the program with "
			       "'rlprof run -b sim'");
	sim_nlevels = (int)slots[RS_NLEVELS];
	if (sim_nlevels < 1 || sim_nlevels > RS_MAX_LEVELS)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "the simulator reports %d cache levels",
			       sim_nlevels);
	(void)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, SIM_REQ(RS_REQ_INFO), info, sizeof info,
					      0, 0, 0);
	(void)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, SIM_REQ(RS_REQ_INFO), geom, sizeof geom,
					      1, 0, 0);
	info[sizeof info - 1] = '\0';
	geom[sizeof geom - 1] = '\0';
	(void)options; /* the tool got them on its command line */
	snprintf(vg, sizeof vg, "Valgrind %d.%d", __VALGRIND_MAJOR__,
		 __VALGRIND_MINOR__);
	static const enum rl_counter flops[] = {
		RL_C_FLOPS_F64_SCALAR, RL_C_FLOPS_F64_128, RL_C_FLOPS_F64_256,
		RL_C_FLOPS_F32_SCALAR, RL_C_FLOPS_F32_128, RL_C_FLOPS_F32_256};
	for (size_t k = 0; k < 6; k++)
		set_method(setup, flops[k],
			   "simulated by rlprofsim (%s): exact flop count%s",
			   vg, ", FMA = 2");
	set_method(setup, RL_C_FLOPS_FMA,
		   "simulated by rlprofsim (%s): flops done by FMA "
		   "instructions, 2 per lane, any width%s", vg,
		   "; a part of the flops above");
	set_method(setup, RL_C_L1_READ_BYTES,
		   "simulated by rlprofsim (%s): every load%s", vg, "");
	set_method(setup, RL_C_L1_WRITE_BYTES,
		   "simulated by rlprofsim (%s): every store%s", vg, "");
	for (int b = 1; b <= sim_nlevels; b++) {
		enum rl_counter r = boundary_read(b, sim_nlevels);
		char where[32];
		snprintf(where, sizeof where, "%s<->%s", lname[b - 1],
			 b == sim_nlevels ? "DRAM" : lname[b]);
		set_method(setup, r,
			   "simulated cache %s, write-allocate, geometry %s",
			   where, geom);
		set_method(setup, (enum rl_counter)(r + 1),
			   "simulated cache %s, write-back, geometry %s", where,
			   geom);
	}
	set_method(setup, RL_C_DRAM_BYTES,
		   "simulated cache %s<->DRAM, reads + writes, geometry %s",
		   lname[sim_nlevels - 1], geom);
	setup->note[0] = '\0';
	rl_appendf(setup->note, sizeof setup->note, "rlprofsim (%s): %s%s%s", vg,
	       info, env_note && *env_note ? "; " : "",
	       env_note ? env_note : "");
	return 0;
}

static int sim_thread_open(void *state, char *err, size_t errlen)
{
	(void)state;
	(void)err;
	(void)errlen;
	return 0;
}

/* The calling thread's counts (RS_REQ_READ) or the whole process's
 * (RS_REQ_READ_PROCESS). */
static int sim_fill(struct rl_counter_value *v, unsigned long req)
{
	uint64_t s[RS_NSLOTS] = {0};
	struct timespec ts;
	int n = sim_nlevels;

	if (sim_request(s, req) < 0)
		return RL_ENOTSUP;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#define PUT(c, x) (v[c].value = (x), v[c].enabled_ns = ns, v[c].running_ns = ns)
	PUT(RL_C_FLOPS_F64_SCALAR, s[RS_F64_S]);
	PUT(RL_C_FLOPS_F64_128, s[RS_F64_128]);
	PUT(RL_C_FLOPS_F64_256, s[RS_F64_256]);
	PUT(RL_C_FLOPS_F32_SCALAR, s[RS_F32_S]);
	PUT(RL_C_FLOPS_F32_128, s[RS_F32_128]);
	PUT(RL_C_FLOPS_F32_256, s[RS_F32_256]);
	PUT(RL_C_FLOPS_FMA, s[RS_FMA]);
	PUT(RL_C_L1_READ_BYTES, s[RS_L1_R]);
	PUT(RL_C_L1_WRITE_BYTES, s[RS_L1_W]);
	for (int b = 1; b <= n; b++) {
		enum rl_counter r = boundary_read(b, n);
		PUT(r, s[RS_B1_R + 2 * (b - 1)]);
		PUT(r + 1, s[RS_B1_W + 2 * (b - 1)]);
	}
	PUT(RL_C_DRAM_BYTES, s[RS_B1_R + 2 * (n - 1)] + s[RS_B1_W + 2 * (n - 1)]);
#undef PUT
	return 0;
}

static int sim_read(void *state, struct rl_counter_value *v)
{
	(void)state;
	return sim_fill(v, SIM_REQ(RS_REQ_READ));
}

static int sim_read_process(struct rl_counter_value *v)
{
	return sim_fill(v, SIM_REQ(RS_REQ_READ_PROCESS));
}

static void sim_pause(int pause)
{
	(void)VALGRIND_DO_CLIENT_REQUEST_EXPR(
		0, SIM_REQ(pause ? RS_REQ_PAUSE : RS_REQ_RESUME), 0, 0, 0, 0, 0);
}

static void sim_region(const char *name, int scoped)
{
	(void)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, SIM_REQ(RS_REQ_REGION), name,
					      scoped, 0, 0, 0);
}

static void sim_thread_close(void *state)
{
	(void)state;
}

static void sim_fini(void)
{
}

const struct rl_backend rl_backend_sim = {
	.abi = RL_BACKEND_ABI,
	.name = "sim",
	.summary = "simulated PMU: Valgrind tool rlprofsim, exact flops and "
		   "a simulated cache hierarchy (slow: tens of times native)",
	.thread_state_size = sizeof(uint64_t),
	.probe = rl_sim_probe,
	.init = sim_init,
	.thread_open = sim_thread_open,
	.read = sim_read,
	.thread_close = sim_thread_close,
	.fini = sim_fini,
	.prepare_launch = rl_sim_prepare_launch,
	.explain_exit = rl_sim_explain_exit,
	.read_process = sim_read_process,
	.pause = sim_pause,
	.region = sim_region,
};
