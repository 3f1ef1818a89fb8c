/*
 * The tests' one process runner: run a real program (fork + execv, no
 * shell) with argv, extra environment and a working folder, its stdout
 * and stderr captured to files; start one in the background and wait for
 * it; read files back; temporary folders. Each Criterion test runs in its
 * own process, so the helpers may end the test on a setup failure.
 */
#ifndef RL_TESTS_LIB_RUN_H
#define RL_TESTS_LIB_RUN_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* RL_TEST_SANITIZED when the tests (and so librlprof and the test
 * programs) are built with AddressSanitizer; SAN_FLAGS the flags a test
 * gives the compiler for a program of its own, to link with them. */
#if defined(__SANITIZE_ADDRESS__)
#define RL_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RL_TEST_SANITIZED 1
#endif
#endif
#ifdef RL_TEST_SANITIZED
#define SAN_FLAGS " -fsanitize=address,undefined"
#else
#define SAN_FLAGS ""
#endif

#define E2E_RLPROF RL_BUILD_DIR "/bin/rlprof"
#define E2E_PROG(name) RL_BUILD_DIR "/tests/programs/" name

struct e2e_result {
	int status;  /* exit status, 128+N on signal N, -1 not run */
	char *out;   /* captured stdout, "" when empty */
	char *err;   /* captured stderr */
};

/* The text of file path (malloc'd), or NULL when it cannot be read. */
char *e2e_slurp(const char *path);
/* A new temporary folder /tmp/rlprof-e2e-XXXXXX (malloc'd). */
char *e2e_tmpdir(void);
/* Removes dir and everything in it, looking at nothing. */
void e2e_rmtree_raw(const char *dir);
/* Every report.json under dir is valid against the report's JSON Schema
 * (profiler/render/report.schema.json), checked with Debian's
 * python3-jsonschema (scripts/validate-report); a test fails on an invalid
 * one. Without python3-jsonschema nothing is checked here (test_schema.c
 * skips and says why). */
void e2e_validate_reports(const char *dir);
/* Removes dir, after checking the reports in it against the schema. */
void e2e_rmtree(const char *dir);

/* Runs argv (argv[0] a path) in dir (NULL: here) with the extra
 * environment entries env (NAME=VALUE, NULL-terminated, may be NULL). */
struct e2e_result e2e_run_in(const char *dir, const char *const *argv,
			     const char *const *env);
struct e2e_result e2e_run(const char *const *argv);

/* The two forms of an MPI job, np ranks of `mpirun -np NP
 * --oversubscribe --allow-run-as-root`, run with Open MPI's shared memory
 * without CMA and no leak report of Open MPI's own (sanitized builds),
 * then env's entries (NULL-terminated, may be NULL; a later one wins):
 *  - e2e_run_mpi: rlprof under each rank, mpirun then cmd (E2E_RLPROF,
 *    "run", options, PROGRAM, ARGS; NULL-terminated); np <= 1: cmd alone;
 *  - e2e_run_mpi_launcher: rlprof around the launcher, rlprof (E2E_RLPROF,
 *    "run", options) then "--", mpirun, then app (PROGRAM, ARGS). */
struct e2e_result e2e_run_mpi(const char *mpirun, int np,
			      const char *const *cmd, const char *const *env);
struct e2e_result e2e_run_mpi_launcher(const char *const *rlprof,
				       const char *mpirun, int np,
				       const char *const *app,
				       const char *const *env);
void e2e_free(struct e2e_result *r);

/* Starts argv (argv[0] a path) in the background with its stderr written
 * to err_path; its stdout goes there too when out_pipe is NULL, else into
 * the pipe out_pipe (its writing end; the child closes both ends) with
 * SIGPIPE at its default, as a shell's pipeline runs it. Returns the
 * child's process id. */
pid_t e2e_start(const char *const *argv, const char *err_path,
		const int *out_pipe);
/* Starts `rlprof run -q --no-probe -b time -o DIR/out /bin/sh -c
 * "touch DIR/started; THEN"` in the background, its stdout and stderr
 * into DIR/stderr, and returns its process id once the shell has started
 * (skips when rlprof is not built). */
pid_t e2e_start_shell(const char *dir, const char *then);
/* Waits up to 60 s for path to exist (a started program touches it);
 * fails the test when it never does. */
void e2e_wait_for_file(const char *path);
/* Waits for the child pid; returns its wait status (WIFEXITED...). */
int e2e_wait(pid_t pid);

/* Skips when the binary under test was not built. */
void e2e_need(const char *path);
/* mpirun's path (found in $PATH), or the test is skipped with how to
 * install it; then rlprof and the MPI program mpi_app must be built. */
const char *e2e_need_mpirun(const char *mpi_app);
/* Skips when rlprof's stderr says a probe found the machine too busy to
 * measure (the rest of the suite runs beside each test): a missing
 * capability, not a failure. */
void e2e_skip_if_too_busy(const char *err);

/* rlprof run -q --no-probe --repeat 1 -b BACKEND -o OUT PROGRAM ARGS...
 * (prog: the program and its arguments, NULL-terminated; timed once, not
 * the 5 times of a short program by default); -b sim with --sim-caches
 * 48K:12,1M:8,32M:16 (without a machine model it requires one). */
struct e2e_result e2e_profile(const char *backend, const char *out,
			      const char *const *prog);
/* The same with OUT = dir/out. */
struct e2e_result e2e_profile_in(const char *backend, const char *dir,
				 const char *const *prog);

/* The text of file dir/name, failing the test when absent. */
char *e2e_file(const char *dir, const char *name);
/* Ends a test that ran r in the temporary directory dir: frees both and
 * removes the directory. */
void e2e_cleanup(struct e2e_result *r, char *dir);
/* How many entries of dir have a name starting with part (anywhere:
 * containing it). */
int e2e_count_entries(const char *dir, const char *part, int anywhere);
/* Writes text into path and gives it mode (a script, a data file). */
void e2e_put_file(const char *path, const char *text, mode_t mode);
/* The CSV line of region name on a summed row ("name,,..."), or NULL. */
const char *e2e_csv_row(const char *csv, const char *name);
/* Expects dir/name (a report.csv) to have a summed row for region. */
void e2e_expect_csv_row(const char *dir, const char *name,
			const char *region);

#endif
