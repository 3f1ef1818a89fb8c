/* report_file.c decodes only the members of a region that diff and check
 * read (issue 41, item 8: a third of their time at 10^6 regions): what it
 * reads is the same, whatever else a region or its thread rows hold. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/report_file.h"
#include "tests/lib/run.h"

static const char doc[] =
	"{\"format\":\"rlprof-report\",\"version\":2,\"backend\":\"time\","
	"\"machine\":null,\"regions\":[\n"
	/* members not read (of any type), a key written with an escape, a
	 * nested "region" that is not the region's */
	"{\"region\":\"a\",\"n_threads\":2,\"c\\u0061lls\":3,"
	"\"time_s\":0.25,\"method\":7,\"scope\":{\"region\":\"zzz\"},"
	"\"roof_pct\":41.5,\"bound_roof\":\"DRAM\",\"bound\":\"memory\","
	"\"basis\":\"counted\",\"diagnosis\":\"x; y\",\"flops\":12,"
	"\"level_bytes\":{\"L1\":1,\"DRAM\":4},\"simulated\":true,"
	"\"threads\":[{\"pid\":5,\"calls\":1,\"tid\":77,\"time_s\":0.2,"
	"\"method\":[1,2]},{\"tid\":78,\"calls\":2}],\"cpu_s\":\"no\"},\n"
	/* a first thread row that is not an object; no tid at all */
	"{\"region\":\"b\",\"calls\":1,\"time_s\":1,\"threads\":[null,{}]},\n"
	"{\"region\":\"c\",\"calls\":1,\"time_s\":1,"
	"\"threads\":[{\"pid\":1}]}]}\n";

Test(report_file_thin, regions_read_the_same_whatever_else_they_hold)
{
	struct rl_report_file f;
	const struct rl_report_region *a, *b, *c;
	char err[512], *dir = e2e_tmpdir(), path[600];
	FILE *fp;

	snprintf(path, sizeof path, "%s/report.json", dir);
	cr_assert_not_null(fp = fopen(path, "w"));
	fputs(doc, fp);
	fclose(fp);
	cr_assert_eq(rl_report_file_load(dir, &f, err, sizeof err), 0, "%s",
		     err);
	cr_assert_eq(f.n_regions, 3);
	cr_assert_not_null(a = rl_report_file_find(&f, "a"));
	cr_assert_null(rl_report_file_find(&f, "zzz"));
	cr_expect_float_eq(a->calls, 3, 0);
	cr_expect_float_eq(a->time_s, 0.25, 0);
	cr_expect_float_eq(a->roof_pct, 41.5, 0);
	cr_expect_str_eq(a->bound_roof, "DRAM");
	cr_expect_str_eq(a->bound, "memory");
	cr_expect_str_eq(a->basis, "counted");
	cr_expect_str_eq(a->diagnosis, "x; y");
	cr_expect_float_eq(a->flops, 12, 0);
	cr_expect_float_eq(a->level_bytes[0], 1, 0);
	cr_expect(isnan(a->level_bytes[1]) && isnan(a->level_bytes[2]));
	cr_expect_float_eq(a->level_bytes[3], 4, 0);
	cr_expect(a->simulated);
	cr_expect_eq(a->n_thread_rows, 2);
	cr_expect_float_eq(a->first_tid, 77, 0);
	cr_assert_not_null(b = rl_report_file_find(&f, "b"));
	cr_expect_eq(b->n_thread_rows, 2);
	cr_expect(isnan(b->first_tid));
	cr_expect(isnan(b->gflops) && isnan(b->roof_pct));
	cr_expect_null(b->diagnosis);
	cr_assert_not_null(c = rl_report_file_find(&f, "c"));
	cr_expect_eq(c->n_thread_rows, 1);
	cr_expect(isnan(c->first_tid));
	rl_report_file_release(&f);
	e2e_rmtree_raw(dir);
	free(dir);
}
