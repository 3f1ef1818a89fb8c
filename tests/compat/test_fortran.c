/* Fortran: the module rlprof, installed by install-tree with its .mod file
 * and rlprof-fortran.pc, builds a gfortran program with
 * `gfortran app.f90 $(pkg-config --cflags --libs rlprof-fortran)`, and
 * `rlprof run` reports its regions (tests/programs/fortran/f_regions.f90). */
#include "tests/lib/run.h"

/* The value of CSV column col (0-based) of line row, into buf. */
static const char *csv_col(const char *row, int col, char *buf, size_t len)
{
	size_t n;

	for (int i = 0; row && i < col; i++)
		row = strchr(row, ',') ? strchr(row, ',') + 1 : NULL;
	if (!row)
		return "";
	n = strcspn(row, ",\n");
	snprintf(buf, len, "%.*s", (int)n, row);
	return buf;
}

Test(fortran, module_by_pkg_config_reports_regions, .timeout = 180)
{
	char *dir = e2e_tmpdir();
	char prefix[512], app[512], out[512], script[2048], rlprof[600];
	char pcenv[700], col[64];
	const char *install[] = {RL_SOURCE_DIR "/scripts/install-tree",
				 RL_BUILD_DIR, prefix, NULL};
	const char *build[] = {"/bin/sh", "-c", script, NULL};
	const char *run[] = {rlprof, "run", "-q", "--no-probe", "-b", "time",
			     "-o", out, app, NULL};
	const char *env[] = {pcenv, NULL};
	struct e2e_result r;
	const char *row;
	char *csv;

	e2e_need(E2E_RLPROF);
	if (access("/usr/bin/gfortran", X_OK) != 0)
		cr_skip_test("gfortran is not installed: run scripts/install-deps");
	if (access(RL_BUILD_DIR "/lib/librlprof_fortran.a", R_OK) != 0)
		cr_skip_test("the Fortran module was not built (make with "
			     "gfortran installed)");
	if (access("/usr/bin/pkg-config", X_OK) != 0)
		cr_skip_test("pkg-config is not installed");
	snprintf(prefix, sizeof prefix, "%s/prefix", dir);
	snprintf(app, sizeof app, "%s/f_regions", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(rlprof, sizeof rlprof, "%s/bin/rlprof", prefix);
	snprintf(pcenv, sizeof pcenv, "PKG_CONFIG_PATH=%s/lib/pkgconfig",
		 prefix);

	r = e2e_run(install);
	cr_assert_eq(r.status, 0, "install-tree failed: %s", r.err);
	e2e_free(&r);
	snprintf(script, sizeof script, "%s/include/rlprof/fortran/rlprof.mod",
		 prefix);
	cr_assert_eq(access(script, R_OK), 0, "no rlprof.mod installed");
	snprintf(script, sizeof script,
		 "cd '%s' && gfortran -Wall" SAN_FLAGS " '" RL_SOURCE_DIR
		 "/tests/programs/fortran/f_regions.f90' -o '%s' "
		 "$(pkg-config --cflags --libs rlprof-fortran)",
		 dir, app);
	r = e2e_run_in(NULL, build, env);
	cr_assert_eq(r.status, 0, "build with pkg-config failed: %s", r.err);
	e2e_free(&r);

	r = e2e_run(run);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	e2e_free(&r);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "f_outer"), "csv: %s", csv);
	row = e2e_csv_row(csv, "f_triad");
	cr_assert_not_null(row, "csv: %s", csv);
	cr_expect_str_eq(csv_col(row, 2, col, sizeof col), "3", "calls: %s", row);
	cr_expect_eq(strtod(csv_col(row, 8, col, sizeof col), NULL), 600000.0,
		     "declared flops: %s", row);
	cr_expect_eq(strtod(csv_col(row, 9, col, sizeof col), NULL), 7.2e6,
		     "declared bytes: %s", row);
	/* the blank-padded name is trimmed; the integer expect counts */
	row = e2e_csv_row(csv, "f_padded");
	cr_assert_not_null(row, "trailing blanks not trimmed: %s", csv);
	cr_expect_eq(strtod(csv_col(row, 8, col, sizeof col), NULL), 100000.0,
		     "%s", row);
	cr_expect_null(strstr(csv, "f_padded "), "%s", csv);
	/* it imports rl_region_begin: its own regions, no '<program>' */
	cr_expect_null(e2e_csv_row(csv, "<program>"), "%s", csv);
	free(csv);
	e2e_rmtree(dir);
	free(dir);
}
