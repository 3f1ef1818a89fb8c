/* The ranks of an MPI run: DIR/rank-<r>/ merged (results_ranks.h). */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/results_json.h"
#include "results/results_native.h"
#include "results/results_ranks.h"
#include "common/rl_error.h"
#include "common/file_read.h"

void rl_mpi_results_free(struct rl_mpi_results *m)
{
	if (!m)
		return;
	for (long r = 0; m->ranks && r < m->size; r++) {
		free(m->ranks[r].host);
		free(m->ranks[r].why);
	}
	free(m->ranks);
	free(m->proc_rank);
	free(m);
}

/* "rank-<digits>" -> rank, else -1 */
static long rank_of(const char *name)
{
	char *end;
	long r;

	if (strncmp(name, "rank-", 5) != 0 || name[5] < '0' || name[5] > '9')
		return -1;
	errno = 0;
	r = strtol(name + 5, &end, 10);
	return errno || *end || r > 1000000 ? -1 : r;
}

/* A rank folder shows a rank when it holds something rlprof writes
 * there: an empty folder (rank-1000000 made by hand) shows nothing. */
static bool shows_rank(int dir_fd, const char *name)
{
	static const char *const files[] = {"rank.json", "run.json",
					    "sent.json", "raw"};
	char path[NAME_MAX + 16];

	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", name, files[i]);
		if (fstatat(dir_fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return true;
	}
	return false;
}

/* The highest rank whose folder shows one + 1 (0 when none), and how
 * many folders show one (*n_shown). */
static long scan_ranks(const char *dir, long *n_shown)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	long n = 0;

	*n_shown = 0;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		long r = rank_of(de->d_name);
		if (r < 0 || !shows_rank(dirfd(d), de->d_name))
			continue;
		++*n_shown;
		if (r >= n)
			n = r + 1;
	}
	closedir(d);
	return n;
}

json_t *rl_rank_file_load(const char *path)
{
	char *text;
	size_t len;
	json_t *o;

	if (rl_file_read_all(path, 0, RL_READ_CAP, &text, &len, NULL, 0))
		return NULL;
	o = json_loadb(text, len, 0, NULL);
	free(text);
	return o;
}

static long get_long(const json_t *o, const char *key, long dflt)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long)json_integer_value(v) : dflt;
}

/* The job size that mpi.json (np) and the ranks' rank.json (size)
 * claim, 0 when none says; read, never allocated for: the ranks are
 * those whose folders show one (a claim of 10^6 costs nothing). */
static long claimed_size(const char *dir, long n_dirs)
{
	char path[PATH_MAX + 64];
	long size = 0;
	json_t *o;

	snprintf(path, sizeof path, "%s/mpi.json", dir);
	if ((o = rl_rank_file_load(path))) {
		long np = get_long(o, "np", -1);
		if (np > size)
			size = np;
		json_decref(o);
	}
	for (long r = 0; r < n_dirs; r++) {
		snprintf(path, sizeof path, "%s/rank-%ld/rank.json", dir, r);
		if ((o = rl_rank_file_load(path))) {
			long s = get_long(o, "size", -1);
			if (s > size)
				size = s;
			json_decref(o);
		}
	}
	return size;
}

/* The same process in two ranks' folders (a copied results file: same
 * pid, start time and first thread) would be summed twice: refused. */
static int check_rank_copies(const char *dir, const struct rl_run_results *out,
			     size_t first_new, char *err, size_t errlen)
{
	for (size_t i = first_new; i < out->n_procs; i++) {
		const struct rl_process_results *p = &out->procs[i];
		for (size_t k = 0; k < first_new; k++) {
			const struct rl_process_results *q = &out->procs[k];
			if (q->pid == p->pid && q->start_ns == p->start_ns &&
			    q->n_threads > 0 && p->n_threads > 0 &&
			    q->threads[0].tid == p->threads[0].tid)
				return rl_fail(err, errlen, RL_EFORMAT,
					       "'%s/rank-%ld' and '%s/rank-%ld' "
					       "hold the same process %ld (same "
					       "start time and thread ids): one "
					       "is a copy; remove it and run "
					       "again",
					       dir, out->mpi->proc_rank[k], dir,
					       out->mpi->proc_rank[i], p->pid);
		}
	}
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Host, exit status and signal of rank r from its rank.json / run.json. */
static int rank_facts(const char *dir, struct rl_rank_info *ri)
{
	char path[PATH_MAX + 64];
	json_t *o;

	ri->exit_status = -1;
	snprintf(path, sizeof path, "%s/rank-%ld/rank.json", dir, ri->rank);
	if ((o = rl_rank_file_load(path))) {
		ri->host = dup_or_null(
			json_string_value(json_object_get(o, "host")));
		json_decref(o);
		if (!ri->host && errno == ENOMEM)
			return RL_ENOMEM;
	}
	snprintf(path, sizeof path, "%s/rank-%ld/run.json", dir, ri->rank);
	if ((o = rl_rank_file_load(path))) {
		ri->exit_status = (int)get_long(o, "exit_status", -1);
		ri->signal = (int)get_long(o, "signal", 0);
		json_decref(o);
	}
	return 0;
}

static int set_why(struct rl_rank_info *ri, long size, const char *rank_dir,
		   const char *load_err)
{
	char msg[1024];
	int n = snprintf(msg, sizeof msg, "rank %ld of %ld%s%s%s left no "
			 "results: ", ri->rank, size, ri->host ? " (host " : "",
			 ri->host ? ri->host : "", ri->host ? ")" : "");
	size_t k = n > 0 && (size_t)n < sizeof msg ? (size_t)n : 0;
	struct stat st;

	if (ri->signal > 0)
		snprintf(msg + k, sizeof msg - k,
			 "its program was killed by signal %d (%s)%s",
			 ri->signal, strsignal(ri->signal),
			 ri->signal == SIGKILL ? ", which no program can catch"
					       : "");
	else if (ri->exit_status >= 0)
		snprintf(msg + k, sizeof msg - k,
			 "its program ended (status %d) without writing them "
			 "(%.512s)", ri->exit_status, load_err);
	else if (stat(rank_dir, &st) == 0)
		snprintf(msg + k, sizeof msg - k,
			 "its rlprof did not finish (killed, or still running): "
			 "'%.512s' has no run.json", rank_dir);
	else
		snprintf(msg + k, sizeof msg - k,
			 "'%.512s' does not exist (the rank did not start under "
			 "rlprof, or the output directory is not shared with "
			 "its node)", rank_dir);
	ri->why = strdup(msg);
	return ri->why ? 0 : RL_ENOMEM;
}

/* Appends warning (kind "mpi-rank-missing") to process p. */
static int warn_missing(struct rl_process_results *p, const char *message)
{
	return rl_results_add_warning(p, "mpi-rank-missing", message);
}

/* The native timing job's rank r (DIR/native/rank-<r>), when there is one,
 * gives rr its times. */
static int merge_native_rank(const char *dir, long r,
			     struct rl_run_results *rr)
{
	char path[PATH_MAX + 64], lerr[512], msg[1024];
	struct rl_run_results nr;
	struct stat st;
	int rc;

	snprintf(path, sizeof path, "%s/native/rank-%ld", dir, r);
	if (stat(path, &st) != 0)
		return 0;
	/* its loops' samples are in the simulated rank's loops.json */
	rc = rl_results_load_dir_flags(path, RL_LOAD_NO_LOOPS, NULL, &nr, lerr,
				       sizeof lerr);
	if (rc == RL_ENOMEM)
		return rc;
	if (rc) {
		snprintf(msg, sizeof msg,
			 "rank %ld: native timing results unreadable (%s): "
			 "times are the simulator's (Valgrind's, many times "
			 "slower)", r, lerr);
		return rr->n_procs ? rl_results_native_warn(&rr->procs[0], NULL,
							    0, msg)
				   : 0;
	}
	rc = rl_results_merge_native(rr, nr.procs, nr.n_procs);
	rl_run_results_release(&nr);
	return rc;
}

/* Moves rr's processes (and, when out has none yet, its header) into out. */
static int take(struct rl_run_results *out, struct rl_run_results *rr,
		long rank, bool header)
{
	size_t n = out->n_procs + rr->n_procs;
	struct rl_process_results *p = realloc(out->procs,
					       (n ? n : 1) * sizeof *p);
	long *pr = realloc(out->mpi->proc_rank, (n ? n : 1) * sizeof *pr);

	if (p)
		out->procs = p;
	if (pr)
		out->mpi->proc_rank = pr;
	if (!p || !pr)
		return RL_ENOMEM;
	for (size_t i = 0; i < rr->n_procs; i++) {
		out->procs[out->n_procs] = rr->procs[i];
		out->mpi->proc_rank[out->n_procs++] = rank;
	}
	free(rr->procs);
	rr->procs = NULL;
	rr->n_procs = 0;
	out->sim_timing_native |= rr->sim_timing_native;
	if (rl_results_take_loops(out, rr)) /* rlprof run --loops */
		return RL_ENOMEM;
	if (header && !out->command) {
		out->command = rr->command;
		out->backend_requested = rr->backend_requested;
		out->backend_reason = rr->backend_reason;
		out->exit_status = rr->exit_status;
		rr->command = rr->backend_requested = rr->backend_reason = NULL;
	}
	return 0;
}

int rl_results_load_ranks(const char *dir, struct rl_run_results *out,
			  char *err, size_t errlen)
{
	long n_shown, n_dirs = scan_ranks(dir, &n_shown), size, claimed;
	char path[PATH_MAX + 64], lerr[768], beyond[1024] = "";
	struct rl_mpi_results *m;
	bool header;
	int rc = 0;

	if (n_dirs == 0)
		return 0;
	/* ranks between those whose folders show one are listed as missing,
	 * one by one: a lone rank-1000000 with a rank.json is not a job */
	if (n_dirs - n_shown > RL_MPI_MAX_MISSING)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "'%s' holds rank folders up to rank-%ld but only "
			       "%ld of them: not the output of one MPI job (a "
			       "stray or hand-made rank folder?): remove it",
			       dir, n_dirs - 1, n_shown);
	size = n_dirs;
	claimed = claimed_size(dir, n_dirs);
	/* a claim within the bound on missing ranks lists each one with its
	 * reason; beyond it (np 10^6) it is one warning, not allocated for */
	if (claimed > size &&
	    claimed - n_shown <= RL_MPI_MAX_MISSING)
		size = claimed;
	else if (claimed > size)
		snprintf(beyond, sizeof beyond,
			 "the job had %ld ranks (mpi.json, rank.json), but "
			 "only ranks up to %ld left a folder in '%s': ranks "
			 "%ld to %ld left no results here (not started under "
			 "rlprof, or the output directory is not shared with "
			 "their nodes)",
			 claimed, size - 1, dir, size, claimed - 1);
	snprintf(path, sizeof path, "%s/run.json", dir);
	header = access(path, F_OK) != 0;
	if (!(m = calloc(1, sizeof *m)) ||
	    !(m->ranks = calloc((size_t)size, sizeof *m->ranks))) {
		free(m);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	m->size = size;
	out->mpi = m;
	for (long r = 0; r < size && !rc; r++) {
		struct rl_rank_info *ri = &m->ranks[r];
		struct rl_run_results rr;

		ri->rank = r;
		if ((rc = rank_facts(dir, ri)))
			break;
		snprintf(path, sizeof path, "%s/rank-%ld", dir, r);
		lerr[0] = '\0';
		/* its loops after the native times, as in one run's folder
		 * (a loop's time is already native: its samples) */
		rc = rl_results_load_dir_flags(path, RL_LOAD_NO_LOOPS, NULL, &rr,
					       lerr, sizeof lerr);
		if (rc == RL_ENOMEM)
			break;
		if (rc == 0 && rr.n_procs > 0) {
			size_t first_new = out->n_procs;
			ri->present = true;
			if ((rc = merge_native_rank(dir, r, &rr)) == 0 &&
			    (rc = rl_results_add_loops(path, &rr)) == 0)
				rc = take(out, &rr, r, header);
			rl_run_results_release(&rr);
			if (rc == 0 && (rc = check_rank_copies(dir, out, first_new,
							     err, errlen)))
				return rc;
			continue;
		}
		if (rc == 0)
			rl_run_results_release(&rr);
		m->n_missing++;
		rc = set_why(ri, size, path, lerr[0] ? lerr : "no results file");
	}
	for (long r = 0; r < size && !rc && out->n_procs; r++)
		if (m->ranks[r].why)
			rc = warn_missing(&out->procs[0], m->ranks[r].why);
	if (!rc && beyond[0] && out->n_procs)
		rc = warn_missing(&out->procs[0], beyond);
	if (rc)
		return rl_fail(err, errlen, rc, "cannot merge the ranks of '%s': "
			       "%s", dir, rl_strerror(rc));
	return 0;
}
