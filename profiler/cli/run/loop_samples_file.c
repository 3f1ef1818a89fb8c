/* The samples per loop of one run as a file (loop_samples.h), written by
 * the native timing job's ranks, read by the simulated job's. */
#include "cli/run/loop_samples.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"

static json_t *pairs(const uint64_t *v, uint64_t n)
{
	json_t *a = json_array();

	for (uint64_t i = 0; a && v && i <= n; i++)
		if (v[i] && json_array_append_new(a, json_pack(
				    "[II]", (json_int_t)i, (json_int_t)v[i])) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

int rl_loop_samples_save(const struct rl_loop_samples *s, const char *missing,
			 const char *program, const char *path, char *err,
			 size_t errlen)
{
	json_t *root, *per = s ? json_array() : NULL;
	int rc = 0;

	if (!s) {
		root = json_pack("{sssissss}", "format", "rlprof-loop-samples",
				 "version", 1, "program", program, "missing",
				 missing ? missing : "not sampled");
		goto dump;
	}
	for (unsigned k = 0; per && k < s->n_thread; k++) {
		json_t *t = json_pack("{sIso}", "tid", (json_int_t)s->tid[k],
				      "self", pairs(s->thread_self[k],
						    s->n_loops));
		if (!t || json_array_append_new(per, t) < 0) {
			json_decref(per);
			per = NULL;
		}
	}
	root = per ? json_pack("{sssisssIsIsIsIsIsIsIsoso}",
			       "format", "rlprof-loop-samples", "version", 1,
			       "program", program,
			       "loops", (json_int_t)s->n_loops,
			       "total", (json_int_t)s->total,
			       "elsewhere", (json_int_t)s->elsewhere,
			       "lost", (json_int_t)s->lost,
			       "cpu_ns", (json_int_t)s->cpu_ns,
			       "period_ns", (json_int_t)s->period_ns,
			       "threads", (json_int_t)s->threads,
			       "self", pairs(s->self, s->n_loops),
			       "per_thread", per)
		   : NULL;
dump:
	if (!root)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if (json_dump_file(root, path, JSON_COMPACT) < 0)
		rc = rl_fail(err, errlen, RL_EIO, "cannot write '%s': %s",
			     path, strerror(errno));
	json_decref(root);
	return rc;
}

static uint64_t u64(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) > 0
		       ? (uint64_t)json_integer_value(v) : 0;
}

/* [[id, samples], ...] into v (n_loops + 1 ids); -1 on an id out of
 * range or a malformed pair. */
static int unpairs(const json_t *a, uint64_t *v, uint64_t n_loops)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(a))
		return -1;
	json_array_foreach(a, i, e) {
		json_int_t id, c;
		if (json_unpack((json_t *)e, "[II]", &id, &c) < 0 || id < 0 ||
		    (uint64_t)id > n_loops || c < 0)
			return -1;
		v[id] += (uint64_t)c;
	}
	return 0;
}

int rl_loop_samples_load(const char *path, uint64_t n_loops,
			 struct rl_loop_samples *out, char *err,
			 size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *per, *t;
	const char *fmt;
	size_t k;
	int rc = RL_EFORMAT;

	memset(out, 0, sizeof *out);
	if (!root)
		return rl_fail(err, errlen, errno == ENOENT ? RL_ENOENT
							    : RL_EFORMAT,
			       "cannot read '%s': %s", path, je.text);
	fmt = json_string_value(json_object_get(root, "format"));
	if (!fmt || strcmp(fmt, "rlprof-loop-samples") != 0 ||
	    u64(root, "version") != 1) {
		rl_fail(err, errlen, rc, "'%s' is not rlprof's loop samples",
			path);
		goto out;
	}
	if (json_is_string(json_object_get(root, "missing"))) {
		rc = rl_fail(err, errlen, RL_ENOTSUP, "%s", json_string_value(
				     json_object_get(root, "missing")));
		goto out;
	}
	if (u64(root, "loops") != n_loops) {
		rl_fail(err, errlen, rc, "'%s' has samples of %llu loops, "
			"not %llu: another build of the program was timed",
			path, (unsigned long long)u64(root, "loops"),
			(unsigned long long)n_loops);
		goto out;
	}
	out->n_loops = n_loops;
	out->total = u64(root, "total");
	out->elsewhere = u64(root, "elsewhere");
	out->lost = u64(root, "lost");
	out->cpu_ns = u64(root, "cpu_ns");
	out->period_ns = u64(root, "period_ns");
	out->threads = (unsigned)u64(root, "threads");
	if (!(out->self = calloc(n_loops + 1, sizeof *out->self))) {
		rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		goto out;
	}
	if (!out->period_ns || unpairs(json_object_get(root, "self"),
				       out->self, n_loops) < 0)
		goto bad;
	per = json_object_get(root, "per_thread");
	json_array_foreach(per, k, t) {
		uint64_t *v;
		if (out->n_thread == RL_LOOP_SAMPLE_THREADS)
			break;
		if (!(v = calloc(n_loops + 1, sizeof *v))) {
			rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
			goto out;
		}
		out->tid[out->n_thread] = (pid_t)u64(t, "tid");
		out->thread_self[out->n_thread++] = v;
		if (unpairs(json_object_get(t, "self"), v, n_loops) < 0)
			goto bad;
	}
	json_decref(root);
	return 0;
bad:
	rl_fail(err, errlen, RL_EFORMAT, "'%s' is malformed", path);
out:
	rl_loop_samples_free(out);
	json_decref(root);
	return rc;
}
