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
 * C++: the same macros (warning-free with g++ and clang++, C++11..C++20,
 * in inline functions, class bodies, templates and lambdas), and a scope
 * guard, RL_REGION_SCOPE("name") or rl::region r("name"), at the end.
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

/* librlprof's: 1 until it knows this process is not measured (no
 * RLPROF_OUT), then 0. The macros below test it before calling, so that
 * a pair costs a load and a branch when the program runs without rlprof.
 * Read without synchronisation: it changes once, at start-up. */
extern int rl_runtime_wanted;

#ifdef RLPROF_DISABLE
#define RL_REGION_BEGIN(name) ((void)0)
#define RL_REGION_END(name) ((void)0)
#define RL_REGION_EXPECT(name, flops, bytes) ((void)0)
#else
#define RL__STR2(x) #x
#define RL__STR(x) RL__STR2(x)
/* Record layout: "RLR1" NUL file NUL line NUL name-expression NUL. */
#ifndef __cplusplus
#define RL__SITE_RECORD(name)                                                  \
	__attribute__((section("rlprof_regions"), used)) static const char     \
		rl__site[] = "RLR1\0" __FILE__ "\0" RL__STR(__LINE__) "\0" #name
#else
/* C++: a static record inside an inline function, a template or a class
 * body would land in a COMDAT group, and g++ refuses to mix that with the
 * plain records of the same section. The record is written by the
 * assembler instead: the same bytes, in the same section, never grouped
 * (copies from inlined or instantiated code are merged by rlprof inspect).
 * RL__STR(#name) stringifies twice, so quotes and backslashes in the file
 * name and the expression reach the assembler escaped. */
#define RL__SITE_RECORD(name)                                                  \
	__asm__(".pushsection rlprof_regions,\"a\"\n\t"                         \
		".asciz \"RLR1\"\n\t"                                             \
		".asciz " RL__STR(__FILE__) "\n\t"                                 \
		".asciz \"" RL__STR(__LINE__) "\"\n\t"                               \
		".asciz " RL__STR(#name) "\n\t"                                    \
		".popsection")
#endif
#define RL_REGION_BEGIN(name)                                                  \
	do {                                                                   \
		RL__SITE_RECORD(name);                                         \
		if (rl_runtime_wanted)                                         \
			rl_region_begin(name);                                 \
	} while (0)
#define RL_REGION_END(name)                                                    \
	(rl_runtime_wanted ? rl_region_end(name) : (void)0)
#ifdef __cplusplus
#define RL_REGION_EXPECT(name, flops, bytes)                                   \
	rl_region_expect((name), static_cast<double>(flops),                   \
			 static_cast<double>(bytes))
#else
#define RL_REGION_EXPECT(name, flops, bytes)                                   \
	rl_region_expect((name), (double)(flops), (double)(bytes))
#endif
#endif

#ifdef __cplusplus
}

/* C++ only: a region that ends when the scope does, on every exit path
 * (return, break, an exception):
 *
 *   { RL_REGION_SCOPE("solve"); ... }     recorded for rlprof inspect
 *   { rl::region r("solve"); ... }        the same, without the record
 *
 * The name is not copied by the guard: it must stay valid until the scope
 * ends (a string literal always does). */
namespace rl {
class region {
public:
	explicit region(const char *name) : name_(name)
	{
#ifndef RLPROF_DISABLE
		rl_region_begin(name_);
#endif
	}
	~region()
	{
#ifndef RLPROF_DISABLE
		rl_region_end(name_);
#endif
	}
	const char *name() const { return name_; }

private:
	region(const region &);            /* not copyable */
	region &operator=(const region &); /* not assignable */
	const char *name_;
};
} /* namespace rl */

#define RL__CAT2(a, b) a##b
#define RL__CAT(a, b) RL__CAT2(a, b)
#ifdef __COUNTER__
#define RL__SCOPE_VAR RL__CAT(rl__scope_, __COUNTER__)
#else
#define RL__SCOPE_VAR RL__CAT(rl__scope_, __LINE__)
#endif
#ifdef RLPROF_DISABLE
#define RL_REGION_SCOPE(name) ::rl::region RL__SCOPE_VAR(name)
#else
#define RL_REGION_SCOPE(name)                                                  \
	RL__SITE_RECORD(name);                                                 \
	::rl::region RL__SCOPE_VAR(name)
#endif
#endif /* __cplusplus */
#endif
