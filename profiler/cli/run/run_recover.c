/*
 * rlprof run, after the program: a process that died without writing its
 * results (SIGKILL, the out-of-memory killer, _exit(), exec) left its live
 * file DIR/raw/.rlprof-<pid>.live (profiler/formats/live.h). Each such
 * file with completed calls becomes rlprof-<pid>.json, with a warning that
 * says how it was recovered and one per region still open; live files
 * are then removed.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/results_live.h"
#include "formats/live.h"
#include "cli/run/run.h"
#include "runtime/results_write.h"
#include "common/file_read.h"
#include "common/file_write.h"
#include "common/held_dir.h"

/* .rlprof-<digits>-<hex>.live (or .rlprof-<digits>.live of an older
 * librlprof) -> pid, else -1 */
static long live_pid(const char *name)
{
	size_t np = strlen(RL_LIVE_PREFIX);
	char *end;
	if (strncmp(name, RL_LIVE_PREFIX, np) != 0 || name[np] < '0' ||
	    name[np] > '9')
		return -1;
	errno = 0;
	long pid = strtol(name + np, &end, 10);
	if (errno || pid < 0)
		return -1;
	if (*end == '-')
		end += 1 + strspn(end + 1, "0123456789abcdef");
	return strcmp(end, RL_LIVE_SUFFIX) == 0 ? pid : -1;
}

static int add_warning(struct rl_process_results *p, const char *kind,
		       const char *region, uint64_t tid, const char *msg)
{
	return rl_results_add_region_warning(p, kind, region, tid, msg) ? -1
									 : 0;
}

/* How the process ended, as far as rlprof knows: only the program it
 * started is its child. */
static void how_it_ended(const struct rl_run_outcome *outcome,
			 struct rl_process_results *p, char *buf, size_t len)
{
	int st = outcome->wait_status;
	bool top = outcome->started && p->pid == (long)outcome->pid;
	if (top && WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		p->signal = sig;
		p->end_ns = outcome->end_ns;
		snprintf(buf, len, "process %ld was killed by signal %d%s "
			 "before librlprof could write its results: the "
			 "regions it completed were recovered from its live "
			 "file", p->pid, sig,
			 sig == SIGKILL ? " (SIGKILL: kill -9, a scheduler's "
					  "time limit or the out-of-memory "
					  "killer)" : "");
	} else if (top) {
		p->end_ns = outcome->end_ns;
		snprintf(buf, len, "process %ld ended without writing its "
			 "results (through _exit() or exec, exit status %d): "
			 "the regions it completed were recovered from its "
			 "live file", p->pid,
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	} else {
		snprintf(buf, len, "process %ld ended without writing its "
			 "results (killed by SIGKILL or the out-of-memory "
			 "killer, or through _exit() or exec): the regions it "
			 "completed were recovered from its live file",
			 p->pid);
	}
}

/* DIR/raw/rlprof-<pid>.json through an unguessable temporary name and a
 * rename within the folder (file_write.h): no link is followed. */
static int write_json(const char *fin, const struct rl_process_results *p)
{
	struct rl_file_out o;
	int rc;

	if ((rc = rl_file_open_owned(fin, &o)) < 0)
		return rc;
	if (fflush(o.f) != 0 || rl_results_write_fd(fileno(o.f), p) < 0) {
		int e = errno ? errno : EIO;
		rl_file_discard(&o);
		return -e;
	}
	return rl_file_commit(&o);
}

/* Whether process pid still runs with the live file live mapped: a child
 * of the program that outlives it (a daemon, a background job). The map
 * tells it from a process that took the pid since; a zombie maps
 * nothing. */
static bool still_running(long pid, const char *live)
{
	char maps[64], line[PATH_MAX + 256];
	const char *base = strrchr(live, '/');
	bool found = false;
	FILE *f;

	if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno != EPERM))
		return false;
	snprintf(maps, sizeof maps, "/proc/%ld/maps", pid);
	if (!(f = fopen(maps, "r")))
		return errno == EACCES; /* alive, not ours to read */
	base = base ? base + 1 : live;
	while (!found && fgets(line, sizeof line, f))
		found = strstr(line, base) != NULL;
	fclose(f);
	return found;
}

/* A full disk: the live file's own room is what the results file needs
 * (with 8 KiB free the process kept its records there and nothing else
 * fitted). Its bytes are held in memory, the file removed and the results
 * written; when they still do not fit, the live file is put back as it
 * was. 0 or -errno as write_json. */
static int write_json_in_place(const char *live, const char *json,
			       const struct rl_process_results *p)
{
	char *bytes, err[256];
	size_t len;
	int rc, fd;

	if (rl_file_read_all(live, RL_READ_NOFOLLOW, (size_t)256 << 20,
			     &bytes, &len, err, sizeof err) != 0)
		return -ENOSPC;
	rl_held_unlink(live, false);
	rc = write_json(json, p);
	if (rc < 0) {
		fd = rl_held_open(live, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_CLOEXEC, 0644);
		size_t off = 0;
		while (fd >= 0 && off < len) {
			ssize_t n = write(fd, bytes + off, len - off);
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		if (fd < 0 || off < len)
			rl_run_warn("cannot put back the live file '%s' (%s): "
				    "the regions it held are lost", live,
				    strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	free(bytes);
	return rc;
}

static void recover_one(const struct rl_run_place *place,
			const struct rl_run_outcome *outcome, const char *dir,
			const char *name, long pid)
{
	char live[PATH_MAX + 64], json[PATH_MAX + 64], err[1024];
	char msg[1024];
	struct rl_process_results p;
	struct stat st;

	snprintf(live, sizeof live, "%s/%s", dir, name);
	if (rl_results_live_load(live, &p, err, sizeof err) < 0) {
		rl_run_warn("%s", err);
		return;
	}
	/* the process its header names (the file's name may say another
	 * pid: the results file is named as the reader expects) */
	if (p.pid != pid)
		rl_run_warn("'%s' holds the records of process %ld, not of "
			    "%ld as its name says: recovered as process %ld",
			    live, p.pid, pid, p.pid);
	pid = p.pid;
	snprintf(json, sizeof json, "%s/rlprof-%ld.json", dir, pid);
	/* another run's (an earlier one killed with its rlprof, or a
	 * program started outside rlprof with this RLPROF_OUT): named and
	 * left out, never merged into this run's results */
	if (strcmp(p.run_id, place->run_id) != 0) {
		rl_run_warn("'%s' is the live file of another run (process "
			    "%ld%s%s): left out of this run's results",
			    live, p.pid, p.run_id[0] ? ", run " : "",
			    p.run_id);
		rl_results_release(&p);
		return;
	}
	if (still_running(pid, live)) {
		/* neither recovered as if killed nor removed under it: it
		 * writes its results file when it ends */
		rl_run_warn("process %ld, started by the program, was still "
			    "running when the program ended: its regions are "
			    "not in this report (it writes '%s' when it ends: "
			    "then run 'rlprof report %s')",
			    pid, json, place->out_dir);
		rl_results_release(&p);
		return;
	}
	if (rl_results_total_calls(&p) == 0) { /* nothing completed */
		rl_results_release(&p);
		rl_held_unlink(live, false);
		return;
	}
	bool execed = false;
	if (stat(json, &st) == 0) {
		struct rl_process_results w;
		bool same = rl_results_load(json, &w, err, sizeof err) == 0 &&
			    w.start_ns == p.start_ns;
		if (same) { /* written at exit: not needed */
			rl_results_release(&w);
			rl_results_release(&p);
			rl_held_unlink(live, false);
			return;
		}
		rl_results_release(&w);
		/* the same pid, another start: the process re-executed
		 * itself (exec) and the new image wrote its results; the
		 * earlier image's completed regions are kept beside them */
		for (int k = 1; k < 1000; k++) {
			snprintf(json, sizeof json, "%s/rlprof-%ld.%d.json", dir,
				 pid, k);
			if (lstat(json, &st) != 0)
				break;
		}
		execed = true;
	}
	how_it_ended(outcome, &p, msg, sizeof msg);
	if (execed)
		snprintf(msg, sizeof msg,
			 "process %ld executed a new program (exec) before "
			 "librlprof could write its results: the regions it "
			 "completed before the exec were recovered from its "
			 "live file (the new program's are its own results)",
			 p.pid);
	int rc = add_warning(&p, "signal", NULL, 0, msg);
	for (size_t t = 0; t < p.n_threads && rc == 0; t++)
		for (size_t i = 0; i < p.threads[t].n_regions && rc == 0;
		     i++) {
			const struct rl_region_stats *s =
				&p.threads[t].regions[i];
			if (!s->open_at_exit)
				continue;
			snprintf(msg, sizeof msg,
				 "region '%s' still open when process %ld "
				 "ended (thread %llu): its unfinished call is "
				 "not counted",
				 s->name, p.pid,
				 (unsigned long long)p.threads[t].tid);
			rc = add_warning(&p, "open-at-exit", s->name,
					 p.threads[t].tid, msg);
		}
	if (rc == 0)
		rc = write_json(json, &p);
	if (rc == -ENOSPC || rc == -EDQUOT)
		rc = write_json_in_place(live, json, &p);
	if (rc == -1)
		rl_run_warn("out of memory recovering '%s'", live);
	else if (rc < 0)
		rl_run_warn("cannot write '%s': %s: the regions recovered from "
			    "'%s' are left there",
			    json, strerror(-rc), live);
	else
		rl_held_unlink(live, false);
	rl_results_release(&p);
}

static void recover_dir(const struct rl_run_place *place,
			const struct rl_run_outcome *outcome, const char *dir)
{
	DIR *d = rl_held_opendir(dir);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d))) {
		long pid = live_pid(de->d_name);
		if (pid >= 0)
			recover_one(place, outcome, dir, de->d_name, pid);
	}
	closedir(d);
}

void rl_run_recover(const struct rl_run_place *place,
		    const struct rl_run_native *native,
		    const struct rl_run_outcome *outcome)
{
	recover_dir(place, outcome, place->raw_dir);
	if (native->timing)
		recover_dir(place, outcome, place->native_dir);
}
