/* The width of a program's floating-point arithmetic, decoded from its
 * code (elf_code_isa.c): exact counts per width on built programs whose
 * instructions are known (tests/programs/code_isa/code_isa.c), the
 * decoys left out, and the failures a user can cause. */
#include "test_e2e_util.h"

#include "elf_code_isa.h"
#include "rl_error.h"

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
