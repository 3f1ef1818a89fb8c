/* make install's tree: a user program built with pkg-config runs under the
 * installed rlprof and shows its regions. */
#include "tests/lib/run.h"

Test(e2e_install, pkg_config_program_runs_under_installed_rlprof,
     .timeout = 120)
{
	char *dir = e2e_tmpdir();
	char prefix[512], app[512], out[512], pcpath[600], script[2048];
	char rlprof[600], pcenv[700];
	const char *install[] = {RL_SOURCE_DIR "/scripts/install-tree",
				 RL_BUILD_DIR, prefix, NULL};
	const char *build[] = {"/bin/sh", "-c", script, NULL};
	const char *run[] = {rlprof, "run", "-q", "--no-probe", "-b", "time",
			     "-o", out, app, NULL};
	const char *env[] = {pcenv, NULL};
	struct e2e_result r;
	char *csv;

	e2e_need(E2E_RLPROF);
	if (access("/usr/bin/pkg-config", X_OK) != 0)
		cr_skip_test("pkg-config is not installed");
	snprintf(prefix, sizeof prefix, "%s/prefix", dir);
	snprintf(app, sizeof app, "%s/app", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(rlprof, sizeof rlprof, "%s/bin/rlprof", prefix);
	snprintf(pcpath, sizeof pcpath, "%s/lib/pkgconfig", prefix);
	snprintf(pcenv, sizeof pcenv, "PKG_CONFIG_PATH=%s", pcpath);

	r = e2e_run(install);
	cr_assert_eq(r.status, 0, "install-tree failed: %s", r.err);
	e2e_free(&r);
	cr_assert_eq(access(rlprof, X_OK), 0, "no bin/rlprof installed");
	snprintf(script, sizeof script,
		 "cc" SAN_FLAGS " '" RL_SOURCE_DIR
		 "/tests/programs/e2e_regions.c' -o '%s' "
		 "$(pkg-config --cflags --libs rlprof)",
		 app);
	r = e2e_run_in(NULL, build, env);
	cr_assert_eq(r.status, 0, "build with pkg-config failed: %s", r.err);
	e2e_free(&r);

	r = e2e_run(run);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	csv = e2e_file(dir, "out/report.csv");
	cr_expect_not_null(e2e_csv_row(csv, "alpha"), "csv: %s", csv);
	cr_expect_not_null(e2e_csv_row(csv, "dyn-1"), "csv: %s", csv);
	free(csv);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_install, pc_file_has_prefix_and_rpath, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	char prefix[512];
	const char *install[] = {RL_SOURCE_DIR "/scripts/install-tree",
				 RL_BUILD_DIR, prefix, "/opt/rlprof", NULL};
	struct e2e_result r;
	char *pc;

	e2e_need(E2E_RLPROF);
	snprintf(prefix, sizeof prefix, "%s/stage/opt/rlprof", dir);
	r = e2e_run(install);
	cr_assert_eq(r.status, 0, "install-tree failed: %s", r.err);
	e2e_free(&r);
	snprintf(prefix, sizeof prefix, "stage/opt/rlprof/lib/pkgconfig/rlprof.pc");
	pc = e2e_file(dir, prefix);
	cr_expect(strstr(pc, "prefix=/opt/rlprof\n") != NULL, "%s", pc);
	cr_expect(strstr(pc, "Libs: -L${libdir} -lrlprof -Wl,-rpath,${libdir}") != NULL,
		  "%s", pc);
	cr_expect(strstr(pc, "Cflags: -I${includedir}") != NULL, "%s", pc);
	free(pc);
	free(e2e_file(dir, "stage/opt/rlprof/include/rlprof.h"));
	e2e_rmtree(dir);
	free(dir);
}
