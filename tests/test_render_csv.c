/* render_csv.c: exact text for a fixed input, empty cells when unknown. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define DATA RL_SOURCE_DIR "/tests/data/results/"

/* DRAM moved 30 GB/s at 1 thread, 48 at 2; f64 peak 50 / 100. */
static void csv_machine(struct rl_machine *m)
{
	memset(m, 0, sizeof *m);
	m->cores = 2;
	m->n_bw = 2;
	snprintf(m->bw[0].level, sizeof m->bw[0].level, "DRAM");
	m->bw[0].threads = 1;
	m->bw[0].stream_gbs = 24;
	m->bw[0].moved_gbs = 30;
	m->bw[1] = m->bw[0];
	m->bw[1].threads = 2;
	m->bw[1].stream_gbs = 36;
	m->bw[1].moved_gbs = 48;
	m->n_compute = 2;
	snprintf(m->compute[0].name, sizeof m->compute[0].name, "avx2-fma");
	snprintf(m->compute[0].kind, sizeof m->compute[0].kind, "peak");
	snprintf(m->compute[0].precision, sizeof m->compute[0].precision,
		 "f64");
	m->compute[0].threads = 1;
	m->compute[0].gflops = 50;
	m->compute[1] = m->compute[0];
	m->compute[1].threads = 2;
	m->compute[1].gflops = 100;
}

static char *render(const char *file, int with_machine)
{
	struct rl_process_results p;
	struct rl_run_results run = {.procs = &p, .n_procs = 1,
					     .exit_status = -1};
	struct rl_machine *m = calloc(1, sizeof *m);
	struct rl_report rep;
	struct rl_render_options opt = {0, 0, 0};
	const struct rl_renderer *rd = rl_renderer_find("csv");
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_not_null(m);
	cr_assert_not_null(rd);
	csv_machine(m);
	cr_assert_eq(rl_results_load(file, &p, err, sizeof err), 0, "%s", err);
	cr_assert_eq(rl_report_build(&run, with_machine ? m : NULL, &rep, err,
				     sizeof err),
		     0, "%s", err);
	f = open_memstream(&text, &len);
	cr_assert_eq(rd->render(f, &rep, &opt, err, sizeof err), 0, "%s", err);
	fclose(f);
	rl_report_release(&rep);
	rl_results_release(&p);
	free(m);
	return text;
}

Test(render_csv, exact_text_for_a_fixed_input)
{
	char *text = render(DATA "good.json", 1);

	cr_assert_str_eq(
		text,
		"region,thread,calls,time_s,flops,dram_read_bytes,"
		"dram_write_bytes,ai,flops_expected,bytes_expected,ai_expected,"
		"gflops,gbs,bound,roof_pct,backend\n"
		"triad,,20,1.5,4e+09,3.2e+10,1.6e+10,0.0833333,4e+09,4.8e+10,"
		"0.0833333,2.66667,32,memory,66.6667,perf\n"
		"\"init, setup\",,1,0.5,0,8e+09,8e+09,0,,,,0,32,,,perf\n"
		"triad,100,10,1,2e+09,1.6e+10,8e+09,0.0833333,2e+09,2.4e+10,"
		"0.0833333,2,24,memory,80,perf\n"
		"\"init, setup\",100,1,0.5,0,8e+09,8e+09,0,,,,0,32,,,perf\n"
		"triad,101,10,1.5,2e+09,1.6e+10,8e+09,0.0833333,2e+09,2.4e+10,"
		"0.0833333,1.33333,16,memory,53.3333,perf\n");
	free(text);
}

Test(render_csv, unmeasured_cells_are_empty_never_zero)
{
	char *text = render(DATA "time_only.json", 0);

	cr_assert_str_eq(
		text,
		"region,thread,calls,time_s,flops,dram_read_bytes,"
		"dram_write_bytes,ai,flops_expected,bytes_expected,ai_expected,"
		"gflops,gbs,bound,roof_pct,backend\n"
		"stream,,4,2,,,,,8e+09,3.2e+10,0.25,,,,,time\n"
		"plain,,2,1,,,,,,,,,,,,time\n"
		"stream,7,4,2,,,,,8e+09,3.2e+10,0.25,,,,,time\n"
		"plain,7,2,1,,,,,,,,,,,,time\n");
	free(text);
}

Test(render_csv, quotes_per_rfc_4180)
{
	struct rl_region_row row;
	struct rl_report rep;
	struct rl_render_options opt = {0, 0, 0};
	char err[128], *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(&row, 0, sizeof row);
	memset(&rep, 0, sizeof rep);
	row.region = (char *)"say \"hi\"\nnow";
	row.calls = 1;
	row.time_s = row.flops = row.dram_read_bytes = row.dram_write_bytes =
		row.ai = row.flops_expected = row.bytes_expected =
			row.ai_expected = row.gflops = row.gbs = row.roof_pct =
				NAN;
	rep.rows = &row;
	rep.n_rows = rep.n_summed = 1;
	rep.backend = (char *)"perf";
	f = open_memstream(&text, &len);
	cr_assert_eq(rl_renderer_find("csv")->render(f, &rep, &opt, err,
						     sizeof err),
		     0);
	fclose(f);
	cr_assert(strstr(text, "\n\"say \"\"hi\"\"\nnow\",,1,,,,,,,,,,,,,perf\n"),
		  "%s", text);
	free(text);
}

Test(render_csv, registry_names_and_file_names)
{
	cr_assert_str_eq(rl_renderer_find("csv")->file_name, "report.csv");
	cr_assert_str_eq(rl_renderer_find("json")->file_name, "report.json");
	cr_assert_null(rl_renderer_find("table")->file_name);
	cr_assert_null(rl_renderer_find("xml"));
	cr_assert_eq(rl_renderer_count(), 5);
	cr_assert_str_eq(rl_renderer_at(0)->format, "table");
	cr_assert_str_eq(rl_renderer_at(3)->format, "svg");
	cr_assert_str_eq(rl_renderer_at(4)->format, "html");
	cr_assert_null(rl_renderer_at(5));
}
