/*
 * The roofs paired with the timing runs (issue 38), end to end: rlprof
 * run samples the DRAM roofs before, between and after its timing runs
 * and records every sample in run.json; rlprof report places the regions
 * against the samples it finds there (fabricated here, so the figures are
 * known) and says so in the method line; a short program is timed 5
 * times unless --repeat says otherwise. No time is asserted.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/report.h"
#include "tests/lib/run.h"

#define KERNELS RL_BUILD_DIR "/bin/rlprof-kernels"

static json_t *run_record(const char *out)
{
	char path[700];
	json_t *rec;

	snprintf(path, sizeof path, "%s/run.json", out);
	rec = json_load_file(path, 0, NULL);
	cr_assert_not_null(rec, "no %s", path);
	return rec;
}

/* --repeat 3 with the cached (fixture) model: 4 sample points, before the
 * first run and after each; every sample kept, with the run it came
 * after, its operation and thread count. */
Test(e2e_paired, samples_around_the_repetitions, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600];
	json_t *rec, *paired, *s, *rep;
	size_t i;
	int after[4] = {0}, medians = 0;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "time",
			      "--repeat", "3", "-o", out,
			      E2E_PROG("e2e_plain"), NULL};
	struct e2e_result r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	rec = run_record(out);
	paired = json_object_get(json_object_get(rec, "roof_check"), "paired");
	if (!json_is_object(paired))
		cr_skip_test("no paired sample fit in its time here (a busy "
			     "machine): %s", r.err);
	cr_assert_eq(json_integer_value(json_object_get(paired, "points")), 4);
	cr_assert(json_number_value(json_object_get(paired, "seconds")) > 0);
	json_array_foreach (json_object_get(paired, "samples"), i, s) {
		json_int_t k = json_integer_value(json_object_get(s, "after_run"));
		const char *op = json_string_value(json_object_get(s, "op"));
		cr_assert(k >= 0 && k <= 3, "after_run %lld", (long long)k);
		after[k] = 1;
		cr_assert(op && (!strcmp(op, "triad") || !strcmp(op, "read")));
		cr_assert_str_eq(json_string_value(json_object_get(s, "level")),
				 "DRAM");
		cr_assert(json_integer_value(json_object_get(s, "threads")) >= 1);
		cr_assert(json_number_value(json_object_get(s, "gbs")) > 0);
		if (!strcmp(op, "read"))
			cr_assert(json_integer_value(
					  json_object_get(s, "streams")) >= 1);
	}
	/* samples from around more than one run: between the repetitions;
	 * where all came from one point, every other point says it got
	 * none (on a busy machine a point's passes can all run over their
	 * time) */
	cr_assert(after[0] + after[1] + after[2] + after[3] >= 2 ||
			  json_integer_value(json_object_get(
				  paired, "points_without_samples")) >= 3,
		  "all samples from one point, and the others say nothing of "
		  "why: %s", json_dumps(paired, JSON_COMPACT));
	json_decref(rec);
	/* each region's figure is the median of its 3 runs, the profiling
	 * run's time kept as the first */
	rep = rl_test_json_report(out);
	json_array_foreach (json_object_get(rep, "regions"), i, s) {
		json_t *rp = json_object_get(s, "repeat"), *ts;
		double t = json_number_value(json_object_get(s, "time_s")), v[3];
		if (!rp)
			continue;
		ts = json_object_get(rp, "times_s");
		cr_assert_eq(json_array_size(ts), 3);
		for (size_t k = 0; k < 3; k++)
			v[k] = json_number_value(json_array_get(ts, k));
		/* the middle one of three */
		double med = v[0] + v[1] + v[2] - fmax(v[0], fmax(v[1], v[2])) -
			     fmin(v[0], fmin(v[1], v[2]));
		cr_assert_float_eq(t, med, 1e-6 * med, "time_s %g, runs %g %g %g",
				   t, v[0], v[1], v[2]);
		cr_assert_float_eq(json_number_value(json_object_get(
					   rp, "time_median_s")),
				   t, 1e-6 * t);
		medians++;
	}
	cr_assert(medians > 0, "no region has its runs in report.json");
	json_decref(rep);
	e2e_cleanup(&r, dir);
}

/* Without --repeat a short program is timed 5 times (said on stderr);
 * --repeat 1 times it once. */
Test(e2e_paired, a_short_program_is_timed_five_times, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600], rep[700];

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", "time",
			      "-o", out, E2E_PROG("e2e_plain"), NULL};
	struct e2e_result r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "timing runs 2..5 (native, backend time, a "
				"short program: --repeat 1 for one)"),
		  "%s", r.err);
	snprintf(rep, sizeof rep, "%s/repeat/5", out);
	cr_assert_eq(access(rep, F_OK), 0, "no %s", rep);
	snprintf(rep, sizeof rep, "%s/repeat/6", out);
	cr_assert_neq(access(rep, F_OK), 0, "%s", rep);
	e2e_free(&r);

	const char *once[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "--repeat", "1", "-o", out,
			      E2E_PROG("e2e_plain"), NULL};
	r = e2e_run(once);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(e2e_count_entries(out, "repeat", 0), 0);
	e2e_cleanup(&r, dir);
}

/* rlprof report with run.json's paired samples (fabricated: 100 and 110
 * GB/s of the triad on 1 thread): the declared triad is placed against
 * 110 GB/s, and the method line says the DRAM roof was paired and the
 * model's figure. */
Test(e2e_paired, the_report_places_against_the_samples, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600], path[700];
	json_t *rec, *rc, *a, *doc, *row;
	const char *method;

	e2e_need(E2E_RLPROF);
	e2e_need(KERNELS);
	snprintf(out, sizeof out, "%s/out", dir);
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "--repeat", "1", "-o", out, KERNELS,
			      "--kernels", "triad", "--size", "64K",
			      "--repeat", "1", NULL};
	struct e2e_result r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	rec = run_record(out);
	rc = json_pack("{s:b, s:s}", "taken", 0, "why_not", "fabricated");
	a = json_array();
	for (int k = 0; k < 2; k++)
		json_array_append_new(
			a, json_pack("{s:s, s:s, s:i, s:i, s:f}", "level",
				     "DRAM", "op", "triad", "threads", 1,
				     "after_run", k, "gbs", k ? 110.0 : 100.0));
	json_object_set_new(rc, "paired",
			    json_pack("{s:o, s:i, s:i, s:f}", "samples", a,
				      "points", 2, "timing_runs", 1,
				      "seconds", 0.1));
	json_object_set_new(rec, "roof_check", rc);
	snprintf(path, sizeof path, "%s/run.json", out);
	cr_assert_eq(json_dump_file(rec, path, 0), 0);
	json_decref(rec);

	const char *report[] = {E2E_RLPROF, "report", "-f", "json", out, NULL};
	r = e2e_run(report);
	cr_assert_eq(r.status, 0, "%s", r.err);
	doc = json_loads(r.out, 0, NULL);
	cr_assert_not_null(doc, "%s", r.out);
	row = json_array_get(json_object_get(doc, "regions"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(row, "region")),
			 "triad");
	method = json_string_value(json_object_get(row, "method"));
	cr_assert_float_eq(json_number_value(json_object_get(row, "roof_gbs")),
			   110.0, 1e-9, "%s", r.out);
	cr_assert(method && strstr(method, "DRAM roof paired: 2 samples around "
					   "the 1 timing run, 1 thread: triad "
					   "best 110.0 GB/s (model "),
		  "%s", method ? method : "-");
	json_decref(doc);
	e2e_cleanup(&r, dir);
}
