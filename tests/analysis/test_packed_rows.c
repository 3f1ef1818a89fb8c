/* report_pack.c: a large report's per-thread rows kept packed (issue
 * 41, item 8) read back bit for bit as they were built, and every format
 * renders the same bytes from them as from the rows unpacked. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_pack.h"
#include "render/render.h"
#include "tests/lib/machine.h"
#include "tests/lib/report.h"

#define N_REGIONS 3000 /* x 2 threads: more per-thread rows than 4096 */

static void build_with(size_t pack_from, struct rl_process_results *p,
		       const struct rl_machine *m, struct rl_report *rep)
{
	struct rl_run_results run = {.procs = p, .n_procs = 1,
				     .exit_status = -1};
	size_t keep = rl_report_pack_from;
	char err[256] = "";

	rl_report_pack_from = pack_from;
	cr_assert_eq(rl_report_build(&run, m, rep, err, sizeof err), 0, "%s",
		     err);
	rl_report_pack_from = keep;
}

/* The table with one row per thread under each region. */
static char *per_thread_table(const struct rl_report *rep)
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rl_render_options opt = {.per_thread = 1, .verbose = 1};

	cr_assert_not_null(f);
	cr_assert_eq(rl_renderer_find("table")->render(f, rep, &opt, err,
						       sizeof err),
		     0, "%s", err);
	fclose(f);
	return text;
}

/* Every format, packed and not: the same text. */
static void expect_same_outputs(const struct rl_report *a,
				const struct rl_report *b)
{
	static const char *const formats[] = {"json", "csv", "table", "svg",
					      "html"};

	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
		char *x = rl_test_render_text(formats[i], a),
		     *y = rl_test_render_text(formats[i], b);
		cr_assert_str_eq(x, y, "%s differs", formats[i]);
		free(x);
		free(y);
	}
	{
		char *x = per_thread_table(a), *y = per_thread_table(b);
		cr_assert_str_eq(x, y, "the per-thread table differs");
		free(x);
		free(y);
	}
}

/* good.json: counted figures that differ by thread (triad on two threads,
 * 1 s and 1.5 s; "init, setup" on one). */
Test(packed_rows, read_back_bit_for_bit_and_render_the_same)
{
	struct rl_process_results p;
	struct rl_machine *m = rl_test_machine_default();
	struct rl_report flat, packed;
	struct rl_region_row buf;
	const struct rl_region_row *t;
	char err[512];

	cr_assert_eq(rl_results_load(DATA "good.json", &p, err, sizeof err), 0,
		     "%s", err);
	build_with(SIZE_MAX, &p, m, &flat);
	build_with(0, &p, m, &packed);
	cr_assert_null(flat.packed);
	cr_assert_not_null(packed.packed);
	cr_assert_eq(flat.n_rows, 5);
	cr_assert_eq(packed.n_rows, 0); /* every row packed */
	cr_assert_null(packed.rows);
	cr_assert_eq(packed.n_summed, 2);
	cr_assert_eq(rl_report_n_all(&packed), 5);
	cr_assert_eq(rl_report_n_all(&flat), 5);
	for (size_t i = 0; i < 5; i++) {
		struct rl_region_row b1, b2;
		const struct rl_region_row *x = rl_report_row(&flat, i, &b1),
					   *y = rl_report_row(&packed, i, &b2);
		cr_assert_str_eq(x->region, y->region);
		cr_assert_str_eq(x->method, y->method);
		cr_assert_str_eq(x->diagnosis, y->diagnosis);
		cr_assert_eq(x->tid, y->tid);
		cr_assert_eq(x->calls, y->calls);
		cr_assert_eq(memcmp(&x->time_s, &y->time_s, sizeof x->time_s),
			     0);
		cr_assert_eq(memcmp(&x->roof_pct, &y->roof_pct,
				    sizeof x->roof_pct),
			     0);
	}
	/* triad's second thread: its own time and % of roof */
	t = rl_report_row(&packed, 0, &buf);
	cr_assert_eq(t->thread_first, 2);
	cr_assert_eq(t->thread_count, 2);
	t = rl_report_row(&packed, 3, &buf);
	cr_assert_str_eq(t->region, "triad");
	cr_assert_eq(t->tid, 101);
	cr_assert_eq(t->n_threads, 1);
	cr_assert_float_eq(t->time_s, 1.5, 1e-12);
	cr_assert_float_eq(t->roof_pct, 100 * (2.0 / 1.5) / 2.5, 1e-9);
	t = rl_report_row(&packed, 4, &buf);
	cr_assert_str_eq(t->region, "init, setup");
	cr_assert_eq(t->tid, 100);
	expect_same_outputs(&flat, &packed);
	rl_report_release(&flat);
	rl_report_release(&packed);
	rl_results_release(&p);
}

/* A results file of two threads entering N_REGIONS regions each, the
 * calls and times different per region and thread. */
static void load_many(struct rl_process_results *p)
{
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	fputs("{\"format\":\"rlprof-results\",\"version\":2,\"pid\":9,"
	      "\"program\":\"p\",\"backend\":\"time\",\"counters\":[],"
	      "\"threads\":[\n",
	      f);
	for (int th = 0; th < 2; th++) {
		fprintf(f, "%s {\"tid\":%d,\"index\":%d,\"regions\":[\n",
			th ? "," : "", 90 + th, th);
		for (int i = 0; i < N_REGIONS; i++)
			fprintf(f,
				"%s  {\"name\":\"r%05d\",\"calls\":%d,"
				"\"time_ns\":%d}\n",
				i ? "," : "", i, 1 + i % 7 + th,
				1000 + 13 * i + 500 * th);
		fputs("]}\n", f);
	}
	fputs("]}\n", f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(rl_test_results_from_text(text, p, err, sizeof err), 0,
		     "%s", err);
	free(text);
}

/* From 4096 per-thread rows the report packs its rows by itself: each
 * read back exactly, every format the same as unpacked. */
Test(packed_rows, a_large_report_packs_and_reads_back_exact_counts)
{
	struct rl_process_results p;
	struct rl_report flat, packed;
	struct rl_region_row buf;

	load_many(&p);
	build_with(SIZE_MAX, &p, NULL, &flat);
	build_with(rl_report_pack_from, &p, NULL, &packed);
	cr_assert_null(flat.packed);
	cr_assert_not_null(packed.packed);
	cr_assert_eq(packed.n_summed, N_REGIONS);
	cr_assert_eq(packed.n_rows, 0);
	cr_assert_eq(rl_report_n_all(&packed), 3 * N_REGIONS);
	for (size_t s = 0; s < N_REGIONS; s += 311) {
		struct rl_region_row row_buf;
		const struct rl_region_row *row =
			rl_report_row(&packed, s, &row_buf);
		char name[16];

		snprintf(name, sizeof name, "r%05zu", s);
		cr_assert_str_eq(row->region, name);
		cr_assert_eq(row->calls, 2 * (1 + s % 7) + 1);
		cr_assert_eq(row->thread_count, 2);
		for (size_t k = 0; k < 2; k++) {
			const struct rl_region_row *t = rl_report_row(
				&packed, row->thread_first + k, &buf);
			cr_assert_str_eq(t->region, name);
			cr_assert_eq(t->tid, 90 + k);
			cr_assert_eq(t->pid, 9);
			cr_assert_eq(t->calls, 1 + s % 7 + k);
			cr_assert_float_eq(t->time_s,
					   (1000 + 13 * s + 500 * k) / 1e9,
					   1e-18);
		}
	}
	{
		static const char *const formats[] = {"json", "csv"};
		for (size_t i = 0; i < 2; i++) {
			char *x = rl_test_render_text(formats[i], &flat),
			     *y = rl_test_render_text(formats[i], &packed);
			cr_assert(strcmp(x, y) == 0, "%s differs", formats[i]);
			cr_assert_gt(strlen(x), 3 * N_REGIONS * 20);
			free(x);
			free(y);
		}
	}
	expect_same_outputs(&flat, &packed);
	rl_report_release(&flat);
	rl_report_release(&packed);
	rl_results_release(&p);
}

/* The summed rows are packed too, their method and diagnosis lines (the
 * same text in every row here) stored once and shared, where unpacked
 * rows each own a copy; a row changed through rl_report_row_set reads
 * back changed, the others as they were, and the report frees each text
 * once. */
Test(packed_rows, summed_rows_share_equal_strings_and_change_in_place)
{
	struct rl_process_results p;
	struct rl_report flat, packed;
	struct rl_region_row b0, b1, up;
	const struct rl_region_row *x, *y;
	char *text;

	load_many(&p);
	build_with(SIZE_MAX, &p, NULL, &flat);
	build_with(rl_report_pack_from, &p, NULL, &packed);
	x = rl_report_row(&flat, 0, &b0);
	y = rl_report_row(&flat, 1, &b1);
	cr_assert_str_eq(x->method, y->method);
	cr_assert_str_eq(x->diagnosis, y->diagnosis);
	cr_assert_neq(x->method, y->method); /* unpacked: each its own */
	x = rl_report_row(&packed, 0, &b0);
	y = rl_report_row(&packed, N_REGIONS - 1, &b1);
	cr_assert_str_eq(x->region, "r00000");
	cr_assert_str_eq(y->region, "r02999");
	cr_assert_eq(x->method, y->method, "one stored copy of the method");
	cr_assert_eq(x->diagnosis, y->diagnosis,
		     "one stored copy of the diagnosis");
	/* a per-thread row shares its summed row's name and method */
	y = rl_report_row(&packed, x->thread_first + 1, &b1);
	cr_assert_eq(y->region, x->region);
	cr_assert_eq(y->method, x->method);

	up = *rl_report_row(&packed, 7, &b0);
	cr_assert_not_null(text = strdup("a new diagnosis"));
	rl_report_text_drop(&packed, up.diagnosis); /* shared: kept */
	up.diagnosis = text;
	up.warn_count = 3;
	cr_assert_eq(rl_report_row_set(&packed, 7, &up), 0);
	x = rl_report_row(&packed, 7, &b0);
	cr_assert_str_eq(x->diagnosis, "a new diagnosis");
	cr_assert_eq(x->warn_count, 3);
	cr_assert_str_eq(x->region, "r00007");
	x = rl_report_row(&packed, 8, &b0);
	y = rl_report_row(&flat, 8, &b1);
	cr_assert_str_eq(x->diagnosis, y->diagnosis);
	cr_assert_eq(x->warn_count, 0);
	rl_report_release(&flat);
	rl_report_release(&packed);
	rl_results_release(&p);
}

/* A report keeps nothing of the results it was built from (rlprof run
 * and rlprof report release them before rendering): rendered after they
 * are released, packed or not, every format is what it was before. */
Test(packed_rows, renders_the_same_after_its_results_are_released)
{
	static const char *const formats[] = {"json", "csv", "table", "svg",
					      "html"};
	struct rl_process_results p;
	struct rl_report packed, flat;
	char *before[2][5];

	load_many(&p);
	build_with(SIZE_MAX, &p, NULL, &flat);
	build_with(rl_report_pack_from, &p, NULL, &packed);
	for (size_t i = 0; i < 5; i++) {
		before[0][i] = rl_test_render_text(formats[i], &flat);
		before[1][i] = rl_test_render_text(formats[i], &packed);
	}
	rl_results_release(&p);
	for (size_t i = 0; i < 5; i++) {
		char *x = rl_test_render_text(formats[i], &flat),
		     *y = rl_test_render_text(formats[i], &packed);
		cr_assert(strcmp(x, before[0][i]) == 0, "%s differs",
			  formats[i]);
		cr_assert(strcmp(y, before[1][i]) == 0, "%s differs packed",
			  formats[i]);
		free(x);
		free(y);
		free(before[0][i]);
		free(before[1][i]);
	}
	rl_report_release(&flat);
	rl_report_release(&packed);
}

/* Threads that enter their regions in other orders (the build tries the
 * summed row after the last one found before its name index): every
 * region one summed row, its calls summed over the threads that ran it,
 * in first-seen order. */
Test(packed_rows, threads_in_other_orders_group_by_name)
{
	static const char *const text =
		"{\"format\":\"rlprof-results\",\"version\":2,\"pid\":9,"
		"\"program\":\"p\",\"backend\":\"time\",\"counters\":[],"
		"\"threads\":[\n"
		" {\"tid\":1,\"index\":0,\"regions\":["
		"{\"name\":\"a\",\"calls\":1,\"time_ns\":10},"
		"{\"name\":\"b\",\"calls\":2,\"time_ns\":10},"
		"{\"name\":\"c\",\"calls\":3,\"time_ns\":10}]},\n"
		" {\"tid\":2,\"index\":1,\"regions\":["
		"{\"name\":\"b\",\"calls\":10,\"time_ns\":10},"
		"{\"name\":\"c\",\"calls\":20,\"time_ns\":10},"
		"{\"name\":\"x\",\"calls\":40,\"time_ns\":10},"
		"{\"name\":\"a\",\"calls\":30,\"time_ns\":10}]},\n"
		" {\"tid\":3,\"index\":2,\"regions\":["
		"{\"name\":\"c\",\"calls\":100,\"time_ns\":10},"
		"{\"name\":\"a\",\"calls\":200,\"time_ns\":10}]}\n"
		"]}\n";
	static const char *const names[] = {"a", "b", "c", "x"};
	static const uint64_t calls[] = {231, 12, 123, 40};
	static const unsigned threads[] = {3, 2, 3, 1};
	struct rl_process_results p;
	struct rl_report rep;
	char err[512] = "";

	cr_assert_eq(rl_test_results_from_text(text, &p, err, sizeof err), 0,
		     "%s", err);
	build_with(SIZE_MAX, &p, NULL, &rep);
	cr_assert_eq(rep.n_summed, 4);
	for (size_t i = 0; i < 4; i++) {
		cr_assert_str_eq(rep.rows[i].region, names[i]);
		cr_assert_eq(rep.rows[i].calls, calls[i], "%s", names[i]);
		cr_assert_eq(rep.rows[i].n_threads, threads[i], "%s",
			     names[i]);
		cr_assert_eq(rep.rows[i].thread_count, threads[i]);
	}
	rl_report_release(&rep);
	rl_results_release(&p);
}
