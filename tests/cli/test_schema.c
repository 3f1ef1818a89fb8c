/* The JSON Schema of report.json (profiler/render/report.schema.json):
 * its version agrees with RL_REPORT_VERSION, reports rlprof produces
 * validate (every e2e test also validates the reports it made when it
 * removes its directory: tests/lib/run.c), and the validator rejects a
 * report that breaks it. Validator: Debian's python3-jsonschema through
 * scripts/validate-report. */
#include <jansson.h>

#include "analysis/report.h"
#include "formats/loops.h"
#include "tests/lib/run.h"

#define SCHEMA RL_SOURCE_DIR "/profiler/render/report.schema.json"
#define VALIDATOR RL_SOURCE_DIR "/scripts/validate-report"

static void need_validator(void)
{
	const char *argv[] = {"/usr/bin/python3", "-c", "import jsonschema", NULL};
	struct e2e_result r;

	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("python3 is not installed: run scripts/install-deps");
	r = e2e_run(argv);
	if (r.status != 0) {
		e2e_free(&r);
		cr_skip_test("python3-jsonschema is not installed: run "
			     "scripts/install-deps");
	}
	e2e_free(&r);
}

static struct e2e_result validate(const char *file)
{
	const char *argv[] = {VALIDATOR, SCHEMA, file, NULL};
	return e2e_run(argv);
}

Test(schema, version_matches_the_report)
{
	json_error_t je;
	json_t *s = json_load_file(SCHEMA, 0, &je), *v;

	cr_assert_not_null(s, "schema is not JSON: line %d: %s", je.line, je.text);
	v = json_object_get(json_object_get(json_object_get(s, "properties"),
					    "version"),
			    "const");
	cr_assert(json_is_integer(v), "the schema has no version const");
	cr_expect_eq(json_integer_value(v), RL_REPORT_VERSION,
		     "report version %d but schema version %d: bump both "
		     "together on an incompatible change",
		     RL_REPORT_VERSION, (int)json_integer_value(v));
	json_decref(s);
}

Test(schema, fixtures_and_produced_reports_validate, .timeout = 120)
{
	static const char *const fixtures[] = {"base", "slow", "fast"};
	char *dir = e2e_tmpdir();
	char path[1024], out[600];
	const char *report[] = {E2E_RLPROF, "report", "--no-probe", "-f",
				"json", "-o", path,
				RL_SOURCE_DIR "/tests/data/results/run1", NULL};
	const char *run[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			     "time", "-o", out, E2E_PROG("e2e_regions"), NULL};
	struct e2e_result r;

	need_validator();
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path,
			 RL_SOURCE_DIR "/tests/data/reports/%s/report.json",
			 fixtures[i]);
		r = validate(path);
		cr_expect_eq(r.status, 0, "%s: %s%s", path, r.out, r.err);
		e2e_free(&r);
	}
	e2e_need(E2E_RLPROF);
	snprintf(path, sizeof path, "%s/run1.json", dir);
	r = e2e_run(report);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	r = validate(path);
	cr_expect_eq(r.status, 0, "%s: %s%s", path, r.out, r.err);
	e2e_free(&r);
	snprintf(out, sizeof out, "%s/run", dir);
	r = e2e_run(run);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_free(&r);
	snprintf(path, sizeof path, "%s/report.json", out);
	r = validate(path);
	cr_expect_eq(r.status, 0, "%s: %s%s", path, r.out, r.err);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(schema, broken_reports_are_rejected, .timeout = 60)
{
	static const struct {
		const char *json, *where;
	} bad[] = {
		{"{\"format\": \"rlprof-report\", \"version\": 1}", "(top)"},
		{"{\"format\": \"rlprof-report\", \"version\": 3, \"backend\": null, "
		 "\"backend_reason\": null, \"backend_note\": null, \"command\": null, "
		 "\"exit_status\": 0, \"machine\": null, \"counters\": [], "
		 "\"regions\": [], \"warnings\": []}",
		 "version"},
		{"{\"format\": \"rlprof-report\", \"version\": 2, \"backend\": null, "
		 "\"backend_reason\": null, \"backend_note\": null, \"command\": null, "
		 "\"exit_status\": 0, \"machine\": null, \"counters\": [], "
		 "\"regions\": [{\"region\": \"a\", \"calls\": \"3\"}], \"warnings\": []}",
		 "regions/0"},
	};
	char *dir = e2e_tmpdir();
	char path[600];

	need_validator();
	snprintf(path, sizeof path, "%s/report.json", dir);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		FILE *f = fopen(path, "w");
		struct e2e_result r;

		cr_assert_not_null(f);
		fputs(bad[i].json, f);
		fclose(f);
		r = validate(path);
		cr_expect_eq(r.status, 1, "accepted: %s", bad[i].json);
		cr_expect_not_null(strstr(r.out, bad[i].where), "%s", r.out);
		e2e_free(&r);
	}
	e2e_rmtree_raw(dir); /* broken on purpose */
	free(dir);
}

/* loops.json (profiler/formats/loops.schema.json): the schema's version
 * is RL_LOOPS_VERSION, and the report reader takes a loops.json of
 * another format or a newer version for what it is: its loops are left
 * out with a warning that says which (issue 43: loops.json had no format
 * or version, and a file of another kind was read as loops). The loops
 * rlprof writes are checked against the schema by every e2e test that
 * makes them (tests/lib/run.c). */
#define LOOPS_SCHEMA RL_SOURCE_DIR "/profiler/formats/loops.schema.json"

Test(schema, loops_version_matches_the_format)
{
	json_error_t je;
	json_t *s = json_load_file(LOOPS_SCHEMA, 0, &je), *p;

	cr_assert_not_null(s, "schema is not JSON: line %d: %s", je.line, je.text);
	p = json_object_get(s, "properties");
	cr_expect_eq(json_integer_value(json_object_get(
			     json_object_get(p, "version"), "const")),
		     RL_LOOPS_VERSION);
	cr_expect_str_eq(json_string_value(json_object_get(
				 json_object_get(p, "format"), "const")),
			 RL_LOOPS_FORMAT);
	json_decref(s);
}

static char *report_with_loops(const char *dir, const char *loops_json)
{
	char cmd[2048], path[1024];
	FILE *f;
	const char *argv[] = {E2E_RLPROF, "report", "--no-probe", "-f", "json",
			      path, NULL};
	struct e2e_result r;

	snprintf(cmd, sizeof cmd, "cp -r '%s' '%s/run'",
		 RL_SOURCE_DIR "/tests/data/results/run1", dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(path, sizeof path, "%s/run/loops.json", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(loops_json, f);
	cr_assert_eq(fclose(f), 0);
	snprintf(path, sizeof path, "%s/run", dir);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	free(r.err);
	return r.out;
}

Test(schema, loops_of_another_format_or_a_newer_version_are_left_out,
     .timeout = 60)
{
	static const char loop[] =
		"\"program\": \"./t\", \"lines\": true, \"hot_rule\": \"all\", "
		"\"loops\": [{\"id\": 1, \"parent\": null, \"depth\": 0, "
		"\"name\": \"t.c:3 (main)\", \"function\": \"main\", "
		"\"address\": \"0x10\", \"hot\": true, \"self\": {}, "
		"\"inclusive\": {}}]}";
	char text[1024], *dir, *out;

	e2e_need(E2E_RLPROF);
	snprintf(text, sizeof text, "{\"format\": \"rlprof-other\", "
		 "\"version\": 1, %s", loop);
	dir = e2e_tmpdir();
	out = report_with_loops(dir, text);
	cr_expect(strstr(out, "the loops are left out of the report") &&
			  strstr(out, "is not an rlprof loops file"),
		  "%s", out);
	cr_expect(!strstr(out, "t.c:3 (main)"), "%s", out);
	free(out);
	e2e_rmtree_raw(dir); /* its loops.json is broken on purpose */
	free(dir);

	snprintf(text, sizeof text, "{\"format\": \"" RL_LOOPS_FORMAT "\", "
		 "\"version\": 99, %s", loop);
	dir = e2e_tmpdir();
	out = report_with_loops(dir, text);
	cr_expect(strstr(out, "was written by a newer rlprof (loops version "
			      "99"),
		  "%s", out);
	free(out);
	e2e_rmtree_raw(dir); /* its loops.json is broken on purpose */
	free(dir);
}
