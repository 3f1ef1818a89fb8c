/* The programs users bring to --compat, run unchanged (issue 24 §4):
 * Fortran programs through LIKWID's module and PAPI's fpapi.h are
 * detected by their Fortran imports without --compat; a LIKWID program
 * whose regions only sleep (like LIKWID's C-markerAPI.c) counts 0 flops,
 * the shim's own work being no part of the program's; a program that
 * holds PAPI's high-level API itself (libpapi.a linked in) is told
 * plainly why its regions cannot be seen. Programs:
 * tests/programs/compat/. */
#include "inspect/elf_imports.h"
#include "common/rl_error.h"
#include "tests/lib/run.h"

#define CP_SRC RL_SOURCE_DIR "/tests/programs/compat/"

/* sh -c script; skips when need (a file) is missing */
static void sh_build(const char *script, const char *need, const char *pkg)
{
	const char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct e2e_result r;

	if (need && access(need, R_OK) != 0)
		cr_skip_test("'%s' is missing: install %s (scripts/install-deps)",
			     need, pkg);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "building failed: %s\n%s", script, r.err);
	e2e_free(&r);
}

static void need_gfortran(void)
{
	if (access("/usr/bin/gfortran", X_OK) != 0)
		cr_skip_test("gfortran is not installed: run scripts/install-deps");
}

/* column col (0-based) of region's row of dir/out/report.csv */
static double csv_num(const char *csv, const char *region, int col)
{
	const char *p = e2e_csv_row(csv, region);

	for (int i = 0; i < col && p; i++)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	return p && *p != ',' ? strtod(p, NULL) : -1;
}

static struct e2e_result run_time(const char *dir, const char *app,
				  const char *out_name)
{
	char out[512], path[512];
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
			      "-o", out, path, NULL};

	snprintf(out, sizeof out, "%s/%s", dir, out_name);
	snprintf(path, sizeof path, "%s/%s", dir, app);
	return e2e_run(argv);
}

/* a Fortran program's region, by the time backend, without --compat */
static void fortran_regions(const char *dir, const char *app, bool likwid)
{
	char path[512], err[256];
	struct rl_elf_imports im;
	struct e2e_result r;
	char *csv;

	snprintf(path, sizeof path, "%s/%s", dir, app);
	cr_assert_eq(rl_elf_imports(path, &im, err, sizeof err), 0, "%s", err);
	cr_expect_eq(im.likwid_marker, likwid);
	cr_expect_eq(im.papi_hl, !likwid);
	cr_expect(!im.likwid_marker_inside && !im.papi_hl_inside);
	r = run_time(dir, app, "out");
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, likwid ? "calls LIKWID's marker API"
						: "calls PAPI's high-level API"),
			   "%s", r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_eq(csv_num(csv, "f_compute", 2), 3, "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);
}

/* LIKWID's F-markerAPI.F90 calls the marker through the module likwid:
 * likwid_markerstartregion_ */
Test(compat_programs, fortran_likwid_marker_is_detected, .timeout = 120)
{
	char *dir = e2e_tmpdir(), script[2048];

	e2e_need(E2E_RLPROF);
	need_gfortran();
	snprintf(script, sizeof script,
		 "cd '%s' && gfortran -DLIKWID_PERFMON -I/usr/include '" CP_SRC
		 "likwid_f.F90' -o lkf -llikwid", dir);
	sh_build(script, "/usr/include/likwid.mod", "likwid");
	fortran_regions(dir, "lkf", true);
	e2e_rmtree(dir);
	free(dir);
}

/* PAPI's serial_hl.F calls PAPIf_hl_region_begin: papif_hl_region_begin_ */
Test(compat_programs, fortran_papi_hl_is_detected, .timeout = 120)
{
	char *dir = e2e_tmpdir(), script[2048];

	e2e_need(E2E_RLPROF);
	need_gfortran();
	snprintf(script, sizeof script,
		 "cd '%s' && gfortran -I/usr/include '" CP_SRC
		 "papihl_f.F' -o phf -lpapi", dir);
	sh_build(script, "/usr/include/fpapi.h", "libpapi-dev");
	fortran_regions(dir, "phf", false);
	e2e_rmtree(dir);
	free(dir);
}

/* Builds CP_SRC src with LIKWID's header into dir/app and runs it under
 * `rlprof run -b sim` on 2 OpenMP threads (skips where the sim backend or
 * LIKWID is missing); the run's output in r, report.csv returned. */
static char *likwid_sim_run(const char *dir, const char *src, const char *app,
			    struct e2e_result *r)
{
	char script[2048], out[512], path[512];
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", "sim",
			      "--sim-caches", "48K:12,1M:8,4M:16", "-o", out,
			      path, NULL};
	const char *env[] = {"OMP_NUM_THREADS=2", NULL};

#ifdef RL_TEST_SANITIZED
	cr_skip_test("Valgrind cannot run a sanitized program");
#endif
	e2e_need(E2E_RLPROF);
	if (access("/usr/bin/valgrind", X_OK) != 0)
		cr_skip_test("valgrind is not installed (the sim backend)");
	snprintf(script, sizeof script,
		 "cc -O1 -DLIKWID_PERFMON -fopenmp '" CP_SRC "%s' "
		 "-o '%s/%s' -llikwid", src, dir, app);
	sh_build(script, "/usr/include/likwid-marker.h", "likwid");
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(path, sizeof path, "%s/%s", dir, app);
	*r = e2e_run_in(NULL, argv, env);
	if (r->status != 0 && strstr(r->err, "sim"))
		cr_skip_test("the sim backend does not run here: %s", r->err);
	cr_assert_eq(r->status, 0, "%s", r->err);
	return e2e_file(dir, "out/report.csv");
}

/* Like LIKWID's C-markerAPI.c: regions that only sleep, on 2 threads,
 * counted by the simulator: 0 flops (the shim reads its clock inside the
 * region and does its arithmetic outside), and LIKWID_MARKER_GET still
 * gives each thread its count and time. */
Test(compat_programs, likwid_sleeping_regions_count_no_flops, .timeout = 240)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	char *csv = likwid_sim_run(dir, "likwid_sleep.c", "lks", &r);

	cr_expect_not_null(strstr(r.out, "thread 0: count=2 time_ok=1\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "thread 1: count=2 time_ok=1\n"), "%s", r.out);
	e2e_free(&r);
	cr_expect_eq(csv_num(csv, "example", 2), 4, "calls: %s", csv);
	cr_expect_eq(csv_num(csv, "example", 4), 0, "flops: %s", csv);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

/* Issue 40: LIKWID regions nested three deep, 1000 empty ones innermost,
 * on 2 threads, under the simulated PMU: 0 flops in every one of them,
 * the parents included (the shim's bookkeeping at each STOP once counted
 * 3 flops in every enclosing region: 3000 in 'mid' and 'outer' a thread). */
Test(compat_programs, likwid_nested_empty_regions_count_no_flops,
     .timeout = 240)
{
	static const char *const regions[] = {"outer", "mid", "inner"};
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	char *csv = likwid_sim_run(dir, "likwid_nested.c", "lkn", &r);

	cr_expect_not_null(strstr(r.out, "thread 0: count=1000 time_ok=1\n"),
			   "%s", r.out);
	cr_expect_not_null(strstr(r.out, "thread 1: count=1000 time_ok=1\n"),
			   "%s", r.out);
	e2e_free(&r);
	cr_expect_eq(csv_num(csv, "inner", 2), 2000, "calls: %s", csv);
	cr_expect_eq(csv_num(csv, "outer", 2), 2, "calls: %s", csv);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(csv_num(csv, regions[i], 4), 0, "%s flops: %s",
			     regions[i], csv);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

/* Issue 40: LIKWID-marker code built where LIKWID is not installed:
 * rlprof's likwid-marker.h (include/rlprof/likwid) and -lrlprof-likwid,
 * no liblikwid; its regions are rlprof's. */
Test(compat_programs, likwid_marker_code_builds_without_likwid,
     .timeout = 120)
{
	char *dir = e2e_tmpdir(), script[2048], path[512], err[256];
	struct rl_elf_imports im;
	struct e2e_result r;
	char *csv;

	e2e_need(E2E_RLPROF);
	if (access(RL_BUILD_DIR "/include/rlprof/likwid/likwid-marker.h",
		   R_OK) != 0)
		cr_skip_test("rlprof's likwid-marker.h is not built: make all");
	snprintf(script, sizeof script,
		 "cd '%s' && cc -O1 -DLIKWID_PERFMON -fopenmp -I'" RL_BUILD_DIR
		 "/include/rlprof/likwid' '" CP_SRC "likwid_nested.c' -o lkr "
		 "-L'" RL_BUILD_DIR "/lib' -lrlprof-likwid -Wl,-rpath,'"
		 RL_BUILD_DIR "/lib'", dir);
	sh_build(script, NULL, NULL);
	snprintf(path, sizeof path, "%s/lkr", dir);
	cr_assert_eq(rl_elf_imports(path, &im, err, sizeof err), 0, "%s", err);
	cr_expect(im.likwid_marker, "it calls the marker functions");
	r = run_time(dir, "lkr", "out");
	cr_assert_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.out, "thread 0: count=1000 time_ok=1\n"),
			   "%s", r.out);
	cr_expect_not_null(strstr(r.err, "calls LIKWID's marker API"), "%s",
			   r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "inner"), "%s", csv);
	cr_expect_not_null(e2e_csv_row(csv, "outer"), "%s", csv);
	cr_expect_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}

/* PAPI linked from its archive, as PAPI's own examples link it: the
 * program holds PAPI_hl_region_begin itself, no shim can replace it, and
 * the run says so plainly (and profiles it as '<program>'). */
Test(compat_programs, papi_from_its_archive_is_said, .timeout = 120)
{
	char *dir = e2e_tmpdir(), script[2048], path[512], err[256];
	struct rl_elf_imports im;
	struct e2e_result r;
	char *csv;

	e2e_need(E2E_RLPROF);
	if (access("/usr/lib/x86_64-linux-gnu/libpapi.a", R_OK) != 0)
		cr_skip_test("libpapi.a is missing: install libpapi-dev");
	snprintf(script, sizeof script,
		 "cc -O1 '" CP_SRC "papihl_app.c' -o '%s/phs' "
		 "/usr/lib/x86_64-linux-gnu/libpapi.a -lpfm -lpthread -ldl",
		 dir);
	sh_build(script, "/usr/include/papi.h", "libpapi-dev");
	snprintf(path, sizeof path, "%s/phs", dir);
	cr_assert_eq(rl_elf_imports(path, &im, err, sizeof err), 0, "%s", err);
	cr_expect(im.papi_hl_inside && !im.papi_hl);
	r = run_time(dir, "phs", "out");
	cr_expect_eq(r.status, 0, "status %d: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, "'phs' holds PAPI's high-level API "
					 "itself (libpapi.a linked in), so "
					 "rlprof cannot intercept its regions"),
			   "%s", r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);
	{
		const char *argv[] = {E2E_RLPROF, "inspect", path, NULL};
		r = e2e_run(argv);
		cr_expect_not_null(strstr(r.out, "holds PAPI's high-level API "
						 "itself (linked from its "
						 "archive)"),
				   "%s", r.out);
		e2e_free(&r);
	}
	e2e_rmtree(dir);
	free(dir);
}
