/*
 * rlprof run: the machine model, obtained once per run (run.h).
 *
 * The cached model when it loads; else, unless --no-probe, a quick probe,
 * cached for next time. Under MPI (any role) rlprof first widens its own
 * CPU affinity to the whole node, so that a rank bound to one core reads
 * and writes the node's model (the cache file is keyed by the CPUs a
 * process may use), and puts it back before the program starts. Whoever
 * has to probe takes an exclusive lock on ".<model file>.lock" beside the
 * model first and looks again once it has it: two rlprofs never probe at
 * the same time, and the second loads what the first cached. Only the
 * rlprof that writes the report probes, after the program (rank 0 under
 * mpirun; the one around the launcher, whose ranks run with --no-probe);
 * -b sim takes the cached model before the program, else the claims
 * (run_sim_geometry.c): counting never waits on a probe.
 *
 * Test hooks (read only here, documented for the tests):
 *   RLPROF_TEST_PROBE_FAIL=1   the probe fails at once, saying so;
 *   RLPROF_TEST_PROBE_LOG=FILE each probe appends "start PID NS" and
 *                              "end PID NS" (CLOCK_MONOTONIC) to FILE;
 *   RLPROF_TEST_LOADAVG=X      the load average rl_run_model_refresh
 *                              takes for the machine's now.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/machine_obtain.h"
#include "probes/probe.h"
#include "machine/machine_file.h"
#include "common/rl_error.h"
#include "cli/run/run.h"

/* the rlprof process's affinity, widened to every CPU of the node */
struct affinity {
	cpu_set_t saved;
	bool widened;
};

static void widen(const struct rl_mpi_run *mpi, struct affinity *a)
{
	cpu_set_t all;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	a->widened = false;
	if (mpi->mode == RL_MPI_NONE ||
	    sched_getaffinity(0, sizeof a->saved, &a->saved) != 0)
		return;
	CPU_ZERO(&all);
	for (long i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, &all);
	a->widened = sched_setaffinity(0, sizeof all, &all) == 0;
}

static void restore(struct affinity *a)
{
	if (a->widened)
		sched_setaffinity(0, sizeof a->saved, &a->saved);
	a->widened = false;
}

int rl_run_model_path(const struct rl_mpi_run *mpi, char *buf, size_t len)
{
	struct affinity a;
	int rc;

	widen(mpi, &a);
	rc = rl_machine_cache_path(buf, len, NULL, 0);
	restore(&a);
	return rc;
}

static void probe_log(const char *what)
{
	const char *path = getenv("RLPROF_TEST_PROBE_LOG");
	struct timespec ts;
	char line[96];
	int fd, n;

	if (!path || !*path)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	n = snprintf(line, sizeof line, "%s %ld %lld\n", what, (long)getpid(),
		     (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		       0644)) < 0)
		return;
	if (write(fd, line, (size_t)n) != n) {
		/* a test log: nothing to do */
	}
	close(fd);
}

/* mkdir -p of path's directory */
static void make_parents(const char *path)
{
	char buf[4224];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
}

/* The lock on the model file: an open fd holding LOCK_EX, or -1 (no lock
 * could be taken: probing goes on unlocked). */
static int lock_model(const char *path)
{
	char lock[4200];
	const char *base = strrchr(path, '/');
	int fd;

	/* ".<model file>.lock" beside it: hidden, and not a model */
	base = base ? base + 1 : path;
	snprintf(lock, sizeof lock, "%.*s.%s.lock", (int)(base - path), path,
		 base);
	make_parents(lock);
	if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return -1;
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	return fd;
}

/* A quick probe under the lock; 0 or an error with why. */
static int probe_locked(struct rl_run_model *model,
			const struct rl_run_options *opt, struct rl_machine *m,
			const char *path)
{
	char err[1024];
	int fd = lock_model(path), probed = 0, rc;

	/* another rlprof may have cached it while this one waited */
	rc = rl_machine_obtain(m, 0, &probed, err, sizeof err);
	if (rc == 0 || rc != RL_ENOENT) {
		if (rc)
			snprintf(model->why, sizeof model->why, "%s", err);
		goto out;
	}
	rl_run_say(opt, "no machine model cached: probing this machine "
			"(--quick)...");
	probe_log("start");
	if (getenv("RLPROF_TEST_PROBE_FAIL"))
		rc = rl_fail(err, sizeof err, RL_EIO,
			     "the probe was made to fail "
			     "(RLPROF_TEST_PROBE_FAIL, a test hook)");
	else
		rc = rl_machine_obtain(m, 1, &probed, err, sizeof err);
	probe_log("end");
	if (rc) {
		snprintf(model->why, sizeof model->why,
			 "this machine could not be measured: %s", err);
	} else {
		model->probed = true;
	}
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The cached model into model->machine; RL_ENOENT when none is cached (why
 * said), another code when the file is unusable (then final). */
static int load_cached(struct rl_run_model *model, const struct rl_mpi_run *mpi)
{
	struct affinity a;
	char err[1024];
	int probed = 0, rc;

	if (!model->machine &&
	    !(model->machine = calloc(1, sizeof *model->machine)))
		return RL_ENOMEM;
	widen(mpi, &a);
	rc = rl_machine_obtain(model->machine, 0, &probed, err, sizeof err);
	restore(&a);
	if (rc)
		snprintf(model->why, sizeof model->why, "%s", err);
	return rc;
}

const struct rl_machine *rl_run_model_cached(struct rl_run_model *model,
					     const struct rl_mpi_run *mpi)
{
	int rc;

	if (model->tried)
		return model->machine;
	if ((rc = load_cached(model, mpi)) == 0 || rc != RL_ENOENT)
		model->tried = true;
	if (rc) {
		/* machine is set only when usable: the steps that read it */
		free(model->machine);
		model->machine = NULL;
	}
	return model->machine;
}

const struct rl_machine *rl_run_model(struct rl_run_model *model,
				      const struct rl_run_options *opt,
				      const struct rl_mpi_run *mpi)
{
	struct affinity a;
	char path[4096], err[1024];
	int rc;

	if (model->tried)
		return model->machine;
	model->tried = true;
	rc = load_cached(model, mpi);
	if (rc == RL_ENOENT && opt->no_probe) {
		rl_appendf(model->why, sizeof model->why, " (--no-probe)");
	} else if (rc == RL_ENOENT) {
		widen(mpi, &a);
		rc = rl_machine_cache_path(path, sizeof path, err, sizeof err);
		if (rc == 0)
			rc = probe_locked(model, opt, model->machine, path);
		else
			snprintf(model->why, sizeof model->why, "%s", err);
		restore(&a);
	}
	if (rc != 0) {
		free(model->machine);
		model->machine = NULL;
	}
	return model->machine;
}

void rl_run_model_refresh(struct rl_run_model *model,
			  const struct rl_run_options *opt,
			  const struct rl_mpi_run *mpi)
{
	const struct rl_machine *m = model->machine;
	struct rl_machine *fresh;
	struct rl_probe_options o = {.quick = 1};
	char path[4096], err[1024];
	double now = -1;
	int fd;

	const char *fake = getenv("RLPROF_TEST_LOADAVG");

	if (fake && *fake)
		now = atof(fake);
	else if (getloadavg(&now, 1) != 1)
		now = -1;
	if (!m || opt->no_probe || mpi->mode != RL_MPI_NONE || !m->cores ||
	    m->loadavg1 < RL_MODEL_LOADED_PER_CPU * m->cores || now < 0 ||
	    now >= RL_MODEL_QUIET_PER_CPU * m->cores || now >= m->loadavg1 / 2 ||
	    rl_machine_cache_path(path, sizeof path, err, sizeof err) != 0 ||
	    !(fresh = calloc(1, sizeof *fresh)))
		return;
	rl_run_say(opt, "the cached machine model was probed under load "
			"(load average %.2f on %u CPUs, %s); the machine is "
			"quieter now (%.2f): measuring it again (--quick)...",
		   m->loadavg1, m->cores, m->probed_at, now);
	fd = lock_model(path);
	probe_log("start");
	if (rl_probe_machine(&o, fresh, NULL, err, sizeof err) == 0) {
		/* a model that cannot be cached is still this run's model */
		rl_machine_save(path, fresh, err, sizeof err);
		free(model->machine);
		model->machine = fresh;
		model->probed = true;
	} else {
		rl_run_say(opt, "the machine could not be measured again (%s): "
				"the cached model stays",
			   err);
		free(fresh);
	}
	probe_log("end");
	if (fd >= 0)
		close(fd);
}

void rl_run_model_release(struct rl_run_model *model)
{
	free(model->machine);
	model->machine = NULL;
}
