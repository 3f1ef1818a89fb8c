/*
 * rlprof run: DIR/run.json, what was run and how (format "rlprof-run",
 * formats/run.h; schema in docs/formats.md, "Run description"). Read back by
 * rl_results_load_dir() for the report.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cli/commands.h"
#include "common/file_write.h"
#include "results/selftest_json.h"
#include "cli/run/run.h"
#include "formats/run.h"

static json_t *iso_time(uint64_t ns)
{
	time_t t = (time_t)(ns / 1000000000u);
	struct tm tm;
	char buf[64];

	if (!gmtime_r(&t, &tm))
		return json_null();
	snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (unsigned)(ns % 1000000000u / 1000000u));
	return json_string(buf);
}

static json_t *string_array(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *backends(const struct rl_run *run)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < run->backend.n_probes; i++) {
		const struct rl_backend_probe *p = &run->backend.probes[i];
		json_t *o = json_object();
		if (!o)
			break;
		json_object_set_new(o, "name", json_string(p->backend->name));
		json_object_set_new(o, "capability", json_integer(p->capability));
		json_object_set_new(o, "capability_name",
				    json_string(rl_capability_name(p->capability)));
		json_object_set_new(o, "why", p->why[0] ? json_string(p->why)
							: json_null());
		json_object_set_new(
			o, "chosen",
			json_boolean((int)i == run->backend.chosen));
		json_array_append_new(a, o);
	}
	return a;
}

/* The paired samples (issue 38, results/roof_check.h): every one, in the
 * order taken, with the points and their cost; null when none. */
static json_t *paired(const struct rl_roof_check *c)
{
	json_t *o, *a;

	if (!c->n_samples || !(o = json_object()))
		return json_null();
	if (!(a = json_array())) {
		json_decref(o);
		return json_null();
	}
	for (unsigned i = 0; i < c->n_samples; i++) {
		const struct rl_pair_sample *p = &c->samples[i];
		json_t *e = json_object();
		if (!e)
			break;
		json_object_set_new(e, "level", json_string("DRAM"));
		json_object_set_new(e, "op", json_string(rl_pair_op_name(p->op)));
		json_object_set_new(e, "threads", json_integer(p->threads));
		if (p->op == RL_PAIR_READ)
			json_object_set_new(e, "streams",
					    json_integer(p->streams));
		json_object_set_new(e, "after_run", json_integer(p->after_run));
		json_object_set_new(e, "gbs", json_real(p->gbs));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "samples", a);
	json_object_set_new(o, "points", json_integer(c->n_points));
	json_object_set_new(o, "points_without_samples",
			    json_integer(c->n_points_empty));
	json_object_set_new(o, "timing_runs", json_integer(c->timing_runs));
	json_object_set_new(o, "seconds", json_real(c->pair_seconds));
	return o;
}

/* The DRAM triad around the timing run (results/roof_check.h): null when
 * no check was attempted, {"taken": false, "why_not"} when it could not
 * be; the clock readings beside it either way (null: not read). */
static json_t *roof_check(const struct rl_roof_check *c)
{
	json_t *o;

	if (!c->taken && !c->why_not[0])
		return json_null();
	if (!(o = json_object()))
		return json_null();
	json_object_set_new(o, "taken", json_boolean(c->taken));
	json_object_set_new(o, "before_ghz", c->before_ghz > 0
				? json_real(c->before_ghz) : json_null());
	json_object_set_new(o, "after_ghz", c->after_ghz > 0
				? json_real(c->after_ghz) : json_null());
	json_object_set_new(o, "paired", paired(c));
	if (!c->taken) {
		json_object_set_new(o, "why_not", json_string(c->why_not));
		return o;
	}
	json_object_set_new(o, "level", json_string("DRAM"));
	json_object_set_new(o, "threads", json_integer(c->threads));
	json_object_set_new(o, "before_gbs", c->before_gbs > 0
				? json_real(c->before_gbs) : json_null());
	json_object_set_new(o, "after_gbs", c->after_gbs > 0
				? json_real(c->after_gbs) : json_null());
	json_object_set_new(o, "roof_gbs", json_real(c->roof_gbs));
	json_object_set_new(o, "working_set_bytes",
			    json_integer((json_int_t)c->working_set_bytes));
	json_object_set_new(o, "seconds", json_real(c->seconds));
	json_object_set_new(o, "probed_at", json_string(c->probed_at));
	return o;
}

int rl_run_write_record(const struct rl_run *run, char *err, size_t errlen)
{
	char path[PATH_MAX + 16], *text;
	json_t *o = json_object(), *mpi;
	int st = run->outcome.wait_status, rc;

	if (!o)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	json_object_set_new(o, "format", json_string(RL_RUN_FORMAT));
	json_object_set_new(o, "version", json_integer(RL_RUN_VERSION));
	json_object_set_new(o, "rlprof_version", json_string(rl_version_string()));
	json_object_set_new(o, "run_id", json_string(run->place.run_id));
	json_object_set_new(o, "command",
			    string_array(run->opt.argv, (size_t)run->opt.argc));
	json_object_set_new(o, "program", json_string(run->target.program));
	json_object_set_new(
		o, "launched",
		string_array(run->setup.launch.argv, run->setup.launch.argc));
	json_object_set_new(o, "backend_requested", json_string(run->opt.backend));
	json_object_set_new(o, "backend",
			    json_string(rl_run_backend_name(&run->backend)));
	json_object_set_new(o, "backend_reason",
			    json_string(run->backend.reason));
	json_object_set_new(o, "backend_options",
			    json_string(run->setup.options));
	json_object_set_new(o, "backends", backends(run));
	json_object_set_new(o, "regions_declared",
			    json_integer((json_int_t)run->target.elf.n_sites));
	json_object_set_new(o, "whole_program",
			    json_boolean(run->setup.whole_program));
	json_object_set_new(o, "preloaded", json_boolean(run->setup.preloaded));
	json_object_set_new(o, "started", json_boolean(run->outcome.started));
	json_object_set_new(o, "exit_status",
			    json_integer(run->outcome.exit_status));
	json_object_set_new(o, "signal",
			    run->outcome.started && WIFSIGNALED(st)
				    ? json_integer(WTERMSIG(st))
				    : json_null());
	json_object_set_new(o, "start_time", iso_time(run->outcome.start_ns));
	json_object_set_new(o, "end_time", iso_time(run->outcome.end_ns));
	json_object_set_new(o, "start_ns",
			    json_integer((json_int_t)run->outcome.start_ns));
	json_object_set_new(o, "end_ns",
			    json_integer((json_int_t)run->outcome.end_ns));
	json_object_set_new(o, "elapsed_s",
			    json_real((double)run->outcome.elapsed_ns / 1e9));
	json_object_set_new(o, "output_dir", json_string(run->place.out_dir));
	/* -b sim: where the region times come from (README "run.json") */
	json_object_set_new(
		o, "sim_timing",
		strcmp(rl_run_backend_name(&run->backend), "sim") != 0
			? json_null()
			: json_string(run->native.timing ? "native" : "sim"));
	json_object_set_new(o, "native_exit_status",
			    run->native.done
				    ? json_integer(run->native.exit_status)
				    : json_null());
	json_object_set_new(o, "expected_status",
			    json_integer(run->opt.expect_status));
	json_object_set_new(o, "native_signal",
			    run->native.done && run->native.signal
				    ? json_integer(run->native.signal)
				    : json_null());

	/* --count-with: the counted build, and the ceiling of the timed one */
	json_object_set_new(o, "count_with",
			    run->count.program[0]
				    ? json_string(run->count.program)
				    : json_null());
	json_object_set_new(o, "timed_isa",
			    run->count.timed_isa[0]
				    ? json_string(run->count.timed_isa)
				    : json_null());
	json_object_set_new(o, "timed_isa_source",
			    run->count.program[0]
				    ? json_string(run->count.timed_isa_source)
				    : json_null());
	json_object_set_new(o, "timed_fma",
			    run->count.program[0] && run->count.timed_fma >= 0
				    ? json_boolean(run->count.timed_fma)
				    : json_null());

	json_object_set_new(o, "roof_check", roof_check(&run->roof_check));
	/* the known-answer check of hardware counters (run_selftest.c) */
	json_object_set_new(o, "selftest",
			    rl_run_selftest_applies(&run->backend)
				    ? rl_selftest_json(&run->selftest)
				    : json_null());

	mpi = rl_mpi_record(&run->mpi);
	json_object_set_new(o, "mpi", mpi ? mpi : json_null());

	snprintf(path, sizeof path, "%s/run.json", run->place.out_dir);
	text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!text)
		return rl_fail(err, errlen, RL_ENOMEM,
			       "cannot write '%s': out of memory", path);
	/* whole or not at all: a reader never sees half a record */
	rc = rl_file_write(path, text, strlen(text), err, errlen);
	free(text);
	return rc;
}
