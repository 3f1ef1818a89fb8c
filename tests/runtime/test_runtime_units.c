/* librlprof pieces tested in process: scaling arithmetic, the JSON writer. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters/backend.h"
#include "results/run_results.h"
#include "runtime/results_write.h"

/* The test binary links librlprof.a: it must never profile itself, even
 * when RLPROF_OUT is set in the environment of whoever runs the tests. */
const int rl_runtime_disabled = 1;

void rl_counter_total_add(struct rl_counter_total *tot,
			  const struct rl_counter_value *b,
			  const struct rl_counter_value *e);

/* The runtime adds integer sums only (no flops inside the profiled
 * program); the reader scales them (rl_counter_scaled). */
Test(runtime_units, totals_are_integer_sums_scaled_by_the_reader)
{
	struct rl_counter_total t = {0};
	struct rl_counter_value b = {100, 1000, 500}, e = {300, 3000, 1500};
	rl_counter_total_add(&t, &b, &e);
	cr_assert_eq(t.value, 200);
	cr_assert_eq(t.enabled_ns, 2000);
	cr_assert_eq(t.running_ns, 1000);
	cr_assert_eq(t.scaled, 0.0, "the runtime must not compute scaled");
	cr_assert_float_eq(rl_counter_scaled(t.value, t.enabled_ns,
					     t.running_ns),
			   400.0, 1e-9);
	/* Intervals add up. */
	struct rl_counter_value b2 = {0, 0, 0}, e2 = {50, 10, 10};
	rl_counter_total_add(&t, &b2, &e2);
	cr_assert_eq(t.value, 250);
	cr_assert_eq(t.enabled_ns, 2010);
	cr_assert_eq(t.running_ns, 1010);
}

Test(runtime_units, never_running_scales_to_0_but_shows_enabled)
{
	struct rl_counter_total t = {0};
	struct rl_counter_value b = {7, 100, 40}, e = {7, 900, 40};
	rl_counter_total_add(&t, &b, &e);
	cr_assert_eq(t.enabled_ns, 800);
	cr_assert_eq(t.running_ns, 0);
	cr_assert_float_eq(rl_counter_scaled(t.value, t.enabled_ns,
					     t.running_ns),
			   0.0, 1e-12);
	/* A backend without times (both 0): the raw value. */
	cr_assert_float_eq(rl_counter_scaled(15, 0, 0), 15.0, 1e-12);
	/* Running backwards (a broken backend): 0, not a wrapped figure. */
	struct rl_counter_value b3 = {90, 5, 5}, e3 = {80, 4, 4};
	rl_counter_total_add(&t, &b3, &e3);
	cr_assert_eq(t.value, 0);
	cr_assert_eq(t.enabled_ns, 800);
}

static json_t *write_and_parse(const struct rl_process_results *r, char **text)
{
	char path[] = "/tmp/rlprof-rw-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(rl_results_write_fd(fd, r), 0);
	close(fd);
	FILE *f = fopen(path, "r");
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	*text = buf;
	json_error_t err;
	json_t *doc = json_loads(buf, 0, &err);
	cr_assert_not_null(doc, "does not parse: %s (line %d)\n%s", err.text,
			   err.line, buf);
	return doc;
}

Test(runtime_units, writer_escapes_strings_and_writes_numbers)
{
	struct rl_counter_total counts[RL_COUNTER_COUNT] = {0};
	struct rl_region_stats regs[2] = {
		{.name = "<script>\"&\n\t\\\x01\x7f", .calls = 3, .time_ns = 42,
		 .counters = counts,
		 .expected_flops = 2.5, .expected_bytes = NAN,
		 .expect_calls = 1},
		{.name = "bad\xff\xc3 caf\xc3\xa9 \xf0\x9f\x98\x80 \xed\xa0\x80",
		 .calls = 1},
	};
	regs[0].counters[RL_C_TASK_CLOCK_NS] =
		(struct rl_counter_total){123, 246.5, 20, 10};
	struct rl_thread_results th = {.tid = 77, .index = 0, .regions = regs,
				       .n_regions = 2};
	struct rl_warning w = {.kind = "signal", .region = NULL, .tid = 0,
			       .message = "stopped"};
	struct rl_process_results r = {
		.pid = 12, .ppid = 1, .program = "./a \"b\"", .backend = "perf",
		.backend_note = "", .complete = false, .signal = 11,
		.start_ns = 1796221183129520787ull, .end_ns = 18000000000000000000ull,
		.threads = &th, .n_threads = 1, .warnings = &w, .n_warnings = 1,
		.provided = 1ull << RL_C_TASK_CLOCK_NS,
	};
	r.method[RL_C_TASK_CLOCK_NS] = "perf software task-clock, per-thread";
	char *text;
	json_t *doc = write_and_parse(&r, &text);
	cr_assert_not_null(strstr(text, "\\u003cscript\\u003e\\\"\\u0026\\n"));
	cr_assert_str_eq(json_string_value(json_object_get(doc, "format")),
			 "rlprof-results");
	cr_assert(json_is_integer(json_object_get(doc, "version")));
	cr_assert_eq(json_integer_value(json_object_get(doc, "signal")), 11);
	cr_assert(json_is_false(json_object_get(doc, "complete")));
	cr_assert_eq(json_integer_value(json_object_get(doc, "start_ns")),
		     1796221183129520787ll);
	/* Beyond int64: still a number (a real), the file still parses. */
	cr_assert(json_is_real(json_object_get(doc, "end_ns")));
	cr_assert_float_eq(json_real_value(json_object_get(doc, "end_ns")),
			   1.8e19, 1e5);
	cr_assert_str_eq(json_string_value(json_object_get(doc, "program")),
			 "./a \"b\"");
	json_t *rr = json_object_get(json_array_get(json_object_get(doc, "threads"), 0),
				     "regions");
	json_t *r0 = json_array_get(rr, 0), *r1 = json_array_get(rr, 1);
	cr_assert_str_eq(json_string_value(json_object_get(r0, "name")),
			 "<script>\"&\n\t\\\x01\x7f");
	cr_assert_str_eq(json_string_value(json_object_get(r1, "name")),
			 "bad\xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9 \xf0\x9f\x98\x80 "
			 "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	cr_assert_float_eq(json_real_value(json_object_get(r0, "expected_flops")),
			   2.5, 1e-12);
	cr_assert(json_is_null(json_object_get(r0, "expected_bytes")));
	json_t *tc = json_object_get(json_object_get(r0, "counters"),
				     "task_clock_ns");
	cr_assert_eq(json_integer_value(json_object_get(tc, "value")), 123);
	/* version 2: no "scaled", the reader computes it from the sums */
	cr_assert_null(json_object_get(tc, "scaled"));
	cr_assert_eq(json_integer_value(json_object_get(tc, "enabled_ns")), 20);
	cr_assert_eq(json_integer_value(json_object_get(tc, "running_ns")), 10);
	cr_assert_eq(json_object_size(json_object_get(r1, "counters")), 1);
	json_t *defs = json_object_get(doc, "counters");
	cr_assert_eq(json_array_size(defs), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(defs, 0),
							   "scope")),
			 "thread");
	json_t *w0 = json_array_get(json_object_get(doc, "warnings"), 0);
	cr_assert(json_is_null(json_object_get(w0, "region")));
	json_decref(doc);
}

Test(runtime_units, writer_handles_output_larger_than_its_buffer)
{
	static struct rl_region_stats regs[500];
	static char names[500][40];
	for (int i = 0; i < 500; i++) {
		snprintf(names[i], sizeof names[i], "region-%d", i);
		regs[i].name = names[i];
		regs[i].calls = (uint64_t)i;
	}
	struct rl_thread_results th = {.tid = 1, .regions = regs,
				       .n_regions = 500};
	struct rl_process_results r = {.program = "p", .backend = "time",
				       .backend_note = "", .complete = true,
				       .threads = &th, .n_threads = 1};
	char *text;
	json_t *doc = write_and_parse(&r, &text);
	json_t *rr = json_object_get(json_array_get(json_object_get(doc, "threads"), 0),
				     "regions");
	cr_assert_eq(json_array_size(rr), 500);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(rr, 499),
							"calls")),
		     499);
	json_decref(doc);
}

Test(runtime_units, writer_reports_a_failed_write)
{
	struct rl_process_results r = {.program = "p", .backend = "time",
				       .backend_note = ""};
	cr_assert_lt(rl_results_write_fd(-1, &r), 0);
}
