/*
 * rlprof run under limits (issue 41): the DRAM check around the run
 * cannot start its workers (a memory limit, a process limit, a machine
 * model whose caches claim 2^62 bytes). It used to wait forever on a
 * barrier that could never fill; now the run goes on, says the check was
 * not taken and why, and exits with the program's status. Each run is
 * under timeout(1): a hang fails the test (status 124) rather than
 * hanging it.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/run.h"

#define TIMEOUT "/usr/bin/timeout"

/* A model of one DRAM roof on every CPU (4 MiB working set) and one
 * cache level claiming llc bytes; written to dir/model.json. */
static void limits_model(const char *dir, unsigned long long llc)
{
	char text[2048], path[600];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	snprintf(path, sizeof path, "%s/model.json", dir);
	snprintf(text, sizeof text,
		 "{\"format\": \"rlprof-machine\", \"version\": 2, "
		 "\"cpu_model\": \"test\", \"isa\": \"sse2\", \"cores\": %ld, "
		 "\"mem_bytes\": 1073741824, \"probed_at\": "
		 "\"2026-01-01T00:00:00Z\", \"quick\": false, "
		 "\"bandwidth\": [{\"level\": \"DRAM\", \"threads\": %ld, "
		 "\"stream_gbs\": 10, \"moved_gbs\": 13, "
		 "\"working_set_bytes\": 4194304, \"method\": \"test\"}], "
		 "\"compute\": [{\"name\": \"scalar\", \"kind\": \"peak\", "
		 "\"precision\": \"f64\", \"threads\": %ld, \"gflops\": 1.0, "
		 "\"method\": \"test\"}], \"levels\": [{\"level\": \"L3\", "
		 "\"claimed_bytes\": %llu, \"ways\": 16, \"line_bytes\": 64, "
		 "\"shared_cpus\": %ld, \"source\": \"sysfs\", "
		 "\"effective_bytes\": null, \"effective_all_bytes\": null, "
		 "\"note\": null}]}",
		 ncpu, ncpu, ncpu, llc, ncpu);
	e2e_put_file(path, text, 0644);
}

/* The environment of a run against dir/model.json, its cache and home
 * in dir. */
struct limits_env {
	char model[640], cache[640], home[640];
	const char *v[5];
};

static void limits_env(struct limits_env *e, const char *dir)
{
	snprintf(e->model, sizeof e->model, "RLPROF_MACHINE=%s/model.json",
		 dir);
	snprintf(e->cache, sizeof e->cache, "XDG_CACHE_HOME=%s/cache", dir);
	snprintf(e->home, sizeof e->home, "HOME=%s", dir);
	e->v[0] = e->model;
	e->v[1] = e->cache;
	e->v[2] = e->home;
	e->v[3] = NULL;
#ifdef RL_TEST_SANITIZED
	/* LeakSanitizer checks at exit from a thread of its own, which a
	 * process limit of 1 does not let it start: it would turn the exit
	 * status into 1 ("LeakSanitizer has encountered a fatal error") */
	e->v[3] = "ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0";
	e->v[4] = NULL;
#endif
}

/* run.json's roof_check in out: not taken, and its why_not contains
 * want. */
static void expect_not_taken(const char *out, const char *want)
{
	char path[700];
	json_t *rec, *chk;
	const char *why;

	snprintf(path, sizeof path, "%s/run.json", out);
	rec = json_load_file(path, 0, NULL);
	cr_assert_not_null(rec, "no %s", path);
	chk = json_object_get(rec, "roof_check");
	cr_assert(json_is_false(json_object_get(chk, "taken")));
	why = json_string_value(json_object_get(chk, "why_not"));
	cr_assert(why && strstr(why, want), "why_not: %s", why ? why : "-");
	json_decref(rec);
}

/* `rlprof run -b time -o DIR/out e2e_exit 3` against a model of a cache
 * of llc bytes, under timeout 20 and then the wrapper's words (wrap,
 * NULL-terminated, may be empty); a hang fails the test. */
static struct e2e_result run_limited(const char *dir, unsigned long long llc,
				     const char *const *wrap)
{
	char out[600];
	const char *argv[32];
	struct limits_env env;
	size_t n = 0;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	limits_model(dir, llc);
	limits_env(&env, dir);
	argv[n++] = TIMEOUT;
	argv[n++] = "20";
	for (; *wrap; wrap++)
		argv[n++] = *wrap;
	const char *tail[] = {E2E_RLPROF, "run", "-b", "time", "-o", out,
			      E2E_PROG("e2e_exit"), "3", NULL};
	for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
		argv[n++] = tail[i];
	struct e2e_result r = e2e_run_in(NULL, argv, env.v);
	cr_assert_neq(r.status, 124, "rlprof run hung:\n%s", r.err);
	return r;
}

/* A model whose last cache claims 2^62 bytes: the check's working set
 * (twice that) is refused with the figure, the program runs, its status
 * (3) is rlprof's. */
Test(e2e_limits, absurd_cache_claim_does_not_hang, .timeout = 120)
{
	char *dir = e2e_tmpdir(), out[600];
	const char *none[] = {NULL};
	struct e2e_result r = run_limited(dir, 1ull << 62, none);

	snprintf(out, sizeof out, "%s/out", dir);
	cr_assert_eq(r.status, 3, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "rlprof: the DRAM check around the run was "
			 "not taken: twice the machine model's last cache "
			 "level"), "%s", r.err);
	expect_not_taken(out, "more than half this machine's memory");
	e2e_expect_csv_row(out, "report.csv", "exit-work");
	e2e_cleanup(&r, dir);
}

/* ulimit -v 60000 (60 MB): the check's arrays (3 x 512 MiB / threads,
 * from a 256 MiB cache) cannot be had; the program, small, still runs
 * and is reported. */
Test(e2e_limits, memory_limit_does_not_hang, .timeout = 120)
{
#ifdef RL_TEST_SANITIZED
	cr_skip_test("AddressSanitizer reserves terabytes of address space: "
		     "no program of this build runs under ulimit -v");
#endif
	char *dir = e2e_tmpdir(), out[600];
	const char *sh[] = {"/bin/sh", "-c",
			    "ulimit -v 60000 && exec \"$0\" \"$@\"", NULL};
	struct e2e_result r = run_limited(dir, 256ull << 20, sh);

	snprintf(out, sizeof out, "%s/out", dir);
	cr_assert_eq(r.status, 3, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "rlprof: the DRAM check around the run was "
			 "not taken: cannot allocate 3 x "), "%s", r.err);
	expect_not_taken(out, "(a limit on memory, ulimit -v?)");
	e2e_expect_csv_row(out, "report.csv", "exit-work");
	e2e_cleanup(&r, dir);
}

/* ulimit -u 1 for an unprivileged user (root is exempt: run as nobody):
 * not one worker thread, and not the program either; rlprof says both
 * and ends with its own failure status, never hangs. */
Test(e2e_limits, process_limit_does_not_hang, .timeout = 120)
{
	char *dir = e2e_tmpdir();

	if (geteuid() != 0)
		cr_skip_test("needs root to run rlprof as nobody (a process "
			     "limit does not hold for root)");
	if (access("/usr/bin/setpriv", X_OK) || access("/usr/bin/prlimit", X_OK))
		cr_skip_test("needs setpriv and prlimit (Debian: util-linux)");
	cr_assert_eq(chmod(dir, 0777), 0);
	const char *as_nobody[] = {"/usr/bin/setpriv", "--reuid=nobody",
				   "--regid=nogroup", "--clear-groups",
				   "/usr/bin/prlimit", "--nproc=1:1", NULL};
	struct e2e_result r = run_limited(dir, 1ull << 20, as_nobody);
	if (strstr(r.err, "setpriv:") || strstr(r.err, "prlimit:"))
		cr_skip_test("cannot become nobody with a process limit "
			     "here: %s", r.err);
	if (strstr(r.err, "Permission denied"))
		cr_skip_test("nobody cannot read the build here: %s", r.err);
	cr_assert(strstr(r.err, "rlprof: the DRAM check around the run was "
			 "not taken: cannot start its thread 1 of "),
		  "%s", r.err);
	cr_assert(strstr(r.err, "(a limit on processes, ulimit -u?)"), "%s",
		  r.err);
	cr_assert(strstr(r.err, "rlprof: cannot run "), "%s", r.err);
	cr_assert_eq(r.status, 126, "status %d\n%s", r.status, r.err);
	e2e_cleanup(&r, dir);
}
