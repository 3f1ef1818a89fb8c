/* Programs annotated for LIKWID's marker API and PAPI's high-level API,
 * built against the Debian headers and libraries (liblikwid, libpapi) and
 * never rebuilt for rlprof, are profiled by `rlprof run` with their own
 * region names (tests/programs/compat/); --compat none turns it off;
 * the shims answer the foreign API as its documentation says (GET, return
 * codes). Detection: profiler/inspect/elf_imports.c. */
#include "inspect/elf_imports.h"
#include "common/rl_error.h"
#include "tests/lib/run.h"

#define COMPAT_SRC RL_SOURCE_DIR "/tests/programs/compat/"

/* Builds src into dir/name with the library; skips when the Debian
 * package is missing. */
static void build(const char *dir, const char *name, const char *src,
		  const char *flags, const char *header, const char *pkg)
{
	char script[2048];
	const char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct e2e_result r;

	if (access(header, R_OK) != 0)
		cr_skip_test("'%s' is missing: install %s (scripts/install-deps)",
			     header, pkg);
	snprintf(script, sizeof script,
		 "cc -O1 -Wall" SAN_FLAGS " %s '" COMPAT_SRC "%s' -o '%s/%s' %s "
		 "-lpthread",
		 strstr(flags, "LIKWID") ? "-DLIKWID_PERFMON" : "", src, dir,
		 name, strstr(flags, "LIKWID") ? "-llikwid" : "-lpapi");
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "building %s failed: %s", src, r.err);
	e2e_free(&r);
}

static long calls_of(const char *csv, const char *region)
{
	const char *row = e2e_csv_row(csv, region);
	const char *p = row ? strchr(row, ',') : NULL;
	p = p ? strchr(p + 1, ',') : NULL;
	return p ? strtol(p + 1, NULL, 10) : -1;
}

/* rlprof run -b BACKEND [--compat MODE] dir/app into dir/OUT */
static struct e2e_result profile(const char *dir, const char *app,
				 const char *backend, const char *compat,
				 const char *out_name)
{
	char out[512], path[512];
	/* the simulator's caches given, so that no cached machine model is
	 * needed (a fresh machine has none) */
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", backend,
			      "-o", out, "--compat", compat,
			      "--sim-caches", "48K:12,1M:8,4M:16", path, NULL};

	/* with the shims off, the real libpapi runs and leaks (an ASan
	 * build would fail the program for it) */
	const char *env[] = {"ASAN_OPTIONS=detect_leaks=0:"
			     "verify_asan_link_order=0",
			     NULL};

	snprintf(out, sizeof out, "%s/%s", dir, out_name);
	snprintf(path, sizeof path, "%s/%s", dir, app);
	if (strcmp(backend, "sim") != 0) { /* --sim-caches goes with sim */
		argv[9] = path;
		argv[10] = NULL;
	}
	return e2e_run_in(NULL, argv, strcmp(compat, "none") == 0 ? env : NULL);
}

Test(compat, imports_are_detected, .timeout = 60)
{
	char *dir = e2e_tmpdir(), path[512], err[256];
	struct rl_elf_imports im;

	build(dir, "lk", "likwid_app.c", "LIKWID", "/usr/include/likwid-marker.h",
	      "likwid");
	build(dir, "ph", "papihl_app.c", "PAPI", "/usr/include/papi.h",
	      "libpapi-dev");
	snprintf(path, sizeof path, "%s/lk", dir);
	cr_assert_eq(rl_elf_imports(path, &im, err, sizeof err), 0, "%s", err);
	cr_expect(im.likwid_marker);
	cr_expect(!im.papi_hl);
	snprintf(path, sizeof path, "%s/ph", dir);
	cr_assert_eq(rl_elf_imports(path, &im, err, sizeof err), 0, "%s", err);
	cr_expect(im.papi_hl);
	cr_expect(!im.likwid_marker);
	{
		const char *argv[] = {E2E_RLPROF, "inspect", path, NULL};
		struct e2e_result r = e2e_run(argv);
		cr_expect_eq(r.status, 0, "%s", r.err);
		cr_expect_not_null(strstr(r.out, "it calls PAPI's high-level API"),
				   "%s", r.out);
		e2e_free(&r);
	}
	cr_assert_eq(rl_elf_imports(E2E_PROG("e2e_regions"), &im, err, sizeof err), 0);
	cr_expect(im.rl_regions);
	cr_expect(!im.likwid_marker && !im.papi_hl);
	cr_assert_eq(rl_elf_imports(RL_SOURCE_DIR "/LICENSE", &im, err, sizeof err), 0);
	cr_expect(!im.rl_regions);
	snprintf(path, sizeof path, "%s/missing", dir);
	cr_expect_eq(rl_elf_imports(path, &im, err, sizeof err), RL_ENOENT);
	e2e_rmtree(dir);
	free(dir);
}

Test(compat, likwid_marker_program_runs_unchanged, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	char *csv;

	e2e_need(E2E_RLPROF);
	build(dir, "lk", "likwid_app.c", "LIKWID", "/usr/include/likwid-marker.h",
	      "likwid");
	r = profile(dir, "lk", "time", "auto", "out");
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "calls LIKWID's marker API"), "%s", r.err);
	/* what LIKWID_MARKER_GET and the return codes gave the program */
	cr_expect_not_null(strstr(r.out, "main get: nevents=0 count=3 time_positive=1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "thread get: nevents=0 count=2 time_positive=1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "double start: 1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "stray stop: 1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "after reset: count=0 time=0\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.err, "'lk_never_started' that is not open"), "%s", r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_eq(calls_of(csv, "lk_compute"), 3, "%s", csv);
	cr_expect_eq(calls_of(csv, "lk_setup"), 1, "double start not counted twice: %s", csv);
	cr_expect_eq(calls_of(csv, "lk_thread"), 2, "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);

	/* --compat none: the shim is off, the program is one region */
	r = profile(dir, "lk", "time", "none", "none");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, "marker API"), "%s", r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "none/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "lk_compute"), "%s", csv);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

/* rlprof's own counts reach the marker regions: the simulated PMU counts
 * the flops of lk_compute (3 calls x 200000 iterations x 2 flops). */
Test(compat, likwid_marker_regions_get_rlprof_counts, .timeout = 180)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	const char *row, *p;
	char *csv;
	double flops;

#ifdef RL_TEST_SANITIZED
	cr_skip_test("Valgrind cannot run a sanitized program");
#endif
	e2e_need(E2E_RLPROF);
	if (access("/usr/bin/valgrind", X_OK) != 0)
		cr_skip_test("valgrind is not installed (the sim backend)");
	build(dir, "lk", "likwid_app.c", "LIKWID", "/usr/include/likwid-marker.h",
	      "likwid");
	r = profile(dir, "lk", "sim", "auto", "sim");
	if (r.status != 0 && strstr(r.err, "sim"))
		cr_skip_test("the sim backend does not run here: %s", r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "sim/report.csv");
	row = e2e_csv_row(csv, "lk_compute");
	cr_assert_not_null(row, "%s", csv);
	p = row;
	for (int i = 0; i < 4 && p; i++)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	cr_assert_not_null(p, "%s", row);
	flops = strtod(p, NULL);
	cr_expect(flops >= 1.2e6 && flops < 1.21e6, "lk_compute flops %g: %s",
		  flops, row);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

Test(compat, papi_hl_program_runs_unchanged, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	char *csv;

	e2e_need(E2E_RLPROF);
	build(dir, "ph", "papihl_app.c", "PAPI", "/usr/include/papi.h",
	      "libpapi-dev");
	r = profile(dir, "ph", "time", "auto", "out");
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "calls PAPI's high-level API"), "%s", r.err);
	cr_expect_not_null(strstr(r.out, "stop before any region: 1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "compute: ok=1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "nested: ok=1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "read outside: 1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "stray end: 1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "thread: ok=1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "stop: 1\n"), "%s", r.out);
	e2e_free(&r);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_eq(calls_of(csv, "ph_compute"), 3, "%s", csv);
	cr_expect_eq(calls_of(csv, "ph_outer"), 1, "%s", csv);
	cr_expect_eq(calls_of(csv, "ph_inner"), 1, "%s", csv);
	cr_expect_eq(calls_of(csv, "ph_thread"), 2, "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);

	r = profile(dir, "ph", "time", "none", "none");
	cr_expect_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "none/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "ph_compute"), "%s", csv);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

Test(compat, bad_mode_is_a_usage_error, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "run", "--compat", "tau",
			      E2E_PROG("e2e_plain"), NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 2);
	cr_expect_not_null(strstr(r.err, "'--compat' takes 'auto', 'likwid', 'papi' or 'none', not 'tau'"), "%s", r.err);
	e2e_free(&r);
}
