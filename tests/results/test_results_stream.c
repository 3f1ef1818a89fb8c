/* results_stream.c: a results file's regions decoded one at a time from
 * its text (issue 41, item 8) give exactly what the whole file as one tree
 * gave, and a damaged region is refused with the file's line and column. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"
#include "results/run_results.h"
#include "tests/lib/report.h"

#define N_REGIONS 3000

/* A results file of two threads entering N_REGIONS regions each, laid
 * out as the runtime writes it (one region a line), or on one line with
 * the key "threads" written with an escape (which the region-by-region
 * reading does not recognise: such a file is read whole). */
static char *results_text(int odd)
{
	size_t cap = 200 + 2 * N_REGIONS * 120, n = 0;
	char *t = malloc(cap);
	const char *nl = odd ? "" : "\n";

	cr_assert_not_null(t);
	n += (size_t)snprintf(t + n, cap - n,
			      "{\"format\":\"rlprof-results\",\"version\":2,"
			      "\"pid\":7,\"program\":\"p\",\"backend\":\"time\","
			      "%s\"counters\":[],%s\"%s\":[",
			      nl, nl, odd ? "thr\\u0065ads" : "threads");
	for (int th = 0; th < 2; th++) {
		n += (size_t)snprintf(t + n, cap - n,
				      "%s%s  {\"tid\":%d,\"index\":%d,"
				      "\"regions\":[",
				      th ? "," : "", nl, 70 + th, th);
		for (int i = 0; i < N_REGIONS; i++)
			n += (size_t)snprintf(
				t + n, cap - n,
				"%s%s   {\"name\":\"r%05d\",\"calls\":%d,"
				"\"time_ns\":%d}",
				i ? "," : "", nl, i, i + 1 + th,
				1000 * i + 7 * th);
		n += (size_t)snprintf(t + n, cap - n, "]}");
	}
	snprintf(t + n, cap - n, "],%s\"warnings\":[]}%s", nl, nl);
	return t;
}

static void expect_all(const struct rl_process_results *r)
{
	cr_assert_eq(r->pid, 7);
	cr_assert_eq(r->n_threads, 2);
	for (int th = 0; th < 2; th++) {
		const struct rl_thread_results *t = &r->threads[th];
		cr_assert_eq(t->tid, (uint64_t)(70 + th));
		cr_assert_eq(t->n_regions, N_REGIONS);
		for (int i = 0; i < N_REGIONS; i += 997) {
			char name[16];
			snprintf(name, sizeof name, "r%05d", i);
			cr_assert_str_eq(t->regions[i].name, name);
			cr_assert_eq(t->regions[i].calls, (uint64_t)(i + 1 + th));
			cr_assert_eq(t->regions[i].time_ns,
				     (uint64_t)(1000 * i + 7 * th));
		}
		cr_assert_str_eq(t->regions[N_REGIONS - 1].name, "r02999");
	}
}

/* Laid out as the runtime writes it, the regions are read one at a time;
 * on one line with an escaped key, the file is read whole: the same. */
Test(results_stream, regions_read_one_at_a_time_give_exact_counts)
{
	for (int odd = 0; odd < 2; odd++) {
		struct rl_process_results r;
		char err[512] = "", *text = results_text(odd);

		cr_assert_eq(rl_test_results_from_text(text, &r, err,
						       sizeof err),
			     0, "%s", err);
		expect_all(&r);
		rl_results_release(&r);
		free(text);
	}
}

#define HEAD                                                                 \
	"{\"format\":\"rlprof-results\",\"version\":2,\"pid\":1,"            \
	"\"program\":\"p\",\"backend\":\"time\",\"counters\":[],\n"          \
	"\"threads\":[\n {\"tid\":1,\"regions\":[\n"

/* Each damaged region: the message that names the file's line and
 * column, as jansson's own does for the whole file. */
Test(results_stream, a_damaged_region_names_the_line_and_column)
{
	static const struct {
		const char *regions, *says;
	} cases[] = {
		{"  {\"name\":\"a\",\"calls\":1,\"time_ns\":5},\n"
		 "  {\"name\":\"b\",\"calls\":1,,\"time_ns\":5}\n",
		 "line 5 column 25: string or '}' expected near ','"},
		{"  {\"name\":\"a\",\"calls\":1,\"time_ns\":5},\n",
		 "line 5 column 2: unexpected token near ']'"},
		{"  {\"name\":\"a\",\"calls\":1,\"time_ns\":5}\n"
		 "  {\"name\":\"b\",\"calls\":1,\"time_ns\":5}\n",
		 "line 5 column 3: ']' expected near '{'"},
		{"  {\"name\":\"a\",\"calls\":1,\"calls\":2,\"time_ns\":5}\n",
		 "line 4 column 31: duplicate object key near '\"calls\"'"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct rl_process_results r;
		char err[1024] = "", text[1024];

		snprintf(text, sizeof text, "%s%s ]}\n]}\n", HEAD,
			 cases[i].regions);
		cr_assert_eq(rl_test_results_from_text(text, &r, err, sizeof err), RL_EFORMAT,
			     "case %zu: %s", i, err);
		cr_assert(strstr(err, "cannot parse '/tmp/rlprof-rt-"), "%s",
			  err);
		cr_assert(strstr(err, cases[i].says), "case %zu: %s", i, err);
		cr_assert(strstr(err, "the file is corrupt; re-run rlprof "
				      "run"),
			  "%s", err);
	}
}

/* What jansson refuses about the whole file still comes first: a region
 * left unterminated (a file cut short) is a parse error of the file. */
Test(results_stream, a_file_cut_short_is_a_parse_error_of_the_file)
{
	struct rl_process_results r;
	char err[1024] = "";

	cr_assert_eq(rl_test_results_from_text(HEAD "  {\"name\":\"a\",\"calls\":1,\"ti", &r,
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "cannot parse '/tmp/rlprof-rt-"), "%s", err);
	cr_assert(strstr(err, "line 4 column"), "%s", err);
}
