/*
 * The machine model on disk (JSON via jansson), its cache path, and the
 * lookups the report uses. Schema in README ("The machine model"):
 * {"format": "rlprof-machine", "version": 2, cpu_model, isa, cores,
 *  mem_bytes, clock_ghz, nominal_ghz, caches, probed_at, quick,
 *  probe_seconds, loadavg1, "bandwidth": [...], "compute": [...],
 *  "levels": [...]}; a figure that was not measured (stored as 0 in the
 * struct, loadavg1 -1) is null in the file. Version 1 files (no levels,
 * no read/fill roofs, no ISA width) still load, the new fields 0.
 *
 * rl_machine_load_cached: a missing cache file, or one older than
 * RL_MACHINE_VERSION (it lacks fields the analysis needs), is reported as
 * missing (RL_ENOENT); a corrupt file or one from a newer rlprof is never
 * overwritten behind the user's back: its error comes back (the commands
 * print it and go on without bounds) and 'rlprof probe --force' replaces
 * it.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/machine_file.h"
#include "probes/probe.h" /* rl_cpu_detect: the cache key */
#include "common/rl_error.h"
#include "common/file_read.h"
#include "common/term_text.h"
#include "common/file_write.h"

/* ---- save ------------------------------------------------------------ */

static json_t *num_or_null(double v)
{
	return v > 0 && isfinite(v) ? json_real(v) : json_null();
}

static json_t *count_or_null(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *bw_json(const struct rl_bw_roof *b)
{
	json_t *o = json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:I, s:s, s:o, s:o, "
			 "s:o}",
			 "level", b->level, "threads", (int)b->threads,
			 "stream_gbs", num_or_null(b->stream_gbs),
			 "moved_gbs", num_or_null(b->moved_gbs),
			 "nt_gbs", num_or_null(b->nt_gbs),
			 "spread_pct", json_real(isfinite(b->spread_pct)
							 ? b->spread_pct : 0),
			 "working_set_bytes", (json_int_t)b->working_set_bytes,
			 "method", b->method,
			 "read_gbs", num_or_null(b->read_gbs),
			 "write_gbs", num_or_null(b->write_gbs),
			 "write_nt_gbs", num_or_null(b->write_nt_gbs));
	if (o)
		json_object_set_new(o, "doubt", str_or_null(b->doubt));
	if (o)
		json_object_set_new(o, "update_gbs",
				    num_or_null(b->update_gbs));
	return o;
}

static json_t *level_json(const struct rl_cache_level *l)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o}",
			 "level", l->level,
			 "claimed_bytes", count_or_null(l->claimed_bytes),
			 "ways", count_or_null(l->ways),
			 "line_bytes", count_or_null(l->line_bytes),
			 "shared_cpus", count_or_null(l->shared_cpus),
			 "source", l->source,
			 "effective_bytes", count_or_null(l->effective_bytes),
			 "effective_all_bytes",
			 count_or_null(l->effective_all_bytes));
	if (o)
		json_object_set_new(o, "note", str_or_null(l->note));
	return o;
}

static json_t *compute_json(const struct rl_compute_roof *c)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:o, s:o, s:i, s:o, s:s, s:o, "
			 "s:o}",
			 "name", c->name, "kind", c->kind, "precision",
			 c->precision, "threads", (int)c->threads,
			 "gflops", num_or_null(c->gflops),
			 "theoretical_gflops",
			 num_or_null(c->theoretical_gflops), "chains",
			 (int)c->chains, "latency_cycles",
			 num_or_null(c->latency_cycles), "method", c->method,
			 "load_clock_ghz", num_or_null(c->load_clock_ghz),
			 "theoretical_load_gflops",
			 num_or_null(c->theoretical_load_gflops));
	if (o) {
		json_object_set_new(o, "width_bits",
				    count_or_null(c->width_bits));
		json_object_set_new(o, "fma", c->width_bits
						      ? json_boolean(c->fma)
						      : json_null());
		json_object_set_new(o, "doubt", str_or_null(c->doubt));
	}
	return o;
}

static int mkdir_parents(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

int rl_machine_save(const char *path, const struct rl_machine *m, char *err,
		    size_t errlen)
{
	json_t *bw = json_array(), *cp = json_array(), *lv = json_array();
	for (size_t i = 0; i < m->n_levels && i < RL_MACHINE_MAX_LEVELS; i++)
		json_array_append_new(lv, level_json(&m->levels[i]));
	for (size_t i = 0; i < m->n_bw && i < RL_MACHINE_MAX_BW; i++)
		json_array_append_new(bw, bw_json(&m->bw[i]));
	for (size_t i = 0; i < m->n_compute && i < RL_MACHINE_MAX_COMPUTE; i++)
		json_array_append_new(cp, compute_json(&m->compute[i]));
	json_t *root = json_pack(
		"{s:s, s:i, s:s, s:s, s:i, s:I, s:o, s:o, s:s, s:s, s:b, s:f, "
		"s:o, s:o, s:o, s:o}",
		"format", RL_MACHINE_FORMAT, "version", RL_MACHINE_VERSION,
		"cpu_model", m->cpu_model, "isa", m->isa, "cores",
		(int)m->cores, "mem_bytes", (json_int_t)m->mem_bytes,
		"clock_ghz", num_or_null(m->clock_ghz), "nominal_ghz",
		num_or_null(m->nominal_ghz), "caches", m->caches, "probed_at",
		m->probed_at, "quick", m->quick, "probe_seconds",
		m->probe_seconds, "loadavg1",
		m->loadavg1 >= 0 && isfinite(m->loadavg1) ? json_real(m->loadavg1)
							  : json_null(),
		"bandwidth", bw, "compute", cp, "levels", lv);
	if (!root)
		return rl_fail(err, errlen, RL_ENOMEM,
			       "cannot build the machine model for '%s'", path);
	int rc = 0, e;
	struct rl_file_out o;
	if (mkdir_parents(path)) {
		rc = rl_fail(err, errlen, RL_EIO,
			     "cannot create the directory of '%s': %s", path,
			     strerror(errno));
		goto out;
	}
	/* a temporary name nobody can plant a link at, renamed over path
	 * (a link there is replaced, not followed: file_write.h) */
	if ((e = rl_file_open_owned(path, &o)) < 0) {
		rc = rl_fail(err, errlen, RL_EIO, "cannot write '%s': %s", path,
			     strerror(-e));
		goto out;
	}
	if (json_dumpf(root, o.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					  JSON_REAL_PRECISION(6))) {
		rc = rl_fail(err, errlen, RL_EIO, "cannot write '%s': %s", path,
			     strerror(errno ? errno : EIO));
		rl_file_discard(&o);
		goto out;
	}
	if ((e = rl_file_commit(&o)) < 0)
		rc = rl_fail(err, errlen, RL_EIO, "cannot write '%s': %s", path,
			     strerror(-e));
out:
	json_decref(root);
	return rc;
}

/* ---- load ------------------------------------------------------------ */

/* Cut to the buffer at a UTF-8 character boundary: a cut name stays
 * valid UTF-8 (the JSON and SVG writers need it). */
static void get_str(json_t *o, const char *key, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));
	size_t n = s ? strlen(s) : 0;

	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(buf, s ? s : "", n);
	buf[n] = '\0';
}

/* A number; absent, mistyped, negative or not finite: 0 (unknown). */
static double get_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	double d = json_is_number(v) ? json_number_value(v) : 0;
	return d >= 0 && isfinite(d) ? d : 0;
}

/* A count: out of range reads as 0 (a double beyond the type would be
 * undefined behaviour to convert). */
static unsigned get_unsigned(json_t *o, const char *key)
{
	double d = get_num(o, key);
	return d < 4294967296.0 ? (unsigned)d : 0;
}

static uint64_t get_u64(json_t *o, const char *key)
{
	double d = get_num(o, key);
	return d < 18446744073709551616.0 ? (uint64_t)d : 0;
}

static int bad(char *err, size_t errlen, const char *path, const char *what)
{
	return rl_fail(err, errlen, RL_EFORMAT,
		       "cannot parse '%s': %s: delete it or run 'rlprof probe "
		       "--force'",
		       path, what);
}

static int load_bw(json_t *arr, struct rl_machine *m, const char *path,
		   char *err, size_t errlen)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e) {
		if (!json_is_object(e) || !json_is_string(json_object_get(e, "level")))
			return bad(err, errlen, path,
				   "a bandwidth roof without a level");
		if (m->n_bw >= RL_MACHINE_MAX_BW)
			break;
		struct rl_bw_roof *b = &m->bw[m->n_bw++];
		get_str(e, "level", b->level, sizeof b->level);
		b->threads = get_unsigned(e, "threads");
		b->stream_gbs = get_num(e, "stream_gbs");
		b->moved_gbs = get_num(e, "moved_gbs");
		b->nt_gbs = get_num(e, "nt_gbs");
		b->spread_pct = get_num(e, "spread_pct");
		b->working_set_bytes = get_u64(e, "working_set_bytes");
		get_str(e, "method", b->method, sizeof b->method);
		/* absent before version 2: 0 = not measured */
		b->read_gbs = get_num(e, "read_gbs");
		b->write_gbs = get_num(e, "write_gbs");
		b->write_nt_gbs = get_num(e, "write_nt_gbs");
		/* absent before the probe measured the in-place update */
		b->update_gbs = get_num(e, "update_gbs");
		/* absent before the probe kept its doubts: none */
		get_str(e, "doubt", b->doubt, sizeof b->doubt);
	}
	return 0;
}

static int load_compute(json_t *arr, struct rl_machine *m, const char *path,
			char *err, size_t errlen)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e) {
		if (!json_is_object(e) || !json_is_string(json_object_get(e, "kind")))
			return bad(err, errlen, path,
				   "a compute roof without a kind");
		if (m->n_compute >= RL_MACHINE_MAX_COMPUTE)
			break;
		struct rl_compute_roof *c = &m->compute[m->n_compute++];
		get_str(e, "name", c->name, sizeof c->name);
		get_str(e, "kind", c->kind, sizeof c->kind);
		get_str(e, "precision", c->precision, sizeof c->precision);
		c->threads = get_unsigned(e, "threads");
		c->gflops = get_num(e, "gflops");
		c->theoretical_gflops = get_num(e, "theoretical_gflops");
		c->chains = get_unsigned(e, "chains");
		c->latency_cycles = get_num(e, "latency_cycles");
		get_str(e, "method", c->method, sizeof c->method);
		/* absent in older files: 0 = unknown */
		c->load_clock_ghz = get_num(e, "load_clock_ghz");
		c->theoretical_load_gflops =
			get_num(e, "theoretical_load_gflops");
		/* absent before version 2: width 0 = unknown */
		c->width_bits = get_unsigned(e, "width_bits");
		c->fma = json_is_true(json_object_get(e, "fma"));
		/* absent before the probe watched the core's rate: none */
		get_str(e, "doubt", c->doubt, sizeof c->doubt);
	}
	return 0;
}

static int load_levels(json_t *arr, struct rl_machine *m, const char *path,
		       char *err, size_t errlen)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e) {
		if (!json_is_object(e) ||
		    !json_is_string(json_object_get(e, "level")))
			return bad(err, errlen, path,
				   "a cache level without a name");
		if (m->n_levels >= RL_MACHINE_MAX_LEVELS)
			break;
		struct rl_cache_level *l = &m->levels[m->n_levels++];
		get_str(e, "level", l->level, sizeof l->level);
		l->claimed_bytes = get_u64(e, "claimed_bytes");
		l->ways = get_unsigned(e, "ways");
		l->line_bytes = get_unsigned(e, "line_bytes");
		l->shared_cpus = get_unsigned(e, "shared_cpus");
		get_str(e, "source", l->source, sizeof l->source);
		l->effective_bytes = get_u64(e, "effective_bytes");
		l->effective_all_bytes = get_u64(e, "effective_all_bytes");
		get_str(e, "note", l->note, sizeof l->note);
	}
	return 0;
}

int rl_machine_load(const char *path, struct rl_machine *m, char *err,
		    size_t errlen)
{
	memset(m, 0, sizeof *m);
	/* a FIFO or a device at the model's name (RLPROF_MACHINE, DIR/
	 * machine.json) is refused at once, never waited on */
	char *text;
	size_t len;
	int rc = rl_file_read_all(path, 0, RL_READ_CAP, &text, &len, err,
				  errlen);
	if (rc)
		return rc;
	json_error_t je;
	json_t *root = json_loadb(text, len, 0, &je);
	free(text);
	if (!root) {
		char what[256], near[120];
		rl_term_cut(near, sizeof near, je.text, 80);
		snprintf(what, sizeof what, "%s at line %d", near, je.line);
		return bad(err, errlen, path, what);
	}
	const char *fmt = json_string_value(json_object_get(root, "format"));
	json_t *ver = json_object_get(root, "version");
	if (!json_is_object(root) || !fmt || strcmp(fmt, RL_MACHINE_FORMAT)) {
		rc = bad(err, errlen, path,
			 "not an rlprof machine model (no \"format\": "
			 "\"" RL_MACHINE_FORMAT "\")");
		goto out;
	}
	if (!json_is_integer(ver) || json_integer_value(ver) < 1) {
		rc = bad(err, errlen, path, "no valid \"version\"");
		goto out;
	}
	if (json_integer_value(ver) > RL_MACHINE_VERSION) {
		rc = rl_fail(err, errlen, RL_EVERSION,
			     "'%s' was written by a newer rlprof (machine "
			     "version %lld, this one reads %d)",
			     path, (long long)json_integer_value(ver),
			     RL_MACHINE_VERSION);
		goto out;
	}
	json_t *bw = json_object_get(root, "bandwidth");
	json_t *cp = json_object_get(root, "compute");
	if (!json_is_array(bw) || !json_is_array(cp)) {
		rc = bad(err, errlen, path,
			 "no \"bandwidth\" or \"compute\" array");
		goto out;
	}
	m->version = (int)json_integer_value(ver);
	get_str(root, "cpu_model", m->cpu_model, sizeof m->cpu_model);
	get_str(root, "isa", m->isa, sizeof m->isa);
	m->cores = get_unsigned(root, "cores");
	m->mem_bytes = get_u64(root, "mem_bytes");
	m->clock_ghz = get_num(root, "clock_ghz");
	m->nominal_ghz = get_num(root, "nominal_ghz");
	get_str(root, "caches", m->caches, sizeof m->caches);
	get_str(root, "probed_at", m->probed_at, sizeof m->probed_at);
	m->quick = json_is_true(json_object_get(root, "quick"));
	m->probe_seconds = get_num(root, "probe_seconds");
	json_t *la = json_object_get(root, "loadavg1");
	m->loadavg1 = json_is_number(la) && json_number_value(la) >= 0 &&
				      isfinite(json_number_value(la))
			      ? json_number_value(la)
			      : -1;
	json_t *lv = json_object_get(root, "levels");
	if (lv && !json_is_array(lv) && !json_is_null(lv)) {
		rc = bad(err, errlen, path, "\"levels\" is not an array");
		goto out;
	}
	if ((rc = load_bw(bw, m, path, err, errlen)) ||
	    (rc = load_compute(cp, m, path, err, errlen)) ||
	    (json_is_array(lv) &&
	     (rc = load_levels(lv, m, path, err, errlen))))
		goto out;
out:
	json_decref(root);
	if (rc) {
		memset(m, 0, sizeof *m);
	}
	return rc;
}

/* ---- cache ----------------------------------------------------------- */

int rl_machine_cache_path(char *buf, size_t len, char *err, size_t errlen)
{
	/* set by rlprof run for the program it profiles, so that a program
	 * reading the model (rlprof-kernels sizes its arrays from it) finds
	 * the same file natively and under the simulator, whose CPUID names
	 * another CPU */
	const char *env = getenv("RLPROF_MACHINE");
	if (env && env[0] == '/') {
		if ((size_t)snprintf(buf, len, "%s", env) >= len)
			return rl_fail(err, errlen, RL_EINVAL,
				       "RLPROF_MACHINE is too long");
		return 0;
	}
	struct rl_cpu *cpu = malloc(sizeof *cpu);
	if (!cpu)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	int rc = rl_cpu_detect(cpu, err, errlen);
	if (rc) {
		free(cpu);
		return rc;
	}
	/* the key: CPU model (lowercase letters and digits, runs of anything
	 * else as one '-'), logical CPUs, memory in GiB (rounded) */
	char slug[128];
	size_t n = 0;
	for (const char *p = cpu->model; *p && n + 1 < sizeof slug; p++) {
		if (isalnum((unsigned char)*p))
			slug[n++] = (char)tolower((unsigned char)*p);
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = 0;
	unsigned cpus = cpu->logical_cpus;
	unsigned long long gib =
		(cpu->mem_bytes + (1ull << 29)) >> 30;
	free(cpu);

	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int w;
	if (xdg && xdg[0] == '/')
		w = snprintf(buf, len, "%s/rlprof/machine-%s-%ucpu-%lluGiB.json",
			     xdg, slug[0] ? slug : "cpu", cpus, gib);
	else if (home && home[0])
		w = snprintf(buf, len,
			     "%s/.cache/rlprof/machine-%s-%ucpu-%lluGiB.json",
			     home, slug[0] ? slug : "cpu", cpus, gib);
	else
		return rl_fail(err, errlen, RL_ENOENT,
			       "no cache directory: neither XDG_CACHE_HOME nor "
			       "HOME is set");
	if (w < 0 || (size_t)w >= len)
		return rl_fail(err, errlen, RL_EINVAL,
			       "the cache path is too long");
	return 0;
}

int rl_machine_load_cached(struct rl_machine *m, char *path, size_t pathlen,
			   char *err, size_t errlen)
{
	char own[4096];
	if (!path) {
		path = own;
		pathlen = sizeof own;
	}
	int rc = rl_machine_cache_path(path, pathlen, err, errlen);
	if (rc) {
		memset(m, 0, sizeof *m);
		return rc;
	}
	rc = rl_machine_load(path, m, err, errlen);
	if (rc == 0 && m->version < RL_MACHINE_VERSION) {
		memset(m, 0, sizeof *m);
		return rl_fail(err, errlen, RL_ENOENT,
			       "the machine model in '%s' is from an older "
			       "rlprof (no cache levels, read and fill "
			       "roofs): run 'rlprof probe --force'",
			       path);
	}
	if (rc == RL_ENOENT) {
		memset(m, 0, sizeof *m);
		return rl_fail(err, errlen, RL_ENOENT,
			       "no machine model in '%s': run 'rlprof probe'",
			       path);
	}
	return rc; /* loaded, or corrupt / newer: left for the user */
}

double rl_ridge(double peak_gflops, double bw_gbs)
{
	if (!(peak_gflops > 0) || !(bw_gbs > 0))
		return NAN;
	return peak_gflops / bw_gbs;
}
