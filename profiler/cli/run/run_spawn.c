/*
 * rlprof run: start the program (posix_spawn, an argv array, no shell) and
 * wait for it. While it runs rlprof ignores SIGINT and SIGQUIT (the
 * terminal sends them to the program too; rlprof then writes the report)
 * and forwards SIGTERM and SIGHUP to it.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run/run.h"
#include "cli/run/run_loops.h"

extern char **environ;

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Variables rlprof sets or clears for the program. */
static const char *const rl_dropped_env[] = {
	"RLPROF_OUT", "RLPROF_BACKEND", "RLPROF_BACKEND_OPTIONS",
	"RLPROF_WHOLE_PROGRAM", "RLPROF_RUN_ID", "RLPROF_MPI_CALLS", NULL,
};

static void say_spawn_error(struct rl_run *run, int e)
{
	const char *what = run->setup.launch.argv[0];

	if (e == ENOENT) {
		fprintf(stderr, "rlprof: cannot run '%s': %s; check that it "
				"exists (and its interpreter, for a script)\n",
			what, strerror(e));
		run->outcome.exit_status = RL_EXIT_NOTFOUND;
	} else {
		fprintf(stderr, "rlprof: cannot run '%s': %s%s\n", what,
			strerror(e),
			e == ENOEXEC ? "; it is not a program for this machine"
				     : "");
		run->outcome.exit_status = RL_EXIT_NOEXEC;
	}
}

static void describe_end(const struct rl_run *run)
{
	int st = run->outcome.wait_status;

	if (WIFSIGNALED(st)) {
		fprintf(stderr, "rlprof: '%s' was killed by signal %d (%s)%s\n",
			run->target.name, WTERMSIG(st), strsignal(WTERMSIG(st)),
			WCOREDUMP(st) ? ", core dumped" : "");
	} else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
		rl_run_say(&run->opt, "'%s' exited with status %d",
			   run->target.name, WEXITSTATUS(st));
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		const struct rl_backend *b =
			run->backend.probes[run->backend.chosen].backend;
		char msg[1024] = "";
		if (b->explain_exit &&
		    b->explain_exit(run->place.raw_dir, st, msg, sizeof msg) >
			    0 &&
		    msg[0])
			fprintf(stderr, "rlprof: %s\n", msg);
	}
	/* -b sim: the program ran natively to its end, and died only in the
	 * counting run */
	if (!run->native.phase && run->native.done &&
	    run->native.exit_status == 0 && !run->native.signal &&
	    WIFSIGNALED(st))
		fprintf(stderr,
			"rlprof: the counting run of '%s' died of signal %d "
			"(%s) under the simulator, where its native timing run "
			"ended normally: the report keeps the native run's "
			"regions and times, and what the counting run did not "
			"finish has no counts\n",
			run->target.name, WTERMSIG(st),
			strsignal(WTERMSIG(st)));
}

void rl_run_spawn_wait(struct rl_run *run)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, fwd = {.sa_handler = forward};
	struct sigaction old_int, old_quit, old_term, old_hup;
	sigset_t block, old_mask, dflt;
	posix_spawnattr_t attr;
	char **envp;
	const char *path;
	char *argv0 = NULL;
	pid_t pid;
	int rc;
	uint64_t t0;

	run->outcome.exit_status = RL_EXIT_FAILURE;
	envp = rl_launch_environ(&run->setup.launch, environ, rl_dropped_env);
	if (!envp) {
		fprintf(stderr, "rlprof: out of memory\n");
		return;
	}
	/* no wrapper: exec the resolved path, the program sees argv[0] as
	   the user typed it (as execvp does) */
	path = run->setup.launch.argv[0];
	if (strcmp(path, run->target.program) == 0) {
		argv0 = run->setup.launch.argv[0];
		run->setup.launch.argv[0] = run->opt.argv[0];
	}

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);

	/* the program gets the dispositions rlprof was started with */
	sigemptyset(&dflt);
	if (old_int.sa_handler != SIG_IGN)
		sigaddset(&dflt, SIGINT);
	if (old_quit.sa_handler != SIG_IGN)
		sigaddset(&dflt, SIGQUIT);
	sigaddset(&dflt, SIGTERM);
	sigaddset(&dflt, SIGHUP);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigdefault(&attr, &dflt);
	posix_spawnattr_setsigmask(&attr, &old_mask);
	posix_spawnattr_setflags(&attr,
				 POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

	fflush(NULL);
	rl_run_loops_before_spawn(run, run->loops);
	run->outcome.start_ns = clock_ns(CLOCK_REALTIME);
	t0 = clock_ns(CLOCK_MONOTONIC);
	if (argv0)
		rc = posix_spawn(&pid, path, NULL, &attr,
				 run->setup.launch.argv, envp);
	else
		rc = posix_spawnp(&pid, path, NULL, &attr,
				  run->setup.launch.argv, envp);
	posix_spawnattr_destroy(&attr);
	if (argv0)
		run->setup.launch.argv[0] = argv0;

	if (rc != 0) {
		run->outcome.spawn_errno = rc;
		rl_run_loops_ended(run->loops); /* the armed sampler discarded */
		if (!run->native.phase) /* rl_run_native() says it */
			say_spawn_error(run, rc);
	} else {
		run->outcome.started = true;
		run->outcome.pid = pid;
		child_pid = pid;
		rl_run_loops_started(run, run->loops);
		sigaction(SIGTERM, &fwd, &old_term);
		sigaction(SIGHUP, &fwd, &old_hup);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		while (waitpid(pid, &run->outcome.wait_status, 0) < 0) {
			if (errno != EINTR) {
				fprintf(stderr,
					"rlprof: cannot wait for '%s': %s\n",
					run->target.name, strerror(errno));
				run->outcome.wait_status = 0;
				break;
			}
		}
		child_pid = 0;
		rl_run_loops_ended(run->loops);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
	}
	run->outcome.elapsed_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	run->outcome.end_ns = clock_ns(CLOCK_REALTIME);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	free(envp);

	if (!run->outcome.started)
		return;
	if (WIFEXITED(run->outcome.wait_status))
		run->outcome.exit_status =
			WEXITSTATUS(run->outcome.wait_status);
	else if (WIFSIGNALED(run->outcome.wait_status))
		run->outcome.exit_status =
			128 + WTERMSIG(run->outcome.wait_status);
	if (!run->native.phase) /* rl_run_native() says it in one line */
		describe_end(run);
}
