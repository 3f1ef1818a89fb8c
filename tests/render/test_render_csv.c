/* render_csv.c: exact text for a fixed input, empty cells when unknown. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/report.h"
#include "tests/lib/machine.h"

/* DRAM moved 30 GB/s at 1 thread, 48 at 2; f64 peak 50 / 100. */
static char *render(const char *file, int with_machine)
{
	struct rl_run_results run = {.exit_status = -1};
	struct rl_render_options opt = {0};
	struct rl_machine m;

	rl_test_machine_render(&m, NULL, 2, 50, 100);
	return rl_test_report_text("csv", file, run, with_machine ? &m : NULL,
				   opt);
}

Test(render_csv, exact_text_for_a_fixed_input)
{
	char *text = render(DATA "good.json", 1);

	cr_assert_str_eq(
		text,
		"region,thread,calls,time_s,flops,dram_read_bytes,"
		"dram_write_bytes,ai,flops_expected,bytes_expected,ai_expected,"
		"gflops,gbs,bound,roof_pct,backend,roof,ceiling,check,"
		"diagnosis,mpi_s\n"
		"triad,,20,1.5,4000000000,32000000000,16000000000,0.0833333,"
		"4000000000,48000000000,0.0833333,2.66667,32,memory,66.6667,perf,"
		"DRAM triad,avx2-fma f64,,\"67% of the DRAM triad roof: latency: "
		"2 threads ran it on 2 CPUs: contiguous prefetch-friendly "
		"access, independent loads, software prefetch\",\n"
		/* no flops: 32 GB/s against the 30 GB/s roof */
		"\"init, setup\",,1,0.5,0,8000000000,8000000000,0,,,,0,32,"
		"memory,106.667,perf,DRAM triad,,\"107% of DRAM triad, above it: "
		"likeliest cause: its access mix lies outside the probed points, "
		"so its roof is the nearest point's (rlprof probe --force "
		"measures read-only and fill points)\",\"data movement (no "
		"flops) at 107% of the DRAM triad roof: at the bandwidth limit: "
		"move fewer bytes (fuse with the producer or consumer, smaller "
		"types, non-temporal stores for data not read again soon)\",\n"
		"triad,100,10,1,2000000000,16000000000,8000000000,0.0833333,"
		"2000000000,24000000000,0.0833333,2,24,memory,80,perf,DRAM triad,"
		"avx2-fma f64,,\"memory-bound at 80% of DRAM triad: raise AI: "
		"tiling, fusion, smaller types\",\n"
		"triad,101,10,1.5,2000000000,16000000000,8000000000,0.0833333,"
		"2000000000,24000000000,0.0833333,1.33333,16,memory,53.3333,perf,"
		"DRAM triad,avx2-fma f64,,\"53% of the DRAM triad roof: latency "
		"or too little parallelism: more threads, contiguous "
		"prefetch-friendly access, independent loads\",\n"
		"\"init, setup\",100,1,0.5,0,8000000000,8000000000,0,,,,0,32,"
		"memory,106.667,perf,DRAM triad,,\"107% of DRAM triad, above it: "
		"likeliest cause: its access mix lies outside the probed points, "
		"so its roof is the nearest point's (rlprof probe --force "
		"measures read-only and fill points)\",\"data movement (no "
		"flops) at 107% of the DRAM triad roof: at the bandwidth limit: "
		"move fewer bytes (fuse with the producer or consumer, smaller "
		"types, non-temporal stores for data not read again soon)\",\n");
	free(text);
}

Test(render_csv, unmeasured_cells_are_empty_never_zero)
{
	char *text = render(DATA "time_only.json", 0);

	cr_assert_str_eq(
		text,
		"region,thread,calls,time_s,flops,dram_read_bytes,"
		"dram_write_bytes,ai,flops_expected,bytes_expected,ai_expected,"
		"gflops,gbs,bound,roof_pct,backend,roof,ceiling,check,"
		"diagnosis,mpi_s\n"
		"stream,,4,2,,,,,8000000000,32000000000,0.25,,,,,time,,,,"
		"\"no flop or byte counts (time backend): declared AI 0.25, roof "
		"from declared figures; no machine model: run rlprof probe\",\n"
		"plain,,2,1,,,,,,,,,,,,time,,,,no flop or byte counts and nothing "
		"declared: add RL_REGION_EXPECT or use a counting backend (rlprof "
		"counters),\n"
		"stream,7,4,2,,,,,8000000000,32000000000,0.25,,,,,time,,,,"
		"\"no flop or byte counts (time backend): declared AI 0.25, roof "
		"from declared figures; no machine model: run rlprof probe\",\n"
		"plain,7,2,1,,,,,,,,,,,,time,,,,no flop or byte counts and nothing "
		"declared: add RL_REGION_EXPECT or use a counting backend (rlprof "
		"counters),\n");
	free(text);
}

/* A row with nothing measured (NAN figures) named `name`. */
static struct rl_region_row unmeasured(const char *name)
{
	struct rl_region_row row;

	memset(&row, 0, sizeof row);
	row.region = (char *)name;
	row.time_s = row.flops = row.dram_read_bytes = row.dram_write_bytes =
		row.ai = row.flops_expected = row.bytes_expected =
			row.ai_expected = row.gflops = row.gbs = row.roof_pct =
				NAN;
	return row;
}

/* report.csv of a report holding row alone (malloc'd text). */
static char *csv_of(struct rl_region_row *row, const char *backend)
{
	struct rl_report rep;
	struct rl_render_options opt = {0};
	char err[128], *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(&rep, 0, sizeof rep);
	rep.rows = row;
	rep.n_rows = rep.n_summed = 1;
	rep.backend = (char *)backend;
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	cr_assert_eq(rl_renderer_find("csv")->render(f, &rep, &opt, err,
						     sizeof err),
		     0, "%s", err);
	fclose(f);
	return text;
}

Test(render_csv, quotes_per_rfc_4180)
{
	struct rl_region_row row = unmeasured("say \"hi\"\nnow");
	char *text;

	row.calls = 1;
	text = csv_of(&row, "perf");
	cr_assert(strstr(text, "\n\"say \"\"hi\"\"\nnow\",,1,,,,,,,,,,,,,perf,,,,,\n"),
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

/* Counts are exact integers however large; a multiplexed (scaled) count
 * is rounded to one; rates keep 6 significant digits. */
Test(render_csv, counts_are_exact_integers)
{
	struct rl_region_row row = unmeasured("k");
	char *text;

	row.calls = 1000001;
	row.time_s = 0.123456789012;
	row.flops = 199600200;
	row.dram_read_bytes = 123456789012345.0;
	row.dram_write_bytes = 7.6; /* scaled up for multiplexing */
	row.flops_expected = 199600200;
	row.bytes_expected = 0;
	row.ai = 1.0 / 3;
	text = csv_of(&row, NULL);
	cr_assert(strstr(text, "\nk,,1000001,0.123456789,199600200,"
			       "123456789012345,8,0.333333,199600200,0,,,,,,,,"
			       ",,,\n"),
		  "%s", text);
	cr_assert_null(strstr(text, "e+"), "%s", text);
	free(text);
}

/* Issue 14: a region name a spreadsheet would run as a formula gets a
 * leading single quote (OWASP); quoting still applies. */
Test(render_csv, formula_cells_are_neutralised)
{
	static const char *const names[] = {"=1+1", "+cmd", "-2+3", "@SUM(A1)",
					    "\tx", "=HYPERLINK(\"a\",\"b\")",
					    "a=b"};
	static const char *const want[] = {
		"\n'=1+1,,", "\n'+cmd,,", "\n'-2+3,,", "\n'@SUM(A1),,", "\n'\tx,,",
		"\n\"'=HYPERLINK(\"\"a\"\",\"\"b\"\")\",,", "\na=b,,"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct rl_region_row row = unmeasured(names[i]);
		char *text = csv_of(&row, NULL);
		cr_assert(strstr(text, want[i]), "%s", text);
		free(text);
	}
}
