/*
 * rlprof run -b sim on a build the simulator cannot run (AVX-512): the
 * native run's times and declared figures stay in the report, and
 * --count-with counts a portable build of the same source against the
 * native times. End to end, with the real rlprof and tests/programs/
 * count_with/dot.c built twice (tests/build.mk).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#include "inspect/elf_code_isa.h"

#define NATIVE E2E_PROG("dot-native")
#define PORTABLE E2E_PROG("dot-portable")

static void need_avx512(void)
{
	sim_need();
	e2e_need(NATIVE);
	e2e_need(PORTABLE);
	if (!__builtin_cpu_supports("avx512f"))
		cr_skip_test("this CPU has no AVX-512: the native build cannot "
			     "run here either");
}

static json_t *load_json(const char *dir, const char *name)
{
	char *text = e2e_file(dir, name);
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr);

	cr_assert_not_null(doc, "%s/%s: %s", dir, name, jerr.text);
	free(text);
	return doc;
}

static json_t *region(json_t *report, const char *name)
{
	size_t i;
	json_t *r;

	json_array_foreach(json_object_get(report, "regions"), i, r) {
		const char *n = json_string_value(json_object_get(r, "region"));
		if (n && strcmp(n, name) == 0)
			return r;
	}
	cr_assert_fail("no region '%s' in report.json", name);
	return NULL;
}

Test(count_with, avx512_build_keeps_native_times_and_declared_figures)
{
	const char *prog[] = {NATIVE, NULL};
	/* counted anyway: rlprof otherwise stops before running it */
	const char *opts[] = {"--sim-avx512", "run", NULL};
	struct sim_run r;
	json_t *rep, *dot;

	need_avx512();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 128 + 4, "exit %d: %s", r.res.status,
		     r.res.err);
	cr_assert(strstr(r.res.err, "--count-with PORTABLE"), "%s", r.res.err);
	cr_assert(strstr(r.res.err, "the counting run stopped on signal 4"),
		  "%s", r.res.err);
	rep = load_json(r.dir, "report.json");
	dot = region(rep, "dot");
	cr_assert_eq(json_integer_value(json_object_get(dot, "calls")), 1);
	cr_assert_gt(json_number_value(json_object_get(dot, "time_s")), 0);
	cr_assert(json_is_true(json_object_get(dot, "time_native")));
	cr_assert_null(json_object_get(dot, "flops"),
		       "nothing counted, so no flops (never 0)");
	cr_assert_null(json_object_get(dot, "dram_bytes"));
	cr_assert(strstr(json_string_value(json_object_get(dot, "method")),
			 "the counting run stopped before this region ended"),
		  "the method says why there are no counts");
	cr_assert_float_eq(
		json_number_value(json_object_get(dot, "flops_expected")),
		8192.0, 1e-9);
	json_decref(rep);
	sim_run_free(&r);
}

Test(count_with, portable_build_counted_against_native_times)
{
	const char *opts[] = {"--count-with", PORTABLE, "--timed-isa",
			      "avx512", NULL};
	const char *prog[] = {NATIVE, NULL};
	struct sim_run r;
	json_t *rep, *run, *dot;

	need_avx512();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 0, "exit %d: %s", r.res.status, r.res.err);
	rep = load_json(r.dir, "report.json");
	dot = region(rep, "dot");
	/* the loop's 2N plus the caller's one add, counted exactly */
	cr_assert_float_eq(json_number_value(json_object_get(dot, "flops")),
			   8193.0, 1e-9);
	cr_assert_eq(json_integer_value(json_object_get(dot, "calls")), 1);
	cr_assert(json_is_true(json_object_get(dot, "time_native")));
	run = load_json(r.dir, "run.json");
	cr_assert(strstr(json_string_value(json_object_get(run, "count_with")),
			 "dot-portable"));
	cr_assert_str_eq(json_string_value(json_object_get(run, "timed_isa")),
			 "avx512");
	cr_assert_str_eq(
		json_string_value(json_object_get(run, "timed_isa_source")),
		"--timed-isa avx512");
	json_decref(run);
	json_decref(rep);
	sim_run_free(&r);
}

/* rlprof run -b sim --count-with dot-portable TIMED (skipped without the
 * simulator or the programs): its run.json (the caller frees it and r);
 * *src its timed_isa_source */
static json_t *run_timed(struct sim_run *r, const char *timed,
			 const char **src)
{
	const char *opts[] = {"--count-with", PORTABLE, NULL};
	const char *prog[] = {timed, NULL};
	json_t *run;

	sim_need();
	e2e_need(PORTABLE);
	e2e_need(timed);
	sim_run(r, opts, prog);
	cr_assert_eq(r->res.status, 0, "exit %d: %s", r->res.status,
		     r->res.err);
	run = load_json(r->dir, "run.json");
	*src = json_string_value(json_object_get(run, "timed_isa_source"));
	cr_assert_not_null(*src);
	return run;
}

/* gcc's note says baseline for -march=native: the ISA is read from the
 * code (AVX-512 multiplies and adds in dot-native), or, with no decoder
 * built in, said to be unknown with the way out */
Test(count_with, timed_isa_read_from_the_code_when_the_note_says_nothing)
{
	struct sim_run r;
	json_t *run;
	const char *src;

	need_avx512();
	run = run_timed(&r, NATIVE, &src);
	if (rl_code_isa_available()) {
		cr_assert_str_eq(json_string_value(json_object_get(run,
								   "timed_isa")),
				 "avx512");
		cr_assert(strstr(src, "the code of 'dot-native': its widest "
				      "floating-point arithmetic is 512-bit"),
			  "%s", src);
		cr_assert(strstr(src, "x86-64-baseline"), "%s", src);
	} else {
		cr_assert(json_is_null(json_object_get(run, "timed_isa")));
		cr_assert(strstr(src, "without an x86 decoder"), "%s", src);
		cr_assert(strstr(src, "--timed-isa"), "%s", src);
	}
	json_decref(run);
	sim_run_free(&r);
}

/* A timed build with no floating-point arithmetic of its own (its work
 * in a library, say): unknown, with why and the way out */
Test(count_with, unknown_timed_isa_is_said_with_the_way_out)
{
	struct sim_run r;
	json_t *run;
	const char *src;

	run = run_timed(&r, E2E_PROG("code-isa-0"), &src);
	cr_assert(json_is_null(json_object_get(run, "timed_isa")),
		  "no note, no floating-point code: the ISA is unknown");
	/* the note says baseline (gcc) or is absent (clang) */
	cr_assert(strncmp(src, "unknown: ", 9) == 0, "%s", src);
	cr_assert(strstr(src, "GNU property note of 'code-isa-0'") ||
			  strstr(src, "'code-isa-0' has no GNU property note"),
		  "%s", src);
	cr_assert(strstr(src, rl_code_isa_available()
				      ? "its own code has no floating-point "
					"arithmetic"
				      : "without an x86 decoder"),
		  "%s", src);
	cr_assert(strstr(src, "say it with --timed-isa"), "%s", src);
	json_decref(run);
	sim_run_free(&r);
}

/* dot-avx2 (AVX2 without FMA) read as the timed build: a decoder built
 * in, and a CPU that runs it */
static void need_avx2_code(void)
{
	if (!rl_code_isa_available())
		cr_skip_test("rlprof was built without libzydis-dev: the timed "
			     "build's code cannot be read");
	if (!__builtin_cpu_supports("avx2"))
		cr_skip_test("this CPU has no AVX2: the timed build cannot run");
}

/* A timed build whose code has no FMA at its widest width (-mavx2
 * alone): run.json says so, for the no-FMA ceiling of its ISA */
Test(count_with, timed_build_without_fma_is_recorded)
{
	struct sim_run r;
	json_t *run;
	const char *src;

	need_avx2_code();
	run = run_timed(&r, E2E_PROG("dot-avx2"), &src);
	cr_assert(json_is_false(json_object_get(run, "timed_fma")),
		  "-mavx2 alone: no FMA in the timed build's code");
	cr_assert(strstr(src, "without FMA"), "%s", src);
	/* the ceiling it gets: test_placement.c (these runs have no machine
	 * model) */
	json_decref(run);
	sim_run_free(&r);
}

/* Without --quiet the run says which ceiling and where it came from */
Test(count_with, the_run_says_the_timed_ceiling)
{
	char *dir;
	struct e2e_result r;

	sim_need();
	e2e_need(PORTABLE);
	e2e_need(E2E_PROG("dot-avx2"));
	need_avx2_code();
	dir = e2e_tmpdir();
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", "sim",
			      "--sim-caches", SIM_TEST_CACHES, "-o", dir,
			      "--count-with", PORTABLE, E2E_PROG("dot-avx2"),
			      NULL};
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, "rlprof: --count-with: 'dot-avx2' is held "
				"against the "),
		  "%s", r.err);
	cr_assert(strstr(r.err, " ceiling without FMA: from the code of "
				"'dot-avx2'"),
		  "%s", r.err);
	e2e_cleanup(&r, dir);
}

static void usage_fails(const char *const *argv, const char *what)
{
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
	cr_assert(strstr(r.err, what), "%s", r.err);
	cr_assert_null(strchr(strchr(r.err, '\n') + 1, '\n'), "one line: %s",
		       r.err);
	e2e_free(&r);
}

Test(count_with, misuse_is_a_usage_error)
{
	const char *a[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
			   "--count-with", "/bin/true", "/bin/true", NULL};
	const char *b[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
			   "--timed-isa", "avx2", "/bin/true", NULL};
	const char *c[] = {E2E_RLPROF, "run", "--no-probe", "-b", "sim",
			   "--count-with", "/bin/true", "--timed-isa", "avx9",
			   "/bin/true", NULL};
	const char *d[] = {E2E_RLPROF, "run", "--no-probe", "-b", "sim",
			   "--sim-timing", "sim", "--count-with", "/bin/true",
			   "/bin/true", NULL};

	usage_fails(a, "goes with the simulated PMU");
	usage_fails(b, "goes with '--count-with'");
	usage_fails(c, "not 'avx9'");
	usage_fails(d, "do not go together");
}
