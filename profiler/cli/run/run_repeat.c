/*
 * rlprof run --repeat N: the program timed N times. After the profiling
 * run (whose region times are the first of the N), N-1 more runs natively
 * under the time backend, the same environment and preload, each into
 * DIR/repeat/K/raw (K = 2..N). The report then keeps per region the
 * fastest, the median and the spread of the N times (report_repeat.c), so
 * that rlprof diff and rlprof check tell a change from the noise of a
 * shared machine.
 */
#include <errno.h>
#include <signal.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/run/run.h"
#include "common/held_dir.h"

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(p);
	return 0;
}

/* An earlier run's DIR/repeat is never merged into this one's. */
static void remove_old(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_dir(const char *path)
{
	return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

bool rl_run_pair_after(unsigned k, unsigned runs)
{
	unsigned step;

	if (runs < RL_PAIR_POINTS)
		return true;
	step = (runs - 1 + RL_PAIR_POINTS - 3) / (RL_PAIR_POINTS - 2);
	return k == 1 || k == runs || (k - 1) % step == 0;
}

unsigned rl_run_pair_points(unsigned runs)
{
	unsigned n = 1;
	for (unsigned k = 1; k <= runs; k++)
		n += rl_run_pair_after(k, runs);
	return n;
}

void rl_run_repeat(struct rl_run *run)
{
	char dir[PATH_MAX + 32], raw[PATH_MAX + 64], err[1024];
	struct rl_launch profiling = run->setup.launch;
	/* the outcome is the profiling run's: kept */
	const struct rl_run_outcome profiled = run->outcome;
	unsigned done = 1;

	bool deleted;

	/* DIR/repeat is removed and made by its path: not when DIR now
	 * leads elsewhere (swapped for a link while the program ran; the
	 * run warns) */
	if (!rl_held_dir_in_place(run->place.out_dir, &deleted) && !deleted)
		return;
	snprintf(dir, sizeof dir, "%s/repeat", run->place.out_dir);
	remove_old(dir);
	if (run->opt.repeat <= 1 || run->no_files)
		return;
	if (!run->opt.repeat_given &&
	    (run->mpi.mode != RL_MPI_NONE || !profiled.started ||
	     profiled.exit_status != run->opt.expect_status))
		return; /* the default repeat: only where it can be made */
	if (run->mpi.mode != RL_MPI_NONE) {
		rl_run_warn("--repeat is not done for MPI programs: each rank "
			    "ran once");
		return;
	}
	if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0 &&
	    !run->native.timing) {
		rl_run_warn("--repeat needs native region times: with "
			    "--sim-timing sim the times are Valgrind's, so no "
			    "more runs were made");
		return;
	}
	if (!profiled.started ||
	    profiled.exit_status != run->opt.expect_status) {
		rl_run_warn("'%s' did not succeed in the profiling run: no "
			    "more timing runs (--repeat)",
			    run->target.name);
		return;
	}
	if (make_dir(dir) < 0) {
		rl_run_warn("cannot create '%s': %s: no more timing runs "
			    "(--repeat)", dir, strerror(errno));
		return;
	}
	rl_run_say(&run->opt,
		   "timing runs 2..%u (native, backend time, %s)...",
		   run->opt.repeat,
		   run->opt.repeat_given ? "--repeat"
					 : "a short program: --repeat 1 for one");
	for (unsigned k = 2; k <= run->opt.repeat; k++) {
		struct rl_launch l;
		memset(&l, 0, sizeof l);
		snprintf(raw, sizeof raw, "%s/%u", dir, k);
		if (make_dir(raw) < 0)
			break;
		snprintf(raw, sizeof raw, "%s/%u/raw", dir, k);
		if (make_dir(raw) < 0 ||
		    rl_run_prepare_timing_launch(run, &l, raw, err,
						 sizeof err) < 0) {
			rl_run_warn("timing run %u of '%s' not made: %s", k,
				    run->target.name,
				    errno ? strerror(errno) : err);
			rl_launch_release(&l);
			break;
		}
		run->setup.launch = l;
		run->native.phase = true; /* no "program exited" lines */
		rl_run_spawn_wait(run);
		run->native.phase = false;
		if (!run->outcome.started ||
		    run->outcome.exit_status != run->opt.expect_status) {
			rl_run_warn("timing run %u of '%s' %s: left out of the "
				    "region times",
				    k, run->target.name,
				    !run->outcome.started ? "could not start"
							  : "failed");
			snprintf(raw, sizeof raw, "%s/%u", dir, k);
			remove_old(raw);
		} else {
			done++;
		}
		/* the paired roofs: a sample point after this run */
		if (rl_run_pair_after(k, run->opt.repeat))
			rl_run_roof_check(&run->roof_check, &run->pair,
					  &run->model, &run->opt, &run->mpi, k,
					  rl_run_pair_points(run->opt.repeat));
		run->setup.launch = profiling;
		rl_launch_release(&l);
		if (run->outcome.started &&
		    WIFSIGNALED(run->outcome.wait_status) &&
		    (WTERMSIG(run->outcome.wait_status) == SIGINT ||
		     WTERMSIG(run->outcome.wait_status) == SIGTERM))
			break; /* stopped by the user: no more runs */
	}
	run->outcome = profiled;
	rl_run_say(&run->opt, "%u timing runs of %u made", done,
		   run->opt.repeat);
}
