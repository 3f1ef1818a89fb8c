/* results_read.c / results_json.c on damaged files: one clear message
 * (file, what is wrong, what to do), never a wrong figure. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/run_results.h"
#include "common/rl_error.h"

#define HEAD                                                                 \
	"{\"format\":\"rlprof-results\",\"version\":1,\"pid\":1,"            \
	"\"program\":\"p\",\"backend\":\"sim\",\"counters\":["              \
	"{\"name\":\"flops_any\",\"scope\":\"simulated\"}],"

/* Loads text as a results file into *r; returns the status, err
 * filled (*r to release when 0). */
static int load_into(const char *text, struct rl_process_results *r,
		     char *err, size_t errlen)
{
	char path[] = "/tmp/rlprof-rr-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f;

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	rc = rl_results_load(path, r, err, errlen);
	unlink(path);
	return rc;
}

/* Loads text as a results file; returns the status, err filled. */
static int load_text(const char *text, char *err, size_t errlen)
{
	struct rl_process_results r;
	int rc = load_into(text, &r, err, errlen);

	if (rc == 0)
		rl_results_release(&r);
	return rc;
}

Test(results_robust, negative_counts_are_corrupt)
{
	char err[512] = "";

	cr_assert_eq(load_text(HEAD "\"threads\":[{\"tid\":1,\"regions\":[{"
				    "\"name\":\"a\",\"calls\":1,\"time_ns\":5,"
				    "\"counters\":{\"flops_any\":{\"value\":7,"
				    "\"scaled\":-7}}}]}]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "counter 'flops_any': field 'scaled' is not a "
			      "non-negative number: the file is corrupt; "
			      "re-run rlprof run"),
		  "%s", err);
	cr_assert_eq(load_text(HEAD "\"threads\":[{\"tid\":1,\"regions\":[{"
				    "\"name\":\"a\",\"calls\":1,\"time_ns\":5,"
				    "\"expected_flops\":-1e308}]}]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "threads[0].regions[0]: field 'expected_flops' "
			      "is not a non-negative number"),
		  "%s", err);
}

/* The runtime keeps one entry per name and thread: a second one would be
 * summed twice and counted as a second thread. */
Test(results_robust, a_region_listed_twice_in_a_thread_is_corrupt)
{
	char err[512] = "";

	cr_assert_eq(load_text(HEAD "\"threads\":[{\"tid\":1,\"regions\":["
				    "{\"name\":\"a\",\"calls\":1,\"time_ns\":5},"
				    "{\"name\":\"b\",\"calls\":1,\"time_ns\":5},"
				    "{\"name\":\"a\",\"calls\":1,\"time_ns\":5}"
				    "]}]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "threads[0]: region 'a' is listed twice: the "
			      "file is corrupt"),
		  "%s", err);
}

/* Of several names listed twice, the first in sort order is named (as
 * when the check sorted the names; it looks them up in an index now),
 * whatever their order in the file. */
Test(results_robust, of_several_names_listed_twice_the_first_sorted_is_named)
{
	char err[512] = "";

	cr_assert_eq(load_text(HEAD "\"threads\":[{\"tid\":1,\"regions\":["
				    "{\"name\":\"zeta\",\"calls\":1,\"time_ns\":5},"
				    "{\"name\":\"mu\",\"calls\":1,\"time_ns\":5},"
				    "{\"name\":\"zeta\",\"calls\":1,\"time_ns\":5},"
				    "{\"name\":\"mu\",\"calls\":1,\"time_ns\":5},"
				    "{\"name\":\"alpha\",\"calls\":1,\"time_ns\":5}"
				    "]}]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "threads[0]: region 'mu' is listed twice"),
		  "%s", err);
}

Test(results_robust, a_thread_index_listed_twice_is_corrupt)
{
	char err[512] = "";

	/* a reused tid is fine (the kernel recycles them) */
	cr_assert_eq(load_text(HEAD "\"threads\":["
				    "{\"tid\":1,\"index\":0,\"regions\":[]},"
				    "{\"tid\":1,\"index\":1,\"regions\":[]}]}",
			       err, sizeof err),
		     0, "%s", err);
	cr_assert_eq(load_text(HEAD "\"threads\":["
				    "{\"tid\":1,\"index\":0,\"regions\":[]},"
				    "{\"tid\":2,\"index\":0,\"regions\":[]}]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "threads[1]: thread index 0 is listed twice"),
		  "%s", err);
}

Test(results_robust, an_empty_file_says_so)
{
	char err[512] = "";

	cr_assert_eq(load_text("", err, sizeof err), RL_EFORMAT);
	cr_assert(strstr(err, "': the file is empty (the process was killed "
			      "while writing it?): re-run rlprof run"),
		  "%s", err);
}

Test(results_robust, a_directory_is_not_a_results_file)
{
	char dir[] = "/tmp/rlprof-rr-XXXXXX", path[64], err[512] = "";
	struct rl_process_results r;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/rlprof-1.json", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	cr_assert_eq(rl_results_load(path, &r, err, sizeof err), RL_EIO);
	rmdir(path);
	rmdir(dir);
	cr_assert(strstr(err, "cannot read '/tmp/rlprof-rr-"), "%s", err);
	cr_assert(strstr(err, "/rlprof-1.json': not a regular file (a "
			      "directory): remove it"),
		  "%s", err);
}

/* Text from the file is shown escaped in the one-line message: no
 * terminal escape, no line break. */
Test(results_robust, file_text_in_messages_is_escaped)
{
	char err[512] = "";

	cr_assert_eq(load_text("{\"format\":\"\\u001b[2J\\nx\",\"version\":1}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "(format '\\x1b[2J\\nx', expected "
			      "'rlprof-results')"),
		  "%s", err);
	cr_assert_eq(load_text(HEAD "\"threads\":[]}", err, sizeof err), 0);
	cr_assert_eq(load_text("{\"format\":\"rlprof-results\",\"version\":1,"
			       "\"pid\":1,\"program\":\"p\",\"backend\":\"b\","
			       "\"counters\":[{\"name\":\"\\u001b]0;pwn\\u0007"
			       "\"}],\"threads\":[]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "unknown counter '\\x1b]0;pwn\\x07'"), "%s", err);
	cr_assert_null(strchr(err, '\x1b'));
	cr_assert_null(strchr(err, '\n'));
}

/* dir/run.json with text. */
static void write_run_json(const char *dir, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/run.json", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* A results directory in dir (a mkdtemp template): one empty process
 * file in raw/ and run.json with run_json's text. */
static void results_dir(char *dir, const char *run_json)
{
	char path[256];
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/raw", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/raw/rlprof-1.json", dir);
	cr_assert_not_null(f = fopen(path, "w"));
	fputs(HEAD "\"threads\":[]}", f);
	fclose(f);
	write_run_json(dir, run_json);
}

/* An out-of-range status would wrap around to a plausible one
 * (4294967296 -> "exit status 0"). */
Test(results_robust, out_of_range_status_and_signal_are_corrupt)
{
	char dir[] = "/tmp/rlprof-rr-XXXXXX", cmd[256], err[512] = "";
	struct rl_run_results run;

	cr_assert_eq(load_text(HEAD "\"signal\":4294967302,\"threads\":[]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "field 'signal' is not a signal number"), "%s",
		  err);
	results_dir(dir, "{\"format\":\"rlprof-run\",\"version\":1,"
			 "\"exit_status\":4294967296}");
	cr_assert_eq(rl_results_load_dir(dir, &run, err, sizeof err),
		     RL_EFORMAT);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert(strstr(err, "run.json': field 'exit_status' is not an exit "
			      "status (0 to 255)"),
		  "%s", err);
}

/* run.json's timed_fma (rlprof run --count-with) is true, false or null:
 * anything else is said, and false reaches the results. */
Test(results_robust, timed_fma_is_a_boolean)
{
	static const char *const runs[2] = {
		"{\"format\":\"rlprof-run\",\"version\":1,"
		"\"timed_fma\":\"no\"}",
		"{\"format\":\"rlprof-run\",\"version\":1,"
		"\"timed_fma\":false}"};
	char dir[] = "/tmp/rlprof-rr-XXXXXX", cmd[256], err[512] = "";
	struct rl_run_results run;

	results_dir(dir, runs[0]);
	for (int i = 0; i < 2; i++) {
		write_run_json(dir, runs[i]);
		int rc = rl_results_load_dir(dir, &run, err, sizeof err);
		if (i == 0) {
			cr_expect_eq(rc, RL_EFORMAT);
			cr_expect(strstr(err, "run.json': field 'timed_fma' is "
					      "not true, false or null"),
				  "%s", err);
		} else {
			cr_expect_eq(rc, 0, "%s", err);
			cr_expect(run.timed_no_fma);
			rl_run_results_release(&run);
		}
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

/* The program's clock reads (rt_clock_reads.c): counted for every region
 * of a process whose "clock_reads_counted" is true (a region without
 * "clock_reads" read none), not known for a file without it; the flag is
 * a boolean and the reads a count. */
#define CLOCK_REGIONS                                                        \
	"\"threads\":[{\"tid\":1,\"regions\":[{\"name\":\"a\",\"calls\":1,"  \
	"\"time_ns\":5,\"clock_reads\":17},{\"name\":\"b\",\"calls\":1,"     \
	"\"time_ns\":5}]}]}"

Test(results_robust, clock_reads_are_known_where_counted)
{
	struct rl_process_results r;
	char err[512] = "";

	cr_assert_eq(load_into(HEAD "\"clock_reads_counted\":true,"
				CLOCK_REGIONS, &r, err, sizeof err), 0, "%s",
		     err);
	cr_expect(r.clock_reads_counted);
	cr_expect(r.threads[0].regions[0].clock_known);
	cr_expect_eq(r.threads[0].regions[0].clock_reads, 17);
	cr_expect(r.threads[0].regions[1].clock_known);
	cr_expect_eq(r.threads[0].regions[1].clock_reads, 0);
	rl_results_release(&r);

	/* an older file: not counted, whatever a region says */
	cr_assert_eq(load_into(HEAD CLOCK_REGIONS, &r, err, sizeof err), 0,
		     "%s", err);
	cr_expect_not(r.clock_reads_counted);
	cr_expect_not(r.threads[0].regions[0].clock_known);
	cr_expect_not(r.threads[0].regions[1].clock_known);
	rl_results_release(&r);

	cr_assert_eq(load_text(HEAD "\"clock_reads_counted\":3," CLOCK_REGIONS,
			       err, sizeof err),
		     RL_EFORMAT);
	cr_expect(strstr(err, "clock_reads_counted"), "%s", err);
	cr_assert_eq(load_text(HEAD "\"clock_reads_counted\":true,"
				    "\"threads\":[{\"tid\":1,\"regions\":[{"
				    "\"name\":\"a\",\"calls\":1,\"time_ns\":5,"
				    "\"clock_reads\":-2}]}]}",
			       err, sizeof err),
		     RL_EFORMAT);
	cr_expect(strstr(err, "clock_reads"), "%s", err);
}
