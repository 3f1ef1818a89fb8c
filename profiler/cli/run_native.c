/*
 * rlprof run -b sim: the native timing run. The simulator counts flops and
 * bytes exactly but runs the program 10-60x slower, so before the counting
 * run the program runs once natively under the time backend (same
 * environment, preload and whole-program region), its results into
 * DIR/raw-native; rl_results_load_dir() then takes each region's time from
 * there. A failed timing run leaves the simulator's times (one warning).
 */
#include <string.h>
#include <sys/wait.h>

#include "run.h"

void rl_run_native(struct rl_run *run)
{
	struct rl_launch counting;

	if (!run->native_timing)
		return;
	/* the spawn path runs run->launch and fills the outcome fields:
	 * lend it the timing launch, then give the counting run a clean
	 * outcome */
	counting = run->launch;
	run->launch = run->native_launch;
	run->native_phase = true;
	rl_run_spawn_wait(run);
	run->native_phase = false;
	run->native_launch = run->launch;
	run->launch = counting;

	run->native_done = true;
	run->native_exit_status = run->exit_status;
	run->native_signal = run->started && WIFSIGNALED(run->wait_status)
				     ? WTERMSIG(run->wait_status) : 0;
	if (!run->started)
		rl_run_warn("the native timing run of '%s' could not start "
			    "(%s): times will be the simulator's",
			    run->name, strerror(run->spawn_errno));
	else if (run->native_signal)
		rl_run_warn("the native timing run of '%s' was killed by "
			    "signal %d (%s): times will be the simulator's",
			    run->name, run->native_signal,
			    strsignal(run->native_signal));
	else if (run->native_exit_status != 0)
		rl_run_warn("the native timing run of '%s' exited with status "
			    "%d: times will be the simulator's",
			    run->name, run->native_exit_status);

	run->started = false;
	run->spawn_errno = 0;
	run->pid = 0;
	run->wait_status = 0;
	run->exit_status = 0;
	run->start_ns = run->end_ns = run->elapsed_ns = 0;
}
