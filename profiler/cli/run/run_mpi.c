/* rlprof run and MPI: the roles of run_mpi.h. */
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run/run.h"
#include "common/file_read.h"
#include "results/results_ranks.h"

/* ---- the rank, from the launcher's environment ---------------------- */

static long env_long(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long x;

	if (!v || !*v)
		return -1;
	errno = 0;
	x = strtol(v, &end, 10);
	return errno || *end || x < 0 ? -1 : x;
}

/* Open MPI, then PMIx (any PMIx launcher), then PMI (MPICH's hydra,
 * Slurm's srun --mpi=pmi2). */
static void detect_rank(struct rl_mpi_run *m)
{
	static const struct {
		const char *rank, *size, *job;
	} vars[] = {
		{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
		 "OMPI_MCA_ess_base_jobid"},
		{"PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "PMIX_NAMESPACE"},
		{"PMI_RANK", "PMI_SIZE", "PMI_KVSNAME"},
	};

	m->rank = m->size = -1;
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *job;
		if ((m->rank = env_long(vars[i].rank)) < 0)
			continue;
		m->size = env_long(vars[i].size);
		snprintf(m->source, sizeof m->source, "%s", vars[i].rank);
		job = getenv(vars[i].job);
		if (!job)
			job = getenv("PMIX_NAMESPACE");
		snprintf(m->job, sizeof m->job, "%s", job ? job : "");
		break;
	}
	if (gethostname(m->host, sizeof m->host) != 0)
		snprintf(m->host, sizeof m->host, "?");
	m->host[sizeof m->host - 1] = '\0';
}

/* ---- the launcher's command line ------------------------------------- */

bool rl_mpi_is_launcher(const char *name)
{
	static const char *const names[] = {
		"mpirun", "mpiexec", "orterun", "mpirun.openmpi",
		"mpiexec.openmpi", NULL,
	};
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	for (size_t i = 0; names[i]; i++)
		if (strcmp(base, names[i]) == 0)
			return true;
	return false;
}

/* Open MPI 4.1 mpirun options that take a value (one dash or two). */
static int option_values(const char *opt)
{
	static const char *const one[] = {
		"np", "n", "c", "H", "host", "hostfile", "machinefile",
		"default-hostfile", "x", "map-by", "rank-by", "bind-to",
		"npernode", "N", "npersocket", "wdir", "wd", "prefix",
		"output-filename", "path", "app", "preload-files", "am",
		"tune", "cpu-set", "cpu-list", "rankfile", "rf", "timeout",
		"launch-agent", "personality", "stdin", "report-uri",
		"ompi-server", "mca-param-file", "output", "xml-file",
		"merge-stderr-to-stdout-file", "max-vm-size", "dvm-uri",
		"hnp", "server-wait-time", "report-pid", "slot-list",
		"cpus-per-proc", "cpus-per-rank", "use-hwthread-cpus-file",
		NULL,
	};
	const char *o = opt + (opt[1] == '-' ? 2 : 1);

	if (strchr(o, '='))
		return 0;
	if (strcmp(o, "mca") == 0 || strcmp(o, "gmca") == 0)
		return 2;
	for (size_t i = 0; one[i]; i++)
		if (strcmp(o, one[i]) == 0)
			return 1;
	return 0;
}

int rl_mpi_find_program(char *const *argv, int argc, long *np)
{
	*np = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int k;

		if (a[0] != '-')
			return i;
		if (strcmp(a, "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		k = option_values(a);
		if (k == 1 && i + 1 < argc &&
		    (strcmp(a, "-np") == 0 || strcmp(a, "--np") == 0 ||
		     strcmp(a, "-n") == 0 || strcmp(a, "--n") == 0 ||
		     strcmp(a, "-c") == 0)) {
			char *end;
			long v = strtol(argv[i + 1], &end, 10);
			if (!*end && v > 0)
				*np = v;
		}
		i += k;
	}
	return -1;
}

/* ---- setup ------------------------------------------------------------ */

static int fit(char *dst, size_t len, const char *fmt, const char *a, long r)
{
	int n = snprintf(dst, len, fmt, a, r);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int rl_mpi_setup(struct rl_mpi_run *m, struct rl_run_options *opt)
{
	detect_rank(m);
	m->np = -1;
	if (opt->mpi_rank_only || m->rank >= 0) {
		if (m->rank < 0) {
			fprintf(stderr,
				"rlprof run: option '--mpi-rank-only' outside an "
				"MPI job (no OMPI_COMM_WORLD_RANK, PMIX_RANK or "
				"PMI_RANK in the environment); it is for 'rlprof "
				"run -- mpirun ...' to use\n");
			return RL_EXIT_USAGE;
		}
		m->mode = opt->mpi_rank_only ? RL_MPI_RANK_ONLY : RL_MPI_RANK;
		snprintf(m->job_dir, sizeof m->job_dir, "%s", opt->out_dir);
		if (fit(m->rank_dir, sizeof m->rank_dir, "%s/rank-%ld",
			opt->out_dir, m->rank) < 0) {
			fprintf(stderr, "rlprof run: output directory '%s': path "
					"too long\n", opt->out_dir);
			return RL_EXIT_USAGE;
		}
		opt->out_dir = m->rank_dir;
		if (m->mode == RL_MPI_RANK_ONLY || m->rank != 0)
			opt->quiet = true;
		return 0;
	}
	if (!rl_mpi_is_launcher(opt->argv[0]))
		return 0;
	m->app_index = rl_mpi_find_program(opt->argv, opt->argc, &m->np);
	if (m->app_index < 0) {
		fprintf(stderr,
			"rlprof: cannot find the program in '%s ...': rlprof "
			"runs itself under each rank (%s [OPTIONS] rlprof run "
			"... PROGRAM); give the program after the launcher's "
			"options\n",
			opt->argv[0], opt->argv[0]);
		return RL_EXIT_USAGE;
	}
	for (int i = m->app_index; i < opt->argc; i++)
		if (strcmp(opt->argv[i], ":") == 0) {
			fprintf(stderr,
				"rlprof: '%s' with several programs (':') is "
				"not supported: profile one program per job\n",
				opt->argv[0]);
			return RL_EXIT_USAGE;
		}
	m->mode = RL_MPI_LAUNCHER;
	snprintf(m->job_dir, sizeof m->job_dir, "%s", opt->out_dir);
	return 0;
}

/* ---- directories ------------------------------------------------------ */

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

/* DIR/rank-<digits> and DIR/native of an earlier MPI run (only what
 * rlprof writes there: its own directories under the output directory). */
static void remove_rank_dirs(const char *dir, long from)
{
	char path[PATH_MAX + 64];

	for (long r = from;; r++) {
		struct stat st;
		snprintf(path, sizeof path, "%s/rank-%ld", dir, r);
		if (stat(path, &st) != 0)
			break;
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	if (from == 0) {
		snprintf(path, sizeof path, "%s/native", dir);
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		snprintf(path, sizeof path, "%s/mpi.json", dir);
		unlink(path);
	}
}

static void write_json(const char *path, json_t *o)
{
	char tmp[PATH_MAX + 16];

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (json_dump_file(o, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0)
		rename(tmp, path);
	else
		rl_run_warn("cannot write '%s': %s", path, strerror(errno));
}

void *rl_mpi_record(const struct rl_mpi_run *m)
{
	json_t *o;

	if (m->mode == RL_MPI_NONE || !(o = json_object()))
		return NULL;
	json_object_set_new(o, "role",
			    json_string(m->mode == RL_MPI_LAUNCHER ? "launcher"
								   : "rank"));
	json_object_set_new(o, "rank", m->rank >= 0 ? json_integer(m->rank)
						    : json_null());
	json_object_set_new(o, "size", m->size >= 0 ? json_integer(m->size)
						    : json_null());
	json_object_set_new(o, "np", m->np >= 0 ? json_integer(m->np)
						: json_null());
	json_object_set_new(o, "job", json_string(m->job));
	json_object_set_new(o, "host", json_string(m->host));
	json_object_set_new(o, "rank_source",
			    m->source[0] ? json_string(m->source) : json_null());
	json_object_set_new(o, "rlprof_pid", json_integer((json_int_t)getpid()));
	return o;
}

void rl_mpi_after_prepare(const struct rl_mpi_run *m,
			  const struct rl_run_options *opt,
			  const struct rl_run_place *place,
			  const struct rl_run_backend *backend)
{
	char path[PATH_MAX + 32];
	json_t *o;

	if (m->mode == RL_MPI_NONE) {
		/* a plain run into a directory an MPI run used before */
		remove_rank_dirs(place->out_dir, 0);
		return;
	}
	if (m->mode == RL_MPI_LAUNCHER) {
		remove_rank_dirs(place->out_dir, 0);
		snprintf(path, sizeof path, "%s/mpi.json", place->out_dir);
		if ((o = rl_mpi_record(m))) {
			json_object_set_new(o, "format", json_string("rlprof-mpi"));
			json_object_set_new(o, "version", json_integer(1));
			write_json(path, o);
			json_decref(o);
		}
		return;
	}
	/* a rank: rank.json says who it is before the program runs */
	snprintf(path, sizeof path, "%s/rank.json", place->out_dir);
	if ((o = rl_mpi_record(m))) {
		json_object_set_new(o, "format", json_string("rlprof-rank"));
		json_object_set_new(o, "version", json_integer(1));
		write_json(path, o);
		json_decref(o);
	}
	if (m->mode == RL_MPI_RANK && m->rank == 0 && m->size > 0) {
		/* the merged report and ranks of a larger earlier job */
		char dir[PATH_MAX];
		if (realpath(m->job_dir, dir)) {
			remove_rank_dirs(dir, m->size);
			snprintf(path, sizeof path, "%s/native", dir);
			nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		}
	}
	if (m->mode == RL_MPI_RANK && m->rank == 0 &&
	    strcmp(rl_run_backend_name(backend), "sim") == 0)
		rl_run_say(opt,
			   "under mpirun each rank runs once, under the "
			   "simulator: region times are Valgrind's (10-60x "
			   "slower than native); 'rlprof run -b sim -- mpirun "
			   "...' runs the job twice (natively for times, then "
			   "simulated) instead");
}

/* ---- the launcher's launches ------------------------------------------ */

static int add(char **v, int *n, const char *s)
{
	if (!s)
		return 0;
	v[(*n)++] = (char *)s;
	return 0;
}

/* mpirun [its options] rlprof run --mpi-rank-only -q -o DIR -b B ...
 * -- PROGRAM ARGS */
static int build(const struct rl_mpi_run *m, const struct rl_run_options *opt,
		 const struct rl_run_target *target, struct rl_launch *l,
		 const char *dir, const char *backend, bool sim_timing_sim)
{
	int cap = opt->argc + 26, n = 0, rc;
	char **v = calloc((size_t)cap, sizeof *v);

	if (!v)
		return RL_ENOMEM;
	v[n++] = (char *)target->program; /* rl_launch_init copies */
	for (int i = 1; i < m->app_index; i++)
		v[n++] = opt->argv[i];
	add(v, &n, m->self);
	add(v, &n, "run");
	add(v, &n, "--mpi-rank-only");
	/* the node was probed, if at all, by this rlprof before the job:
	 * its ranks never probe (run_model.c) */
	add(v, &n, "--no-probe");
	add(v, &n, "-q");
	add(v, &n, "-o");
	add(v, &n, dir);
	add(v, &n, "-b");
	add(v, &n, backend);
	if (opt->events) {
		add(v, &n, "--events");
		add(v, &n, opt->events);
	}
	if (opt->sim_caches) {
		add(v, &n, "--sim-caches");
		add(v, &n, opt->sim_caches);
	}
	if (opt->sim_bounds) {
		add(v, &n, "--sim-bounds");
		add(v, &n, opt->sim_bounds);
	}
	if (opt->mpi_calls) {
		add(v, &n, "--mpi-calls");
		add(v, &n, opt->mpi_calls);
	}
	if (opt->loops) /* each rank finds, counts, samples its loops */
		add(v, &n, "--loops");
	if (sim_timing_sim) {
		add(v, &n, "--sim-timing");
		add(v, &n, "sim");
	}
	add(v, &n, "--");
	for (int i = m->app_index; i < opt->argc; i++)
		v[n++] = opt->argv[i];
	rl_launch_release(l);
	rc = rl_launch_init(l, v, (size_t)n);
	free(v);
	return rc;
}

int rl_mpi_launch(struct rl_mpi_run *m, struct rl_run_setup *setup,
		  const struct rl_run_options *opt,
		  const struct rl_run_target *target,
		  const struct rl_run_place *place,
		  const struct rl_run_backend *backend,
		  const struct rl_run_native *native, char *err, size_t errlen)
{
	const char *b = rl_run_backend_name(backend);
	char dir[PATH_MAX + 16];
	ssize_t k;

	if (m->mode != RL_MPI_LAUNCHER)
		return 0;
	k = readlink("/proc/self/exe", m->self, sizeof m->self - 1);
	if (k <= 0)
		return rl_fail(err, errlen, RL_EIO,
			       "cannot find rlprof's own path to start it under "
			       "each rank: %s", strerror(errno));
	m->self[k] = '\0';
	/* the launcher itself is not profiled: no preload, no region */
	setup->whole_program = false;
	setup->preloaded = false;
	if (build(m, opt, target, &setup->launch, place->out_dir, b,
		  strcmp(b, "sim") == 0) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if (!native->timing)
		return 0;
	snprintf(dir, sizeof dir, "%s/native", place->out_dir);
	if (build(m, opt, target, &setup->native_launch, dir, "time",
		  false) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	return 0;
}

/* ---- rank 0 waits for the others -------------------------------------- */

/* 1: rank r wrote its run.json for this job, or librlprof-mpi wrote its
 * results here at MPI_Finalize (sent.json, with its rank.json of this
 * job); -1: its rlprof is gone (same host, pid no longer alive) without
 * one; 0: not yet. */
static int rank_state(const struct rl_mpi_run *m, const char *dir, long r)
{
	char path[PATH_MAX + 64];
	json_t *o, *mpi;
	bool sent;
	int st = 0;

	snprintf(path, sizeof path, "%s/rank-%ld/run.json", dir, r);
	if ((o = rl_rank_file_load(path))) {
		mpi = json_object_get(o, "mpi");
		const char *job = json_string_value(json_object_get(mpi, "job"));
		st = !m->job[0] || (job && strcmp(job, m->job) == 0);
		json_decref(o);
		if (st)
			return 1;
	}
	snprintf(path, sizeof path, "%s/rank-%ld/sent.json", dir, r);
	sent = access(path, F_OK) == 0;
	snprintf(path, sizeof path, "%s/rank-%ld/rank.json", dir, r);
	if ((o = rl_rank_file_load(path))) {
		const char *job = json_string_value(json_object_get(o, "job"));
		const char *host = json_string_value(json_object_get(o, "host"));
		json_int_t pid = json_integer_value(json_object_get(o, "rlprof_pid"));
		if (job && strcmp(job, m->job) == 0 && sent)
			st = 1; /* sent by librlprof-mpi at MPI_Finalize */
		else if (job && strcmp(job, m->job) == 0 && host &&
			 strcmp(host, m->host) == 0 && pid > 0 &&
			 kill((pid_t)pid, 0) != 0 && errno == ESRCH)
			st = -1;
		json_decref(o);
	}
	return st;
}

static void nap(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void wait_ranks(const struct rl_mpi_run *m,
		       const struct rl_run_options *opt, const char *dir)
{
	long limit_s = 120, waited_ms = 0, pending = 0;
	const char *e = getenv("RLPROF_MPI_WAIT");
	char *done;

	if (e && *e)
		limit_s = strtol(e, NULL, 10);
	if (m->size <= 1 || !(done = calloc((size_t)m->size, 1)))
		return;
	for (;;) {
		pending = 0;
		for (long r = 1; r < m->size; r++)
			if (!done[r] && !(done[r] = rank_state(m, dir, r) != 0))
				pending++;
		if (!pending || waited_ms >= limit_s * 1000)
			break;
		if (waited_ms == 2000)
			rl_run_say(opt,
				   "waiting for %ld rank%s to finish (at "
				   "most %ld s, RLPROF_MPI_WAIT)",
				   pending, pending == 1 ? "" : "s", limit_s);
		nap(50);
		waited_ms += 50;
	}
	if (pending)
		rl_run_warn("%ld rank%s did not finish within %ld s: the "
			    "report covers the others; 'rlprof report %s' "
			    "merges again later",
			    pending, pending == 1 ? "" : "s", limit_s,
			    m->job_dir);
	free(done);
}

/* This rlprof is bound to one core by mpirun (--bind-to core is its
 * default for 2 ranks): the machine model is the node's, so rlprof widens
 * its own affinity to every CPU before it reads (or measures) the model;
 * a 1-CPU model is never cached. */
static void widen_affinity(void)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&set);
	for (long i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, &set);
	sched_setaffinity(0, sizeof set, &set);
}

bool rl_mpi_reports(const struct rl_mpi_run *m,
		    const struct rl_run_options *opt,
		    struct rl_run_place *place)
{
	char dir[PATH_MAX];

	if (m->mode == RL_MPI_NONE || m->mode == RL_MPI_LAUNCHER)
		return true;
	if (m->mode == RL_MPI_RANK_ONLY || m->rank != 0)
		return false;
	if (!realpath(m->job_dir, dir)) {
		rl_run_warn("cannot find the job directory '%s': %s",
			    m->job_dir, strerror(errno));
		return true;
	}
	rl_run_say(opt,
		   "MPI rank 0 of %ld (%s): merging the ranks' results "
		   "into '%s'",
		   m->size, m->host, m->job_dir);
	wait_ranks(m, opt, dir);
	widen_affinity();
	snprintf(place->out_dir, sizeof place->out_dir, "%s", dir);
	return true;
}
