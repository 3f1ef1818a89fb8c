/* Probe recordings as JSON (jansson): see probe_recording.h. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "machine/probe_recording.h"
#include "common/file_read.h"
#include "common/rl_error.h"

static json_t *num_or_null(double v)
{
	return v >= 0 && isfinite(v) ? json_real(v) : json_null();
}

static json_t *cache_json(const struct rl_cache_info *c)
{
	char type[2] = { c->type ? c->type : 'U', 0 };
	return json_pack("{s:i, s:s, s:I, s:i, s:i, s:i}", "level", c->level,
			 "type", type, "size_bytes", (json_int_t)c->size_bytes,
			 "ways", (int)c->ways, "line_bytes", (int)c->line_bytes,
			 "shared_cpus", (int)c->shared_cpus);
}

static json_t *point_json(const struct rl_rec_point *p)
{
	json_t *tr = json_array();
	for (unsigned i = 0; tr && i < p->n_trials; i++)
		json_array_append_new(tr, json_real(p->trials[i]));
	json_t *o = json_pack("{s:i, s:s, s:b, s:I, s:o, s:o}", "threads",
			      (int)p->threads, "op", rl_rec_op_name(p->op),
			      "sweep", p->sweep, "bytes", (json_int_t)p->bytes,
			      "best_gbs", num_or_null(p->best_gbs), "trials",
			      tr ? tr : json_array());
	/* only where it is so: older recordings have no such key */
	if (o && p->core_shared)
		json_object_set_new(o, "core_shared", json_true());
	return o;
}

int rl_rec_write(FILE *out, const struct rl_probe_recording *r, char *err,
		 size_t errlen)
{
	json_t *caches = json_array(), *pts = json_array();
	for (size_t i = 0; caches && i < r->n_caches; i++)
		json_array_append_new(caches, cache_json(&r->caches[i]));
	for (size_t i = 0; pts && i < r->n; i++)
		json_array_append_new(pts, point_json(&r->pts[i]));
	json_t *root = json_pack(
		"{s:s, s:i, s:s, s:s, s:i, s:I, s:s, s:b, s:o, s:o, s:o, s:o, "
		"s:s, s:s, s:{s:s, s:o}, s:o}",
		"format", RL_REC_FORMAT, "version", RL_REC_VERSION, "machine",
		r->machine, "cpu_model", r->cpu_model, "cpus", (int)r->cpus,
		"mem_bytes", (json_int_t)r->mem_bytes, "isa", r->isa, "quick",
		r->quick, "loadavg1", num_or_null(r->loadavg1), "loadavg1_end",
		num_or_null(r->loadavg1_end), "core_rate",
		num_or_null(r->core_rate > 0 ? r->core_rate : -1),
		"core_read_prior",
		num_or_null(r->core_read_prior > 0 ? r->core_read_prior : -1),
		"recorded_at", r->recorded_at,
		"source", r->source, "claims", "source", r->cache_source,
		"caches", caches ? caches : json_array(), "points",
		pts ? pts : json_array());
	if (!root)
		return rl_fail(err, errlen, RL_ENOMEM,
			       "cannot build the recording's JSON");
	int rc = 0;
	if (json_dumpf(root, out, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
					  JSON_REAL_PRECISION(6)) ||
	    fputc('\n', out) == EOF)
		rc = rl_fail(err, errlen, RL_EIO, "cannot write the recording: %s",
			     strerror(errno));
	json_decref(root);
	return rc;
}

static int bad(char *err, size_t errlen, const char *path, const char *what)
{
	return rl_fail(err, errlen, RL_EFORMAT,
		       "'%s' is not a probe recording: %s", path, what);
}

static void get_str(json_t *o, const char *key, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));
	snprintf(buf, len, "%s", s ? s : "");
}

static double get_num(json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : dflt;
	return isfinite(d) ? d : dflt;
}

static uint64_t get_u64(json_t *o, const char *key)
{
	double d = get_num(o, key, 0);
	return d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
}

static unsigned get_unsigned(json_t *o, const char *key)
{
	double d = get_num(o, key, 0);
	return d > 0 && d < 4294967296.0 ? (unsigned)d : 0;
}

int rl_rec_load(const char *path, struct rl_probe_recording *r, char *err,
		size_t errlen)
{
	json_error_t je;
	char *text;
	size_t len;
	int orc;

	memset(r, 0, sizeof *r);
	/* the one opener: a FIFO or a device is refused, never waited on */
	if ((orc = rl_file_read_all(path, 0, RL_READ_CAP, &text, &len, err,
				    errlen)))
		return orc;
	json_t *root = json_loadb(text, len, 0, &je);
	free(text);
	if (!root) {
		char what[256];
		snprintf(what, sizeof what, "line %d: %s", je.line, je.text);
		return bad(err, errlen, path, what);
	}
	int rc = 0;
	const char *fmt = json_string_value(json_object_get(root, "format"));
	json_t *ver = json_object_get(root, "version");
	json_t *pts = json_object_get(root, "points");
	json_t *claims = json_object_get(root, "claims");
	json_t *caches = json_object_get(claims, "caches");
	if (!fmt || strcmp(fmt, RL_REC_FORMAT)) {
		rc = bad(err, errlen, path, "no \"format\": \"" RL_REC_FORMAT "\"");
		goto out;
	}
	if (!json_is_integer(ver) || json_integer_value(ver) < 1) {
		rc = bad(err, errlen, path, "no \"version\"");
		goto out;
	}
	if (json_integer_value(ver) > RL_REC_VERSION) {
		rc = rl_fail(err, errlen, RL_EVERSION,
			     "'%s' is a version %lld recording, from a newer "
			     "rlprof (this one reads version %d)",
			     path, (long long)json_integer_value(ver),
			     RL_REC_VERSION);
		goto out;
	}
	if (!json_is_array(pts)) {
		rc = bad(err, errlen, path, "\"points\" is not an array");
		goto out;
	}
	get_str(root, "machine", r->machine, sizeof r->machine);
	get_str(root, "cpu_model", r->cpu_model, sizeof r->cpu_model);
	r->cpus = get_unsigned(root, "cpus");
	r->mem_bytes = get_u64(root, "mem_bytes");
	get_str(root, "isa", r->isa, sizeof r->isa);
	r->quick = json_is_true(json_object_get(root, "quick"));
	r->loadavg1 = get_num(root, "loadavg1", -1);
	r->loadavg1_end = get_num(root, "loadavg1_end", -1);
	/* absent before the probe read its core's rate: unknown */
	r->core_rate = get_num(root, "core_rate", -1);
	r->core_read_prior = get_num(root, "core_read_prior", -1);
	get_str(root, "recorded_at", r->recorded_at, sizeof r->recorded_at);
	get_str(root, "source", r->source, sizeof r->source);
	get_str(claims, "source", r->cache_source, sizeof r->cache_source);
	if (!r->cache_source[0])
		snprintf(r->cache_source, sizeof r->cache_source, "none");
	size_t i;
	json_t *e;
	json_array_foreach(caches, i, e) {
		if (r->n_caches >= RL_CPU_MAX_CACHES)
			break;
		struct rl_cache_info *c = &r->caches[r->n_caches];
		const char *type = json_string_value(json_object_get(e, "type"));
		c->level = (int)get_unsigned(e, "level");
		c->type = type && *type == 'D' ? 'D' : 'U';
		c->size_bytes = get_u64(e, "size_bytes");
		c->ways = get_unsigned(e, "ways");
		c->line_bytes = get_unsigned(e, "line_bytes");
		c->shared_cpus = get_unsigned(e, "shared_cpus");
		if (c->level >= 1 && c->size_bytes)
			r->n_caches++;
	}
	json_array_foreach(pts, i, e) {
		int op = rl_rec_op_parse(
			json_string_value(json_object_get(e, "op")));
		unsigned th = get_unsigned(e, "threads");
		uint64_t bytes = get_u64(e, "bytes");
		if (op < 0 || !th || !bytes) {
			char what[96];
			snprintf(what, sizeof what,
				 "point %zu has no threads, op or bytes", i);
			rc = bad(err, errlen, path, what);
			goto out;
		}
		int sweep = json_is_true(json_object_get(e, "sweep"));
		json_t *tr = json_object_get(e, "trials"), *v;
		size_t k;
		struct rl_rec_point *p = rl_rec_add(r, th, op, sweep, bytes, 0);
		if (!p) {
			rc = bad(err, errlen, path, "more points than rlprof keeps");
			goto out;
		}
		json_array_foreach(tr, k, v)
			if (json_is_number(v))
				rl_rec_add(r, th, op, sweep, bytes,
					   json_number_value(v));
		double best = get_num(e, "best_gbs", 0);
		if (best > p->best_gbs)
			p->best_gbs = best;
		if (json_is_true(json_object_get(e, "core_shared")))
			p->core_shared = 1;
	}
out:
	json_decref(root);
	return rc;
}
