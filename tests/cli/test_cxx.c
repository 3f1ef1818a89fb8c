/* C++: rlprof.h compiles warning-free with g++ and clang++ in C++11..C++20,
 * regions in inline functions, class bodies, templates and lambdas and the
 * RAII guard are counted by `rlprof run`, and `rlprof inspect` lists their
 * records. The program is tests/programs/cxx/cxx_regions.cpp. */
#include <stdbool.h>

#include "tests/lib/run.h"

#define CXX_SRC RL_SOURCE_DIR "/tests/programs/cxx/cxx_regions.cpp"

static const char *const cxx_regions[] = {
	"cxx_main",         "cxx_inline",       "cxx_method",
	"cxx_scope_method", "cxx_template",     "cxx_lambda",
	"cxx_scope_return", "cxx_scope_loop",   "cxx_scope_throw",
	"cxx_guard_object",
};
#define N_CXX_REGIONS (sizeof cxx_regions / sizeof cxx_regions[0])

static void need_compiler(const char *cxx)
{
	char path[64];
	snprintf(path, sizeof path, "/usr/bin/%s", cxx);
	if (access(path, X_OK) != 0)
		cr_skip_test("'%s' is not installed: run scripts/install-deps",
			     cxx);
}

/* Compiles the program with cxx in C++ std into out; the compiler must
 * print nothing (no warning with -Wall -Wextra -Wpedantic). */
static void compile(const char *cxx, int std, const char *out)
{
	char script[2048];
	const char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct e2e_result r;

	/* A sanitized build's librlprof uses gcc's ASan runtime, which
	 * clang's own cannot share a process with: clang++ then compiles
	 * without sanitizer and g++ links with it. */
	bool split = SAN_FLAGS[0] && strcmp(cxx, "clang++") == 0;

	snprintf(script, sizeof script,
		 "%s -std=c++%d -Wall -Wextra -Wpedantic -Wshadow "
		 "-Wold-style-cast -O2%s -I'" RL_SOURCE_DIR
		 "/profiler/runtime' '" CXX_SRC "' %s -o '%s%s' && "
		 "%s" SAN_FLAGS " '%s.o' -o '%s' -L'" RL_BUILD_DIR
		 "/lib' -lrlprof -Wl,-rpath,'" RL_BUILD_DIR "/lib'",
		 cxx, std, split ? "" : SAN_FLAGS, "-c", out, ".o",
		 split ? "g++" : cxx, out, out);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s -std=c++%d failed: %s", cxx, std, r.err);
	cr_expect_str_empty(r.err, "%s -std=c++%d warned: %s", cxx, std,
			    r.err);
	e2e_free(&r);
}

static void check_compiler(const char *cxx)
{
	static const int stds[] = {11, 14, 17, 20};
	char *dir = e2e_tmpdir();
	char app[512], out[512];
	const char *run[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			     "time", "-o", out, app, NULL};
	const char *inspect[] = {E2E_RLPROF, "inspect", app, NULL};
	struct e2e_result r;
	char *csv;

	e2e_need(E2E_RLPROF);
	need_compiler(cxx);
	for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++) {
		snprintf(app, sizeof app, "%s/app%d", dir, stds[i]);
		compile(cxx, stds[i], app);
	}
	/* the C++11 build and the C++20 build both run and list */
	for (int k = 0; k < 2; k++) {
		snprintf(app, sizeof app, "%s/app%d", dir, k ? 20 : 11);
		snprintf(out, sizeof out, "%s/out%d", dir, k);
		r = e2e_run(run);
		cr_expect_eq(r.status, 0, "%s: status %d, stderr: %s", app,
			     r.status, r.err);
		e2e_free(&r);
		/* no misuse warning: every guard ended its own region */
		csv = e2e_file(out, "report.json");
		cr_expect_not_null(strstr(csv, "\"warnings\": []"),
				   "%s: warnings: %s", app,
				   strstr(csv, "\"warnings\"") ? strstr(csv, "\"warnings\"") : csv);
		free(csv);
		csv = e2e_file(out, "report.csv");
		for (size_t i = 0; i < N_CXX_REGIONS; i++)
			cr_expect_not_null(e2e_csv_row(csv, cxx_regions[i]),
					   "%s: no region '%s' in %s", app,
					   cxx_regions[i], csv);
		free(csv);

		r = e2e_run(inspect);
		cr_expect_eq(r.status, 0, "inspect: %s", r.err);
		/* every region but the one of the plain guard object, which
		 * leaves no record */
		for (size_t i = 0; i < N_CXX_REGIONS - 1; i++)
			cr_expect_not_null(strstr(r.out, cxx_regions[i]),
					   "inspect %s: no '%s' in %s", app,
					   cxx_regions[i], r.out);
		cr_expect(strstr(r.out, "9 regions declared") != NULL,
			  "inspect %s: duplicates not merged: %s", app, r.out);
		cr_expect(strstr(r.out, "cxx_regions.cpp:") != NULL, "%s",
			  r.out);
		e2e_free(&r);
	}
	e2e_rmtree(dir);
	free(dir);
}

Test(cxx, gxx_all_standards_run_and_inspect, .timeout = 240)
{
	check_compiler("g++");
}

Test(cxx, clangxx_all_standards_run_and_inspect, .timeout = 240)
{
	check_compiler("clang++");
}

/* -DRLPROF_DISABLE removes every call, the guard's too. */
Test(cxx, disabled_build_has_no_calls_and_no_records, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	char script[2048];
	const char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct e2e_result r;

	need_compiler("g++");
	snprintf(script, sizeof script,
		 "g++ -std=c++11 -Wall -Wextra -Wpedantic -DRLPROF_DISABLE -I'"
		 RL_SOURCE_DIR "/profiler/runtime' '" CXX_SRC "' -o '%s/app' "
		 "&& nm -u '%s/app' | grep rl_region; "
		 "readelf -S '%s/app' | grep -c rlprof_regions",
		 dir, dir, dir);
	r = e2e_run(argv);
	cr_expect_str_empty(r.err, "%s", r.err);
	cr_expect_str_eq(r.out, "0\n", "calls or records left: %s", r.out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}
