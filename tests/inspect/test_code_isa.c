/* The width of a program's floating-point arithmetic, decoded from its
 * code (elf_code_isa.c): exact counts per width on built programs whose
 * instructions are known (tests/programs/code_isa/code_isa.c), the
 * decoys left out, and the failures a user can cause. */
#include <jansson.h>

#include "tests/lib/run.h"

#include "inspect/elf_code_isa.h"
#include "common/rl_error.h"

static void need_decoder(void)
{
	if (!rl_code_isa_available())
		cr_skip_test("rlprof was built without libzydis-dev: no x86 "
			     "decoder to read code with");
}

/* code-isa-N: its counts per width (scalar, 128, 256, 512), the FMAs
 * among them, the widest width and its ceiling */
static void expect_counts(int isa, const unsigned long want[4],
			  const unsigned long want_fma[4], unsigned widest,
			  const char *ceiling)
{
	char path[512], err[512];
	struct rl_code_isa c;

	need_decoder();
	snprintf(path, sizeof path, "%s%d", E2E_PROG("code-isa-"), isa);
	e2e_need(path);
	cr_assert_eq(rl_elf_code_isa(path, &c, err, sizeof err), 0, "%s",
		     err);
	for (int w = 0; w < 4; w++)
		cr_expect_eq(c.n[w], want[w],
			     "code-isa-%d, width %d: %lu instructions, not %lu",
			     isa, w, c.n[w], want[w]);
	for (int w = 0; w < 4; w++)
		cr_expect_eq(c.n_fma[w], want_fma[w],
			     "code-isa-%d, width %d: %lu FMAs, not %lu", isa, w,
			     c.n_fma[w], want_fma[w]);
	cr_expect_eq(c.widest_bits, widest, "code-isa-%d: widest %u", isa,
		     c.widest_bits);
	for (int w = 3; w >= 0; w--)
		if (want[w]) {
			cr_expect_eq(c.widest_fma, want_fma[w] > 0,
				     "code-isa-%d: FMA at the widest", isa);
			break;
		}
	if (ceiling)
		cr_expect_str_eq(rl_code_isa_ceiling(c.widest_bits), ceiling);
	else
		cr_expect_null(rl_code_isa_ceiling(c.widest_bits));
}

/* code-isa-N (code_isa.c): counts per width, the widest, its ceiling;
 * no floating-point arithmetic, scalar SSE and VEX FMA, legacy SSE packed
 * (128-bit), VEX and EVEX by their vector length */
Test(code_isa, counts_by_width_on_known_code)
{
	static const struct {
		unsigned long n[4], fma[4];
		unsigned widest;
		const char *ceiling;
	} want[5] = {
		{{0, 0, 0, 0}, {0, 0, 0, 0}, 0, NULL},
		{{2, 0, 0, 0}, {1, 0, 0, 0}, 64, "scalar"},
		{{0, 2, 0, 0}, {0, 0, 0, 0}, 128, "sse2"},
		{{0, 2, 1, 0}, {0, 1, 1, 0}, 256, "avx2"},
		{{2, 0, 1, 2}, {1, 0, 0, 1}, 512, "avx512"},
	};
	for (int i = 0; i < 5; i++)
		expect_counts(i, want[i].n, want[i].fma, want[i].widest,
			      want[i].ceiling);
}

Test(code_isa, a_file_that_is_not_elf_is_said)
{
	char err[512];
	struct rl_code_isa c;

	need_decoder();
	cr_assert_eq(rl_elf_code_isa(RL_SOURCE_DIR "/README.md", &c, err,
				     sizeof err),
		     RL_EFORMAT);
	cr_expect(strstr(err, "README.md' is not an ELF file"), "%s", err);
	cr_assert_eq(rl_elf_code_isa(RL_SOURCE_DIR "/tests", &c, err,
				     sizeof err),
		     RL_EINVAL);
	cr_expect(strstr(err, "not a regular file"), "%s", err);
	cr_assert_eq(rl_elf_code_isa(RL_SOURCE_DIR "/no-such-program", &c, err,
				     sizeof err),
		     RL_ENOENT);
	cr_expect(strstr(err, "cannot open"), "%s", err);
	cr_expect_eq(c.widest_bits, 0u);
}

/* rlprof inspect says it: the widest width, its ISA, FMA or not and the
 * counts (text); the same as numbers (--json); none, for no arithmetic */
Test(code_isa, inspect_says_the_floating_point_code, .timeout = 30)
{
	const char *text[] = {E2E_RLPROF, "inspect", E2E_PROG("code-isa-3"),
			      NULL};
	const char *none[] = {E2E_RLPROF, "inspect", E2E_PROG("code-isa-0"),
			      NULL};
	const char *json[] = {E2E_RLPROF, "inspect", "--json",
			      E2E_PROG("code-isa-4"), NULL};
	struct e2e_result r;
	json_t *root, *fp;
	json_error_t je;

	need_decoder();
	e2e_need(E2E_RLPROF);
	e2e_need(text[2]);
	r = e2e_run(text);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "floating-point code: widest 256-bit (avx2), "
				"with FMA; 0 scalar, 2 128-bit, 1 256-bit, 0 "
				"512-bit instructions"),
		  "%s", r.out);
	e2e_free(&r);
	r = e2e_run(none);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "floating-point code: none in the program's "
				"own code"),
		  "%s", r.out);
	e2e_free(&r);
	r = e2e_run(json);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_loads(r.out, 0, &je);
	cr_assert_not_null(root, "%s: %s", je.text, r.out);
	fp = json_object_get(root, "fp_code");
	cr_assert(json_is_object(fp), "%s", r.out);
	cr_expect_eq(json_integer_value(json_object_get(fp, "widest_bits")),
		     512);
	cr_expect_str_eq(json_string_value(json_object_get(fp, "ceiling")),
			 "avx512");
	cr_expect_eq(json_integer_value(json_array_get(
			     json_object_get(fp, "instructions"), 3)),
		     2);
	cr_expect_eq(json_integer_value(
			     json_array_get(json_object_get(fp, "fma"), 0)),
		     1);
	json_decref(root);
	e2e_free(&r);
}
