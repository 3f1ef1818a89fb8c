/* rlprof run: the output directory and the launch (argv, environment). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/render.h"
#include "machine/machine_file.h"
#include "cli/run/run.h"
#include "common/file_write.h"
#include "common/held_dir.h"
#include "common/term_text.h"
#include "cli/run/run_loops.h"

/* strlcpy: 0, or -1 when src does not fit (dst then truncated) */
static int copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len) {
		memcpy(dst, src, len - 1);
		dst[len - 1] = '\0';
		return -1;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

/* mkdir -p */
static int make_dirs(const char *path, char *err, size_t errlen)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof buf)
		return rl_fail(err, errlen, RL_EINVAL,
			       "cannot create output directory '%s': path too "
			       "long; choose another with -o DIR", path);
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1;; p++) {
		char saved = *p;
		if (saved != '/' && saved != '\0')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
			int e = errno;
			return rl_fail(err, errlen, RL_EIO,
				       "cannot create output directory '%s': "
				       "%s; choose another with -o DIR",
				       path, strerror(e));
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
	return 0;
}

static int check_writable(const char *dir, const char *shown, char *err,
			  size_t errlen)
{
	char probe[PATH_MAX + 64];
	struct stat st;
	int fd;

	if (stat(dir, &st) != 0)
		return rl_fail(err, errlen, RL_EIO,
			       "cannot use '%s' as output directory: %s; "
			       "choose another with -o DIR",
			       shown, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot use '%s' as output directory: it is not "
			       "a directory; choose another with -o DIR",
			       shown);
	snprintf(probe, sizeof probe, "%s/.rlprof-write-XXXXXX", dir);
	fd = mkstemp(probe);
	if (fd < 0) {
		int e = errno;
		return rl_fail(err, errlen, RL_EPERM,
			       "cannot write into output directory '%s': %s; "
			       "choose another with -o DIR",
			       shown, strerror(e));
	}
	close(fd);
	unlink(probe);
	return 0;
}

/* name in the folder dir_fd removed when it is a regular file (what
 * rlprof writes): a link, a FIFO or a folder there is left alone, and
 * nothing is followed. 1 when removed. */
static int remove_own(int dir_fd, const char *name)
{
	struct stat st;

	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	return unlinkat(dir_fd, name, 0) == 0;
}

/* What remove_stale found under rlprof's own names. */
struct stale {
	int results, live; /* rlprof's files of an earlier run, removed */
	int foreign;       /* links, FIFOs, sockets, devices, empty folders
			      under those names, removed (never followed,
			      never opened) */
	char kept[NAME_MAX + 1]; /* a folder holding files: left, refused */
};

/* name in dir_fd, not rlprof's own kind of file: removed unless it is a
 * folder that holds something (then named in s->kept). */
static void remove_foreign(int dir_fd, const char *name, struct stale *s)
{
	struct stat st;

	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    S_ISREG(st.st_mode))
		return;
	if (unlinkat(dir_fd, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0) ==
	    0)
		s->foreign++;
	else if (S_ISDIR(st.st_mode) && !s->kept[0])
		snprintf(s->kept, sizeof s->kept, "%s", name);
}

/* Removes raw/rlprof-*.json and the live files (.rlprof-*.live) of an
 * earlier run: a run holds DIR's lock, so a live file there is of a run
 * killed with its rlprof; whatever else bears those names (a FIFO, a
 * link, a folder left there: rlprof would read it as results) goes too,
 * unless it is a folder with files in it. raw is opened without
 * following a link, so a link at DIR/raw never has rlprof delete files
 * elsewhere. */
static void remove_stale(const char *raw, struct stale *s)
{
	int fd = open(raw, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	memset(s, 0, sizeof *s);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		int *own = NULL;
		if (strncmp(de->d_name, "rlprof-", 7) == 0 && len >= 12 &&
		    strcmp(de->d_name + len - 5, ".json") == 0)
			own = &s->results;
		else if (strncmp(de->d_name, ".rlprof-", 8) == 0 && len > 13 &&
			 strcmp(de->d_name + len - 5, ".live") == 0)
			own = &s->live;
		if (own && !remove_own(dirfd(d), de->d_name))
			remove_foreign(dirfd(d), de->d_name, s);
		else if (own)
			(*own)++;
	}
	closedir(d);
}

/* Says what remove_stale removed from DIR/name; refuses a folder it had
 * to leave. */
static int said_stale(const struct stale *s, const struct rl_run_options *opt,
		      const char *name, char *err, size_t errlen)
{
	const char *dir = opt->out_dir;
	char kept[4 * NAME_MAX + 8];

	if (s->results > 0)
		rl_run_say(opt,
			   "removed %d results file%s of a previous run from "
			   "'%s/%s'",
			   s->results, s->results == 1 ? "" : "s", dir, name);
	if (s->live > 0)
		rl_run_warn("removed %d live file%s of an earlier run that was "
			    "killed with its rlprof from '%s/%s': its regions "
			    "are not merged into this run's",
			    s->live, s->live == 1 ? "" : "s", dir, name);
	if (s->foreign > 0)
		rl_run_warn("removed %d entr%s from '%s/%s' named like "
			    "rlprof's own files but not files (a FIFO, a "
			    "symbolic link, an empty folder...): rlprof would "
			    "have read them as results",
			    s->foreign, s->foreign == 1 ? "y" : "ies", dir,
			    name);
	rl_term_cut(kept, sizeof kept, s->kept, NAME_MAX);
	if (s->kept[0])
		return rl_fail(err, errlen, RL_EIO,
			       "cannot use '%s/%s': it holds a folder '%s', "
			       "named like rlprof's results files, with files "
			       "in it: remove it or choose another output "
			       "directory with -o DIR",
			       dir, name, kept);
	return 0;
}

/* The report files of an earlier run, so none is left stale (regular
 * files only: a link placed there is not followed, see remove_own). */
static void remove_old_reports(int dir_fd)
{
	remove_own(dir_fd, "run.json");
	for (size_t i = 0; i < rl_renderer_count(); i++) {
		const struct rl_renderer *r = rl_renderer_at(i);
		if (r && r->file_name)
			remove_own(dir_fd, r->file_name);
	}
}

static void own_dirs(struct rl_run_place *place)
{
	char exe[PATH_MAX], tmp[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	char *dir;

	if (n <= 0) {
		snprintf(place->lib_dir, sizeof place->lib_dir,
			 "/usr/local/lib");
		snprintf(place->libexec_dir, sizeof place->libexec_dir,
			 "/usr/local/libexec/rlprof");
		return;
	}
	exe[n] = '\0';
	dir = dirname(exe);
	snprintf(tmp, sizeof tmp, "%s/../lib", dir);
	if (!realpath(tmp, place->lib_dir))
		copy_str(place->lib_dir, sizeof place->lib_dir, tmp);
	snprintf(tmp, sizeof tmp, "%s/../libexec/rlprof", dir);
	if (!realpath(tmp, place->libexec_dir))
		copy_str(place->libexec_dir, sizeof place->libexec_dir, tmp);
}

/* DIR/NAME must be a folder of its own, not a link to one elsewhere
 * (rlprof writes and removes files in it). */
static int check_own_dir(const char *path, const char *shown,
			 const char *name, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot use '%s/%s': it is %s, not a folder of "
			       "rlprof's (rlprof writes and removes files "
			       "there): remove it or choose another output "
			       "directory with -o DIR",
			       shown, name,
			       S_ISLNK(st.st_mode) ? "a symbolic link"
						   : "not a directory");
	return 0;
}

/* The run owns DIR while it runs: an advisory lock (flock) on DIR, held
 * by place->dir_fd until rlprof ends; a second run into DIR is told. */
static int lock_dir(struct rl_run_place *place,
		    const struct rl_run_options *opt, char *err, size_t errlen)
{
	place->dir_fd =
		open(place->out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (place->dir_fd < 0)
		return rl_fail(err, errlen, RL_EIO,
			       "cannot open output directory '%s': %s; choose "
			       "another with -o DIR",
			       opt->out_dir, strerror(errno));
	if (flock(place->dir_fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno == EWOULDBLOCK)
		return rl_fail(err, errlen, RL_EBUSY,
			       "output directory '%s' is in use by another "
			       "rlprof run: wait for it to end, or choose "
			       "another with -o DIR",
			       opt->out_dir);
	return 0; /* a file system without locks: run without one */
}

/* DIR/raw-native: emptied of an earlier run's results; created for a
 * native timing run, else removed (so no stale timing is merged). */
static int prepare_native_dir(struct rl_run_place *place,
			      const struct rl_run_options *opt,
			      const struct rl_run_native *native, char *err,
			      size_t errlen)
{
	char dir[PATH_MAX + 16];
	struct stale stale;
	int rc;

	snprintf(dir, sizeof dir, "%s/raw-native", place->out_dir);
	if (copy_str(place->native_dir, sizeof place->native_dir, dir) < 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "output directory '%s': path too long",
			       opt->out_dir);
	remove_stale(place->native_dir, &stale);
	if ((rc = said_stale(&stale, opt, "raw-native", err, errlen)) < 0)
		return rc;
	if (!native->timing) {
		rmdir(place->native_dir); /* fails harmlessly when absent or
					   holding the user's own files */
		return 0;
	}
	if (mkdir(place->native_dir, 0777) != 0 && errno != EEXIST)
		return rl_fail(err, errlen, RL_EIO,
			       "cannot create '%s/raw-native': %s; choose "
			       "another output directory with -o DIR",
			       opt->out_dir, strerror(errno));
	if ((rc = check_own_dir(place->native_dir, opt->out_dir, "raw-native",
				err, errlen)) < 0 ||
	    (rc = check_writable(place->native_dir, place->native_dir, err,
				 errlen)) < 0)
		return rc;
	rl_held_dir_add(place->native_dir);
	return 0;
}

int rl_run_prepare_dir(struct rl_run_place *place,
		       const struct rl_run_options *opt,
		       const struct rl_run_native *native, char *err,
		       size_t errlen)
{
	const char *dir = opt->out_dir;
	char raw[PATH_MAX + 8];
	struct stale stale;
	int rc;

	own_dirs(place);
	if ((rc = make_dirs(dir, err, errlen)) < 0 ||
	    (rc = check_writable(dir, dir, err, errlen)) < 0)
		return rc;
	if (!realpath(dir, place->out_dir))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot use output directory '%s': %s", dir,
			       strerror(errno));
	snprintf(raw, sizeof raw, "%s/raw", place->out_dir);
	if (copy_str(place->raw_dir, sizeof place->raw_dir, raw) < 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "output directory '%s': path too long", dir);
	if ((rc = lock_dir(place, opt, err, errlen)) < 0)
		return rc;
	rl_file_random_hex(place->run_id, RL_RUN_ID_LEN);
	if (mkdir(place->raw_dir, 0777) != 0 && errno != EEXIST)
		return rl_fail(err, errlen, RL_EIO,
			       "cannot create '%s/raw': %s; choose another "
			       "output directory with -o DIR",
			       dir, strerror(errno));
	if ((rc = check_own_dir(place->raw_dir, dir, "raw", err, errlen)) < 0 ||
	    (rc = check_writable(place->raw_dir, place->raw_dir, err,
				 errlen)) < 0)
		return rc;
	remove_stale(place->raw_dir, &stale);
	if ((rc = said_stale(&stale, opt, "raw", err, errlen)) < 0)
		return rc;
	/* held open to the end: everything rlprof reads and writes there
	 * after the program goes through these descriptors, so DIR or
	 * DIR/raw swapped for a link meanwhile sends nothing elsewhere (a
	 * folder that cannot be held is used by its path) */
	rl_held_dir_add(place->out_dir);
	rl_held_dir_add(place->raw_dir);
	remove_old_reports(place->dir_fd);
	return prepare_native_dir(place, opt, native, err, errlen);
}

/* DIR/name (shown as where) after the program: still the folder held
 * since the start? A held folder that was removed is let go (it is made
 * again by its path); one replaced (a link, another folder) stays held,
 * and the run says so once. */
static void recheck_held(const char *path, const char *shown,
			 const char *name)
{
	bool deleted;

	if (rl_held_dir_in_place(path, &deleted))
		return;
	if (deleted) {
		rl_held_dir_drop(path);
		return;
	}
	rl_run_warn("'%s%s' was replaced while the program ran (by a "
		    "symbolic link or another folder): rlprof reads and "
		    "writes in the folder it held open since the start, not "
		    "where '%s%s' now leads; move that folder back or choose "
		    "another output directory with -o DIR",
		    shown, name, shown, name);
}

int rl_run_recheck_dir(const struct rl_run_place *place,
		       const struct rl_run_options *opt, char *err,
		       size_t errlen)
{
	char why[PATH_MAX + 512];
	bool deleted;

	recheck_held(place->out_dir, opt->out_dir, "");
	recheck_held(place->raw_dir, opt->out_dir, "/raw");
	if (!rl_held_dir_in_place(place->out_dir, &deleted))
		return 0; /* written through the held folder */
	if (make_dirs(place->out_dir, why, sizeof why) == 0 &&
	    check_writable(place->out_dir, opt->out_dir, why, sizeof why) == 0)
		return 0;
	return rl_fail(err, errlen, RL_EIO,
		       "the output directory changed while the program ran: "
		       "%s (the table is printed, no report files are "
		       "written)", why);
}

static void add_option(char *buf, size_t len, const char *key,
		       const char *value)
{
	size_t used = strlen(buf);
	if (!value || used >= len)
		return;
	snprintf(buf + used, len - used, "%s%s=%s", used ? ";" : "", key,
		 value);
}

static int set_preload(struct rl_run *run, struct rl_launch *l, char *err,
		       size_t errlen)
{
	char lib[PATH_MAX + 32], value[2 * PATH_MAX + 64];
	const char *old = getenv("LD_PRELOAD");

	if (run->target.elf.links_rlprof)
		return 0; /* the runtime is there already */
	if (!run->target.elf.dynamic &&
	    run->target.elf.kind != RL_FILE_SCRIPT) {
		snprintf(run->setup.no_preload_why,
			 sizeof run->setup.no_preload_why,
			 "it is statically linked, so librlprof cannot be "
			 "preloaded into it");
		return 0;
	}
	snprintf(lib, sizeof lib, "%s/librlprof.so", run->place.lib_dir);
	if (access(lib, R_OK) != 0) {
		snprintf(run->setup.no_preload_why,
			 sizeof run->setup.no_preload_why,
			 "'%s' is missing, so librlprof could not be preloaded",
			 lib);
		return 0;
	}
	if (old && *old)
		snprintf(value, sizeof value, "%s:%s", lib, old);
	else
		snprintf(value, sizeof value, "%s", lib);
	if (rl_launch_setenv(l, "LD_PRELOAD", value) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	run->setup.preloaded = true;
	return 0;
}

/* The launch of program (run->target.program, or --count-with's) under backend
 * b, results into raw_dir. */
static int fill_launch(struct rl_run *run, struct rl_launch *l,
		       const char *program, const struct rl_backend *b,
		       const char *raw_dir, char *err, size_t errlen)
{
	char **argv, model[4096];
	int rc;

	/* the program by its resolved path: a wrapper (valgrind) needs it */
	argv = calloc((size_t)run->opt.argc + 1, sizeof *argv);
	if (!argv)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	argv[0] = (char *)program;
	for (int i = 1; i < run->opt.argc; i++)
		argv[i] = run->opt.argv[i];
	rc = rl_launch_init(l, argv, (size_t)run->opt.argc);
	free(argv);
	if (rc < 0)
		return rl_fail(err, errlen, rc, "out of memory");
	l->libexec_dir = run->place.libexec_dir;
	l->options = run->setup.options;
	l->raw_dir = raw_dir;

	/* the machine model's file as rlprof sees it: the same for the
	 * native and the simulated run (README "Environment variables") */
	if (rl_run_model_path(&run->mpi, model, sizeof model) == 0 &&
	    rl_launch_setenv(l, "RLPROF_MACHINE", model) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if (rl_launch_setenv(l, "RLPROF_OUT", raw_dir) < 0 ||
	    rl_launch_setenv(l, "RLPROF_RUN_ID", run->place.run_id) < 0 ||
	    rl_launch_setenv(l, "RLPROF_BACKEND", b->name) < 0 ||
	    rl_launch_setenv(l, "RLPROF_BACKEND_OPTIONS",
			     run->setup.options) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if ((rc = rl_run_compat(&run->compat, &run->target, &run->opt,
				&run->place, &run->mpi, l, err, errlen)) < 0)
		return rc;
	/* an MPI program gets librlprof-mpi's PMPI wrappers: its MPI calls
	 * are out of the counts unless --mpi-calls in (the backend says
	 * which in its note) */
	if (run->compat.mpi_send && !strstr(run->setup.options, "mpi-calls="))
		add_option(run->setup.options, sizeof run->setup.options,
			   "mpi-calls",
			   run->opt.mpi_calls ? run->opt.mpi_calls : "out");
	if (run->compat.mpi_send && run->opt.mpi_calls &&
	    strcmp(run->opt.mpi_calls, "in") == 0 &&
	    rl_launch_setenv(l, "RLPROF_MPI_CALLS", "in") < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	run->setup.whole_program =
		!rl_run_has_regions(&run->compat, &run->target);
	if (run->setup.whole_program) {
		if (rl_launch_setenv(l, "RLPROF_WHOLE_PROGRAM", "1") < 0)
			return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		if ((rc = set_preload(run, l, err, errlen)) < 0)
			return rc;
	}
	if (b->prepare_launch) {
		char berr[1024] = "";
		rc = b->prepare_launch(l, berr, sizeof berr);
		if (rc < 0)
			return rl_fail(err, errlen, rc,
				       "backend '%s' cannot start '%s': %s",
				       b->name, run->target.name,
				       berr[0] ? berr : rl_strerror(rc));
	}
	return 0;
}

int rl_run_prepare_timing_launch(struct rl_run *run, struct rl_launch *l,
				 const char *raw_dir, char *err, size_t errlen)
{
	const struct rl_backend *timer = rl_backend_find("time");

	if (!timer)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "this rlprof has no 'time' backend for timing "
			       "runs");
	return fill_launch(run, l, run->target.program, timer, raw_dir, err,
			   errlen);
}

int rl_run_prepare_launch(struct rl_run *run, char *err, size_t errlen)
{
	const struct rl_backend *b =
		run->backend.probes[run->backend.chosen].backend;
	const struct rl_backend *timer;
	int rc;

	add_option(run->setup.options, sizeof run->setup.options, "events",
		   run->opt.events);
	add_option(run->setup.options, sizeof run->setup.options, "sim-caches",
		   run->opt.sim_caches	? run->opt.sim_caches
		   : run->sim.caches[0] ? run->sim.caches
					: NULL);
	if (!run->opt.sim_caches && run->sim.origin[0])
		add_option(run->setup.options, sizeof run->setup.options,
			   "sim-origin", run->sim.origin);
	if (!run->opt.sim_caches && run->sim.claims)
		add_option(run->setup.options, sizeof run->setup.options,
			   "sim-claims", "1");
	add_option(run->setup.options, sizeof run->setup.options, "sim-bounds",
		   run->opt.sim_bounds);
	{
		const char *spans;
		if ((rc = rl_run_loops_prepare(run, &run->loops, &spans, err,
						 errlen)) < 0)
			return rc;
		add_option(run->setup.options, sizeof run->setup.options,
			   "sim-loops", spans);
		if (spans && run->opt.loop_calls)
			add_option(run->setup.options,
				   sizeof run->setup.options, "sim-loop-calls",
				   "yes");
	}
	if ((rc = fill_launch(run, &run->setup.launch,
			      run->count.program[0] ? run->count.program
						    : run->target.program,
			      b, run->place.raw_dir, err, errlen)) < 0 ||
	    !run->native.timing)
		return rc;
	/* the timing run: the same program, environment and preload, under
	 * the time backend */
	if (!(timer = rl_backend_find("time")))
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "this rlprof has no 'time' backend for the "
			       "native timing run; use --sim-timing sim");
	return fill_launch(run, &run->setup.native_launch, run->target.program,
			   timer, run->place.native_dir, err, errlen);
}
