/* SPDX-License-Identifier: MIT */
/*
 * The sim backend's two sides (backend_sim.c: the runtime side and the
 * backend; backend_sim_launch.c: the command side) share Valgrind's
 * client-request macros, the tool's name and its requests. Private to
 * those two files.
 */
#ifndef RL_COUNTERS_BACKEND_SIM_H
#define RL_COUNTERS_BACKEND_SIM_H

#include <stddef.h>

#include "counters/backend.h"

/* counters/sim/build.mk defines RL_SIM_HAVE_VALGRIND_H when Valgrind's
 * client-request header (BSD-style) is installed */
#ifdef RL_SIM_HAVE_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_DO_CLIENT_REQUEST_EXPR(dflt, req, a1, a2, a3, a4, a5) (dflt)
#define VG_USERREQ_TOOL_BASE(a, b)                                          \
	((unsigned int)(((a) & 0xff) << 24 | ((b) & 0xff) << 16))
#define __VALGRIND_MAJOR__ 3
#define __VALGRIND_MINOR__ 19
#endif

/* The protocol with the tool: formats/sim_protocol.h; a request is
 * Valgrind's tool base for 'R', 'L' plus its number there. */
#define SIM_REQ(n) (VG_USERREQ_TOOL_BASE('R', 'L') + (n))

#define SIM_TOOL "rlprofsim-amd64-linux"

/* backend_sim_launch.c: the backend's probe, prepare_launch and
 * explain_exit (struct rl_backend, counters/backend.h) */
int rl_sim_probe(char *why, size_t whylen);
int rl_sim_prepare_launch(struct rl_launch *l, char *err, size_t errlen);
int rl_sim_explain_exit(const char *raw_dir, int st, char *msg,
			size_t msglen);

#endif
