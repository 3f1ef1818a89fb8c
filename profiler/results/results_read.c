/*
 * Reading one results file (DIR/raw/rlprof-<pid>.json, written by
 * librlprof's rl_results_write_fd) with jansson.
 *
 * Required fields are checked and named when missing; optional ones take a
 * neutral default (README.md, "Results file"). A counter that the process
 * provides but a region does not list, or lists as null or with "scaled":
 * null, reads as scaled = NAN so the report shows it as unknown, never as
 * 0. Without "scaled" (every version 2 file) it is computed from the sums.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/name_index.h"
#include "results/run_results.h"
#include "results/results_json.h"
#include "results/results_stream.h"
#include "common/rl_error.h"
#include "common/term_text.h"

double rl_counter_scaled(uint64_t value, uint64_t enabled_ns,
			 uint64_t running_ns)
{
	if (running_ns > 0)
		return (double)value * ((double)enabled_ns / (double)running_ns);
	return enabled_ns == 0 ? (double)value : 0.0;
}

int rl_region_counters(struct rl_region_stats *s)
{
	if (!s->counters &&
	    !(s->counters = calloc(RL_COUNTER_COUNT, sizeof *s->counters)))
		return RL_ENOMEM;
	return 0;
}

static int read_counters(struct rl_json_ctx *c, const json_t *arr,
			 struct rl_process_results *r)
{
	size_t i;
	const json_t *e;
	char where[64];

	if (!json_is_array(arr))
		return rl_json_bad(c, NULL, "counters", "an array");
	json_array_foreach (arr, i, e) {
		const char *name, *scope;
		int id, sc, rc;
		char *tmp = NULL;

		snprintf(where, sizeof where, "counters[%zu]", i);
		if (!json_is_object(e))
			return rl_json_bad(c, NULL, where, "an object");
		name = json_string_value(json_object_get(e, "name"));
		if (!name)
			return rl_json_missing(c, where, "name");
		id = rl_counter_from_name(name);
		if (id < 0) {
			char shown[160]; /* the file's text, escaped */
			rl_term_cut(shown, sizeof shown, name, 40);
			return rl_fail(
				c->err, c->errlen, RL_EFORMAT,
				"cannot read '%s': %s: unknown counter "
				"'%s': upgrade rlprof or re-run rlprof run",
				c->path, where, shown);
		}
		scope = json_string_value(json_object_get(e, "scope"));
		sc = scope ? rl_scope_from_name(scope) : RL_SCOPE_THREAD;
		if (sc < 0)
			return rl_json_bad(
				c, where, "scope",
				"one of thread, system, proxy, simulated");
		r->provided |= UINT64_C(1) << id;
		r->scope[id] = (unsigned char)sc;
		free(r->method[id]);
		if ((rc = rl_json_str(c, e, where, "method", 0,
				      &r->method[id])))
			return rc;
		if (!r->method[id] && !(r->method[id] = rl_json_strdup("")))
			return RL_ENOMEM;
		if (id >= RL_C_EXTRA0 && id < RL_C_EXTRA0 + RL_EXTRA_MAX) {
			if ((rc = rl_json_str(c, e, where, "extra_name", 0,
					      &tmp)))
				return rc;
			free(r->extra_name[id - RL_C_EXTRA0]);
			r->extra_name[id - RL_C_EXTRA0] = tmp;
		}
	}
	return 0;
}

/* "scope" of a region measured in process scope (rt_scope.h). */
static int read_scope(struct rl_json_ctx *c, const json_t *o,
		      const char *where, struct rl_region_stats *s)
{
	const json_t *all, *cnt, *e;
	uint64_t threads = 0, cpus = 0;
	size_t i;
	int rc;

	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return rl_json_bad(c, where, "scope", "an object");
	if ((rc = rl_json_u64(c, o, where, "calls", 1, &s->scope_calls)) ||
	    (rc = rl_json_u64(c, o, where, "time_ns", 0, &s->scope_time_ns)) ||
	    (rc = rl_json_u64(c, o, where, "cpu_ns", 0, &s->scope_cpu_ns)) ||
	    (rc = rl_json_u64(c, o, where, "cpu_unknown_ns", 0,
			      &s->scope_cpu_unknown_ns)) ||
	    (rc = rl_json_u64(c, o, where, "threads", 0, &threads)) ||
	    (rc = rl_json_u64(c, o, where, "cpus", 0, &cpus)))
		return rc;
	s->scope_threads = threads > UINT32_MAX ? UINT32_MAX : (uint32_t)threads;
	s->scope_cpus = cpus > UINT32_MAX ? UINT32_MAX : (uint32_t)cpus;
	all = json_object_get(o, "all_threads");
	/* "others": the other threads' share; "counters" (a file written
	 * before "others" was): the process's totals */
	cnt = json_object_get(o, "others");
	if (!cnt && (cnt = json_object_get(o, "counters")))
		s->scope_totals = true;
	json_array_foreach (all, i, e) {
		const char *nm = json_string_value(e);
		int id = nm ? rl_counter_from_name(nm) : -1;
		const json_t *v = id >= 0 ? json_object_get(cnt, nm) : NULL;
		struct rl_counter_total *t;

		if (!json_is_object(v))
			continue; /* listed without figures: not covered */
		if (!s->scope_counters &&
		    !(s->scope_counters = calloc(RL_COUNTER_COUNT,
						 sizeof *s->scope_counters)))
			return RL_ENOMEM;
		t = &s->scope_counters[id];
		if ((rc = rl_json_u64(c, v, where, "value", 1, &t->value)) ||
		    (rc = rl_json_dbl(c, v, where, "scaled", 0, &t->scaled)) ||
		    (rc = rl_json_u64(c, v, where, "enabled_ns", 0,
				      &t->enabled_ns)) ||
		    (rc = rl_json_u64(c, v, where, "running_ns", 0,
				      &t->running_ns)))
			return rc;
		if (!json_object_get(v, "scaled"))
			t->scaled = rl_counter_scaled(t->value, t->enabled_ns,
						      t->running_ns);
		s->scope_all |= UINT64_C(1) << id;
	}
	return 0;
}

static int read_region(struct rl_json_ctx *c, const json_t *o,
		       const char *where, uint64_t provided,
		       struct rl_region_stats *s)
{
	const json_t *cnt;
	int rc;

	if (!json_is_object(o))
		return rl_json_bad(c, NULL, where, "an object");
	if ((rc = rl_json_str(c, o, where, "name", 1, &s->name)) ||
	    (rc = rl_json_u64(c, o, where, "calls", 1, &s->calls)) ||
	    (rc = rl_json_u64(c, o, where, "time_ns", 1, &s->time_ns)) ||
	    (rc = rl_json_dbl(c, o, where, "expected_flops", 0,
			      &s->expected_flops)) ||
	    (rc = rl_json_dbl(c, o, where, "expected_bytes", 0,
			      &s->expected_bytes)) ||
	    (rc = rl_json_u64(c, o, where, "expect_calls", 0,
			      &s->expect_calls)) ||
	    (rc = rl_json_u64(c, o, where, "open_at_exit", 0,
			      &s->open_at_exit)) ||
	    (rc = rl_json_u64(c, o, where, "depth", 0, &s->depth)) ||
	    (rc = rl_json_u64(c, o, where, "clock_reads", 0, &s->clock_reads)))
		return rc;
	/* time inside MPI calls: absent, not measured */
	if (json_object_get(o, "mpi_ns")) {
		if ((rc = rl_json_u64(c, o, where, "mpi_ns", 1, &s->mpi_ns)))
			return rc;
		s->mpi_known = true;
	}
	cnt = json_object_get(o, "counters");
	if (cnt && !json_is_null(cnt) && !json_is_object(cnt))
		return rl_json_bad(c, where, "counters", "an object");
	if (provided && rl_region_counters(s))
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	for (int k = 0; k < RL_COUNTER_COUNT; k++) {
		const json_t *v;
		struct rl_counter_total *t;
		char w2[128];

		if (!(provided & (UINT64_C(1) << k)))
			continue; /* s->counters may be NULL then */
		t = &s->counters[k];
		v = cnt ? json_object_get(cnt, rl_counter_name(k)) : NULL;
		if (!v || json_is_null(v)) {
			t->scaled = NAN; /* provided but not listed: unknown */
			continue;
		}
		snprintf(w2, sizeof w2, "%s: counter '%s'", where,
			 rl_counter_name(k));
		if (!json_is_object(v))
			return rl_json_bad(c, where, rl_counter_name(k),
					   "an object");
		if ((rc = rl_json_u64(c, v, w2, "value", 1, &t->value)) ||
		    (rc = rl_json_dbl(c, v, w2, "scaled", 0, &t->scaled)) ||
		    (rc = rl_json_u64(c, v, w2, "enabled_ns", 0,
				      &t->enabled_ns)) ||
		    (rc = rl_json_u64(c, v, w2, "running_ns", 0,
				      &t->running_ns)))
			return rc;
		/* no "scaled" (the runtime does no floating-point work, so
		 * version 2 never writes it): from the sums; null: unknown */
		if (!json_object_get(v, "scaled"))
			t->scaled = rl_counter_scaled(t->value, t->enabled_ns,
						      t->running_ns);
	}
	if ((rc = read_scope(c, json_object_get(o, "scope"), where, s)))
		return rc;
	/* An older writer without expect_calls: a number means declared. */
	if (!json_object_get(o, "expect_calls") &&
	    (!isnan(s->expected_flops) || !isnan(s->expected_bytes)))
		s->expect_calls = 1;
	return 0;
}

/* The runtime keeps one entry per region name and thread: a name listed
 * twice would be counted twice (and as two threads). The first name in
 * sort order of those listed twice is named. Through a name index: a sort
 * of 10^6 names was 2% of rlprof report's time, and more than linear. */
static int check_unique_regions(struct rl_json_ctx *c, const char *where,
				const struct rl_thread_results *t)
{
	struct rl_name_index seen = {0};
	const char *dup = NULL;
	char shown[160];
	size_t k;

	if (t->n_regions < 2)
		return 0;
	for (size_t i = 0; i < t->n_regions; i++) {
		const char *name = t->regions[i].name;
		int rc = i ? 0 : rl_name_index_reserve(&seen, t->n_regions);
		if (!rc)
			rc = rl_name_index_add(&seen, name, i, &k);
		if (rc < 0) {
			rl_name_index_release(&seen);
			return rl_fail(c->err, c->errlen, RL_ENOMEM,
				       "out of memory");
		}
		if (rc == 1 && (!dup || strcmp(name, dup) < 0))
			dup = name;
	}
	rl_name_index_release(&seen);
	if (dup)
		rl_term_cut(shown, sizeof shown, dup, 40);
	if (!dup)
		return 0;
	return rl_fail(c->err, c->errlen, RL_EFORMAT,
		       "cannot read '%s': %s: region '%s' is listed twice: %s",
		       c->path, where, shown, RL_JSON_RERUN);
}

/* A thread's regions from the file's text, one decoded at a time
 * (results_stream.h): the same checks, in the same order, as from the
 * tree. */
static int read_thread_text(struct rl_json_ctx *c, size_t ti,
			    const char *where, uint64_t provided,
			    struct rl_thread_results *t)
{
	size_t at = c->text->spans[ti].from, cap = 0;
	char w2[96];
	int rc;

	for (size_t i = 0;; i++) {
		json_t *e;
		if ((rc = rl_results_text_region(c, c->text, ti, &at, i, &e)))
			return rc;
		if (!e)
			break;
		if (i + 1 >= cap) {
			size_t n = cap ? 2 * cap : 64;
			struct rl_region_stats *g =
				realloc(t->regions, n * sizeof *g);
			if (!g) {
				json_decref(e);
				return rl_fail(c->err, c->errlen, RL_ENOMEM,
					       "out of memory");
			}
			memset(g + cap, 0, (n - cap) * sizeof *g);
			t->regions = g;
			cap = n;
		}
		snprintf(w2, sizeof w2, "%s.regions[%zu]", where, i);
		rc = read_region(c, e, w2, provided, &t->regions[i]);
		json_decref(e);
		t->n_regions = i + 1;
		if (rc)
			return rc;
	}
	if (!t->regions &&
	    !(t->regions = calloc(1, sizeof *t->regions)))
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	return check_unique_regions(c, where, t);
}

static int read_thread(struct rl_json_ctx *c, const json_t *o, size_t ti,
		       uint64_t provided, struct rl_thread_results *t)
{
	const json_t *regs, *e;
	char where[64], w2[96];
	uint64_t idx = ti;
	size_t i;
	int rc;

	snprintf(where, sizeof where, "threads[%zu]", ti);
	if (!json_is_object(o))
		return rl_json_bad(c, NULL, where, "an object");
	if ((rc = rl_json_u64(c, o, where, "tid", 1, &t->tid)) ||
	    (rc = rl_json_u64(c, o, where, "index", 0, &idx)))
		return rc;
	t->index = (unsigned)idx;
	regs = json_object_get(o, "regions");
	if (!regs)
		return rl_json_missing(c, where, "regions");
	if (!json_is_array(regs))
		return rl_json_bad(c, where, "regions", "an array");
	if (rl_results_text_has(c->text, ti))
		return read_thread_text(c, ti, where, provided, t);
	t->regions = calloc(json_array_size(regs) + 1, sizeof *t->regions);
	if (!t->regions)
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	json_array_foreach (regs, i, e) {
		snprintf(w2, sizeof w2, "%s.regions[%zu]", where, i);
		rc = read_region(c, e, w2, provided, &t->regions[i]);
		t->n_regions = i + 1;
		if (rc)
			return rc;
	}
	return check_unique_regions(c, where, t);
}

static int read_warnings(struct rl_json_ctx *c, const json_t *arr,
			 struct rl_process_results *r)
{
	const json_t *e;
	size_t i;
	char where[64];
	int rc;

	if (!arr || json_is_null(arr))
		return 0;
	if (!json_is_array(arr))
		return rl_json_bad(c, NULL, "warnings", "an array");
	r->warnings = calloc(json_array_size(arr) + 1, sizeof *r->warnings);
	if (!r->warnings)
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	json_array_foreach (arr, i, e) {
		struct rl_warning *w = &r->warnings[i];

		snprintf(where, sizeof where, "warnings[%zu]", i);
		r->n_warnings = i + 1;
		if (!json_is_object(e))
			return rl_json_bad(c, NULL, where, "an object");
		if ((rc = rl_json_str(c, e, where, "kind", 0, &w->kind)) ||
		    (rc = rl_json_str(c, e, where, "region", 0, &w->region)) ||
		    (rc = rl_json_u64(c, e, where, "tid", 0, &w->tid)) ||
		    (rc = rl_json_str(c, e, where, "message", 1, &w->message)))
			return rc;
		if (!w->kind && !(w->kind = rl_json_strdup("runtime")))
			return RL_ENOMEM;
	}
	return 0;
}

/* Parse a file; on failure the one-line message names file, line, column. */

static int parse_results(struct rl_json_ctx *c, const json_t *root,
			 struct rl_process_results *r)
{
	const json_t *thr, *e, *v;
	size_t i;
	int rc;
	long sig = 0;
	bool clock_known;

	if ((rc = rl_json_check_header(c, root, RL_RESULTS_FORMAT,
				       RL_RESULTS_VERSION, "results",
				       &r->version)))
		return rc;
	if ((rc = rl_json_long(c, root, NULL, "pid", 1, &r->pid)) ||
	    (rc = rl_json_long(c, root, NULL, "ppid", 0, &r->ppid)) ||
	    (rc = rl_json_str(c, root, NULL, "program", 1, &r->program)) ||
	    (rc = rl_json_str(c, root, NULL, "backend", 1, &r->backend)) ||
	    (rc = rl_json_str(c, root, NULL, "backend_note", 0,
			      &r->backend_note)) ||
	    (rc = rl_json_u64(c, root, NULL, "start_ns", 0, &r->start_ns)) ||
	    (rc = rl_json_u64(c, root, NULL, "end_ns", 0, &r->end_ns)) ||
	    (rc = rl_json_long(c, root, NULL, "signal", 0, &sig)))
		return rc;
	if (!r->backend_note && !(r->backend_note = rl_json_strdup("")))
		return RL_ENOMEM;
	v = json_object_get(root, "run_id");
	if (v && !json_is_null(v)) {
		if (!json_is_string(v) || !rl_run_id_valid(json_string_value(v)))
			return rl_json_bad(c, NULL, "run_id",
					   "a run identity (hex digits)");
		strcpy(r->run_id, json_string_value(v));
	}
	if (sig < 0 || sig > 255)
		return rl_json_bad(c, NULL, "signal", "a signal number");
	r->signal = (int)sig;
	v = json_object_get(root, "complete");
	if (v && !json_is_boolean(v))
		return rl_json_bad(c, NULL, "complete", "true or false");
	r->complete = v ? json_is_true(v) : r->signal == 0;
	v = json_object_get(root, "mpi_calls"); /* absent: no PMPI wrapper */
	if (v) {
		const char *m = json_string_value(v);
		if (!m || (strcmp(m, "out") != 0 && strcmp(m, "in") != 0))
			return rl_json_bad(c, NULL, "mpi_calls",
					   "\"out\" or \"in\"");
		r->mpi_calls = strcmp(m, "out") == 0 ? RL_MPI_CALLS_OUT
						     : RL_MPI_CALLS_IN;
	}
	v = json_object_get(root, "counters");
	if (!v)
		return rl_json_missing(c, NULL, "counters");
	if ((rc = read_counters(c, v, r)))
		return rc;
	thr = json_object_get(root, "threads");
	if (!thr)
		return rl_json_missing(c, NULL, "threads");
	if (!json_is_array(thr))
		return rl_json_bad(c, NULL, "threads", "an array");
	r->threads = calloc(json_array_size(thr) + 1, sizeof *r->threads);
	if (!r->threads)
		return rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
	v = json_object_get(root, "clock_reads_counted");
	if (v && !json_is_boolean(v))
		return rl_json_bad(c, NULL, "clock_reads_counted", "true or false");
	r->clock_reads_counted = clock_known = v && json_is_true(v);
	json_array_foreach (thr, i, e) {
		rc = read_thread(c, e, i, r->provided, &r->threads[i]);
		for (size_t k = 0; !rc && k < r->threads[i].n_regions; k++)
			r->threads[i].regions[k].clock_known = clock_known;
		r->n_threads = i + 1;
		if (rc)
			return rc;
		/* a tid may be reused by a later thread; the index may not */
		for (size_t k = 0; k < i; k++)
			if (r->threads[k].index == r->threads[i].index)
				return rl_fail(
					c->err, c->errlen, RL_EFORMAT,
					"cannot read '%s': threads[%zu]: thread "
					"index %u is listed twice: %s",
					c->path, i, r->threads[i].index,
					RL_JSON_RERUN);
	}
	return read_warnings(c, json_object_get(root, "warnings"), r);
}

int rl_results_load(const char *path, struct rl_process_results *out, char *err,
		    size_t errlen)
{
	struct rl_results_text text;
	struct rl_json_ctx c = {path, err, errlen, &text};
	json_t *root;
	int rc;

	memset(out, 0, sizeof *out);
	/* the regions read one at a time from the text, not as one tree
	 * (results_stream.h): 10^6 regions x 2 threads were 1.1 GB at once */
	root = rl_json_load_keep(path, err, errlen, &rc, &text);
	if (!root) {
		rl_results_text_free(&text);
		return rc;
	}
	rc = parse_results(&c, root, out);
	json_decref(root);
	rl_results_text_free(&text);
	if (!rc)
		rc = rl_results_apply_scope(out);
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
		for (size_t i = 0; i < r->threads[t].n_regions; i++) {
			free(r->threads[t].regions[i].name);
			free(r->threads[t].regions[i].scope_counters);
			free(r->threads[t].regions[i].counters);
		}
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
