/* SPDX-License-Identifier: MIT */
/*
 * The protocol between rlprof's simulated PMU (the Valgrind tool in
 * counters/sim/, which includes this file) and the sim backend in
 * librlprof (counters/backend_sim.c): the counter slots a client request
 * fills and the requests' numbers. One definition for both sides; plain
 * C, no library, as the tool is built without libc.
 */
#ifndef RL_FORMATS_SIM_PROTOCOL_H
#define RL_FORMATS_SIM_PROTOCOL_H

/*
 * Counter slots (RS_PROTOCOL changes when the layout does):
 *   0..5  flops: f64 scalar, 128, 256; f32 scalar, 128, 256
 *   6, 7  register <-> L1 bytes read, written
 *   8..13 below level b (b = 1..3): read, written; the boundary below the
 *         last level is DRAM
 *   14    number of cache levels
 *   15    RS_PROTOCOL
 *   16    flops done by FMA (2 per lane; a part of slots 0..5)
 */
enum {
	RS_F64_S, RS_F64_128, RS_F64_256, RS_F32_S, RS_F32_128, RS_F32_256,
	RS_L1_R, RS_L1_W,
	RS_B1_R, RS_B1_W, RS_B2_R, RS_B2_W, RS_B3_R, RS_B3_W,
	RS_NLEVELS, RS_VERSION, RS_FMA,
	RS_NSLOTS
};
#define RS_NFLOP 6
#define RS_PROTOCOL 0x524c0002UL /* "RL" v2 */
#define RS_MAX_LEVELS 3

/* Client requests (VG_USERREQ_TOOL_BASE('R','L') + n). */
#define RS_REQ_READ 0 /* arg1 ULong[arg2] out (arg2 0: 16 slots);
			 flushes dirty lines first when --sim-bounds=region;
			 returns 0 */
#define RS_REQ_INFO 1 /* arg1 char* out, arg2 its size, arg3 0: the
			 geometry and bounds as text, 1: the geometry as
			 --sim-caches writes it; returns the text length */
#define RS_REQ_READ_PROCESS 2 /* as RS_REQ_READ, the totals of every
			 thread of the process (exited ones included) */
#define RS_REQ_PAUSE 3 /* the calling thread stops counting (nests);
			 returns 0 */
#define RS_REQ_RESUME 4 /* it counts again: what it did since the
			 outermost pause is not in its totals; returns 0 */
#define RS_REQ_REGION 5 /* arg1 const char*: the calling thread enters
			 that region, NULL: leaves its innermost one (the
			 loops it runs meanwhile are that region's); arg2
			 1: a process-scope call (the main thread's), whose
			 region is also that of the loops of every thread
			 with no region of its own open; returns 0 */

#endif
