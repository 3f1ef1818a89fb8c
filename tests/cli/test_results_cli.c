/* rlprof report: the real command on saved results. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/run.h"

#define DATA RL_SOURCE_DIR "/tests/data/results/"
#define RLPROF RL_BUILD_DIR "/bin/rlprof"

struct ran {
	int status;
	char out[65536];
	char err[4096];
};

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* Runs `rlprof report ARGS` (split at spaces) with a private cache dir
 * (no probing). */
static void run_report(struct ran *r, const char *args)
{
	const char *env[] = {"XDG_CACHE_HOME=/nonexistent-rlprof-cache", NULL};
	const char *argv[32] = {RLPROF, "report"};
	char words[2048], *save = NULL;
	struct e2e_result res;
	size_t n = 2;

	if (access(RLPROF, X_OK) != 0)
		cr_skip_test("%s is not built", RLPROF);
	snprintf(words, sizeof words, "%s", args);
	for (char *w = strtok_r(words, " ", &save); w && n < 31;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	res = e2e_run_in(NULL, argv, env);
	cr_assert(res.status >= 0 && res.status < 128, "rlprof report %s: %d",
		  args, res.status);
	r->status = res.status;
	snprintf(r->out, sizeof r->out, "%s", res.out);
	snprintf(r->err, sizeof r->err, "%s", res.err);
	e2e_free(&res);
}

/* A run directory whose only results file is a copy of DATA name. */
static void make_dir(char *dir, const char *name)
{
	char raw[512], from[512], *text;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(raw, sizeof raw, "%s/raw", dir);
	cr_assert_eq(mkdir(raw, 0755), 0);
	snprintf(from, sizeof from, "%s%s", DATA, name);
	text = e2e_slurp(from);
	cr_assert_not_null(text, "cannot read '%s'", from);
	snprintf(raw, sizeof raw, "%s/raw/rlprof-1.json", dir);
	e2e_put_file(raw, text, 0644);
	free(text);
}

static void remove_dir(const char *dir)
{
	e2e_rmtree_raw(dir);
}

Test(report_cli, renders_the_table)
{
	struct ran r;

	run_report(&r, DATA "run1 --no-probe");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "backend: time (no hardware PMU; sim not "
				"installed)\n"),
		  "%s", r.out);
	cr_assert(strstr(r.out, "command: ./kern --size '1 M' 'it'\\''s' "
				"(exit status 3)\n"),
		  "%s", r.out);
	cr_assert(strstr(r.out, "\nchild "), "%s", r.out);
}

Test(report_cli, json_and_csv_to_stdout_and_to_a_file)
{
	struct ran r;
	char path[] = "/tmp/rlprof-rj-XXXXXX", args[512];
	json_error_t je;
	json_t *doc;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	run_report(&r, DATA "run1 --no-probe --format json");
	cr_assert_eq(r.status, 0, "%s", r.err);
	doc = json_loads(r.out, 0, &je);
	cr_assert_not_null(doc, "%s: %s", je.text, r.out);
	cr_assert_eq(json_array_size(json_object_get(doc, "regions")), 3);
	cr_assert_eq(json_integer_value(json_object_get(doc, "exit_status")),
		     3);
	json_decref(doc);

	snprintf(args, sizeof args, "%srun1 --no-probe -f csv -o %s", DATA,
		 path);
	run_report(&r, args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "");
	slurp(path, r.out, sizeof r.out);
	cr_assert(strncmp(r.out, "region,thread,calls,time_s,", 27) == 0, "%s",
		  r.out);
	cr_assert(strstr(r.out, "\nplain,,4,1,,,,,,,,,,,,time,,,,no flop or "
			 "byte counts and nothing declared"),
		  "%s", r.out);
	unlink(path);
}

Test(report_cli, unknown_format_is_a_usage_error)
{
	struct ran r;

	run_report(&r, DATA "run1 --no-probe --format xml");
	cr_assert_eq(r.status, 2);
	cr_assert_str_eq(r.err, "rlprof: unknown format 'xml': use table, "
				"json, csv, svg or html\n");
	run_report(&r, "");
	cr_assert_eq(r.status, 2);
}

Test(report_cli, corrupt_and_newer_results_fail_with_one_line)
{
	struct ran r;
	char dir[] = "/tmp/rlprof-rd-XXXXXX", dir2[] = "/tmp/rlprof-rd-XXXXXX",
	     args[256];

	make_dir(dir, "corrupt.json");
	snprintf(args, sizeof args, "%s --no-probe", dir);
	run_report(&r, args);
	cr_assert_eq(r.status, 1);
	cr_assert(strncmp(r.err, "rlprof: cannot parse '", 22) == 0, "%s",
		  r.err);
	cr_assert(strstr(r.err, "re-run rlprof run\n"), "%s", r.err);
	cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "%s",
		     r.err);
	remove_dir(dir);

	make_dir(dir2, "newer.json");
	snprintf(args, sizeof args, "%s --no-probe", dir2);
	run_report(&r, args);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "was written by a newer rlprof (results "
				"version 3, this one reads 2): upgrade rlprof\n"),
		  "%s", r.err);
	remove_dir(dir2);
}

Test(report_cli, unwritable_output_fails)
{
	struct ran r;

	run_report(&r, DATA "run1 --no-probe -o /nonexistent-dir/x.csv -f csv");
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "rlprof: cannot write the csv report "
				"'/nonexistent-dir/x.csv': No such file or "
				"directory\n"),
		  "%s", r.err);
}

Test(report_cli, missing_directory_fails)
{
	struct ran r;

	run_report(&r, "/nonexistent-rlprof-dir --no-probe");
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err, "rlprof: cannot open '/nonexistent-rlprof-dir': "
				"No such file or directory\n");
}
