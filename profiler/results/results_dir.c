/*
 * Reading a run directory: every DIR/raw/rlprof-<pid>.json in pid order
 * and DIR/run.json (written by rlprof run; every field optional). When
 * DIR/raw-native exists (rlprof run -b sim with native timing), its times
 * replace the simulator's (results_native.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/selftest_json.h"
#include "results/run_results.h"
#include "results/results_json.h"
#include "results/results_native.h"
#include "results/results_ranks.h"
#include "common/shell_quote.h"
#include "common/rl_error.h"
#include "formats/run.h"
#include "common/held_dir.h"

void rl_run_results_release(struct rl_run_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_procs; i++)
		rl_results_release(&r->procs[i]);
	free(r->procs);
	free(r->backend_requested);
	free(r->backend_reason);
	free(r->command);
	free(r->count_with);
	free(r->timed_isa);
	free(r->timed_isa_source);
	rl_mpi_results_free(r->mpi);
	rl_loop_meta_release(r->loops, r->n_loops);
	free(r->loops_rule);
	free(r->selftest);
	memset(r, 0, sizeof *r);
	r->exit_status = -1;
}

/* Join a command array as a shell would show it: words with spaces or
 * quotes are single-quoted. */

static char *join_command(const json_t *arr)
{
	size_t i, len = 1;
	const json_t *e;
	char *s, *p;

	json_array_foreach (arr, i, e) {
		const char *w = json_string_value(e);
		len += (w ? rl_shell_quote_len(w) : 0) + 1;
	}
	s = p = malloc(len);
	if (!s)
		return NULL;
	json_array_foreach (arr, i, e) {
		const char *w = json_string_value(e);

		if (!w)
			continue;
		if (p != s)
			*p++ = ' ';
		p = rl_shell_quote(p, w);
	}
	*p = '\0';
	return s;
}

/* What run.json says about the native timing run (all optional). */
struct native_record {
	char *sim_timing;    /* "native", "sim", NULL: not said */
	long exit_status;    /* -1: not said */
	long expected;       /* the status of success (--expect-status) */
	long signal;         /* 0: none */
	char *program;
};

/* "paired" of "roof_check" (issue 38): each sample that reads as one
 * (an op, a thread count and a rate); the others are left out. */
static void parse_paired(const json_t *o, struct rl_roof_check *c)
{
	const json_t *a = json_object_get(o, "samples"), *e;
	size_t i;

	if (!json_is_object(o) || !json_is_array(a))
		return;
	json_array_foreach (a, i, e) {
		const char *op = json_string_value(json_object_get(e, "op"));
		const char *lv = json_string_value(json_object_get(e, "level"));
		json_int_t t = json_integer_value(json_object_get(e, "threads"));
		json_int_t k = json_integer_value(json_object_get(e, "streams"));
		json_int_t r =
			json_integer_value(json_object_get(e, "after_run"));
		double g = json_number_value(json_object_get(e, "gbs"));
		if (c->n_samples >= RL_PAIR_MAX_SAMPLES)
			break;
		if (!op || (strcmp(op, "triad") && strcmp(op, "read")) ||
		    (lv && strcmp(lv, "DRAM")) || t < 1 || t > 1 << 20 ||
		    k < 0 || k > 64 || r < 0 || r > 1000 || !(g > 0) ||
		    !(g < 1e9))
			continue;
		c->samples[c->n_samples++] = (struct rl_pair_sample){
			strcmp(op, "read") == 0 ? RL_PAIR_READ : RL_PAIR_TRIAD,
			(unsigned)t, (unsigned)k, (unsigned)r, g};
	}
	json_int_t p = json_integer_value(json_object_get(o, "points"));
	json_int_t n = json_integer_value(json_object_get(o, "timing_runs"));
	double s = json_number_value(json_object_get(o, "seconds"));
	c->n_points = p > 0 && p < 1000 ? (unsigned)p : 0;
	c->timing_runs = n > 0 && n < 1000 ? (unsigned)n : 0;
	c->pair_seconds = s > 0 && s < 1e6 ? s : 0;
}

/* "roof_check" (results/roof_check.h): optional, and only figures; what
 * does not read as one is left out (never a run's failure). */
static void parse_roof_check(const json_t *o, struct rl_roof_check *c)
{
	const char *s;
	double d;

	memset(c, 0, sizeof *c);
	if (!json_is_object(o))
		return;
	c->taken = json_is_true(json_object_get(o, "taken"));
	if ((s = json_string_value(json_object_get(o, "why_not"))))
		snprintf(c->why_not, sizeof c->why_not, "%s", s);
	if ((s = json_string_value(json_object_get(o, "probed_at"))))
		snprintf(c->probed_at, sizeof c->probed_at, "%s", s);
#define NUM(key) (json_is_number(json_object_get(o, key)) &&                 \
		  (d = json_number_value(json_object_get(o, key))) > 0 &&     \
		  d < 1e15 ? d : 0)
	c->before_gbs = NUM("before_gbs");
	c->after_gbs = NUM("after_gbs");
	c->roof_gbs = NUM("roof_gbs");
	c->seconds = NUM("seconds");
	c->before_ghz = NUM("before_ghz") < 1e3 ? NUM("before_ghz") : 0;
	c->after_ghz = NUM("after_ghz") < 1e3 ? NUM("after_ghz") : 0;
	c->threads = (unsigned)(NUM("threads") < 1e6 ? NUM("threads") : 0);
	c->working_set_bytes = (uint64_t)NUM("working_set_bytes");
#undef NUM
	if (!(c->before_gbs > 0 || c->after_gbs > 0) || !(c->roof_gbs > 0))
		c->taken = false;
	parse_paired(json_object_get(o, "paired"), c);
}

static int parse_run(struct rl_json_ctx *c, const json_t *root,
		     struct rl_run_results *out, struct native_record *nat)
{
	const json_t *cmd, *fma;
	long status = -1;
	int version, rc;

	if ((rc = rl_json_check_header(c, root, RL_RUN_FORMAT, RL_RUN_VERSION,
				       "run", &version)) ||
	    (rc = rl_json_str(c, root, NULL, "backend_requested", 0,
			      &out->backend_requested)) ||
	    (rc = rl_json_str(c, root, NULL, "backend_reason", 0,
			      &out->backend_reason)) ||
	    (rc = rl_json_long(c, root, NULL, "exit_status", 0, &status)) ||
	    (rc = rl_json_str(c, root, NULL, "sim_timing", 0,
			      &nat->sim_timing)) ||
	    (rc = rl_json_long(c, root, NULL, "native_exit_status", 0,
			       &nat->exit_status)) ||
	    (rc = rl_json_long(c, root, NULL, "native_signal", 0,
			       &nat->signal)) ||
	    (rc = rl_json_long(c, root, NULL, "expected_status", 0,
			       &nat->expected)) ||
	    (rc = rl_json_str(c, root, NULL, "program", 0, &nat->program)) ||
	    (rc = rl_json_str(c, root, NULL, "count_with", 0,
			      &out->count_with)) ||
	    (rc = rl_json_str(c, root, NULL, "timed_isa", 0,
			      &out->timed_isa)) ||
	    (rc = rl_json_str(c, root, NULL, "timed_isa_source", 0,
			      &out->timed_isa_source)))
		return rc;
	parse_roof_check(json_object_get(root, "roof_check"),
			 &out->roof_check);
	/* "selftest": the known-answer check; what does not read as one is
	 * left out, like roof_check */
	if (json_is_object(json_object_get(root, "selftest")) &&
	    (out->selftest = malloc(sizeof *out->selftest)) &&
	    rl_selftest_from_json(json_object_get(root, "selftest"),
				  out->selftest) < 0) {
		free(out->selftest);
		out->selftest = NULL;
	}
	fma = json_object_get(root, "timed_fma");
	if (fma && !json_is_boolean(fma) && !json_is_null(fma))
		return rl_json_bad(c, NULL, "timed_fma", "true, false or null");
	out->timed_no_fma = json_is_false(fma);
	/* what rlprof run returns: 0..255 (128+N for a signal), -1 unknown */
	if (status < -1 || status > 255)
		return rl_json_bad(c, NULL, "exit_status",
				   "an exit status (0 to 255)");
	out->exit_status = (int)status;
	cmd = json_object_get(root, "command");
	if (json_is_array(cmd)) {
		if (!(out->command = join_command(cmd)))
			return RL_ENOMEM;
	} else if (json_is_string(cmd)) {
		if (!(out->command = rl_json_strdup(json_string_value(cmd))))
			return RL_ENOMEM;
	} else if (cmd && !json_is_null(cmd)) {
		return rl_json_bad(c, NULL, "command", "an array of strings");
	}
	return 0;
}

struct raw_file {
	long pid;
	char *name;
};

static int cmp_raw(const void *a, const void *b)
{
	const struct raw_file *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* rlprof-<digits>.json -> pid, else -1; rlprof-<digits>.<digits>.json
 * too: the regions a process completed before it re-executed itself
 * (exec), recovered beside the new program's results (run_recover.c) */
static long raw_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "rlprof-", 7) != 0 || name[7] < '0' || name[7] > '9')
		return -1;
	errno = 0;
	pid = strtol(name + 7, &end, 10);
	if (!errno && end[0] == '.' && end[1] >= '0' && end[1] <= '9')
		end += 1 + strspn(end + 1, "0123456789");
	if (errno || strcmp(end, ".json") != 0)
		return -1;
	return pid;
}

static int list_raw(const char *raw, struct raw_file **files, size_t *n,
		    char *err, size_t errlen)
{
	DIR *d = rl_held_opendir(raw);
	struct dirent *de;
	size_t cap = 0;

	*files = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0
				       : rl_fail(err, errlen, RL_EIO,
						 "cannot open '%s': %s", raw,
						 strerror(errno));
	while ((de = readdir(d))) {
		long pid = raw_pid(de->d_name);

		if (pid < 0)
			continue;
		if (*n == cap) {
			struct raw_file *f;
			cap = cap ? 2 * cap : 8;
			f = realloc(*files, cap * sizeof *f);
			if (!f)
				goto oom;
			*files = f;
		}
		(*files)[*n].pid = pid;
		if (!((*files)[*n].name = strdup(de->d_name)))
			goto oom;
		(*n)++;
	}
	closedir(d);
	if (*n > 1)
		qsort(*files, *n, sizeof **files, cmp_raw);
	return 0;
oom:
	closedir(d);
	return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
}

/* A results file copied under another name doubles every count: a file
 * whose process is not the one its name says, or two files of the same
 * process (same start time and first thread), is refused. */
static int check_copies(const char *raw, const struct raw_file *files,
			const struct rl_process_results *procs, size_t i,
			char *err, size_t errlen)
{
	const struct rl_process_results *p = &procs[i];

	if (p->pid != files[i].pid)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "'%s/%s' holds the results of process %ld, not "
			       "of %ld as its name says: a copy of another "
			       "results file? remove it and run again",
			       raw, files[i].name, p->pid, files[i].pid);
	for (size_t k = 0; k < i; k++) {
		const struct rl_process_results *q = &procs[k];

		if (q->start_ns == p->start_ns && q->n_threads > 0 &&
		    p->n_threads > 0 && q->threads[0].tid == p->threads[0].tid)
			return rl_fail(err, errlen, RL_EFORMAT,
				       "'%s/%s' and '%s' hold the same process "
				       "(same start time and thread ids): one "
				       "is a copy; remove it and run again",
				       raw, files[i].name, files[k].name);
	}
	return 0;
}

int rl_results_add_warning(struct rl_process_results *p, const char *kind,
			   const char *message)
{
	return rl_results_add_region_warning(p, kind, NULL, 0, message);
}

int rl_results_add_region_warning(struct rl_process_results *p,
				  const char *kind, const char *region,
				  uint64_t tid, const char *message)
{
	return rl_warning_append(&p->warnings, &p->n_warnings, kind, region,
				 tid, message);
}

int rl_warning_append(struct rl_warning **list, size_t *n, const char *kind,
		      const char *region, uint64_t tid, const char *message)
{
	struct rl_warning *w = realloc(*list, (*n + 1) * sizeof *w);

	if (!w)
		return RL_ENOMEM;
	*list = w;
	w += *n;
	memset(w, 0, sizeof *w);
	w->tid = tid;
	w->kind = strdup(kind ? kind : "");
	w->region = region ? strdup(region) : NULL;
	w->message = strdup(message ? message : "");
	if (!w->kind || !w->message || (region && !w->region)) {
		free(w->kind);
		free(w->region);
		free(w->message);
		return RL_ENOMEM;
	}
	(*n)++;
	return 0;
}

/* What was left out as another run's: the first few names, the count. */
struct left_out {
	char names[768];
	int n;
};

static void note_left_out(struct left_out *lo, const char *raw,
			  const char *name, const char *id)
{
	if (lo->n++ < 3)
		rl_appendf(lo->names, sizeof lo->names, "%s'%s/%s' (%s%s)",
			   lo->n > 1 ? ", " : "", raw, name,
			   id[0] ? "run " : "no run identity", id);
}

/* Every results file of raw (a directory that may not exist), in pid
 * order, into a new array. With run_id, a file of another run (another
 * run identity, or none) is left out and named in a warning. */
static int load_procs(const char *raw, const char *run_id,
		      struct rl_process_results **procs, size_t *n_procs,
		      char *err, size_t errlen)
{
	struct raw_file *files = NULL;
	size_t n = 0, len = strlen(raw) + 300, kept = 0;
	struct left_out lo = {"", 0};
	char *path = NULL;
	int rc;

	*procs = NULL;
	*n_procs = 0;
	if ((rc = list_raw(raw, &files, &n, err, errlen)) || n == 0)
		goto out;
	path = malloc(len);
	*procs = calloc(n, sizeof **procs);
	if (!path || !*procs) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct rl_process_results *p = &(*procs)[kept];
		snprintf(path, len, "%s/%s", raw, files[i].name);
		if ((rc = rl_results_load(path, p, err, errlen)))
			goto out;
		if (run_id && run_id[0] && strcmp(p->run_id, run_id) != 0) {
			note_left_out(&lo, raw, files[i].name, p->run_id);
			rl_results_release(p);
			free(files[i].name);
			files[i].name = NULL;
			continue;
		}
		files[kept] = files[i]; /* check_copies sees the kept ones */
		if (kept != i)
			files[i].name = NULL;
		*n_procs = ++kept;
		if ((rc = check_copies(raw, files, *procs, kept - 1, err,
				       errlen)))
			goto out;
	}
	if (lo.n) {
		char msg[1024];
		snprintf(msg, sizeof msg,
			 "left out %d results file%s of another rlprof run "
			 "found in '%s': %s%s (not this run's, so not merged)",
			 lo.n, lo.n == 1 ? "" : "s", raw, lo.names,
			 lo.n > 3 ? ", ..." : "");
		if (kept == 0)
			rc = rl_fail(err, errlen, RL_ENOENT,
				     "no results of this run in '%s': %s", raw,
				     msg);
		else
			rc = rl_results_add_warning(&(*procs)[0], "foreign-results", msg);
		if (rc == RL_ENOMEM)
			rl_fail(err, errlen, rc, "out of memory");
	}
out:
	for (size_t i = 0; i < n; i++)
		free(files[i].name);
	free(files);
	free(path);
	if (rc) {
		for (size_t i = 0; i < *n_procs; i++)
			rl_results_release(&(*procs)[i]);
		free(*procs);
		*procs = NULL;
		*n_procs = 0;
	}
	return rc;
}

static void release_procs(struct rl_process_results *procs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rl_results_release(&procs[i]);
	free(procs);
}

/* DIR/raw-native into out, as run.json (nat) allows. A native run that
 * failed or results that cannot be read leave the simulator's times, with
 * a warning; only running out of memory is an error. */
static int merge_native(const char *dir, const struct native_record *nat,
			const char *run_id, struct rl_run_results *out)
{
	struct rl_process_results *np = NULL;
	size_t nn = 0, len = strlen(dir) + 32;
	char *raw = malloc(len), msg[1024], lerr[768];
	const char *prog = nat->program ? nat->program : "the program";
	struct stat st;
	int rc = 0;

	if (!raw)
		return RL_ENOMEM;
	snprintf(raw, len, "%s/raw-native", dir);
	msg[0] = '\0';
	if (nat->sim_timing && strcmp(nat->sim_timing, "native") != 0) {
		/* --sim-timing sim: one run, nothing to merge */
	} else if ((nat->exit_status > 0 && nat->exit_status != nat->expected) ||
		   nat->signal > 0) {
		if (nat->signal > 0)
			snprintf(msg, sizeof msg,
				 "the native timing run of '%s' was killed by "
				 "signal %ld: times are the simulator's "
				 "(Valgrind's, many times slower)",
				 prog, nat->signal);
		else
			snprintf(msg, sizeof msg,
				 "the native timing run of '%s' exited with "
				 "status %ld: times are the simulator's "
				 "(Valgrind's, many times slower)",
				 prog, nat->exit_status);
	} else if (stat(raw, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (nat->sim_timing)
			snprintf(msg, sizeof msg,
				 "no native timing results ('%s' is missing): "
				 "times are the simulator's (Valgrind's, many "
				 "times slower)",
				 raw);
	} else if ((rc = load_procs(raw, run_id, &np, &nn, lerr, sizeof lerr))) {
		if (rc == RL_ENOMEM)
			goto out;
		rc = 0;
		snprintf(msg, sizeof msg,
			 "native timing results unreadable (%s): times are the "
			 "simulator's (Valgrind's, many times slower)",
			 lerr);
	} else if (nn == 0) {
		if (nat->sim_timing)
			snprintf(msg, sizeof msg,
				 "no native timing results in '%s' (librlprof "
				 "was not loaded natively?): times are the "
				 "simulator's (Valgrind's, many times slower)",
				 raw);
	} else {
		rc = rl_results_merge_native(out, np, nn);
	}
	if (!rc && msg[0] && out->n_procs)
		rc = rl_results_native_warn(&out->procs[0], NULL, 0, msg);
out:
	release_procs(np, nn);
	free(raw);
	return rc;
}

int rl_results_load_dir(const char *dir, struct rl_run_results *out, char *err,
			size_t errlen)
{
	return rl_results_load_dir_flags(dir, 0, NULL, out, err, errlen);
}

/* The run identity DIR/run.json names, into id ("" when none can be
 * read: a damaged run.json is said when it is parsed). */
static void record_run_id(const char *path, char *id, size_t len)
{
	json_t *root, *v;
	int rc;

	id[0] = '\0';
	if (!(root = rl_json_load(path, NULL, 0, &rc)))
		return;
	v = json_object_get(root, "run_id");
	if (json_is_string(v) && rl_run_id_valid(json_string_value(v)))
		snprintf(id, len, "%s", json_string_value(v));
	json_decref(root);
}

int rl_results_load_dir_flags(const char *dir, unsigned flags,
			      const char *run_id, struct rl_run_results *out,
			      char *err, size_t errlen)
{
	char recorded[RL_RUN_ID_LEN + 1] = "";
	struct native_record nat = {NULL, -1, 0, 0, NULL};
	size_t len = strlen(dir) + 64;
	char *raw = NULL, *path = NULL;
	struct stat st;
	int rc;

	memset(out, 0, sizeof *out);
	out->exit_status = -1;
	if (stat(dir, &st) != 0)
		return rl_fail(err, errlen,
			       errno == ENOENT ? RL_ENOENT : RL_EIO,
			       "cannot open '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rl_fail(err, errlen, RL_EINVAL,
			       "'%s' is not a directory: give the output "
			       "directory of rlprof run",
			       dir);
	raw = malloc(len);
	path = malloc(len + 256);
	if (!raw || !path) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(raw, len, "%s/raw", dir);
	snprintf(path, len + 256, "%s/run.json", dir);
	if (!run_id && !(flags & RL_LOAD_NO_RUN_RECORD)) {
		record_run_id(path, recorded, sizeof recorded);
		run_id = recorded;
	}
	if ((rc = load_procs(raw, run_id, &out->procs, &out->n_procs, err,
			     errlen)))
		goto out;
	if (out->n_procs == 0 &&
	    (rc = rl_results_load_ranks(dir, out, err, errlen)))
		goto out;
	if (out->n_procs == 0) {
		rc = rl_fail(err, errlen, RL_ENOENT,
			     "no results in '%s': was the program run with "
			     "rlprof run?",
			     raw);
		goto out;
	}
	snprintf(path, len + 256, "%s/run.json", dir);
	if (!(flags & RL_LOAD_NO_RUN_RECORD) && access(path, F_OK) == 0) {
		struct rl_json_ctx c = {path, err, errlen, NULL};
		json_t *root = rl_json_load(path, err, errlen, &rc);

		if (!root)
			goto out;
		rc = parse_run(&c, root, out, &nat);
		json_decref(root);
		if (rc == RL_ENOMEM)
			rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		if (rc)
			goto out;
	}
	if (!out->mpi && (rc = merge_native(dir, &nat, run_id, out)))
		rl_fail(err, errlen, rc, "out of memory");
	if (!rc && !(flags & RL_LOAD_NO_LOOPS) &&
	    (rc = rl_results_add_loops(dir, out)))
		rl_fail(err, errlen, rc, "out of memory");
out:
	free(nat.sim_timing);
	free(nat.program);
	free(raw);
	free(path);
	if (rc)
		rl_run_results_release(out);
	return rc;
}
