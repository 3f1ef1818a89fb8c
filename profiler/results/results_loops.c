/*
 * rlprof run --loops: the hot loops of DIR/loops.json (written by
 * cli/run/run_loops.c) made region records, so that the analysis places each
 * against its roofs like a region, and the report, diff and check carry
 * it. A hot loop's "per" entries are its counts (inclusive of nested
 * loops) and samples in one thread of one process; each becomes a record
 * of that thread (a thread the process's results do not list is added),
 * named by the loop's identity (function and source line, never its
 * address when there is a line table), so processes and threads merge by
 * name as regions do.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/rl_error.h"
#include "results/run_results.h"
#include "results/results_json.h"
#include "formats/loops.h"

void rl_loop_meta_release(struct rl_loop_meta *m, size_t n)
{
	for (size_t i = 0; m && i < n; i++) {
		free(m[i].name);
		free(m[i].function);
		free(m[i].file);
		free(m[i].source);
		free(m[i].parent);
		free(m[i].no_time);
		free(m[i].inlined);
		free(m[i].enclosing);
	}
	free(m);
}

static char *dup_str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? strdup(json_string_value(v)) : NULL;
}

static uint64_t u64(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) > 0
		       ? (uint64_t)json_integer_value(v) : 0;
}

/* The counts of loops.json ("flops_by_kind": {"f64_scalar", ...},
 * "fma_flops", "l1_read_bytes", ..., "dram_write_bytes") as counters. */
static void set_counts(struct rl_region_stats *s, json_t *c)
{
	json_t *k = json_object_get(c, "flops_by_kind");
	const char *key;
	json_t *v;
	char name[64];

	for (int i = 0; i < RL_COUNTER_COUNT; i++)
		s->counters[i].scaled = 0;
	json_object_foreach(k, key, v) {
		snprintf(name, sizeof name, "flops_%s", key);
		for (int i = 0; i < RL_COUNTER_COUNT; i++)
			if (json_is_integer(v) &&
			    strcmp(rl_counter_name(i), name) == 0)
				s->counters[i].value = (uint64_t)json_integer_value(v);
	}
	json_object_foreach(c, key, v) {
		const char *n = strcmp(key, "fma_flops") == 0 ? "flops_fma" : key;
		for (int i = 0; i < RL_COUNTER_COUNT; i++)
			if (json_is_integer(v) && strcmp(rl_counter_name(i), n) == 0)
				s->counters[i].value = (uint64_t)json_integer_value(v);
	}
	/* measured the whole time the loop ran (never multiplexed) */
	for (int i = 0; i < RL_COUNTER_COUNT; i++) {
		s->counters[i].scaled = (double)s->counters[i].value;
		s->counters[i].enabled_ns = s->counters[i].running_ns =
			s->time_ns;
	}
}

static struct rl_process_results *find_proc(struct rl_run_results *out,
					    long pid)
{
	for (size_t p = 0; p < out->n_procs; p++)
		if (out->procs[p].pid == pid)
			return &out->procs[p];
	return out->n_procs ? &out->procs[0] : NULL;
}

/* The thread tid of p (index k when tid is 0: the k-th thread), added
 * when p has none such. */
static struct rl_thread_results *find_thread(struct rl_process_results *p,
					     uint64_t tid, size_t k)
{
	struct rl_thread_results *t;

	for (size_t i = 0; i < p->n_threads; i++)
		if (tid ? p->threads[i].tid == tid : i == k)
			return &p->threads[i];
	if (!(t = realloc(p->threads, (p->n_threads + 1) * sizeof *t)))
		return NULL;
	p->threads = t;
	t += p->n_threads;
	memset(t, 0, sizeof *t);
	t->tid = tid ? tid : (uint64_t)p->pid + k;
	t->index = (unsigned)p->n_threads++;
	return t;
}

/* "<program>" when it is the only region of every process (a run of an
 * unannotated program), else NULL: the region a loop ran in is not
 * known. */
static const char *only_program(const struct rl_run_results *out)
{
	int seen = 0;
	for (size_t p = 0; p < out->n_procs; p++)
		for (size_t t = 0; t < out->procs[p].n_threads; t++)
			for (size_t i = 0; i < out->procs[p].threads[t].n_regions; i++) {
				const char *n = out->procs[p].threads[t].regions[i].name;
				if (!n || strcmp(n, "<program>") != 0)
					return NULL;
				seen = 1;
			}
	return seen ? "<program>" : NULL;
}

static int add_record(struct rl_run_results *out, const char *name,
		      const json_t *per, double period_s, size_t k)
{
	struct rl_process_results *p = find_proc(out, (long)u64(per, "pid"));
	struct rl_thread_results *t;
	struct rl_region_stats *r;
	json_t *c = json_object_get(per, "counts");

	if (!p || !(t = find_thread(p, u64(per, "tid"), k)))
		return p ? RL_ENOMEM : 0;
	if (!(r = realloc(t->regions, (t->n_regions + 1) * sizeof *r)))
		return RL_ENOMEM;
	t->regions = r;
	r += t->n_regions++;
	memset(r, 0, sizeof *r);
	if (!(r->name = strdup(name)))
		return RL_ENOMEM;
	/* sampled in the native run: a native time, as a region's under
	 * --sim-timing native */
	r->time_native = !isnan(period_s);
	r->time_ns = isnan(period_s) ? 0
		     : (uint64_t)llround((double)u64(per, "samples") *
					 period_s * 1e9);
	if (json_is_object(c) && p->provided) {
		if (rl_region_counters(r))
			return RL_ENOMEM;
		set_counts(r, c);
	}
	return 0;
}

/* loops.json's "inlined" (each {function, file, line, into}) as one
 * line: "sum into twice at shared_lines.c:37; ..."; NULL when absent or
 * out of memory (*bad set then). */
static char *inline_text(const json_t *inl, int *bad)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	const json_t *e;
	size_t k;

	if (!json_is_array(inl) || !json_array_size(inl))
		return NULL;
	if (!(f = open_memstream(&text, &len))) {
		*bad = 1;
		return NULL;
	}
	json_array_foreach(inl, k, e) {
		const char *fn = json_string_value(json_object_get(e, "function"));
		const char *into = json_string_value(json_object_get(e, "into"));
		const char *file = json_string_value(json_object_get(e, "file"));
		const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1
							      : file;
		json_int_t line = json_integer_value(json_object_get(e, "line"));
		fprintf(f, "%s%s into %s", k ? "; " : "", fn ? fn : "?",
			into ? into : "?");
		if (base && line > 0)
			fprintf(f, " at %s:%lld", base, (long long)line);
	}
	if (fclose(f) != 0) {
		free(text);
		*bad = 1;
		return NULL;
	}
	return text;
}

static int add_loop(struct rl_run_results *out, const json_t *o,
		    const json_t *loops, double period_s, const char *no_time,
		    const char *parent)
{
	struct rl_loop_meta *m = realloc(out->loops, (out->n_loops + 1) *
							     sizeof *m);
	const json_t *per = json_object_get(o, "per"), *e;
	size_t k;

	if (!m)
		return RL_ENOMEM;
	out->loops = m;
	m += out->n_loops;
	memset(m, 0, sizeof *m);
	m->name = dup_str(o, "name");
	m->function = dup_str(o, "function");
	m->file = dup_str(o, "file");
	m->source = dup_str(o, "source");
	m->line = (long)u64(o, "line");
	m->samples = u64(o, "samples");
	m->period_s = period_s;
	{ /* the chains its code carries (inspect/loop_chains.h) */
		const json_t *c = json_object_get(o, "chains");
		if (json_is_object(c)) {
			m->chains.known = true;
			m->chains.add = (unsigned)u64(c, "add");
			m->chains.mul = (unsigned)u64(c, "mul");
			m->chains.madd = (unsigned)u64(c, "madd");
		}
	}
	/* the regions it ran in, as the simulator told (loops.json's
	 * "parent" is the enclosing loop's id) */
	m->parent = dup_str(o, "region");
	if (!m->parent && parent)
		m->parent = strdup(parent);
	if (no_time)
		m->no_time = strdup(no_time);
	{ /* where it was inlined, and the loop it is nested in */
		int bad = 0;
		const json_t *up = json_object_get(o, "parent");
		m->inlined = inline_text(json_object_get(o, "inlined"), &bad);
		if (json_is_integer(up) && json_integer_value(up) >= 1)
			m->enclosing = dup_str(json_array_get(
				loops, (size_t)json_integer_value(up) - 1), "name");
		if (bad) {
			out->n_loops++;
			return RL_ENOMEM;
		}
	}
	out->n_loops++;
	if (!m->name || !m->function)
		return RL_ENOMEM;
	json_array_foreach(per, k, e) {
		int rc = add_record(out, m->name, e, period_s, k);
		if (rc)
			return rc;
	}
	return 0;
}

int rl_results_add_loops(const char *dir, struct rl_run_results *out)
{
	char path[4096], err[1024], msg[1400];
	const char *parent = only_program(out);
	json_t *root, *loops, *o, *samp;
	double period_s = NAN;
	size_t i;
	int rc = 0;

	snprintf(path, sizeof path, "%s/loops.json", dir);
	if (access(path, F_OK) != 0)
		return 0;
	if (!(root = rl_json_load(path, err, sizeof err, &rc))) {
		snprintf(msg, sizeof msg, "the loops are left out of the "
			 "report: %s", err);
		return out->n_procs ? rl_results_add_warning(&out->procs[0],
							     "loops", msg)
				    : 0;
	}
	/* an earlier rlprof wrote no format: read as it is */
	if (json_object_get(root, "format")) {
		struct rl_json_ctx c = {path, err, sizeof err, NULL};
		int version;
		if ((rc = rl_json_check_header(&c, root, RL_LOOPS_FORMAT,
					       RL_LOOPS_VERSION, "loops",
					       &version))) {
			json_decref(root);
			snprintf(msg, sizeof msg, "the loops are left out of "
				 "the report: %s", err);
			return out->n_procs
				       ? rl_results_add_warning(&out->procs[0],
								"loops", msg)
				       : 0;
		}
	}
	loops = json_object_get(root, "loops");
	samp = json_object_get(root, "sampling");
	if (json_is_object(samp) &&
	    json_is_number(json_object_get(samp, "period_s"))) {
		period_s = json_number_value(json_object_get(samp, "period_s"));
		out->loops_time.samples = u64(samp, "samples");
		out->loops_time.outside = u64(samp, "samples_outside_loops");
		out->loops_time.other = u64(samp, "samples_other_code");
		out->loops_time.period_s = period_s > 0 ? period_s : 0;
	}
	if (!(out->loops_rule = dup_str(root, "hot_rule")) &&
	    json_is_string(json_object_get(root, "hot_rule")))
		rc = RL_ENOMEM;
	json_array_foreach(loops, i, o) {
		if (rc || !json_is_true(json_object_get(o, "hot")) ||
		    !json_is_string(json_object_get(o, "name")) ||
		    !json_is_string(json_object_get(o, "function")))
			continue;
		rc = add_loop(out, o, loops, period_s,
			      json_string_value(json_object_get(
				      root, "sampling_missing")),
			      parent);
	}
	json_decref(root);
	return rc;
}

int rl_results_take_loops(struct rl_run_results *out,
			  struct rl_run_results *from)
{
	for (size_t i = 0; i < from->n_loops; i++) {
		struct rl_loop_meta *m = &from->loops[i], *t;
		size_t k;
		for (k = 0; k < out->n_loops; k++)
			if (strcmp(out->loops[k].name, m->name) == 0)
				break;
		if (k < out->n_loops) { /* another rank's share of it */
			out->loops[k].samples += m->samples;
			continue;
		}
		if (!(t = realloc(out->loops, (out->n_loops + 1) * sizeof *t)))
			return RL_ENOMEM;
		out->loops = t;
		out->loops[out->n_loops++] = *m;
		memset(m, 0, sizeof *m);
	}
	if (!out->loops_rule) {
		out->loops_rule = from->loops_rule;
		from->loops_rule = NULL;
	}
	/* the ranks' sampled time, summed (one period for all) */
	out->loops_time.samples += from->loops_time.samples;
	out->loops_time.outside += from->loops_time.outside;
	out->loops_time.other += from->loops_time.other;
	if (!out->loops_time.period_s)
		out->loops_time.period_s = from->loops_time.period_s;
	return 0;
}
