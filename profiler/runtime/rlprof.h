/*
 * rlprof.h - mark regions of a program for the rlprof roofline profiler.
 *
 *   RL_REGION_BEGIN("triad");
 *   for (i = 0; i < n; i++) a[i] = b[i] + s * c[i];
 *   RL_REGION_END("triad");
 *   RL_REGION_EXPECT("triad", 2.0 * n, 24.0 * n);   theoretical flops, bytes
 *
 * Build: cc app.c $(pkg-config --cflags --libs rlprof)
 * Run:   rlprof run ./app
 *
 * Regions nest (counts are inclusive), may be entered many times (counts
 * add up) and may be used from any thread (each thread has its own stack).
 * A name is any C string; it is copied, the caller keeps ownership.
 * When the program is not run under rlprof, a BEGIN/END pair costs a few
 * nanoseconds and nothing is written. Misuse (an END that does not match
 * the innermost open region, regions left open at exit, an empty name) is
 * recorded and reported by rlprof as a warning; it never crashes the
 * program. Compile with -DRLPROF_DISABLE to remove every call.
 *
 * Each RL_REGION_BEGIN also leaves a static record (its file, line and the
 * name expression as written) in the ELF section "rlprof_regions", which
 * `rlprof inspect` lists. The record is plain constant data.
 *
 * License: MIT (see LICENSE), so any program may include and link it.
 */
#ifndef RLPROF_H
#define RLPROF_H

#ifdef __cplusplus
extern "C" {
#endif

#define RLPROF_VERSION_MAJOR 0
#define RLPROF_VERSION_MINOR 1

void rl_region_begin(const char *name);
void rl_region_end(const char *name);
void rl_region_expect(const char *name, double flops, double bytes);

#ifdef RLPROF_DISABLE
#define RL_REGION_BEGIN(name) ((void)0)
#define RL_REGION_END(name) ((void)0)
#define RL_REGION_EXPECT(name, flops, bytes) ((void)0)
#else
#define RL__STR2(x) #x
#define RL__STR(x) RL__STR2(x)
/* Record layout: "RLR1" NUL file NUL line NUL name-expression NUL. */
#define RL__SITE_RECORD(name)                                                  \
	__attribute__((section("rlprof_regions"), used)) static const char     \
		rl__site[] = "RLR1\0" __FILE__ "\0" RL__STR(__LINE__) "\0" #name
#define RL_REGION_BEGIN(name)                                                  \
	do {                                                                   \
		RL__SITE_RECORD(name);                                         \
		rl_region_begin(name);                                         \
	} while (0)
#define RL_REGION_END(name) rl_region_end(name)
#define RL_REGION_EXPECT(name, flops, bytes)                                   \
	rl_region_expect((name), (double)(flops), (double)(bytes))
#endif

#ifdef __cplusplus
}
#endif
#endif
