/* Issue 40: AVX-512 builds named before the wait. rlprof run -b sim reads
 * the build it would count, and the libraries it brings, for AVX-512 code
 * the simulator cannot execute, and stops before anything runs (exit
 * status 3) naming the functions, the rebuild and the --count-with line;
 * --sim-avx512 run goes on. rlprof inspect says the same. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#include "inspect/elf_code_isa.h"
#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define APP E2E_PROG("evex-app")
#define NATIVE E2E_PROG("dot-native")
#define PORTABLE E2E_PROG("dot-portable")

static void need_scan(const char *prog)
{
	sim_need();
	if (!rl_code_isa_available())
		cr_skip_test("rlprof was built without an x86 decoder "
			     "(libzydis-dev): no AVX-512 scan");
	e2e_need(prog);
}

/* rlprof run -b sim [opt] -o DIR/out prog (the program is never run: no
 * CPU needs AVX-512) */
static struct e2e_result run_sim(const char *dir, const char *opt,
				 const char *prog)
{
	char out[512];
	const char *argv[16] = {E2E_RLPROF, "run", "-b", "sim", "--sim-caches",
				SIM_TEST_CACHES, "-o", out};
	size_t n = 8;

	snprintf(out, sizeof out, "%s/out", dir);
	if (opt) {
		argv[n++] = "--sim-avx512";
		argv[n++] = opt;
	}
	argv[n++] = prog;
	argv[n++] = "x y";
	argv[n] = NULL;
	return e2e_run(argv);
}

Test(sim_avx512, stops_before_anything_runs_and_names_the_functions,
     .timeout = 60)
{
	char *dir = e2e_tmpdir(), out[600];
	struct e2e_result r;

	need_scan(APP);
	r = run_sim(dir, NULL, APP);
	cr_expect_eq(r.status, 3, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "evex-app' has AVX-512 code, which "
				  "the simulator"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "nothing was run"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "rlprof:   evex_axpy (" RL_SOURCE_DIR
				  "/tests/programs/evex/evex_lib.c:"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, ") in libevex.so: "), "%s", r.err);
	cr_expect_null(strstr(r.err, "scale_avx512"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "-march=x86-64-v3"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "rlprof run --count-with " APP
				  "-v3 " APP " 'x y'\n"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "'--sim-avx512 run'"), "%s", r.err);
	cr_expect_null(strstr(r.err, "timing run"), "%s", r.err);
	cr_expect_eq(r.out[0], '\0', "%s", r.out);
	snprintf(out, sizeof out, "%s/out", dir);
	cr_expect_neq(access(out, F_OK), 0, "the output directory was made");
	e2e_cleanup(&r, dir);
}

Test(sim_avx512, a_bad_mode_is_a_usage_error, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = run_sim(dir, "maybe", E2E_PROG("e2e_exit"));
	cr_expect_eq(r.status, 2, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "option '--sim-avx512' takes 'stop' "
				  "or 'run', not 'maybe'"), "%s", r.err);
	e2e_cleanup(&r, dir);
}

Test(sim_avx512, inspect_says_it_in_text_and_json, .timeout = 30)
{
	const char *text[] = {E2E_RLPROF, "inspect", APP, NULL};
	const char *js[] = {E2E_RLPROF, "inspect", "--json", APP, NULL};
	struct e2e_result r;
	json_t *doc, *a, *f;

	if (!rl_code_isa_available())
		cr_skip_test("rlprof was built without an x86 decoder");
	e2e_need(E2E_RLPROF);
	e2e_need(APP);
	r = e2e_run(text);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_not_null(strstr(r.out, "\nAVX-512 code: "), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\n  evex_axpy (" RL_SOURCE_DIR
				  "/tests/programs/evex/evex_lib.c:"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "rlprof run --count-with "), "%s",
			   r.out);
	e2e_free(&r);
	r = e2e_run(js);
	cr_assert_eq(r.status, 0, "%s", r.err);
	doc = json_loads(r.out, 0, NULL);
	cr_assert_not_null(doc, "%s", r.out);
	a = json_object_get(doc, "avx512");
	cr_assert(json_is_object(a), "%s", r.out);
	f = json_array_get(json_object_get(a, "functions"), 0);
	cr_expect_str_eq(json_string_value(json_object_get(f, "function")),
			 "evex_axpy");
	cr_expect_gt(json_integer_value(json_object_get(f, "line")), 0);
	cr_expect_gt(json_integer_value(json_object_get(a, "dispatch_variants")),
		     0);
	json_decref(doc);
	e2e_free(&r);
}

/* End to end on a CPU with AVX-512, as the user met it: the
 * -mavx512f build stops before its timing run with the --count-with line;
 * that line, with the portable build, counts exactly; --sim-avx512 run
 * goes on to the simulator's own SIGILL explanation. */
Test(sim_avx512, on_an_avx512_cpu_the_count_with_line_counts_exactly,
     .timeout = 240)
{
	const char *stop[] = {NATIVE, NULL};
	const char *with[] = {"--count-with", PORTABLE, NULL};
	const char *go[] = {"--sim-avx512", "run", NULL};
	struct sim_run r;

	need_scan(NATIVE);
	e2e_need(PORTABLE);
	if (!__builtin_cpu_supports("avx512f"))
		cr_skip_test("this CPU has no AVX-512: the -mavx512f build "
			     "cannot be timed here (the scan itself is tested "
			     "by sim_avx512/stops_before_anything_runs_...)");
	sim_run(&r, NULL, stop);
	cr_assert_eq(r.res.status, 3, "status %d: %s", r.res.status,
		     r.res.err);
	cr_expect_not_null(strstr(r.res.err, "rlprof:   main (" RL_SOURCE_DIR
				  "/tests/programs/count_with/dot.c:"), "%s", r.res.err);
	cr_expect_not_null(strstr(r.res.err, "rlprof run --count-with " NATIVE
				  "-v3 " NATIVE "\n"), "%s", r.res.err);
	sim_run_free(&r);

	sim_run(&r, with, stop);
	cr_assert_eq(r.res.status, 0, "status %d: %s", r.res.status,
		     r.res.err);
	cr_expect_null(strstr(r.res.err, "AVX-512 code"), "%s", r.res.err);
	sim_load(&r);
	/* the loop's 2N plus the caller's one add, as the source does */
	const struct sim_row *dot = sim_row_get(&r, "dot", -1);
	cr_expect_eq(dot->c[RL_C_FLOPS_F64_SCALAR] + dot->c[RL_C_FLOPS_F64_128] +
			     dot->c[RL_C_FLOPS_F64_256],
		     8193);
	sim_run_free(&r);

	sim_run(&r, go, stop);
	cr_expect_eq(r.res.status, 128 + 4, "status %d: %s", r.res.status,
		     r.res.err);
	cr_expect_not_null(strstr(r.res.err, "counting it anyway "
				  "(--sim-avx512 run)"), "%s", r.res.err);
	cr_expect_not_null(strstr(r.res.err, "the program uses AVX-512 "
				  "instructions"), "%s", r.res.err);
	sim_run_free(&r);
}
