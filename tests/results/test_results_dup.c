/* Duplicated input (results_dir.c, results_json.c): a results file copied
 * under another pid, the same process twice, a key given twice. Each is
 * refused with a message that says which files and what to do; counts are
 * never doubled. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/run_results.h"
#include "common/rl_error.h"
#include "tests/lib/run.h"

/* One results file: process pid, started at start, one thread tid. */
static void put_results(const char *dir, long name_pid, long pid,
			unsigned long start, unsigned long tid)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof path, "%s/raw", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/raw/rlprof-%ld.json", dir, name_pid);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"format\":\"rlprof-results\",\"version\":1,\"pid\":%ld,"
		"\"program\":\"p\",\"backend\":\"time\",\"counters\":[],"
		"\"start_ns\":%lu,\"threads\":[{\"tid\":%lu,\"regions\":[{"
		"\"name\":\"a\",\"calls\":3,\"time_ns\":5}]}]}\n",
		pid, start, tid);
	fclose(f);
}

static int load(const char *dir, char *err, size_t errlen, size_t *n)
{
	struct rl_run_results res;
	int rc = rl_results_load_dir(dir, &res, err, errlen);

	*n = res.n_procs;
	rl_run_results_release(&res);
	return rc;
}

Test(results_dup, file_copied_under_another_pid_is_refused)
{
	char *dir = e2e_tmpdir(), err[1024] = "";
	size_t n;

	put_results(dir, 100, 100, 5, 100);
	put_results(dir, 200, 100, 5, 100); /* cp rlprof-100 rlprof-200 */
	cr_expect_eq(load(dir, err, sizeof err, &n), RL_EFORMAT);
	cr_expect(strstr(err, "rlprof-200.json' holds the results of process "
			      "100, not of 200 as its name says"),
		  "%s", err);
	e2e_rmtree(dir);
	free(dir);
}

Test(results_dup, same_process_twice_is_refused)
{
	char *dir = e2e_tmpdir(), err[1024] = "";
	size_t n;

	put_results(dir, 100, 100, 5, 100);
	put_results(dir, 200, 200, 5, 100); /* the copy's pid edited too */
	cr_expect_eq(load(dir, err, sizeof err, &n), RL_EFORMAT);
	cr_expect(strstr(err, "rlprof-200.json' and 'rlprof-100.json' hold "
			      "the same process"),
		  "%s", err);
	e2e_rmtree(dir);
	free(dir);
}

Test(results_dup, distinct_processes_are_read)
{
	char *dir = e2e_tmpdir(), err[1024] = "";
	size_t n = 0;

	put_results(dir, 100, 100, 5, 100);
	put_results(dir, 101, 101, 6, 101);
	cr_expect_eq(load(dir, err, sizeof err, &n), 0, "%s", err);
	cr_expect_eq(n, 2);
	e2e_rmtree(dir);
	free(dir);
}

/* "threads":[] appended after the real threads emptied the file: the
 * report said "(no regions were entered)", exit 0. */
Test(results_dup, key_given_twice_is_refused)
{
	char path[] = "/tmp/rlprof-dup-XXXXXX";
	struct rl_process_results r;
	char err[1024] = "";
	int fd = mkstemp(path);
	FILE *f;

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs("{\"format\":\"rlprof-results\",\"version\":1,\"pid\":1,"
	      "\"program\":\"p\",\"backend\":\"time\",\"counters\":[],"
	      "\"threads\":[{\"tid\":1,\"regions\":[{\"name\":\"a\","
	      "\"calls\":1,\"time_ns\":5}]}],\"threads\":[]}",
	      f);
	fclose(f);
	cr_expect_eq(rl_results_load(path, &r, err, sizeof err), RL_EFORMAT);
	cr_expect(strstr(err, "duplicate object key"), "%s", err);
	unlink(path);
}
