/*
 * rlprof run -b sim: the native timing run. The simulator counts flops and
 * bytes exactly but runs the program 10-60x slower, so before the counting
 * run the program runs once natively under the time backend (same
 * environment, preload and whole-program region), its results into
 * DIR/raw-native; rl_results_load_dir() then takes each region's time from
 * there. A failed timing run leaves the simulator's times (one warning).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/run/run.h"
#include "common/held_dir.h"

/* Signals by which a user stops a run (Ctrl-C, Ctrl-\, kill, hangup). */
static bool stopped_by_user(int sig)
{
	return sig == SIGINT || sig == SIGQUIT || sig == SIGTERM ||
	       sig == SIGHUP;
}

/* The timing run's results become the run's: DIR/raw-native/rlprof-*.json
 * into DIR/raw (the directory is left empty, then removed). */
static void keep_native_results(const struct rl_run_place *place)
{
	DIR *d = rl_held_opendir(place->native_dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char from[PATH_MAX + 256], to[PATH_MAX + 256];
		if (strncmp(de->d_name, "rlprof-", 7) != 0)
			continue;
		snprintf(from, sizeof from, "%s/%s", place->native_dir,
			 de->d_name);
		snprintf(to, sizeof to, "%s/%s", place->raw_dir, de->d_name);
		if (rl_held_rename(from, to) != 0)
			rl_run_warn("cannot move '%s' to '%s': %s", from, to,
				    strerror(errno));
	}
	closedir(d);
	rl_held_unlink(place->native_dir, true);
	rl_held_dir_drop(place->native_dir);
}

int rl_run_native(struct rl_run *run)
{
	struct rl_launch counting;

	if (!run->native.timing)
		return 0;
	/* the spawn path runs run->setup.launch and fills the outcome fields:
	 * lend it the timing launch, then give the counting run a clean
	 * outcome */
	counting = run->setup.launch;
	run->setup.launch = run->setup.native_launch;
	run->native.phase = true;
	rl_run_spawn_wait(run);
	run->native.phase = false;
	run->setup.native_launch = run->setup.launch;
	run->setup.launch = counting;

	run->native.done = true;
	run->native.exit_status = run->outcome.exit_status;
	run->native.signal =
		run->outcome.started && WIFSIGNALED(run->outcome.wait_status)
			? WTERMSIG(run->outcome.wait_status)
			: 0;
	if (stopped_by_user(run->native.signal)) {
		/* Ctrl-C means stop: no simulator run; the outcome stays
		 * this run's (exit status 128+N) and so do its results */
		fprintf(stderr,
			"rlprof: '%s' was stopped by signal %d (%s) in its "
			"native timing run: the simulator run was not "
			"started; the report has the region times of what "
			"ran, no counts\n",
			run->target.name, run->native.signal,
			strsignal(run->native.signal));
		keep_native_results(&run->place);
		run->native.timing = false;
		run->native.done = false;
		return 1;
	}
	if (!run->outcome.started)
		rl_run_warn("the native timing run of '%s' could not start "
			    "(%s): times will be the simulator's",
			    run->target.name,
			    strerror(run->outcome.spawn_errno));
	else if (run->native.signal)
		rl_run_warn("the native timing run of '%s' was killed by "
			    "signal %d (%s): times will be the simulator's",
			    run->target.name, run->native.signal,
			    strsignal(run->native.signal));
	else if (run->native.exit_status != run->opt.expect_status)
		rl_run_warn("the native timing run of '%s' exited with status "
			    "%d%s: times will be the simulator's (if that "
			    "status is its success, say so: --expect-status "
			    "%d)",
			    run->target.name, run->native.exit_status,
			    run->opt.expect_status ? ", not the one expected"
						   : "",
			    run->native.exit_status);

	run->outcome = (struct rl_run_outcome){0};
	return 0;
}
