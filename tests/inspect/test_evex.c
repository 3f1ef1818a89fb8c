/* Issue 40: AVX-512 (EVEX) code in a program and the libraries it
 * brings, read without running them (profiler/inspect/elf_evex.c), so
 * these run on any CPU: evex-app has none of its own and brings
 * libevex.so (built with -mavx512f, tests/build.mk). */
#include <criterion/criterion.h>
#include <string.h>

#include "common/rl_error.h"
#include "inspect/elf_code_isa.h"
#include "inspect/elf_evex.h"
#include "tests/lib/run.h"

#define APP E2E_PROG("evex-app")

static void need_decoder(void)
{
	if (!rl_code_isa_available())
		cr_skip_test("rlprof was built without an x86 decoder "
			     "(libzydis-dev): the AVX-512 scan cannot run");
	e2e_need(APP);
}

Test(evex, the_library_a_program_brings_is_read)
{
	struct rl_evex_scan s;
	char err[512];
	const struct rl_evex_func *f;

	need_decoder();
	cr_assert_eq(rl_elf_evex_scan(APP, &s, err, sizeof err), 0, "%s", err);
	cr_expect_eq(s.n_objects, 2, "the program and libevex.so");
	cr_assert_eq(s.n_funcs, 1, "evex_axpy alone is listed");
	f = &s.funcs[0];
	cr_expect_str_eq(f->name, "evex_axpy");
	cr_expect_not_null(strstr(f->object, "/libevex.so"), "%s", f->object);
	cr_expect_not_null(strstr(f->file, "tests/programs/evex/evex_lib.c"),
			   "%s", f->file);
	cr_expect_gt(f->line, 0);
	cr_expect_gt(f->n, 0);
	cr_expect_eq(s.total, f->n);
	/* scale_avx512: a CPU-dispatch variant by its name, counted apart */
	cr_expect_gt(s.dispatched, 0);
	cr_expect_eq(s.more_funcs, 0);
}

Test(evex, the_programs_own_code_is_read)
{
	struct rl_evex_scan s;
	char err[512];

	need_decoder();
	e2e_need(E2E_PROG("dot-native"));
	cr_assert_eq(rl_elf_evex_scan(E2E_PROG("dot-native"), &s, err,
				      sizeof err), 0, "%s", err);
	cr_assert_geq(s.n_funcs, 1);
	cr_expect_str_eq(s.funcs[0].name, "main", "dot() is inlined into it");
	cr_expect_str_eq(s.funcs[0].object, E2E_PROG("dot-native"));
	cr_expect_not_null(strstr(s.funcs[0].file, "count_with/dot.c"), "%s",
			   s.funcs[0].file);
}

Test(evex, none_in_a_portable_build_or_the_system_libraries)
{
	static const char *const plain[] = {E2E_PROG("dot-portable"),
					    E2E_PROG("e2e_exit")};
	struct rl_evex_scan s;
	char err[512];

	need_decoder();
	for (int i = 0; i < 2; i++) {
		e2e_need(plain[i]);
		cr_assert_eq(rl_elf_evex_scan(plain[i], &s, err, sizeof err),
			     0, "%s", err);
		cr_expect_eq(s.total, 0, "%s: %lu in %s", plain[i], s.total,
			     s.n_funcs ? s.funcs[0].name : "?");
		cr_expect_eq(s.n_funcs, 0);
	}
}

Test(evex, a_file_that_is_not_a_program_is_an_error)
{
	struct rl_evex_scan s;
	char err[512];

	need_decoder();
	cr_expect_eq(rl_elf_evex_scan(RL_SOURCE_DIR "/README.md", &s, err,
				      sizeof err), RL_EFORMAT);
	cr_expect_eq(rl_elf_evex_scan("/no/such/program", &s, err, sizeof err),
		     RL_ENOENT, "%s", err);
}
