/*
 * Reading a run directory: every DIR/raw/rlprof-<pid>.json in pid order
 * and DIR/run.json (written by rlprof run; every field optional).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "results_json.h"
#include "rl_error.h"

#define RL_RUN_FORMAT "rlprof-run"
#define RL_RUN_VERSION 1

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

	json_array_foreach (arr, i, e) {
		const char *w = json_string_value(e);
		len += (w ? 4 * strlen(w) : 0) + 3;
	}
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	json_array_foreach (arr, i, e) {
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

static int parse_run(struct rl_json_ctx *c, const json_t *root,
		     struct rl_run_results *out)
{
	const json_t *cmd;
	long status = -1;
	int version, rc;

	if ((rc = rl_json_check_header(c, root, RL_RUN_FORMAT, RL_RUN_VERSION,
				       "run", &version)) ||
	    (rc = rl_json_str(c, root, NULL, "backend_requested", 0,
			      &out->backend_requested)) ||
	    (rc = rl_json_str(c, root, NULL, "backend_reason", 0,
			      &out->backend_reason)) ||
	    (rc = rl_json_long(c, root, NULL, "exit_status", 0, &status)))
		return rc;
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

int rl_results_load_dir(const char *dir, struct rl_run_results *out, char *err,
			size_t errlen)
{
	struct raw_file *files = NULL;
	size_t n = 0, len = strlen(dir) + 64;
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
		struct rl_json_ctx c = {path, err, errlen};
		json_t *root = rl_json_load(path, err, errlen, &rc);

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
