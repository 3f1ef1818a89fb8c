/*
 * librlprof end to end: the programs tests/programs/rt_*.c run as child
 * processes with RLPROF_* set, and the results files they leave are read
 * back with jansson.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters/backend.h"

#define PROGS RL_BUILD_DIR "/tests/programs/"

extern char **environ;
static bool ignore_sigint; /* the child starts with SIGINT ignored */

struct run {
	char dir[64];
	int status;
	json_t *doc[4]; /* results files, sorted by pid */
	size_t n_docs;
};

/* Run PROGS prog with args; env: the test's environment without RLPROF_*,
 * plus RLPROF_OUT=<fresh dir> (unless no_out) and extra "NAME=VALUE"s. */
static void run_prog(struct run *r, const char *prog, const char *arg,
		     const char *const *extra, bool no_out)
{
	memset(r, 0, sizeof *r);
	snprintf(r->dir, sizeof r->dir, "/tmp/rlprof-rt-XXXXXX");
	cr_assert_not_null(mkdtemp(r->dir));
	char *envp[256], out[128];
	size_t n = 0;
	for (char **e = environ; *e && n < 200; e++)
		if (strncmp(*e, "RLPROF_", 7) != 0 &&
		    strncmp(*e, "ASAN_OPTIONS=", 13) != 0)
			envp[n++] = *e;
	snprintf(out, sizeof out, "RLPROF_OUT=%s", r->dir);
	if (!no_out)
		envp[n++] = out;
	/* Sanitizer builds: let rlprof's handlers see the fatal signals. */
	envp[n++] = "ASAN_OPTIONS=handle_segv=0:handle_abort=0:handle_sigbus=0:"
		    "handle_sigfpe=0:handle_sigill=0:detect_leaks=0";
	for (size_t i = 0; extra && extra[i]; i++)
		envp[n++] = (char *)extra[i];
	envp[n] = NULL;
	char path[512];
	snprintf(path, sizeof path, PROGS "%s", prog);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char *argv[] = {path, (char *)arg, NULL};
		/* SIGINT as the test asks, whatever the runner inherited (a
		 * shell's background job starts with it ignored) */
		signal(SIGINT, ignore_sigint ? SIG_IGN : SIG_DFL);
		execve(path, argv, envp);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &r->status, 0), pid);

	DIR *d = opendir(r->dir);
	cr_assert_not_null(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		/* Written to a temporary file and renamed: none left. */
		cr_assert(strncmp(de->d_name, "rlprof-", 7) == 0,
			  "unexpected file '%s'", de->d_name);
		char f[512];
		snprintf(f, sizeof f, "%s/%s", r->dir, de->d_name);
		json_error_t err;
		json_t *doc = json_load_file(f, 0, &err);
		cr_assert_not_null(doc, "'%s' does not parse: %s", f, err.text);
		cr_assert_lt(r->n_docs, 4);
		r->doc[r->n_docs++] = doc;
		unlink(f);
	}
	closedir(d);
	rmdir(r->dir);
	/* Sort by pid (parent before child). */
	for (size_t i = 1; i < r->n_docs; i++)
		for (size_t j = i; j > 0; j--) {
			json_int_t a = json_integer_value(
				json_object_get(r->doc[j - 1], "pid"));
			json_int_t b = json_integer_value(
				json_object_get(r->doc[j], "pid"));
			if (a <= b)
				break;
			json_t *t = r->doc[j];
			r->doc[j] = r->doc[j - 1];
			r->doc[j - 1] = t;
		}
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->n_docs; i++)
		json_decref(r->doc[i]);
}

static json_t *thread_at(json_t *doc, size_t index)
{
	json_t *threads = json_object_get(doc, "threads");
	for (size_t i = 0; i < json_array_size(threads); i++) {
		json_t *t = json_array_get(threads, i);
		if ((size_t)json_integer_value(json_object_get(t, "index")) ==
		    index)
			return t;
	}
	return NULL;
}

static json_t *region(json_t *thread, const char *name)
{
	json_t *regions = json_object_get(thread, "regions");
	for (size_t i = 0; i < json_array_size(regions); i++) {
		json_t *r = json_array_get(regions, i);
		if (strcmp(json_string_value(json_object_get(r, "name")),
			   name) == 0)
			return r;
	}
	return NULL;
}

static long long num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	cr_assert(json_is_number(v), "'%s' is not a number", key);
	return (long long)json_number_value(v);
}

static json_t *reg0(struct run *r, const char *name)
{
	json_t *t = thread_at(r->doc[0], 0);
	cr_assert_not_null(t);
	json_t *x = region(t, name);
	cr_assert_not_null(x, "no region '%s'", name);
	return x;
}

static void assert_exit0(struct run *r)
{
	cr_assert(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0,
		  "program status %d", r->status);
	cr_assert_eq(r->n_docs, 1);
}

Test(runtime, nesting_is_inclusive)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "nest", NULL, false);
	assert_exit0(&r);
	json_t *outer = reg0(&r, "outer"), *inner = reg0(&r, "inner");
	cr_assert_eq(num(outer, "calls"), 1);
	cr_assert_eq(num(inner, "calls"), 3);
	cr_assert_geq(num(outer, "time_ns"), num(inner, "time_ns"));
	cr_assert_gt(num(inner, "time_ns"), 0);
	cr_assert(json_is_true(json_object_get(r.doc[0], "complete")));
	cr_assert_str_eq(json_string_value(json_object_get(r.doc[0], "format")),
			 "rlprof-results");
	cr_assert_eq(num(r.doc[0], "version"), 2);
	cr_assert_str_eq(json_string_value(json_object_get(r.doc[0], "backend")),
			 "time");
	cr_assert_eq(json_array_size(json_object_get(r.doc[0], "counters")), 0);
	run_free(&r);
}

Test(runtime, repeats_add_up)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "repeat", NULL, false);
	assert_exit0(&r);
	cr_assert_eq(num(reg0(&r, "r"), "calls"), 5);
	run_free(&r);
}

Test(runtime, each_thread_has_its_own_rows)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "threads", NULL, false);
	assert_exit0(&r);
	cr_assert_eq(json_array_size(json_object_get(r.doc[0], "threads")), 4);
	cr_assert_eq(num(reg0(&r, "main"), "calls"), 1);
	cr_assert_null(region(thread_at(r.doc[0], 0), "work"));
	int steps = 0, tids_differ = 1;
	for (size_t i = 1; i <= 3; i++) {
		json_t *t = thread_at(r.doc[0], i);
		cr_assert_not_null(t);
		cr_assert_eq(num(region(t, "work"), "calls"), 1);
		steps |= 1 << num(region(t, "step"), "calls");
		if (num(t, "tid") == num(thread_at(r.doc[0], 0), "tid"))
			tids_differ = 0;
	}
	cr_assert_eq(steps, (1 << 1) | (1 << 2) | (1 << 3));
	cr_assert(tids_differ);
	cr_assert_eq(json_array_size(json_object_get(r.doc[0], "warnings")), 0);
	run_free(&r);
}

static const char *warning(json_t *doc, const char *kind, const char *reg,
			   long long *tid)
{
	json_t *w = json_object_get(doc, "warnings");
	for (size_t i = 0; i < json_array_size(w); i++) {
		json_t *x = json_array_get(w, i);
		json_t *rg = json_object_get(x, "region");
		if (strcmp(json_string_value(json_object_get(x, "kind")), kind))
			continue;
		if (reg && (!json_is_string(rg) ||
			    strcmp(json_string_value(rg), reg)))
			continue;
		if (tid)
			*tid = num(x, "tid");
		return json_string_value(json_object_get(x, "message"));
	}
	return NULL;
}

Test(runtime, misuse_is_warned_and_never_loses_data)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "misuse", NULL, false);
	assert_exit0(&r);
	json_t *doc = r.doc[0];
	long long tid = num(thread_at(doc, 0), "tid"), t2 = 0;
	char want[1024];

	snprintf(want, sizeof want,
		 "end of region 'a' while 'b' is still open inside it "
		 "(thread %lld): 'b' closed there too",
		 tid);
	cr_assert_str_eq(warning(doc, "end-mismatch", "b", NULL), want);
	cr_assert_eq(num(reg0(&r, "a"), "calls"), 1);
	cr_assert_eq(num(reg0(&r, "b"), "calls"), 1);

	snprintf(want, sizeof want,
		 "end of region 'zz' that is not open (thread %lld): ignored",
		 tid);
	cr_assert_str_eq(warning(doc, "end-without-begin", "zz", NULL), want);
	cr_assert_null(region(thread_at(doc, 0), "zz"));

	snprintf(want, sizeof want,
		 "empty region name (thread %lld): recorded as '<empty>' "
		 "(4 times)",
		 tid);
	cr_assert_str_eq(warning(doc, "empty-name", "<empty>", NULL), want);
	cr_assert_eq(num(reg0(&r, "<empty>"), "calls"), 2);

	char x255[256];
	memset(x255, 'x', 255);
	x255[255] = '\0';
	cr_assert_eq(num(reg0(&r, x255), "calls"), 1);
	const char *m = warning(doc, "long-name", x255, NULL);
	cr_assert_not_null(m);
	snprintf(want, sizeof want,
		 "region name longer than 255 bytes (thread %lld): truncated "
		 "to '%s' (2 times)",
		 tid, x255);
	cr_assert_str_eq(m, want);

	/* a negative and a NaN declaration: two mistakes, two warnings (one
	 * message said "negative or non-finite" of both) */
	snprintf(want, sizeof want,
		 "negative flops or bytes declared for region 'a' (thread "
		 "%lld): ignored", tid);
	cr_assert_str_eq(warning(doc, "bad-expect", "a", NULL), want);
	snprintf(want, sizeof want,
		 "NaN or infinite flops or bytes declared for region 'a' "
		 "(thread %lld): ignored", tid);
	cr_assert_str_eq(warning(doc, "bad-expect-nonfinite", "a", NULL), want);
	cr_assert_null(json_object_get(reg0(&r, "a"), "expect_calls"),
		       "nothing declared: left out (the reader's 0)");

	snprintf(want, sizeof want,
		 "region 'c' still open at exit (thread %lld): its unfinished "
		 "call is not counted",
		 tid);
	cr_assert_str_eq(warning(doc, "open-at-exit", "c", NULL), want);
	cr_assert_eq(num(reg0(&r, "c"), "calls"), 0);
	cr_assert_eq(num(reg0(&r, "c"), "open_at_exit"), 1);
	cr_assert_eq(num(reg0(&r, "c"), "time_ns"), 0);

	m = warning(doc, "open-at-exit", "left-open", &t2);
	snprintf(want, sizeof want,
		 "region 'left-open' still open when its thread exited "
		 "(thread %lld): its unfinished call is not counted",
		 t2);
	cr_assert_str_eq(m, want);
	cr_assert_eq(num(thread_at(doc, 1), "tid"), t2);
	cr_assert_neq(t2, tid);
	cr_assert_eq(num(region(thread_at(doc, 1), "left-open"),
			 "open_at_exit"),
		     1);
	run_free(&r);
}

static void crash(const char *how, int sig)
{
	struct run r;
	run_prog(&r, "rt_crash", how, NULL, false);
	cr_assert(WIFSIGNALED(r.status), "%s: not killed by a signal", how);
	cr_assert_eq(WTERMSIG(r.status), sig, "%s: signal %d", how,
		     WTERMSIG(r.status));
	cr_assert_eq(r.n_docs, 1, "%s: no results file", how);
	json_t *doc = r.doc[0];
	cr_assert(json_is_false(json_object_get(doc, "complete")));
	cr_assert_eq(num(doc, "signal"), sig);
	cr_assert_eq(num(reg0(&r, "done"), "calls"), 1);
	cr_assert_eq(num(reg0(&r, "crashing"), "calls"), 0);
	cr_assert_eq(num(reg0(&r, "crashing"), "open_at_exit"), 1);
	const char *m = warning(doc, "open-at-exit", "crashing", NULL);
	cr_assert_not_null(m);
	char want[64];
	snprintf(want, sizeof want, "still open when signal %d (", sig);
	cr_assert_not_null(strstr(m, want), "%s", m);
	cr_assert_not_null(warning(doc, "signal", NULL, NULL));
	run_free(&r);
}

Test(runtime, segfault_flushes_and_keeps_the_signal_status)
{
	crash("segv", SIGSEGV);
}

Test(runtime, abort_and_sigterm_flush_too)
{
	crash("abort", SIGABRT);
	crash("term", SIGTERM);
}

Test(runtime, an_ignored_sigint_stays_ignored)
{
	crash("int", SIGINT);
	ignore_sigint = true;
	struct run r;
	run_prog(&r, "rt_crash", "int", NULL, false);
	assert_exit0(&r);
	cr_assert(json_is_true(json_object_get(r.doc[0], "complete")));
	cr_assert_eq(num(reg0(&r, "crashing"), "calls"), 1);
	run_free(&r);
}

Test(runtime, stack_overflow_flushes_on_the_alternate_stack)
{
	crash("overflow", SIGSEGV);
}

Test(runtime, fork_child_starts_afresh)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "fork", NULL, false);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	cr_assert_eq(r.n_docs, 2);
	json_t *parent = r.doc[0], *child = r.doc[1];
	cr_assert_eq(num(child, "ppid"), num(parent, "pid"));
	json_t *pt = thread_at(parent, 0), *ct = thread_at(child, 0);
	cr_assert_eq(num(region(pt, "parent"), "calls"), 1);
	cr_assert_null(region(pt, "child"));
	cr_assert_eq(num(region(ct, "child"), "calls"), 1);
	/* Open across fork(): continued and closed in the child. */
	cr_assert_eq(num(region(ct, "parent"), "calls"), 1);
	cr_assert_eq(json_array_size(json_object_get(child, "threads")), 1);
	cr_assert_eq(json_array_size(json_object_get(child, "warnings")), 0);
	run_free(&r);
}

Test(runtime, fork_from_a_thread_keeps_the_whole_program_region)
{
	struct run r;
	const char *env[] = {"RLPROF_WHOLE_PROGRAM=1", NULL};
	run_prog(&r, "rt_scenarios", "fork-thread", env, false);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	cr_assert_eq(r.n_docs, 2);
	json_t *parent = r.doc[0], *child = r.doc[1];
	cr_assert_eq(num(region(thread_at(parent, 0), "<program>"), "calls"), 1);
	cr_assert_eq(num(region(thread_at(parent, 1), "t"), "calls"), 1);
	cr_assert_eq(json_array_size(json_object_get(child, "threads")), 1);
	json_t *ct = thread_at(child, 0);
	cr_assert_eq(num(region(ct, "<program>"), "calls"), 1);
	cr_assert_eq(num(region(ct, "t"), "calls"), 1);
	cr_assert_eq(json_array_size(json_object_get(child, "warnings")), 0);
	run_free(&r);
}

Test(runtime, expect_before_inside_and_after)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "expect", NULL, false);
	assert_exit0(&r);
	json_t *e = reg0(&r, "e"), *only = reg0(&r, "only");
	cr_assert_eq(num(e, "calls"), 1);
	cr_assert_eq(num(e, "expected_flops"), 7);
	cr_assert_eq(num(e, "expected_bytes"), 70);
	cr_assert_eq(num(e, "expect_calls"), 3);
	cr_assert_eq(num(only, "calls"), 0);
	cr_assert_eq(num(only, "expected_flops"), 8);
	cr_assert_eq(num(only, "expect_calls"), 1);
	run_free(&r);
}

Test(runtime, expect_sum_that_overflows_is_refused)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "expect-overflow", NULL, false);
	assert_exit0(&r);
	json_t *big = reg0(&r, "big");
	cr_assert_eq(json_number_value(json_object_get(big, "expected_flops")),
		     1e308);
	cr_assert_eq(json_number_value(json_object_get(big, "expected_bytes")),
		     1e308);
	cr_assert_eq(num(big, "expect_calls"), 1);
	/* the overflow is not called negative (issue 41): the two
	 * mistakes are two warnings */
	const char *m = warning(r.doc[0], "bad-expect-overflow", "big", NULL);
	cr_assert_not_null(m);
	cr_assert_not_null(strstr(m, "would make the declared total infinite"),
			   "%s", m);
	cr_assert_null(strstr(m, "negative"), "%s", m);
	m = warning(r.doc[0], "bad-expect", "big", NULL);
	cr_assert(m && strstr(m, "negative flops or bytes declared") &&
			  !strstr(m, "times)"),
		  "%s", m ? m : "-");
	run_free(&r);
}

Test(runtime, inactive_writes_nothing)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "nest", NULL, true);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	cr_assert_eq(r.n_docs, 0);
	const char *empty[] = {"RLPROF_OUT=", NULL};
	run_prog(&r, "rt_scenarios", "nest", empty, true);
	cr_assert_eq(r.n_docs, 0);
}

Test(runtime, a_program_may_opt_out)
{
	struct run r;
	run_prog(&r, "rt_disabled", NULL, NULL, false);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	cr_assert_eq(r.n_docs, 0);
}

Test(runtime, whole_program_region)
{
	struct run r;
	const char *env[] = {"RLPROF_WHOLE_PROGRAM=1", NULL};
	run_prog(&r, "rt_scenarios", "nest", env, false);
	assert_exit0(&r);
	json_t *p = reg0(&r, "<program>");
	cr_assert_eq(num(p, "calls"), 1);
	cr_assert_null(json_object_get(p, "open_at_exit"), "0: left out");
	cr_assert_geq(num(p, "time_ns"), num(reg0(&r, "outer"), "time_ns"));
	cr_assert_eq(json_array_size(json_object_get(r.doc[0], "warnings")), 0);
	run_free(&r);
	run_prog(&r, "rt_crash", "segv", env, false);
	cr_assert_eq(r.n_docs, 1);
	cr_assert_eq(num(reg0(&r, "<program>"), "calls"), 1);
	run_free(&r);
}

Test(runtime, names_are_escaped_in_json)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "escape", NULL, false);
	assert_exit0(&r);
	cr_assert_not_null(region(thread_at(r.doc[0], 0), "<script>\"&\n"));
	cr_assert_not_null(
		region(thread_at(r.doc[0], 0), "bad\xef\xbf\xbd\xef\xbf\xbd"));
	cr_assert_not_null(region(thread_at(r.doc[0], 0), "caf\xc3\xa9 \x01"));
	run_free(&r);
}

Test(runtime, deep_nesting_and_many_regions)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "deep", NULL, false);
	assert_exit0(&r);
	cr_assert_eq(num(reg0(&r, "d0"), "calls"), 143);
	cr_assert_eq(num(reg0(&r, "d6"), "calls"), 142);
	cr_assert_eq(json_array_size(json_object_get(r.doc[0], "warnings")), 0);
	run_free(&r);
	run_prog(&r, "rt_scenarios", "many", NULL, false);
	assert_exit0(&r);
	json_t *regions = json_object_get(thread_at(r.doc[0], 0), "regions");
	cr_assert_eq(json_array_size(regions), 2000);
	cr_assert_eq(num(reg0(&r, "m1999"), "calls"), 1);
	/* one thread: process and thread scope count the same, no warning */
	cr_assert_null(warning(r.doc[0], "scope-full", NULL, NULL));
	run_free(&r);
	/* with threads, the 1025th main-thread name is said to count the
	 * main thread only (once), never silently */
	run_prog(&r, "rt_scenarios", "many-threaded", NULL, false);
	assert_exit0(&r);
	const char *msg = warning(r.doc[0], "scope-full", "m1024", NULL);
	cr_assert_not_null(msg);
	cr_assert(strstr(msg, "more than 1024 region names begun on the main "
			      "thread"), "%s", msg);
	cr_assert_eq(num(reg0(&r, "m1999"), "calls"), 1);
	run_free(&r);
}

Test(runtime, unknown_backend_falls_back_to_time)
{
	struct run r;
	const char *env[] = {"RLPROF_BACKEND=nosuch", NULL};
	run_prog(&r, "rt_scenarios", "nest", env, false);
	assert_exit0(&r);
	cr_assert_str_eq(json_string_value(json_object_get(r.doc[0], "backend")),
			 "time");
	cr_assert_str_eq(warning(r.doc[0], "backend", NULL, NULL),
			 "backend 'nosuch' is unknown: measured time only "
			 "(backend 'time')");
	cr_assert_eq(num(reg0(&r, "inner"), "calls"), 3);
	run_free(&r);
}

static void need_perf(void)
{
	char why[512];
	extern const struct rl_backend rl_backend_perf;
	if (rl_backend_perf.probe(why, sizeof why) < RL_CAP_SOFTWARE)
		cr_skip_test("perf software events do not work here: %s", why);
}

static json_t *counter(json_t *reg, const char *name)
{
	json_t *c = json_object_get(json_object_get(reg, "counters"), name);
	cr_assert_not_null(c, "no counter '%s'", name);
	return c;
}

Test(runtime, perf_software_events_count_a_busy_region)
{
	need_perf();
	struct run r;
	const char *env[] = {"RLPROF_BACKEND=perf", NULL};
	run_prog(&r, "rt_scenarios", "busy", env, false);
	assert_exit0(&r);
	cr_assert_str_eq(json_string_value(json_object_get(r.doc[0], "backend")),
			 "perf");
	json_t *defs = json_object_get(r.doc[0], "counters");
	cr_assert_eq(json_array_size(defs), 3);
	json_t *d0 = json_array_get(defs, 0);
	cr_assert_str_eq(json_string_value(json_object_get(d0, "name")),
			 "task_clock_ns");
	cr_assert_str_eq(json_string_value(json_object_get(d0, "scope")),
			 "thread");
	cr_assert(strncmp(json_string_value(json_object_get(d0, "method")),
			  "perf software task-clock, per-thread", 36) == 0);
	json_t *tc = counter(reg0(&r, "busy"), "task_clock_ns");
	cr_assert_gt(num(tc, "value"), 0);
	cr_assert_gt(num(tc, "running_ns"), 0);
	cr_assert_geq(num(tc, "enabled_ns"), num(tc, "running_ns"));
	/* the 2048 fresh pages it touches fault; on this VM's kernel about
	 * one test process in ten saw the page-fault event (a member of the
	 * task-clock group) count none of them in every run it made
	 * (task-clock right, enabled = running); groups are now opened
	 * disabled and enabled whole, meant to rule that out (not proven):
	 * if it is seen again, it is a skip that says so, not a pass */
	double faults = num(counter(reg0(&r, "busy"), "page_faults"), "value");
	for (int again = 0; faults == 0 && again < 2; again++) {
		run_free(&r);
		run_prog(&r, "rt_scenarios", "busy", env, false);
		assert_exit0(&r);
		faults = num(counter(reg0(&r, "busy"), "page_faults"), "value");
	}
	run_free(&r);
	if (faults == 0)
		cr_skip_test("the perf page-faults event counted none of the "
			     "2048 page faults in three runs (seen now and "
			     "then on this VM; task-clock was checked)");
}

Test(runtime, perf_group_is_read_at_once)
{
	need_perf();
	struct run r;
	const char *env[] = {
		"RLPROF_BACKEND=perf",
		"RLPROF_PERF_EVENTS=c=task_clock_ns,t=1,cfg=0x1,g=0,name=tc;"
		"c=extra0,t=1,cfg=0x0,w=2,g=0,name=cpu-x2;"
		"c=context_switches,t=1,cfg=0x3",
		NULL};
	run_prog(&r, "rt_scenarios", "busy", env, false);
	assert_exit0(&r);
	json_t *busy = reg0(&r, "busy");
	json_t *x = counter(busy, "extra0");
	/* a group member reading 0 beside a counting leader was seen now
	 * and then on this VM's kernel (page faults, then cpu-clock) before
	 * groups were opened disabled and enabled whole: three runs, then a
	 * skip that says so rather than a pass */
	for (int again = 0; num(x, "value") == 0 && again < 2; again++) {
		run_free(&r);
		run_prog(&r, "rt_scenarios", "busy", env, false);
		assert_exit0(&r);
		busy = reg0(&r, "busy");
		x = counter(busy, "extra0");
	}
	if (num(x, "value") == 0) {
		run_free(&r);
		cr_skip_test("a perf group member counted nothing in three "
			     "runs beside a counting leader (seen now and then "
			     "on this VM's kernel)");
	}
	json_t *tc = counter(busy, "task_clock_ns");
	cr_assert_eq(num(x, "value") % 2, 0, "weight 2 applied");
	/* Same group: one read gives both the same times. */
	cr_assert_eq(num(x, "enabled_ns"), num(tc, "enabled_ns"));
	cr_assert_eq(num(x, "running_ns"), num(tc, "running_ns"));
	json_t *defs = json_object_get(r.doc[0], "counters");
	json_t *last = json_array_get(defs, json_array_size(defs) - 1);
	cr_assert_str_eq(json_string_value(json_object_get(last, "extra_name")),
			 "cpu-x2");
	cr_assert(strncmp(json_string_value(json_object_get(last, "method")),
			  "perf cpu-x2 x2, per-thread", 26) == 0);
	run_free(&r);
}

Test(runtime, perf_bad_spec_falls_back_with_the_reason)
{
	struct run r;
	const char *env[] = {"RLPROF_BACKEND=perf",
			     "RLPROF_PERF_EVENTS=c=nosuch,t=1", NULL};
	run_prog(&r, "rt_scenarios", "nest", env, false);
	assert_exit0(&r);
	cr_assert_str_eq(json_string_value(json_object_get(r.doc[0], "backend")),
			 "time");
	cr_assert_str_eq(warning(r.doc[0], "backend", NULL, NULL),
			 "backend 'perf' did not start: unknown counter in perf "
			 "event 'c=nosuch,t=1': measured time only (backend "
			 "'time')");
	run_free(&r);
}

/* The marker's fast path keys on the begin site and the name pointer:
 * literals cycling at one site, one wrapper site for many names, and a
 * writable buffer reused for other names all land in the right region,
 * with the end given as another copy of the name. */
Test(runtime, one_site_many_names)
{
	struct run r;
	run_prog(&r, "rt_scenarios", "sites", NULL, false);
	assert_exit0(&r);
	cr_assert_eq(num(reg0(&r, "lit-a"), "calls"), 4);
	cr_assert_eq(num(reg0(&r, "lit-b"), "calls"), 3);
	cr_assert_eq(num(reg0(&r, "lit-c"), "calls"), 3);
	cr_assert_eq(num(reg0(&r, "wrap-x"), "calls"), 3);
	cr_assert_eq(num(reg0(&r, "wrap-y"), "calls"), 3);
	cr_assert_eq(num(reg0(&r, "buf-0"), "calls"), 4);
	cr_assert_eq(num(reg0(&r, "buf-1"), "calls"), 4);
	cr_assert_eq(json_array_size(json_object_get(thread_at(r.doc[0], 0),
						     "regions")),
		     7);
	cr_assert_eq(json_array_size(json_object_get(r.doc[0], "warnings")), 0);
	run_free(&r);
}

/* Region time comes from the TSC where it is invariant (calibrated
 * against CLOCK_MONOTONIC), else from CLOCK_MONOTONIC: both say a 30 ms
 * sleep took at least 29 ms (a lower bound, not a speed). */
Test(runtime, region_clock_counts_nanoseconds)
{
	const char *mono[] = {"RLPROF_CLOCK=monotonic", NULL};
	for (int k = 0; k < 2; k++) {
		struct run r;
		run_prog(&r, "rt_scenarios", "sleep", k ? mono : NULL, false);
		assert_exit0(&r);
		json_t *s = reg0(&r, "sleep");
		cr_assert_eq(num(s, "calls"), 1);
		cr_assert_geq(num(s, "time_ns"), 29000000, "clock %d: %lld ns",
			      k, num(s, "time_ns"));
		/* the process took under an hour: no runaway conversion */
		cr_assert_lt(num(s, "time_ns"), 3600000000000ll);
		run_free(&r);
	}
}
