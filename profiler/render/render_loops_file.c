/* rlprof run --loops: DIR/loops.json written from the loops' figures
 * (render/render_loops_file.h; its format: formats/loops.h). */
#include "render/render_loops_file.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/loops.h"
#include "render/render_loop_list.h"

static const char *const flop_key[6] = {
	"f64_scalar", "f64_128", "f64_256", "f32_scalar", "f32_128", "f32_256"};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regions loop i ran in, sorted, joined by ", "; NULL if not told.
 * A loop runs where its nested loops run: an outer loop with no counts
 * of its own (only a counter and a branch: the simulator marks the loops
 * it charges) takes its nested loops' regions. */
static json_t *in_region_json(struct rl_loop_figures *x, size_t i)
{
	struct rl_loop_regions *r = x->in_region ? &x->in_region[i + 1] : NULL;
	size_t len = 1;
	char *s;
	json_t *j;

	for (size_t k = i + 1; r && k < x->l.n &&
			       x->l.v[k].depth > x->l.v[i].depth; k++)
		for (size_t m = 0; m < x->in_region[k + 1].n; m++)
			if (rl_loops_add_in_region(x, i + 1, x->in_region[k + 1].v[m]) < 0)
				return NULL;
	r = x->in_region ? &x->in_region[i + 1] : NULL;
	if (!r || !r->n)
		return NULL;
	qsort(r->v, r->n, sizeof *r->v, cmp_str);
	for (size_t k = 0; k < r->n; k++)
		len += strlen(r->v[k]) + 2;
	if (!(s = malloc(len)))
		return NULL;
	s[0] = '\0';
	for (size_t k = 0; k < r->n; k++) {
		if (k)
			strcat(s, ", ");
		strcat(s, r->v[k]);
	}
	j = json_string(s);
	free(s);
	return j;
}

static json_t *counts_json(const uint64_t *s, int levels)
{
	static const char *const lv[] = {"l2", "l3", "dram"};
	json_t *o = json_object(), *f = json_object();
	char key[32];

	if (!o || !f)
		goto nomem;
	json_object_set_new(o, "flops", json_integer((json_int_t)rl_loops_flops(s)));
	for (int k = 0; k < 6; k++)
		json_object_set_new(f, flop_key[k], json_integer((json_int_t)s[k]));
	json_object_set_new(o, "flops_by_kind", f);
	f = NULL;
	json_object_set_new(o, "fma_flops", json_integer((json_int_t)s[RS_FMA]));
	json_object_set_new(o, "l1_read_bytes", json_integer((json_int_t)s[RS_L1_R]));
	json_object_set_new(o, "l1_write_bytes", json_integer((json_int_t)s[RS_L1_W]));
	for (int b = 1; b <= levels && b <= 3; b++) {
		const char *name = b == levels ? "dram" : lv[b - 1];
		snprintf(key, sizeof key, "%s_read_bytes", name);
		json_object_set_new(o, key,
			json_integer((json_int_t)s[RS_B1_R + 2 * (b - 1)]));
		snprintf(key, sizeof key, "%s_write_bytes", name);
		json_object_set_new(o, key,
			json_integer((json_int_t)s[RS_B1_W + 2 * (b - 1)]));
	}
	return o;
nomem:
	json_decref(o);
	json_decref(f);
	return NULL;
}

int rl_loops_file_write(struct rl_loop_figures *x, const char *program,
			const char *path)
{
	json_t *root = json_object(), *arr = json_array();
	uint64_t total[RS_NSLOTS] = {0};
	char label[1024];
	int rc = -1;

	if (!root || !arr)
		goto out;
	json_object_set_new(root, "format", json_string(RL_LOOPS_FORMAT));
	json_object_set_new(root, "version", json_integer(RL_LOOPS_VERSION));
	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < RS_NSLOTS; k++)
			total[k] += x->self[i][k];
	json_object_set_new(root, "method",
		json_string(x->calls_counted
			? "simulated by rlprofsim: every flop and every "
			  "byte at every level charged to the innermost loop "
			  "holding the instruction (code of shared libraries "
			  "to the loop that called it); inclusive sums "
			  "nested loops; with_calls adds what the calls made "
			  "from inside them counted until they returned, with "
			  "the other threads' counts meanwhile (an OpenMP "
			  "team's); all threads and processes"
			: "simulated by rlprofsim: every flop and every "
			  "byte at every level charged to the innermost loop "
			  "holding the instruction (code of shared libraries "
			  "to the loop that called it); inclusive sums "
			  "nested loops (with the functions they call: "
			  "--loop-calls); all threads and processes"));
	json_object_set_new(root, "program",
			    json_string(program));
	json_object_set_new(root, "lines", json_boolean(x->l.have_lines));
	json_object_set_new(root, "cache_levels", json_integer(x->levels));
	json_object_set_new(root, "processes", json_integer((json_int_t)x->n_files));
	if (x->counting) {
		json_object_set_new(root, "total", counts_json(total, x->levels));
		json_object_set_new(root, "outside_loops",
				    counts_json(x->self[0], x->levels));
	}
	if (x->sampled && x->samples.total) {
		json_t *t = json_object();
		json_object_set_new(t, "method", json_string(
			"samples of a software CPU-clock event (perf_event_open) "
			"on the native run, inherited by its threads, user space, "
			"one sample per period of a thread's CPU time; a loop's "
			"time is its samples (inclusive) x the period, the sum "
			"of its threads' times; error: sqrt(samples) x the "
			"period"));
		json_object_set_new(t, "samples", json_integer((json_int_t)x->samples.total));
		json_object_set_new(t, "samples_outside_loops",
				    json_integer((json_int_t)x->samples.self[0]));
		json_object_set_new(t, "samples_other_code",
				    json_integer((json_int_t)x->samples.elsewhere));
		json_object_set_new(t, "lost", json_integer((json_int_t)x->samples.lost));
		json_object_set_new(t, "period_s", json_real((double)x->samples.period_ns * 1e-9));
		json_object_set_new(t, "cpu_s", json_real((double)x->samples.cpu_ns * 1e-9));
		json_object_set_new(t, "threads", json_integer(x->samples.threads));
		json_object_set_new(root, "sampling", t);
	} else if (x->sample_why[0]) {
		json_object_set_new(root, "sampling_missing", json_string(x->sample_why));
	}
	rl_loops_hot_rule(x, label, sizeof label);
	json_object_set_new(root, "hot_rule", json_string(label));
	json_object_set_new(root, "loops", json_incref(arr));
	for (size_t i = 0; i < x->l.n; i++) {
		const struct rl_loop *p = &x->l.v[i];
		json_t *o = json_object();
		char addr[32];
		if (!o || json_array_append_new(arr, o) < 0)
			goto out;
		rl_loop_label(&x->l, i, label, sizeof label);
		snprintf(addr, sizeof addr, "0x%" PRIx64, p->head);
		json_object_set_new(o, "id", json_integer((json_int_t)i + 1));
		json_object_set_new(o, "parent", p->parent < 0 ? json_null()
				    : json_integer(p->parent + 1));
		json_object_set_new(o, "depth", json_integer(p->depth));
		json_object_set_new(o, "label", json_string(label));
		json_object_set_new(o, "function", json_string(p->func));
		json_object_set_new(o, "file", p->file ? json_string(p->file)
							: json_null());
		json_object_set_new(o, "line", p->line ? json_integer(p->line)
						       : json_null());
		if (p->file) { /* the source, for the HTML report's lines */
			char *abs = realpath(p->file, NULL);
			if (abs)
				json_object_set_new(o, "source", json_string(abs));
			free(abs);
		}
		json_object_set_new(o, "address", json_string(addr));
		if (rl_loop_json_names(o, &x->l, i) < 0)
			goto out;
		{ /* the regions it ran in: its parent in the report */
			json_t *in = in_region_json(x, i);
			if (in)
				json_object_set_new(o, "region", in);
		}
		json_object_set_new(o, "hot", json_boolean(x->is_hot[i]));
		if (x->counting) {
			json_object_set_new(o, "self", counts_json(x->self[i + 1], x->levels));
			json_object_set_new(o, "inclusive",
					    counts_json(x->incl[i + 1], x->levels));
			if (x->calls_counted)
				json_object_set_new(o, "with_calls", counts_json(
					x->with_calls[i + 1], x->levels));
		}
		if (x->is_hot[i] && x->n_thr) {
			/* its share in each process and thread: the report's
			 * records, merged by name as regions are */
			json_t *per = json_array();
			for (size_t t = 0; t < x->n_thr; t++) {
				const struct rl_loop_thread *c = &x->thr[t];
				uint64_t ns = c->samples_incl
						      ? c->samples_incl[i + 1] : 0;
				json_t *e;
				if (!ns && !(x->counting &&
					     (rl_loops_flops(c->incl[i + 1]) ||
					      c->incl[i + 1][RS_L1_R] ||
					      c->incl[i + 1][RS_L1_W])))
					continue;
				e = json_object();
				json_object_set_new(e, "pid", json_integer(c->pid));
				json_object_set_new(e, "tid", json_integer(c->tid));
				json_object_set_new(e, "samples",
						    json_integer((json_int_t)ns));
				if (x->counting)
					json_object_set_new(e, "counts", counts_json(
						c->incl[i + 1], x->levels));
				json_array_append_new(per, e);
			}
			json_object_set_new(o, "per", per);
		} else if (x->is_hot[i]) {
			/* a simulator without threads' counts: all as one */
			json_t *per = json_array(), *e = json_object();
			json_object_set_new(e, "samples", json_integer(
				(json_int_t)(rl_loops_sampled(x) ? x->samples_incl[i + 1]
							: 0)));
			if (x->counting)
				json_object_set_new(e, "counts", counts_json(
					x->incl[i + 1], x->levels));
			json_array_append_new(per, e);
			json_object_set_new(o, "per", per);
		}
		if (x->sampled && x->samples.total) {
			double err, t = rl_loops_time(x, i + 1, &err);
			json_object_set_new(o, "samples", json_integer(
				(json_int_t)x->samples_incl[i + 1]));
			json_object_set_new(o, "samples_self", json_integer(
				(json_int_t)x->samples.self[i + 1]));
			json_object_set_new(o, "time_s", json_real(t));
			json_object_set_new(o, "time_error_s", json_real(err));
		}
	}
	rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				       JSON_ENSURE_ASCII);
out:
	json_decref(arr);
	json_decref(root);
	return rc;
}
