/*
 * Reading results files (DIR/raw/rlprof-<pid>.json, written by librlprof's
 * rl_results_write_fd) and the run description (DIR/run.json, written by
 * rlprof run) with jansson.
 *
 * Required fields are checked and named when missing; optional ones take a
 * neutral default (see .handoff/readme-report.md). A counter that the
 * process provides but a region does not list reads as scaled = NAN so the
 * report shows it as unknown, never as 0.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "rl_error.h"

#define RL_RUN_FORMAT "rlprof-run"
#define RL_RUN_VERSION 1

static const char rl_rerun[] = "the file is corrupt; re-run rlprof run";

struct rd {
	const char *path;
	char *err;
	size_t errlen;
};

static int rd_missing(struct rd *c, const char *where, const char *field)
{
	return rl_fail(c->err, c->errlen, RL_EFORMAT,
		       "cannot read '%s': %s%smissing field '%s': %s", c->path,
		       where ? where : "", where ? ": " : "", field, rl_rerun);
}

static int rd_bad(struct rd *c, const char *where, const char *field,
		  const char *want)
{
	return rl_fail(c->err, c->errlen, RL_EFORMAT,
		       "cannot read '%s': %s%sfield '%s' is not %s: %s",
		       c->path, where ? where : "", where ? ": " : "", field,
		       want, rl_rerun);
}

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

/* A string field; *out stays NULL when absent and not required. */
static int get_str(struct rd *c, const json_t *o, const char *where,
		   const char *key, int required, char **out)
{
	const json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return required ? rd_missing(c, where, key) : 0;
	if (!json_is_string(v))
		return rd_bad(c, where, key, "a string");
	*out = xstrdup(json_string_value(v));
	return *out ? 0 : rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
}

static int get_u64(struct rd *c, const json_t *o, const char *where,
		   const char *key, int required, uint64_t *out)
{
	const json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return required ? rd_missing(c, where, key) : 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_real(v) && json_real_value(v) >= 0 &&
	    json_real_value(v) < 1.8446744073709552e19) {
		*out = (uint64_t)json_real_value(v);
		return 0;
	}
	return rd_bad(c, where, key, "a non-negative number");
}

static int get_long(struct rd *c, const json_t *o, const char *where,
		    const char *key, int required, long *out)
{
	const json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return required ? rd_missing(c, where, key) : 0;
	if (!json_is_integer(v))
		return rd_bad(c, where, key, "an integer");
	*out = (long)json_integer_value(v);
	return 0;
}

/* A double; null or absent -> NAN (unless required). */
static int get_dbl(struct rd *c, const json_t *o, const char *where,
		   const char *key, int required, double *out)
{
	const json_t *v = json_object_get(o, key);
	*out = NAN;
	if (!v || json_is_null(v))
		return required ? rd_missing(c, where, key) : 0;
	if (!json_is_number(v))
		return rd_bad(c, where, key, "a number");
	*out = json_number_value(v);
	return 0;
}

static int read_counters(struct rd *c, const json_t *arr,
			 struct rl_process_results *r)
{
	size_t i;
	const json_t *e;
	char where[64];

	if (!json_is_array(arr))
		return rd_bad(c, NULL, "counters", "an array");
	json_array_foreach(arr, i, e) {
		const char *name, *scope;
		int id, sc, rc;
		char *tmp = NULL;

		snprintf(where, sizeof where, "counters[%zu]", i);
		if (!json_is_object(e))
			return rd_bad(c, NULL, where, "an object");
		name = json_string_value(json_object_get(e, "name"));
		if (!name)
			return rd_missing(c, where, "name");
		id = rl_counter_from_name(name);
		if (id < 0)
			return rl_fail(c->err, c->errlen, RL_EFORMAT,
				       "cannot read '%s': %s: unknown counter "
				       "'%s': upgrade rlprof or re-run rlprof run",
				       c->path, where, name);
		scope = json_string_value(json_object_get(e, "scope"));
		sc = scope ? rl_scope_from_name(scope) : RL_SCOPE_THREAD;
		if (sc < 0)
			return rd_bad(c, where, "scope",
				      "one of thread, system, proxy, simulated");
		r->provided |= UINT64_C(1) << id;
		r->scope[id] = (unsigned char)sc;
		free(r->method[id]);
		if ((rc = get_str(c, e, where, "method", 0, &r->method[id])))
			return rc;
		if (!r->method[id] && !(r->method[id] = xstrdup("")))
			return RL_ENOMEM;
		if (id >= RL_C_EXTRA0 && id < RL_C_EXTRA0 + RL_EXTRA_MAX) {
			if ((rc = get_str(c, e, where, "extra_name", 0, &tmp)))
				return rc;
			free(r->extra_name[id - RL_C_EXTRA0]);
			r->extra_name[id - RL_C_EXTRA0] = tmp;
		}
	}
	return 0;
}

static int read_region(struct rd *c, const json_t *o, const char *where,
		       uint64_t provided, struct rl_region_stats *s)
{
	const json_t *cnt;
	int rc;

	if (!json_is_object(o))
		return rd_bad(c, NULL, where, "an object");
	if ((rc = get_str(c, o, where, "name", 1, &s->name)) ||
	    (rc = get_u64(c, o, where, "calls", 1, &s->calls)) ||
	    (rc = get_u64(c, o, where, "time_ns", 1, &s->time_ns)) ||
	    (rc = get_dbl(c, o, where, "expected_flops", 0,
			  &s->expected_flops)) ||
	    (rc = get_dbl(c, o, where, "expected_bytes", 0,
			  &s->expected_bytes)) ||
	    (rc = get_u64(c, o, where, "expect_calls", 0, &s->expect_calls)) ||
	    (rc = get_u64(c, o, where, "open_at_exit", 0, &s->open_at_exit)))
		return rc;
	cnt = json_object_get(o, "counters");
	if (cnt && !json_is_null(cnt) && !json_is_object(cnt))
		return rd_bad(c, where, "counters", "an object");
	for (int k = 0; k < RL_COUNTER_COUNT; k++) {
		const json_t *v;
		struct rl_counter_total *t = &s->counters[k];
		char w2[128];

		if (!(provided & (UINT64_C(1) << k)))
			continue;
		v = cnt ? json_object_get(cnt, rl_counter_name(k)) : NULL;
		if (!v || json_is_null(v)) {
			t->scaled = NAN; /* provided but not listed: unknown */
			continue;
		}
		snprintf(w2, sizeof w2, "%s: counter '%s'", where,
			 rl_counter_name(k));
		if (!json_is_object(v))
			return rd_bad(c, where, rl_counter_name(k), "an object");
		if ((rc = get_u64(c, v, w2, "value", 1, &t->value)) ||
		    (rc = get_dbl(c, v, w2, "scaled", 0, &t->scaled)) ||
		    (rc = get_u64(c, v, w2, "enabled_ns", 0, &t->enabled_ns)) ||
		    (rc = get_u64(c, v, w2, "running_ns", 0, &t->running_ns)))
			return rc;
		/* no "scaled" at all: not multiplexed, the raw value; null
		 * (e.g. never running): unknown */
		if (!json_object_get(v, "scaled"))
			t->scaled = (double)t->value;
	}
	/* An older writer without expect_calls: a number means declared. */
	if (!json_object_get(o, "expect_calls") &&
	    (!isnan(s->expected_flops) || !isnan(s->expected_bytes)))
		s->expect_calls = 1;
	return 0;
}

static int read_thread(struct rd *c, const json_t *o, size_t ti,
		       uint64_t provided, struct rl_thread_results *t)
{
	const json_t *regs, *e;
	char where[64], w2[96];
	uint64_t idx = ti;
	size_t i;
	int rc;

	snprintf(where, sizeof where, "threads[%zu]", ti);
	if (!json_is_object(o))
		return rd_bad(c, NULL, where, "an object");
	if ((rc = get_u64(c, o, where, "tid", 1, &t->tid)) ||
	    (rc = get_u64(c, o, where, "index", 0, &idx)))
		return rc;
	t->index = (unsigned)idx;
	regs = json_object_get(o, "regions");
	if (!regs)
		return rd_missing(c, where, "regions");
	if (!json_is_array(regs))
		return rd_bad(c, where, "regions", "an array");
	t->regions = calloc(json_array_size(regs) + 1, sizeof *t->regions);
	if (!t->regions)
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	json_array_foreach(regs, i, e) {
		snprintf(w2, sizeof w2, "%s.regions[%zu]", where, i);
		rc = read_region(c, e, w2, provided, &t->regions[i]);
		t->n_regions = i + 1;
		if (rc)
			return rc;
	}
	return 0;
}

static int read_warnings(struct rd *c, const json_t *arr,
			 struct rl_process_results *r)
{
	const json_t *e;
	size_t i;
	char where[64];
	int rc;

	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr))
		return rd_bad(c, NULL, "warnings", "an array");
	r->warnings = calloc(json_array_size(arr) + 1, sizeof *r->warnings);
	if (!r->warnings)
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	json_array_foreach(arr, i, e) {
		struct rl_warning *w = &r->warnings[i];

		snprintf(where, sizeof where, "warnings[%zu]", i);
		r->n_warnings = i + 1;
		if (!json_is_object(e))
			return rd_bad(c, NULL, where, "an object");
		if ((rc = get_str(c, e, where, "kind", 0, &w->kind)) ||
		    (rc = get_str(c, e, where, "region", 0, &w->region)) ||
		    (rc = get_u64(c, e, where, "tid", 0, &w->tid)) ||
		    (rc = get_str(c, e, where, "message", 1, &w->message)))
			return rc;
		if (!w->kind && !(w->kind = xstrdup("runtime")))
			return RL_ENOMEM;
	}
	return 0;
}

/* Parse a file; on failure the one-line message names file, line, column. */
static json_t *load_json(const char *path, char *err, size_t errlen, int *rc)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);

	if (root) {
		*rc = 0;
		return root;
	}
	if (je.line < 0 || strstr(je.text, "unable to open")) {
		int e = errno;
		*rc = rl_fail(err, errlen, e == ENOENT ? RL_ENOENT : RL_EIO,
			      "cannot open '%s': %s", path,
			      e ? strerror(e) : je.text);
	} else {
		*rc = rl_fail(err, errlen, RL_EFORMAT,
			      "cannot parse '%s': line %d column %d: %s: %s",
			      path, je.line, je.column, je.text, rl_rerun);
	}
	return NULL;
}

/* Check "format" and "version"; what is the kind of file for messages. */
static int check_header(struct rd *c, const json_t *root, const char *format,
			int version, const char *what, int *got)
{
	const json_t *f, *v;

	if (!json_is_object(root))
		return rl_fail(c->err, c->errlen, RL_EFORMAT,
			       "cannot read '%s': not a JSON object: %s",
			       c->path, rl_rerun);
	f = json_object_get(root, "format");
	if (!json_is_string(f) || strcmp(json_string_value(f), format) != 0)
		return rl_fail(c->err, c->errlen, RL_EFORMAT,
			       "'%s' is not an rlprof %s file (format '%s', "
			       "expected '%s')",
			       c->path, what,
			       json_is_string(f) ? json_string_value(f) : "none",
			       format);
	v = json_object_get(root, "version");
	if (!v)
		return rd_missing(c, NULL, "version");
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return rd_bad(c, NULL, "version", "a positive integer");
	if (json_integer_value(v) > version)
		return rl_fail(c->err, c->errlen, RL_EVERSION,
			       "'%s' was written by a newer rlprof (%s version "
			       "%lld, this one reads %d): upgrade rlprof",
			       c->path, what, (long long)json_integer_value(v),
			       version);
	*got = (int)json_integer_value(v);
	return 0;
}

static int parse_results(struct rd *c, const json_t *root,
			 struct rl_process_results *r)
{
	const json_t *thr, *e, *v;
	size_t i;
	int rc;
	long sig = 0;

	if ((rc = check_header(c, root, RL_RESULTS_FORMAT, RL_RESULTS_VERSION,
			       "results", &r->version)))
		return rc;
	if ((rc = get_long(c, root, NULL, "pid", 1, &r->pid)) ||
	    (rc = get_long(c, root, NULL, "ppid", 0, &r->ppid)) ||
	    (rc = get_str(c, root, NULL, "program", 1, &r->program)) ||
	    (rc = get_str(c, root, NULL, "backend", 1, &r->backend)) ||
	    (rc = get_str(c, root, NULL, "backend_note", 0, &r->backend_note)) ||
	    (rc = get_u64(c, root, NULL, "start_ns", 0, &r->start_ns)) ||
	    (rc = get_u64(c, root, NULL, "end_ns", 0, &r->end_ns)) ||
	    (rc = get_long(c, root, NULL, "signal", 0, &sig)))
		return rc;
	if (!r->backend_note && !(r->backend_note = xstrdup("")))
		return RL_ENOMEM;
	r->signal = (int)sig;
	v = json_object_get(root, "complete");
	if (v && !json_is_boolean(v))
		return rd_bad(c, NULL, "complete", "true or false");
	r->complete = v ? json_is_true(v) : r->signal == 0;
	v = json_object_get(root, "counters");
	if (!v)
		return rd_missing(c, NULL, "counters");
	if ((rc = read_counters(c, v, r)))
		return rc;
	thr = json_object_get(root, "threads");
	if (!thr)
		return rd_missing(c, NULL, "threads");
	if (!json_is_array(thr))
		return rd_bad(c, NULL, "threads", "an array");
	r->threads = calloc(json_array_size(thr) + 1, sizeof *r->threads);
	if (!r->threads)
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	json_array_foreach(thr, i, e) {
		rc = read_thread(c, e, i, r->provided, &r->threads[i]);
		r->n_threads = i + 1;
		if (rc)
			return rc;
	}
	return read_warnings(c, json_object_get(root, "warnings"), r);
}

int rl_results_load(const char *path, struct rl_process_results *out,
		    char *err, size_t errlen)
{
	struct rd c = {path, err, errlen};
	json_t *root;
	int rc;

	memset(out, 0, sizeof *out);
	root = load_json(path, err, errlen, &rc);
	if (!root)
		return rc;
	rc = parse_results(&c, root, out);
	json_decref(root);
	if (rc) {
		if (rc == RL_ENOMEM)
			rl_fail(err, errlen, RL_ENOMEM,
				"cannot read '%s': out of memory", path);
		rl_results_release(out);
	}
	return rc;
}

void rl_results_release(struct rl_process_results *r)
{
	if (!r)
		return;
	free(r->program);
	free(r->backend);
	free(r->backend_note);
	for (int k = 0; k < RL_COUNTER_COUNT; k++)
		free(r->method[k]);
	for (int k = 0; k < RL_EXTRA_MAX; k++)
		free(r->extra_name[k]);
	for (size_t t = 0; t < r->n_threads; t++) {
		for (size_t i = 0; i < r->threads[t].n_regions; i++)
			free(r->threads[t].regions[i].name);
		free(r->threads[t].regions);
	}
	free(r->threads);
	for (size_t i = 0; i < r->n_warnings; i++) {
		free(r->warnings[i].kind);
		free(r->warnings[i].region);
		free(r->warnings[i].message);
	}
	free(r->warnings);
	memset(r, 0, sizeof *r);
}

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

	json_array_foreach(arr, i, e) {
		const char *w = json_string_value(e);
		len += (w ? 4 * strlen(w) : 0) + 3;
	}
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	json_array_foreach(arr, i, e) {
		const char *w = json_string_value(e);
		int quote;

		if (!w)
			continue;
		quote = !*w || strpbrk(w, " \t\n'\"\\$`*?&;|<>()") != NULL;
		if (p != s)
			*p++ = ' ';
		if (quote)
			*p++ = '\'';
		for (; *w; w++) {
			if (quote && *w == '\'') {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else {
				*p++ = *w;
			}
		}
		if (quote)
			*p++ = '\'';
	}
	*p = '\0';
	return s;
}

static int parse_run(struct rd *c, const json_t *root,
		     struct rl_run_results *out)
{
	const json_t *cmd;
	long status = -1;
	int version, rc;

	if ((rc = check_header(c, root, RL_RUN_FORMAT, RL_RUN_VERSION, "run",
			       &version)) ||
	    (rc = get_str(c, root, NULL, "backend_requested", 0,
			  &out->backend_requested)) ||
	    (rc = get_str(c, root, NULL, "backend_reason", 0,
			  &out->backend_reason)) ||
	    (rc = get_long(c, root, NULL, "exit_status", 0, &status)))
		return rc;
	out->exit_status = (int)status;
	cmd = json_object_get(root, "command");
	if (json_is_array(cmd)) {
		if (!(out->command = join_command(cmd)))
			return RL_ENOMEM;
	} else if (json_is_string(cmd)) {
		if (!(out->command = xstrdup(json_string_value(cmd))))
			return RL_ENOMEM;
	} else if (cmd && !json_is_null(cmd)) {
		return rd_bad(c, NULL, "command", "an array of strings");
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

/* rlprof-<digits>.json -> pid, else -1 */
static long raw_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "rlprof-", 7) != 0 || name[7] < '0' || name[7] > '9')
		return -1;
	errno = 0;
	pid = strtol(name + 7, &end, 10);
	if (errno || strcmp(end, ".json") != 0)
		return -1;
	return pid;
}

static int list_raw(const char *raw, struct raw_file **files, size_t *n,
		    char *err, size_t errlen)
{
	DIR *d = opendir(raw);
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

int rl_results_load_dir(const char *dir, struct rl_run_results *out,
			char *err, size_t errlen)
{
	struct raw_file *files = NULL;
	size_t n = 0, len = strlen(dir) + 64;
	char *raw = NULL, *path = NULL;
	struct stat st;
	int rc;

	memset(out, 0, sizeof *out);
	out->exit_status = -1;
	if (stat(dir, &st) != 0)
		return rl_fail(err, errlen, errno == ENOENT ? RL_ENOENT : RL_EIO,
			       "cannot open '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rl_fail(err, errlen, RL_EINVAL,
			       "'%s' is not a directory: give the output "
			       "directory of rlprof run", dir);
	raw = malloc(len);
	path = malloc(len + 256);
	if (!raw || !path) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(raw, len, "%s/raw", dir);
	if ((rc = list_raw(raw, &files, &n, err, errlen)))
		goto out;
	if (n == 0) {
		rc = rl_fail(err, errlen, RL_ENOENT,
			     "no results in '%s': was the program run with "
			     "rlprof run?",
			     raw);
		goto out;
	}
	out->procs = calloc(n, sizeof *out->procs);
	if (!out->procs) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(path, len + 256, "%s/%s", raw, files[i].name);
		if ((rc = rl_results_load(path, &out->procs[i], err, errlen)))
			goto out;
		out->n_procs = i + 1;
	}
	snprintf(path, len + 256, "%s/run.json", dir);
	if (access(path, F_OK) == 0) {
		struct rd c = {path, err, errlen};
		json_t *root = load_json(path, err, errlen, &rc);

		if (!root)
			goto out;
		rc = parse_run(&c, root, out);
		json_decref(root);
		if (rc == RL_ENOMEM)
			rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
out:
	for (size_t i = 0; i < n; i++)
		free(files[i].name);
	free(files);
	free(raw);
	free(path);
	if (rc)
		rl_run_results_release(out);
	return rc;
}
