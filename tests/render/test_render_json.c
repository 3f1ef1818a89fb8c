/* render_json.c: one valid document; in the regions, what was not measured
 * is left out (report version 2), never 0. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/report.h"
#include "tests/lib/machine.h"

/* Render a results file (with run.json fields) and parse it back. */
static json_t *render(const char *file, int with_machine)
{
	struct rl_run_results run = {.backend_requested = (char *)"auto",
				     .backend_reason = (char *)"no PMU: \"time\" chosen",
				     .command = (char *)"./kern <1>",
				     .exit_status = 3};
	struct rl_render_options opt = {0};
	struct rl_machine m;
	json_error_t je;
	json_t *doc;
	char *text;

	rl_test_machine_render(&m, "Test \"CPU\"", 1, 50, 0);
	text = rl_test_report_text("json", file, run, with_machine ? &m : NULL,
				   opt);
	doc = json_loads(text, 0, &je);
	cr_assert_not_null(doc, "line %d: %s\n%s", je.line, je.text, text);
	free(text);
	return doc;
}

static json_t *at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert_not_null(v, "no key '%s'", key);
	return v;
}

Test(render_json, header_counters_and_machine)
{
	json_t *doc = render(DATA "good.json", 1), *c, *m;

	cr_assert_str_eq(json_string_value(at(doc, "format")), "rlprof-report");
	cr_assert_eq(json_integer_value(at(doc, "version")), 2);
	cr_assert_str_eq(json_string_value(at(doc, "backend")), "perf");
	cr_assert_str_eq(json_string_value(at(doc, "backend_reason")),
			 "no PMU: \"time\" chosen");
	cr_assert_str_eq(json_string_value(at(doc, "command")), "./kern <1>");
	cr_assert_eq(json_integer_value(at(doc, "exit_status")), 3);
	c = at(doc, "counters");
	cr_assert_eq(json_array_size(c), 4);
	cr_assert_str_eq(json_string_value(at(json_array_get(c, 0), "name")),
			 "flops_f64_256");
	cr_assert_str_eq(json_string_value(at(json_array_get(c, 2), "scope")),
			 "thread");
	m = at(doc, "machine");
	cr_assert_str_eq(json_string_value(at(m, "cpu_model")), "Test \"CPU\"");
	cr_assert_eq(json_array_size(at(m, "bandwidth")), 1);
	cr_assert_eq(json_array_size(at(m, "compute")), 1);
	cr_assert_eq(json_array_size(at(doc, "warnings")), 1);
	json_decref(doc);
}

Test(render_json, regions_with_threads_and_figures)
{
	json_t *doc = render(DATA "good.json", 1), *regs, *t, *th;

	regs = at(doc, "regions");
	cr_assert_eq(json_array_size(regs), 2);
	t = json_array_get(regs, 0);
	cr_assert_str_eq(json_string_value(at(t, "region")), "triad");
	cr_assert_eq(json_integer_value(at(t, "calls")), 20);
	cr_assert_eq(json_integer_value(at(t, "n_threads")), 2);
	cr_assert_float_eq(json_number_value(at(t, "ai")), 1.0 / 12, 1e-9);
	cr_assert_float_eq(json_number_value(at(t, "dram_bytes")), 48e9, 1);
	cr_assert_float_eq(json_number_value(at(at(t, "level_bytes"), "DRAM")),
			   48e9, 1);
	cr_assert_null(json_object_get(at(t, "level_bytes"), "L1"));
	cr_assert_str_eq(json_string_value(at(t, "precision")), "f64");
	cr_assert_str_eq(json_string_value(at(t, "bound")), "memory");
	cr_assert_str_eq(json_string_value(at(t, "basis")), "counted");
	cr_assert_str_eq(json_string_value(at(t, "bound_roof")), "DRAM");
	cr_assert_null(json_object_get(t, "has_system_wide"), "false: absent");
	cr_assert_null(json_object_get(t, "simulated"));
	cr_assert(strstr(json_string_value(at(t, "method")),
			 "flops: perf fp_arith_inst_retired 256b x4"));
	th = at(t, "threads");
	cr_assert_eq(json_array_size(th), 2);
	/* a thread's row: no name, its method only where it differs */
	cr_assert_null(json_object_get(json_array_get(th, 1), "region"));
	cr_assert_null(json_object_get(json_array_get(th, 1), "method"));
	cr_assert_float_eq(json_number_value(at(json_array_get(th, 1), "ai")),
			   1.0 / 12, 1e-9);
	cr_assert_eq(json_integer_value(at(json_array_get(th, 1), "tid")), 101);
	cr_assert_eq(json_integer_value(at(json_array_get(th, 1), "pid")), 100);
	/* "init, setup" declared nothing */
	t = json_array_get(regs, 1);
	cr_assert_null(json_object_get(t, "flops_expected"));
	cr_assert_null(json_object_get(t, "ai_expected"));
	/* no flops: % of its bandwidth roof, 32 of 30 GB/s */
	cr_assert_float_eq(json_number_value(at(t, "roof_pct")), 32.0 / 30 * 100,
			   1e-6);
	cr_assert(json_is_true(json_object_get(t, "data_movement")));
	json_decref(doc);
}

Test(render_json, absent_where_unmeasured)
{
	json_t *doc = render(DATA "time_only.json", 0), *s;

	cr_assert(json_is_null(at(doc, "machine")));
	cr_assert_eq(json_array_size(at(doc, "counters")), 0);
	s = json_array_get(at(doc, "regions"), 0);
	cr_assert_str_eq(json_string_value(at(s, "region")), "stream");
	cr_assert_null(json_object_get(s, "flops"));
	cr_assert_null(json_object_get(s, "dram_bytes"));
	cr_assert_null(json_object_get(s, "ai"));
	cr_assert_null(json_object_get(s, "gflops"));
	cr_assert_null(json_object_get(s, "bound"));
	cr_assert_null(json_object_get(s, "bound_roof"));
	cr_assert_null(json_object_get(s, "precision"));
	cr_assert_null(json_object_get(s, "scaled_ratio"));
	cr_assert_float_eq(json_number_value(at(s, "ai_expected")), 0.25, 1e-12);
	cr_assert_float_eq(json_number_value(at(s, "time_s")), 2, 1e-12);
	cr_assert_str_eq(json_string_value(at(s, "method")),
			 "time only: no counters (declared figures from "
			 "RL_REGION_EXPECT)");
	json_decref(doc);
}

/* Bytes that are not UTF-8 (a command line from argv, a name cut in the
 * middle of a character) become U+FFFD; the key is never dropped. */
Test(render_json, invalid_utf8_is_replaced_not_dropped)
{
	struct rl_run_results run = {.backend_requested = (char *)"auto",
				     .command = (char *)"./kern \xff<1>",
				     .exit_status = 0};
	struct rl_render_options opt = {0};
	struct rl_machine m;
	json_error_t je;
	json_t *doc;
	char *text;

	rl_test_machine_render(&m, "CPU \xc3", 1, 50, 0);
	text = rl_test_report_text("json", DATA "good.json", run, &m, opt);
	doc = json_loads(text, 0, &je);
	cr_assert_not_null(doc, "line %d: %s\n%s", je.line, je.text, text);
	cr_assert_str_eq(json_string_value(at(doc, "command")),
			 "./kern \xef\xbf\xbd<1>");
	cr_assert_str_eq(json_string_value(at(at(doc, "machine"), "cpu_model")),
			 "CPU \xef\xbf\xbd");
	json_decref(doc);
	free(text);
}
