/*
 * Counting never waits on a probe (issue 23): `rlprof run -b sim` with no
 * machine model and a probe that cannot run (RLPROF_TEST_PROBE_FAIL, a
 * test hook of profiler/cli/run/run_model.c) simulates the caches the machine
 * claims, counts exactly, writes the whole report with its roofs marked
 * not measured and why, and exits with the program's status; the same
 * under mpirun in both forms, where the node is probed once
 * (RLPROF_TEST_PROBE_LOG records each probe's start and end).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/run.h"
#include "tests/lib/sim.h"

#define MPI_APP RL_BUILD_DIR "/tests/mpi/mpi_triad"
#define TRIAD_FLOPS (2.0 * 262144) /* sim_attrib triad: 2 MiB arrays */

struct env {
	char cache[600], log[600], fail[40];
	const char *v[8];
};

/* An empty model cache in dir, the probe log, the failing probe when
 * fail; ASan quiet about Open MPI's leaks. */
static void make_env(struct env *e, const char *dir, bool fail)
{
	size_t n = 0;

	snprintf(e->cache, sizeof e->cache, "XDG_CACHE_HOME=%s/cache", dir);
	snprintf(e->log, sizeof e->log, "RLPROF_TEST_PROBE_LOG=%s/probes.log",
		 dir);
	snprintf(e->fail, sizeof e->fail, "RLPROF_TEST_PROBE_FAIL=1");
	e->v[n++] = e->cache;
	e->v[n++] = e->log;
	if (fail)
		e->v[n++] = e->fail;
	e->v[n++] = "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0";
	e->v[n++] = "OMPI_MCA_btl_vader_single_copy_mechanism=none";
	e->v[n++] = "RLPROF_MPI_WAIT=60";
	e->v[n] = NULL;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; p && (p = strstr(p, needle));
	     p += strlen(needle))
		n++;
	return n;
}

/* The probes of the log: how many, and none overlapping another. */
static int probes_run(const char *dir)
{
	char path[600], what[8];
	long pid;
	long long ns, last_end = -1, open_start = -1;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/probes.log", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fscanf(f, "%7s %ld %lld", what, &pid, &ns) == 3) {
		if (strcmp(what, "start") == 0) {
			cr_assert_eq(open_start, -1, "two probes at once "
				     "(pid %ld started inside another)", pid);
			cr_assert_geq(ns, last_end);
			open_start = ns;
			n++;
		} else {
			open_start = -1;
			last_end = ns;
		}
	}
	fclose(f);
	return n;
}

static json_t *report(const char *out)
{
	char path[700];
	json_error_t je;
	json_t *j;

	snprintf(path, sizeof path, "%s/report.json", out);
	j = json_load_file(path, 0, &je);
	cr_assert_not_null(j, "'%s': %s", path, je.text);
	return j;
}

/* report.json has the "roofs" warning, naming why */
static void check_roofs_warning(json_t *rep, const char *why)
{
	json_t *w, *e;
	size_t i;
	bool said = false;

	cr_assert(json_is_null(json_object_get(rep, "machine")),
		  "a machine model in a run that has none");
	w = json_object_get(rep, "warnings");
	json_array_foreach (w, i, e) {
		const char *m = json_string_value(json_object_get(e, "message"));
		said |= m && strstr(m, "roofs not measured: ") &&
			strstr(m, why) && strstr(m, "rlprof probe");
	}
	cr_assert(said, "no warning says the roofs were not measured (%s)",
		  why);
}

static double region_flops(json_t *rep, const char *name)
{
	json_t *rows = json_object_get(rep, "regions"), *e;
	size_t i;

	json_array_foreach (rows, i, e)
		if (strcmp(json_string_value(json_object_get(e, "region")),
			   name) == 0) {
			json_t *f = json_object_get(e, "flops");
			cr_assert(json_is_number(f), "'%s' has no flops", name);
			return json_number_value(f);
		}
	cr_assert_fail("no region '%s' in report.json", name);
	return 0;
}

Test(e2e_nomodel, sim_counts_when_the_probe_cannot_run, .timeout = 120)
{
	sim_need();
	char *dir = e2e_tmpdir(), out[600];
	struct env env;
	make_env(&env, dir, true);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-b", "sim", "-o", out,
			      E2E_PROG("sim_attrib"), "triad", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);
	json_t *rep;
	char *note;

	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_null(strstr(r.err, "no cache geometry"), "%s", r.err);
	cr_assert(strstr(r.err, "simulated caches as this machine claims "
				"them, unmeasured (no usable machine model: "
				"no machine model in '"), "%s", r.err);
	/* one probe, after the program, for the report's roofs */
	cr_assert_eq(probes_run(dir), 1);
	cr_assert_eq(count(r.err, "roofs not measured"), 1, "%s", r.err);
	rep = report(out);
	check_roofs_warning(rep, "the probe was made to fail");
	cr_assert_eq(region_flops(rep, "triad"), TRIAD_FLOPS);
	note = strdup(json_string_value(json_object_get(rep, "backend_note"))
			      ?: "");
	cr_assert(note && strstr(note, "cache geometry from what this "
				 "machine claims") &&
		  strstr(note, "L1 "), "%s", note);
	free(note);
	json_decref(rep);
	/* every report file */
	free(e2e_file(out, "report.html"));
	free(e2e_file(out, "roofline.svg"));
	free(e2e_file(out, "report.csv"));
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* --no-probe with an empty cache: nothing is probed, the claims serve. */
Test(e2e_nomodel, sim_no_probe_no_model_uses_the_claims, .timeout = 120)
{
	sim_need();
	char *dir = e2e_tmpdir(), out[600];
	struct env env;
	make_env(&env, dir, false);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "sim", "-o", out, E2E_PROG("sim_attrib"), "triad",
			      NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);
	json_t *rep;

	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_eq(probes_run(dir), 0);
	rep = report(out);
	check_roofs_warning(rep, "(--no-probe)");
	cr_assert_eq(region_flops(rep, "triad"), TRIAD_FLOPS);
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* The program's own status, the report written all the same. */
Test(e2e_nomodel, program_status_kept_without_roofs, .timeout = 120)
{
	sim_need();
	char *dir = e2e_tmpdir(), out[600];
	struct env env;
	make_env(&env, dir, true);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-b", "sim", "-o", out,
			      E2E_PROG("e2e_exit"), "3", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);
	json_t *rep;

	cr_assert_eq(r.status, 3, "status %d\n%s", r.status, r.err);
	rep = report(out);
	check_roofs_warning(rep, "the probe was made to fail");
	json_decref(rep);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* A model file that does not parse: not overwritten, not probed over;
 * the run still counts and reports. */
Test(e2e_nomodel, corrupt_model_still_reports, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600], model[600], env_model[640];
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(model, sizeof model, "%s/model.json", dir);
	snprintf(env_model, sizeof env_model, "RLPROF_MACHINE=%s", model);
	e2e_put_file(model, "{not json", 0644);
	const char *env[] = {env_model, NULL};
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "time", "-o", out,
			      E2E_PROG("e2e_regions"), NULL};
	e2e_need(E2E_RLPROF);
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	json_t *rep;
	char *kept;

	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	rep = report(out);
	check_roofs_warning(rep, "cannot parse");
	json_decref(rep);
	kept = e2e_file(dir, "model.json");
	cr_assert_str_eq(kept, "{not json");
	free(kept);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* ---- under mpirun ---------------------------------------------------- */

static const char *mpirun;

static void need_mpi(void)
{
	mpirun = e2e_need_mpirun(MPI_APP);
	sim_need();
}

/* mpi_triad N: rank r does 2 (r + 1) N flops in region triad */
static void check_mpi(const struct e2e_result *r, const char *out,
		      const char *why)
{
	json_t *rep = report(out), *mpi = json_object_get(rep, "mpi");

	cr_assert_eq(r->status, 0, "status %d\n%s\n%s", r->status, r->out,
		     r->err);
	cr_assert_null(strstr(r->err, "no cache geometry"), "%s", r->err);
	cr_assert_eq(json_integer_value(json_object_get(mpi, "present")), 2,
		     "%s", r->err);
	cr_assert_eq(region_flops(rep, "triad"), 6.0 * 20000);
	if (why)
		check_roofs_warning(rep, why);
	json_decref(rep);
}

Test(e2e_nomodel, mpi_rank_form_probe_fails_once, .timeout = 300)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[600];
	struct env env;
	make_env(&env, dir, true);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {mpirun, "-np", "2", "--oversubscribe",
			      "--allow-run-as-root", "--bind-to", "core",
			      E2E_RLPROF, "run", "-b", "sim", "-o", out,
			      MPI_APP, "20000", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);

	check_mpi(&r, out, "the probe was made to fail");
	/* rank 0, after the job, for the report: never a rank before its
	 * program */
	cr_assert_eq(probes_run(dir), 1);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(e2e_nomodel, mpi_launcher_form_probe_fails_once, .timeout = 300)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[600];
	struct env env;
	make_env(&env, dir, true);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-b", "sim", "-o", out, "--",
			      mpirun, "-np", "2", "--oversubscribe",
			      "--allow-run-as-root", MPI_APP, "20000", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);

	check_mpi(&r, out, "the probe was made to fail");
	/* the launcher, after the job; its ranks never probe */
	cr_assert_eq(probes_run(dir), 1);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* A real probe with an empty cache: once for the node, whatever the
 * ranks' binding, and the model cached is the node's. */
Test(e2e_nomodel, mpi_rank_form_empty_cache_one_probe, .timeout = 300)
{
	need_mpi();
	char *dir = e2e_tmpdir(), out[600], want[64], models[700];
	struct env env;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	make_env(&env, dir, false);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {mpirun, "-np", "2", "--oversubscribe",
			      "--allow-run-as-root", "--bind-to", "core",
			      E2E_RLPROF, "run", "-b", "sim", "-o", out,
			      MPI_APP, "20000", NULL};
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);
	struct dirent *de;
	DIR *d;

	check_mpi(&r, out, NULL);
	cr_assert_eq(probes_run(dir), 1);
	snprintf(models, sizeof models, "%s/cache/rlprof", dir);
	snprintf(want, sizeof want, "-%ldcpu-", ncpu);
	if ((d = opendir(models))) {
		while ((de = readdir(d)))
			if (strncmp(de->d_name, "machine-", 8) == 0 &&
			    !strstr(de->d_name, ".lock"))
				cr_assert(strstr(de->d_name, want),
					  "'%s' is not the node's %ld-CPU "
					  "model", de->d_name, ncpu);
		closedir(d);
	}
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* ---- the DRAM triad around the timing run ---------------------------- */

/* A model with one DRAM roof of gbs GB/s on every CPU, measured at ws
 * bytes, no cache levels; RLPROF_MACHINE points at it. */
/* A model of one DRAM roof (gbs) and one ceiling; with ghz > 0, the
 * clock its ceilings were measured at. */
static void fake_model(const char *path, double gbs, long ws, double ghz)
{
	char text[2048], clock[64] = "";
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ghz > 0)
		snprintf(clock, sizeof clock, "\"clock_ghz\": %g, ", ghz);
	snprintf(text, sizeof text,
		 "{\"format\": \"rlprof-machine\", \"version\": 2, "
		 "\"cpu_model\": \"test\", \"isa\": \"sse2\", \"cores\": %ld, "
		 "\"mem_bytes\": 1073741824, \"probed_at\": "
		 "\"2026-01-01T00:00:00Z\", \"quick\": false, %s"
		 "\"bandwidth\": [{\"level\": \"DRAM\", \"threads\": %ld, "
		 "\"stream_gbs\": %g, \"moved_gbs\": %g, "
		 "\"working_set_bytes\": %ld, \"method\": \"test\"}], "
		 "\"compute\": [{\"name\": \"scalar\", \"kind\": \"peak\", "
		 "\"precision\": \"f64\", \"threads\": %ld, \"gflops\": 1.0, "
		 "\"method\": \"test\"}], \"levels\": []}",
		 ncpu, clock, ncpu, gbs, gbs * 4 / 3, ws, ncpu);
	e2e_put_file(path, text, 0644);
}

static json_t *run_with_model(const char *dir, double gbs, long ws,
			      double ghz, struct e2e_result *r)
{
	char out[600], model[600], env_model[640], path[700];
	json_t *rec;

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(model, sizeof model, "%s/model.json", dir);
	snprintf(env_model, sizeof env_model, "RLPROF_MACHINE=%s", model);
	fake_model(model, gbs, ws, ghz);
	const char *env[] = {env_model, NULL};
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "time", "-o", out,
			      E2E_PROG("e2e_regions"), NULL};
	e2e_need(E2E_RLPROF);
	*r = e2e_run_in(NULL, argv, env);
	cr_assert_eq(r->status, 0, "status %d\n%s", r->status, r->err);
	snprintf(path, sizeof path, "%s/run.json", out);
	rec = json_load_file(path, 0, NULL);
	cr_assert_not_null(rec, "no run.json");
	return rec;
}

/* run.json's roof_check, an object. */
static const json_t *roof_check_of(const json_t *rec)
{
	const json_t *chk = json_object_get(rec, "roof_check");
	cr_assert(json_is_object(chk), "run.json has no roof_check");
	return chk;
}

/* report.json of DIR/out has a warning of this kind; then the run's
 * files go. */
static void expect_report_warning(char *dir, const char *kind, json_t *rec,
				  struct e2e_result *r)
{
	char out[600], quoted[64];
	json_t *rep;

	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(quoted, sizeof quoted, "\"%s\"", kind);
	rep = report(out);
	char *w = json_dumps(json_object_get(rep, "warnings"), 0);
	cr_assert(w && strstr(w, quoted), "%s", w);
	free(w);
	json_decref(rep);
	json_decref(rec);
	e2e_free(r);
	e2e_rmtree(dir);
	free(dir);
}

/* A roof far below what the machine moves: stale, said by the run and in
 * report.json, with the figures. */
Test(e2e_nomodel, stale_dram_roof_is_said, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *rec = run_with_model(dir, 0.2, 4L << 20, 0, &r);
	const json_t *chk = roof_check_of(rec);
	if (!json_is_true(json_object_get(chk, "taken")))
		cr_skip_test("the triad could not be taken here: %s",
			     json_string_value(json_object_get(chk, "why_not")));
	cr_assert_eq(json_number_value(json_object_get(chk, "roof_gbs")), 0.2);
	/* a model without a clock: none read, none said */
	cr_assert(json_is_null(json_object_get(chk, "before_ghz")));
	cr_assert(json_is_null(json_object_get(chk, "after_ghz")));
	cr_assert_null(strstr(r.err, "clock"), "%s", r.err);
	cr_assert_leq(json_number_value(json_object_get(chk, "seconds")), 2.0);
	cr_assert(strstr(r.err, "warning: the DRAM roof is stale: a DRAM "
			 "triad on ") && strstr(r.err, "above the machine "
			 "model's 0.2 GB/s") && strstr(r.err, "rlprof probe "
			 "--force"), "%s", r.err);
	expect_report_warning(dir, "stale-roof", rec, &r);
}

/* A model whose ceilings were measured at a clock far below any core's
 * (0.1 GHz): the clock read around the run is in run.json on both sides,
 * and the run and report.json say the ceilings were measured at another
 * clock, by how much, and what to do. */
Test(e2e_nomodel, a_clock_off_the_models_is_said, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	struct e2e_result r;
	json_t *rec = run_with_model(dir, 1e6, 4L << 20, 0.1, &r);
	const json_t *chk = roof_check_of(rec);
	for (int i = 0; i < 2; i++) {
		const char *key = i ? "after_ghz" : "before_ghz";
		double ghz = json_number_value(json_object_get(chk, key));
		/* a clock, not a time: any core's lies in here */
		cr_assert(ghz > 0.2 && ghz < 20, "%s %g", key, ghz);
	}
	cr_assert(strstr(r.err, "warning: the core's clock around the timing "
			 "run read ") &&
			  strstr(r.err, "above the 0.10 GHz the machine "
				 "model's compute ceilings were measured at") &&
			  strstr(r.err, "rlprof probe --force"),
		  "%s", r.err);
	expect_report_warning(dir, "clock-moved", rec, &r);
}

/* --no-probe: no triad either, and run.json says so. */
Test(e2e_nomodel, no_probe_takes_no_triad, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600], path[700];
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, E2E_PROG("e2e_regions"), NULL};
	e2e_need(E2E_RLPROF);
	struct e2e_result r = e2e_run(argv);
	json_t *rec, *chk;

	cr_assert_eq(r.status, 0, "%s", r.err);
	snprintf(path, sizeof path, "%s/run.json", out);
	rec = json_load_file(path, 0, NULL);
	cr_assert_not_null(rec);
	chk = json_object_get(rec, "roof_check");
	cr_assert(json_is_false(json_object_get(chk, "taken")));
	cr_assert_str_eq(json_string_value(json_object_get(chk, "why_not")),
			 "not taken (--no-probe)");
	cr_assert(json_is_null(json_object_get(chk, "before_ghz")));
	json_decref(rec);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}
