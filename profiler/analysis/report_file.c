/* DIR/report.json read back for rlprof diff and rlprof check. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/report.h"
#include "analysis/report_file.h"
#include "common/rl_error.h"
#include "common/file_read.h"
#include "common/json_scan.h"
#include "common/term_text.h"

/* A number field, NAN when null or absent; -1 when of another type. */
static int num(const json_t *o, const char *key, double *out)
{
	const json_t *v = json_object_get(o, key);

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* A string field, NULL when null or absent; -1 when of another type or
 * out of memory. */
static int str(const json_t *o, const char *key, char **out)
{
	const json_t *v = json_object_get(o, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = strdup(json_string_value(v));
	return *out ? 0 : -1;
}

static int bad(struct rl_report_file *f, char *err, size_t errlen,
	       const char *what)
{
	int rc = rl_fail(err, errlen, RL_EFORMAT,
			 "cannot read '%s': %s: is it the report.json of "
			 "rlprof run? (rlprof report DIR -f json -o "
			 "DIR/report.json writes it again)",
			 f->path, what);
	rl_report_file_release(f);
	return rc;
}

/* "repeat": {"times_s": [...]}: each timing run's time, null where a run
 * did not time the region (left out). */
static int read_times(const json_t *rep, struct rl_report_region *r)
{
	const json_t *a = json_object_get(rep, "times_s"), *v;
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return -1;
	if (!json_array_size(a))
		return 0;
	if (!(r->times_s = malloc(json_array_size(a) * sizeof *r->times_s)))
		return -1;
	json_array_foreach(a, i, v) {
		if (json_is_null(v))
			continue;
		if (!json_is_number(v))
			return -1;
		r->times_s[r->n_times++] = json_number_value(v);
	}
	return 0;
}

/* The counted work: flops by precision, bytes per level. */
static int read_work(const json_t *o, struct rl_report_region *r)
{
	static const char *const level[4] = {"L1", "L2", "L3", "DRAM"};
	const json_t *lb = json_object_get(o, "level_bytes"), *sim, *th;

	if (num(o, "flops", &r->flops) || num(o, "flops_f64", &r->flops_f64) ||
	    num(o, "flops_f32", &r->flops_f32))
		return -1;
	for (int k = 0; k < 4; k++) {
		r->level_bytes[k] = NAN;
		if (lb && json_is_object(lb) &&
		    num(lb, level[k], &r->level_bytes[k]))
			return -1;
	}
	if (lb && !json_is_object(lb) && !json_is_null(lb))
		return -1;
	if (isnan(r->level_bytes[3]) && num(o, "dram_bytes", &r->level_bytes[3]))
		return -1;
	sim = json_object_get(o, "simulated");
	r->simulated = sim && json_is_true(sim);
	r->first_tid = NAN;
	th = json_object_get(o, "threads");
	if (th && json_is_array(th)) {
		r->n_thread_rows = json_array_size(th);
		if (r->n_thread_rows &&
		    num(json_array_get(th, 0), "tid", &r->first_tid))
			return -1;
	}
	return 0;
}

static int read_region(const json_t *o, struct rl_report_region *r)
{
	char *region = NULL;

	if (!json_is_object(o) || str(o, "region", &region) || !region) {
		free(region);
		return -1;
	}
	r->region = region;
	if (num(o, "calls", &r->calls) || num(o, "time_s", &r->time_s) ||
	    num(o, "gflops", &r->gflops) || num(o, "ai", &r->ai) ||
	    num(o, "roof_pct", &r->roof_pct) ||
	    num(o, "gflops_expected", &r->gflops_expected) ||
	    str(o, "bound_roof", &r->bound_roof) ||
	    str(o, "bound", &r->bound) || str(o, "basis", &r->basis) ||
	    str(o, "diagnosis", &r->diagnosis))
		return -1;
	r->runs = 0;
	r->time_min_s = r->time_median_s = r->spread_pct = NAN;
	const json_t *rep = json_object_get(o, "repeat");
	if (rep && json_is_object(rep) &&
	    (num(rep, "runs", &r->runs) || num(rep, "time_min_s", &r->time_min_s) ||
	     num(rep, "time_median_s", &r->time_median_s) ||
	     num(rep, "spread_pct", &r->spread_pct)))
		return -1;
	if (isnan(r->runs))
		r->runs = 0;
	if (rep && json_is_object(rep) && read_times(rep, r))
		return -1;
	return read_work(o, r);
}

/* The JSON value at t[*at]: jansson decodes it and, with
 * JSON_DISABLE_EOF_CHECK, says how many bytes it took, so *at moves past
 * it. On failure je holds jansson's message and its line is made a line
 * of the whole text. */
static json_t *value_at(const char *t, size_t len, size_t *at,
			json_error_t *je)
{
	json_t *v = json_loadb(t + *at, len - *at,
			       JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, je);

	if (v)
		*at += (size_t)je->position;
	else
		je->line += rl_json_line_of(t, *at, NULL) - 1;
	return v;
}

/* A punctuation error at t[at], worded as jansson words its own. */
static json_t *expected(const char *t, size_t len, size_t at,
			const char *what, json_error_t *je)
{
	je->line = rl_json_line_of(t, at, NULL);
	if (at < len)
		snprintf(je->text, sizeof je->text, "%s expected near '%c'",
			 what, t[at]);
	else
		snprintf(je->text, sizeof je->text,
			 "%s expected near end of file", what);
	return NULL;
}

/* s[0 .. k) appended to *buf at *n, room kept for a closing brace; 0 out
 * of memory. */
static int append(char **buf, size_t *n, size_t *cap, const char *s,
		  size_t k)
{
	if (*n + k + 2 > *cap) {
		size_t ncap = 2 * (*n + k + 2);
		char *p = realloc(*buf, ncap);
		if (!p)
			return 0;
		*buf = p;
		*cap = ncap;
	}
	memcpy(*buf + *n, s, k);
	*n += k;
	return 1;
}

struct thin_ctx {
	char **buf;
	size_t *n, *cap;
};

static int tid_member(void *ctx, const char *t, size_t k, size_t kend,
		      size_t v, size_t vend)
{
	struct thin_ctx *x = ctx;

	(void)v;
	if ((kend - k != 5 || memcmp(t + k, "\"tid\"", 5) != 0) &&
	    !memchr(t + k + 1, '\\', kend - k - 2))
		return 0;
	if (*x->n > 1 && (*x->buf)[*x->n - 1] != '{' &&
	    !append(x->buf, x->n, x->cap, ",", 1))
		return -1;
	return !append(x->buf, x->n, x->cap, t + k, vend - k);
}

/* The first per-thread row t[at .. e) appended with its "tid" alone (the
 * one member read_work() reads); as it is when not an object. */
static int first_tid(const char *t, size_t at, size_t e, char **buf,
		     size_t *n, size_t *cap)
{
	struct thin_ctx x = {buf, n, cap};

	if (t[at] != '{')
		return append(buf, n, cap, t + at, e - at);
	return append(buf, n, cap, "{", 1) &&
	       rl_json_members(t, e, at, tid_member, &x) == e &&
	       append(buf, n, cap, "}", 1);
}

/* A region's "threads" array at t[v .. vend) appended with its first row
 * thinned to its tid (first_tid) and every later row as null: read_work()
 * reads their count and the first row's tid, nothing of the others. 0
 * when it is not laid out as expected or out of memory. */
static int thin_threads(const char *t, size_t v, size_t vend, char **buf,
			size_t *n, size_t *cap)
{
	size_t at = rl_json_skip_ws(t, vend, v + 1), e;

	if (t[v] != '[')
		return append(buf, n, cap, t + v, vend - v);
	if (!append(buf, n, cap, "[", 1))
		return 0;
	for (int i = 0; at < vend && t[at] != ']'; i++) {
		if (!(e = rl_json_value_end(t, vend, at)) ||
		    !(i ? append(buf, n, cap, ",null", 5)
			: first_tid(t, at, e, buf, n, cap)))
			return 0;
		at = rl_json_skip_ws(t, vend, e);
		if (at < vend && t[at] == ',')
			at = rl_json_skip_ws(t, vend, at + 1);
		else if (at >= vend || t[at] != ']')
			return 0;
	}
	return append(buf, n, cap, "]", 1);
}

/* Whether read_region() reads the member whose key (with its quotes) is
 * t[k .. kend): the others (the method line, the scope's figures, ...)
 * are left out before jansson decodes the region, a third of diff's and
 * check's time at 10^6 regions. A key written with an escape is kept. */
static int wanted(const char *t, size_t k, size_t kend)
{
	static const char *const keys[] = {
		"region", "calls", "time_s", "gflops", "ai", "roof_pct",
		"gflops_expected", "bound_roof", "bound", "basis",
		"diagnosis", "repeat", "flops", "flops_f64", "flops_f32",
		"level_bytes", "dram_bytes", "simulated", "threads"};

	if (memchr(t + k + 1, '\\', kend - k - 2))
		return 1;
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (strlen(keys[i]) == kend - k - 2 &&
		    memcmp(keys[i], t + k + 1, kend - k - 2) == 0)
			return 1;
	return 0;
}

static int thin_member(void *ctx, const char *t, size_t k, size_t kend,
		       size_t v, size_t vend)
{
	static const char key[] = "\"threads\"";
	struct thin_ctx *x = ctx;

	if (!wanted(t, k, kend))
		return 0;
	if (*x->n > 1 && !append(x->buf, x->n, x->cap, ",", 1))
		return -1;
	if (kend - k == sizeof key - 1 && memcmp(t + k, key, kend - k) == 0)
		return !append(x->buf, x->n, x->cap, t + k, v - k) ||
		       !thin_threads(t, v, vend, x->buf, x->n, x->cap);
	return !append(x->buf, x->n, x->cap, t + k, vend - k);
}

/* The region object at t[at] with its per-thread rows thinned
 * (thin_threads: half the decoding of a two-thread region, whose rows
 * diff and check do not read) into *buf, and *end past the object; its
 * length, 0 when the object is not laid out as expected (then it is
 * decoded whole) or out of memory. */
static size_t without_threads(const char *t, size_t len, size_t at,
			      size_t *end, char **buf, size_t *cap)
{
	size_t n = 0;
	struct thin_ctx x = {buf, &n, cap};

	(*buf)[n++] = '{';
	if (!(*end = rl_json_members(t, len, at, thin_member, &x)))
		return 0;
	(*buf)[n++] = '}';
	return n;
}

/* The regions array at t[*at], read one region at a time: each is decoded
 * by jansson, copied into out->regions and freed before the next, so a
 * report of 10^5 regions is never one tree in memory (one tree of two
 * such reports took 390 MB and most of diff's time in malloc and page
 * faults). -1 with je filled on a JSON error, 1 with *bad_at set when a
 * region has a field of the wrong type, RL_ENOMEM. */
static int read_regions(const char *t, size_t len, size_t *at,
			struct rl_report_file *out, json_error_t *je,
			size_t *bad_at)
{
	size_t cap = 0, bcap = 256;
	char *buf;
	int rc = 0;

	if (*at >= len || t[*at] != '[') {
		expected(t, len, *at, "'['", je);
		return -1;
	}
	*at = rl_json_skip_ws(t, len, *at + 1);
	if (*at < len && t[*at] == ']') {
		(*at)++;
		return 0;
	}
	buf = malloc(bcap); /* NULL: each region decoded whole */
	for (;;) {
		size_t end = 0, n = t[*at] == '{' && buf
					    ? without_threads(t, len, *at, &end,
							      &buf, &bcap)
					    : 0;
		json_t *o = n ? json_loadb(buf, n, 0, je) : NULL;

		if (o)
			*at = end;
		else if (!(o = value_at(t, len, at, je))) { /* its own error */
			rc = -1;
			break;
		}
		if (out->n_regions == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			void *p = realloc(out->regions, ncap * sizeof *out->regions);
			if (!p) {
				json_decref(o);
				rc = RL_ENOMEM;
				break;
			}
			out->regions = p;
			cap = ncap;
		}
		memset(&out->regions[out->n_regions], 0,
		       sizeof *out->regions);
		rc = read_region(o, &out->regions[out->n_regions++]);
		json_decref(o);
		if (rc) {
			*bad_at = out->n_regions;
			rc = 1;
			break;
		}
		*at = rl_json_skip_ws(t, len, *at);
		if (*at < len && t[*at] == ']') {
			(*at)++;
			break;
		}
		if (*at >= len || t[*at] != ',') {
			expected(t, len, *at, "',' or ']'", je);
			rc = -1;
			break;
		}
		*at = rl_json_skip_ws(t, len, *at + 1);
	}
	free(buf);
	return rc;
}

/* The report's top-level object: every member but "regions" decoded into
 * an object (they are small), the regions read into out one at a time.
 * NULL on an error: je filled (JSON), *rc RL_ENOMEM, or *bad_at set. The
 * whole text must be one object and nothing after it, as json_loadb
 * checks without JSON_DISABLE_EOF_CHECK. */
static json_t *read_top(const char *t, size_t len, struct rl_report_file *out,
			json_error_t *je, size_t *bad_at, int *rc)
{
	json_t *top = json_object();
	size_t at = rl_json_skip_ws(t, len, 0);

	*rc = 0;
	if (!top) {
		*rc = RL_ENOMEM;
		return NULL;
	}
	at = rl_json_skip_ws(t, len, at + 1); /* past the '{' the caller saw */
	if (at < len && t[at] == '}')
		goto end;
	for (;;) {
		json_t *key, *v;

		if (at >= len || t[at] != '"')
			goto syntax_key;
		key = value_at(t, len, &at, je);
		if (!key)
			goto fail;
		at = rl_json_skip_ws(t, len, at);
		if (at >= len || t[at] != ':') {
			json_decref(key);
			expected(t, len, at, "':'", je);
			goto fail;
		}
		at = rl_json_skip_ws(t, len, at + 1);
		if (strcmp(json_string_value(key), "regions") == 0 &&
		    at < len && t[at] == '[' && !out->regions) {
			int r = read_regions(t, len, &at, out, je, bad_at);
			json_decref(key);
			if (r) {
				if (r == RL_ENOMEM)
					*rc = r;
				goto fail;
			}
			if (json_object_set_new(top, "regions", json_true())) {
				*rc = RL_ENOMEM;
				goto fail;
			}
		} else {
			if (!(v = value_at(t, len, &at, je))) {
				json_decref(key);
				goto fail;
			}
			if (json_object_set_new(top, json_string_value(key), v)) {
				json_decref(key);
				*rc = RL_ENOMEM;
				goto fail;
			}
			json_decref(key);
		}
		at = rl_json_skip_ws(t, len, at);
		if (at < len && t[at] == '}')
			break;
		if (at >= len || t[at] != ',') {
			expected(t, len, at, "',' or '}'", je);
			goto fail;
		}
		at = rl_json_skip_ws(t, len, at + 1);
	}
end:
	at = rl_json_skip_ws(t, len, at + 1);
	if (at < len) {
		je->line = rl_json_line_of(t, at, NULL);
		snprintf(je->text, sizeof je->text,
			 "end of file expected near '%c'", t[at]);
		goto fail;
	}
	return top;
syntax_key:
	expected(t, len, at, "string or '}'", je);
fail:
	json_decref(top);
	return NULL;
}

int rl_report_file_load(const char *path, struct rl_report_file *out,
			char *err, size_t errlen)
{
	struct stat st;
	json_error_t je;
	json_t *root, *v;
	size_t bad_at = 0;
	int len, rc = 0;

	memset(out, 0, sizeof *out);
	if (stat(path, &st) != 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "cannot read '%s': %s: give the output "
			       "directory of rlprof run",
			       path, strerror(errno));
	len = S_ISDIR(st.st_mode)
		      ? snprintf(NULL, 0, "%s/report.json", path)
		      : snprintf(NULL, 0, "%s", path);
	if (!(out->path = malloc((size_t)len + 1)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	snprintf(out->path, (size_t)len + 1,
		 S_ISDIR(st.st_mode) ? "%s/report.json" : "%s", path);
	if (stat(out->path, &st) != 0) {
		rc = rl_fail(err, errlen, RL_ENOENT,
			     "no report in '%s' (%s): run 'rlprof report "
			     "%s -f json -o %s' to write it from the saved "
			     "results",
			     path, strerror(errno), path, out->path);
		rl_report_file_release(out);
		return rc;
	}
	{
		/* a FIFO given as a report or baseline never blocks */
		char *text;
		size_t tlen, at;
		rc = rl_file_read_all(out->path, 0, RL_READ_CAP, &text, &tlen,
				      err, errlen);
		if (rc) {
			rl_report_file_release(out);
			return rc;
		}
		memset(&je, 0, sizeof je);
		at = rl_json_skip_ws(text, tlen, 0);
		if (at < tlen && text[at] == '{')
			root = read_top(text, tlen, out, &je, &bad_at, &rc);
		else /* not an object: jansson says why, or it is no report */
			root = json_loadb(text, tlen, 0, &je);
		free(text);
	}
	if (rc) {
		rl_report_file_release(out);
		return rl_fail(err, errlen, rc, "out of memory");
	}
	if (bad_at) {
		char what[64];
		snprintf(what, sizeof what,
			 "region %zu has a field of the wrong type", bad_at);
		return bad(out, err, errlen, what);
	}
	if (!root) {
		char what[300], near[120];
		rl_term_cut(near, sizeof near, je.text, 80);
		snprintf(what, sizeof what, "line %d: %s", je.line, near);
		return bad(out, err, errlen, what);
	}
	v = json_object_get(root, "format");
	if (!json_is_object(root) || !json_is_string(v) ||
	    strcmp(json_string_value(v), "rlprof-report") != 0) {
		json_decref(root);
		return bad(out, err, errlen, "its 'format' is not "
					     "'rlprof-report'");
	}
	v = json_object_get(root, "version");
	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		json_decref(root);
		return bad(out, err, errlen, "no valid 'version'");
	}
	out->version = (int)json_integer_value(v);
	if (out->version > RL_REPORT_VERSION) {
		rc = rl_fail(err, errlen, RL_EVERSION,
			     "cannot read '%s': report version %d is newer "
			     "than this rlprof's (%d): use a newer rlprof",
			     out->path, out->version, RL_REPORT_VERSION);
		json_decref(root);
		rl_report_file_release(out);
		return rc;
	}
	v = json_object_get(root, "machine");
	out->has_machine = json_is_object(v);
	/* "regions" is true once read_top read the array into out */
	if (str(root, "backend", &out->backend) ||
	    !json_is_true(json_object_get(root, "regions"))) {
		json_decref(root);
		return bad(out, err, errlen, "no 'regions' array");
	}
	json_decref(root);
	if (!out->regions &&
	    !(out->regions = calloc(1, sizeof *out->regions))) {
		rl_report_file_release(out);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < out->n_regions; i++) {
		size_t at;
		if (!rl_name_index_get(&out->by_name, out->regions[i].region,
				       &at) &&
		    rl_name_index_put(&out->by_name, out->regions[i].region,
				      i)) {
			rl_report_file_release(out);
			return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		}
	}
	return 0;
}

struct load_job {
	const char *path;
	struct rl_report_file *out;
	char err[1024];
	int rc;
};

static void *load_job_run(void *arg)
{
	struct load_job *j = arg;

	j->rc = rl_report_file_load(j->path, j->out, j->err, sizeof j->err);
	return NULL;
}

int rl_report_file_load_two(const char *path_a, struct rl_report_file *a,
			    const char *path_b, struct rl_report_file *b,
			    int *failed, char *err, size_t errlen)
{
	struct load_job ja = {path_a, a, "", 0}, jb = {path_b, b, "", 0};
	pthread_t t;
	int threaded;

	/* jansson's hash seed is made once, here, not raced by two loads */
	json_object_seed(0);
	threaded = pthread_create(&t, NULL, load_job_run, &jb) == 0;
	load_job_run(&ja);
	if (threaded)
		pthread_join(t, NULL);
	else
		load_job_run(&jb);
	if (!ja.rc && !jb.rc)
		return 0;
	*failed = ja.rc ? 0 : 1;
	snprintf(err, errlen, "%s", ja.rc ? ja.err : jb.err);
	if (!ja.rc)
		rl_report_file_release(a);
	if (!jb.rc)
		rl_report_file_release(b);
	return ja.rc ? ja.rc : jb.rc;
}

void rl_report_file_release(struct rl_report_file *f)
{
	for (size_t i = 0; i < f->n_regions; i++) {
		struct rl_report_region *r = &f->regions[i];
		free(r->region);
		free(r->bound_roof);
		free(r->bound);
		free(r->basis);
		free(r->diagnosis);
		free(r->times_s);
	}
	rl_name_index_release(&f->by_name);
	free(f->regions);
	free(f->backend);
	free(f->path);
	memset(f, 0, sizeof *f);
}

bool rl_report_file_one_thread(const struct rl_report_file *f)
{
	for (size_t i = 0; i < f->n_regions; i++) {
		const struct rl_report_region *r = &f->regions[i];
		if (r->n_thread_rows > 1 ||
		    (r->n_thread_rows == 1 && f->regions[0].n_thread_rows == 1 &&
		     r->first_tid != f->regions[0].first_tid))
			return false;
	}
	return true;
}

const struct rl_report_region *
rl_report_file_find(const struct rl_report_file *f, const char *name)
{
	size_t at;

	if (f->by_name.cap)
		return rl_name_index_get(&f->by_name, name, &at)
			       ? &f->regions[at] : NULL;
	for (size_t i = 0; i < f->n_regions; i++) /* built by hand (tests) */
		if (strcmp(f->regions[i].region, name) == 0)
			return &f->regions[i];
	return NULL;
}
