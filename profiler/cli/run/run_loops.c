/* rlprof run --loops: the loops of the counted program found before the
 * run (inspect/loops.h) and given to the simulator, its counts per loop
 * read back after it, summed up the nest, printed and written to
 * DIR/loops.json. */
#include "common/fmt_seconds.h"
#include "cli/run/run_loops.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/inspect_loops.h"
#include "cli/run/loop_samples.h"
#include "cli/run/run_loops_state.h"
#include "formats/sim_protocol.h"
#include "inspect/loops.h"
#include "common/rl_error.h"
#include "common/term_text.h"
#include "formats/loops.h"



static const char *const flop_key[6] = {
	"f64_scalar", "f64_128", "f64_256", "f32_scalar", "f32_128", "f32_256"};

uint64_t rl_loops_flops(const uint64_t *s)
{
	uint64_t f = 0;
	for (int k = RS_F64_S; k <= RS_F32_256; k++)
		f += s[k];
	return f;
}

uint64_t rl_loops_dram(const uint64_t *s, int levels)
{
	int b = levels >= 1 && levels <= 3 ? levels : 1;
	return s[RS_B1_R + 2 * (b - 1)] + s[RS_B1_W + 2 * (b - 1)];
}

void rl_run_loops_release(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;
	if (!x)
		return;
	if (x->armed)
		rl_loop_sampler_discard(x->sampler);
	else if (x->sampler) {
		struct rl_loop_samples s;
		rl_loop_sampler_stop(x->sampler, &s);
		rl_loop_samples_free(&s);
	}
	rl_loop_samples_free(&x->samples);
	free(x->samples_incl);
	free(x->is_hot);
	for (size_t t = 0; t < x->n_thr; t++) {
		free(x->thr[t].self);
		free(x->thr[t].incl);
		free(x->thr[t].samples_incl);
	}
	free(x->thr);
	rl_loops_release(&x->l);
	for (size_t i = 0; x->in_region && i <= x->l.n; i++) {
		for (size_t k = 0; k < x->in_region[i].n; k++)
			free(x->in_region[i].v[k]);
		free(x->in_region[i].v);
	}
	free(x->in_region);
	free(x->self);
	free(x->incl);
	free(x);
	run->loops = NULL;
}

int rl_run_loops_prepare(struct rl_run *run, const char **spans_path,
			 char *err, size_t errlen)
{
	const char *prog = run->count.program[0] ? run->count.program
						 : run->target.program;
	struct rl_run_loops *x;
	FILE *f;
	int rc;

	*spans_path = NULL;
	if (!run->opt.loops)
		return 0;
	if (run->mpi.mode == RL_MPI_LAUNCHER) {
		/* the launcher is not profiled: each rank's rlprof finds,
		 * counts and samples the loops of its process (run_mpi.c
		 * passes --loops on), the report merges them */
		if (strcmp(rl_run_backend_name(&run->backend), "sim") != 0)
			rl_run_warn("--loops counts flops and bytes per loop "
				    "under the simulator only (-b sim); with "
				    "backend '%s' loops get their time alone",
				    rl_run_backend_name(&run->backend));
		return 0;
	}
	if (run->target.elf.kind == RL_FILE_SCRIPT) {
		rl_run_warn("--loops: '%s' is a script: its loops are its "
			    "interpreter's; none counted",
			    run->target.program);
		return 0;
	}
	if (strchr(run->place.raw_dir, ';'))
		return rl_fail(err, errlen, RL_EINVAL,
			       "--loops: the output directory '%s' has a ';', "
			       "which the simulator's options cannot carry: "
			       "choose another with -o",
			       run->place.out_dir);
	if (!(x = calloc(1, sizeof *x)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	run->loops = x;
	if ((rc = rl_loops_find(prog, &x->l, err, errlen)) < 0) {
		rl_run_warn("--loops: %s; no loop counted", err);
		rl_run_loops_release(run);
		return 0;
	}
	if (!x->l.have_symbols)
		rl_run_warn("--loops: '%s' has no symbol table (stripped): "
			    "no loops found", prog);
	else if (!x->l.have_lines)
		rl_run_warn("--loops: '%s' has no line table: loops are named "
			    "by function and address (build it with -g for "
			    "source lines)", prog);
	snprintf(x->spans, sizeof x->spans, "%s/loop-spans.txt",
		 run->place.raw_dir);
	if (!(f = fopen(x->spans, "w")))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot write '%s': %s", x->spans,
			       strerror(errno));
	rc = rl_loops_write_spans(&x->l, prog, f);
	if (fclose(f) != 0 || rc < 0)
		return rl_fail(err, errlen, RL_EIO, "cannot write '%s'",
			       x->spans);
	rl_run_say(&run->opt, "--loops: %zu loops found in '%s'%s", x->l.n,
		   prog, x->l.have_lines ? "" : " (no line table)");
	if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0) {
		*spans_path = x->spans;
		x->counting = true;
	} else if (run->mpi.mode != RL_MPI_RANK_ONLY) {
		/* (a rank of the launcher form: the launcher said it) */
		rl_run_warn("--loops counts flops and bytes per loop under the "
			    "simulator only (-b sim); with backend '%s' loops "
			    "get their time alone",
			    rl_run_backend_name(&run->backend));
	}
	if (run->count.program[0])
		snprintf(x->sample_why, sizeof x->sample_why,
			 "--count-with: the timed build is not the one whose "
			 "loops were found");
	else if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0 &&
		 run->mpi.mode == RL_MPI_RANK)
		snprintf(x->sample_why, sizeof x->sample_why,
			 "under mpirun each rank runs once, under the "
			 "simulator: no native run to sample ('rlprof run -b "
			 "sim --loops -- mpirun ...' runs a native job too)");
	else if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0 &&
		 !run->native.timing)
		snprintf(x->sample_why, sizeof x->sample_why,
			 "--sim-timing sim: no native run to sample");
	return 0;
}

/* Whether this spawn is the native run whose loops are timed. */
static bool to_sample(const struct rl_run *run)
{
	const struct rl_run_loops *x = run->loops;
	bool timed = run->native.phase ||
		     strcmp(rl_run_backend_name(&run->backend), "sim") != 0;

	return x && timed && !x->sample_why[0] && !x->sampler && !x->sampled;
}

void rl_run_loops_before_spawn(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;
	char err[512];

	if (!to_sample(run))
		return;
	/* armed by the program's exec (loop_samples.h); where that cannot
	 * be opened, rl_run_loops_started() attaches to the program */
	if (rl_loop_sampler_open(run->target.program, &x->l, &x->sampler, err,
				 sizeof err) == 0)
		x->armed = true;
}

void rl_run_loops_started(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;
	char err[512];

	if (x && x->armed) {
		x->armed = false;
		if (rl_loop_sampler_attach(x->sampler, run->outcome.pid, err,
					   sizeof err) < 0) {
			x->sampler = NULL;
			snprintf(x->sample_why, sizeof x->sample_why, "%s", err);
		}
		return;
	}
	if (!to_sample(run))
		return;
	if (rl_loop_sampler_start(run->outcome.pid, run->target.program, &x->l,
				  &x->sampler, err, sizeof err) < 0)
		snprintf(x->sample_why, sizeof x->sample_why, "%s", err);
}

void rl_run_loops_ended(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;

	if (x && x->armed) { /* the spawn failed */
		rl_loop_sampler_discard(x->sampler);
		x->sampler = NULL;
		x->armed = false;
		return;
	}
	if (!x || !x->sampler)
		return;
	rl_loop_sampler_stop(x->sampler, &x->samples);
	x->sampler = NULL;
	x->sampled = true;
}

/* The counts of thread tid of process pid, made when new; NULL out of
 * memory. */
static struct thr_counts *thread_counts(struct rl_run_loops *x, long pid,
					long tid)
{
	struct thr_counts *t;

	for (size_t i = 0; i < x->n_thr; i++)
		if (x->thr[i].pid == pid && x->thr[i].tid == tid)
			return &x->thr[i];
	if (!(t = realloc(x->thr, (x->n_thr + 1) * sizeof *t)))
		return NULL;
	x->thr = t;
	t += x->n_thr;
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	t->sampled = -1;
	if (!(t->self = calloc(x->l.n + 1, sizeof *t->self)) ||
	    !(t->incl = calloc(x->l.n + 1, sizeof *t->incl))) {
		free(t->self);
		return NULL;
	}
	x->n_thr++;
	return t;
}

static void inclusive(const struct rl_loops *l, uint64_t (*incl)[RS_NSLOTS],
		      uint64_t (*self)[RS_NSLOTS])
{
	memcpy(incl, self, (l->n + 1) * sizeof *incl);
	/* preorder: children after parents, so walk backwards */
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].parent >= 0)
			for (int k = 0; k < RS_NSLOTS; k++)
				incl[l->v[i].parent + 1][k] += incl[i + 1][k];
}

/* Loop id ran in region name (once per name); 0 or -1 (no memory). */
static int add_in_region(struct rl_run_loops *x, size_t id, const char *name)
{
	struct in_regions *r;
	char **v;

	if (!x->in_region &&
	    !(x->in_region = calloc(x->l.n + 1, sizeof *x->in_region)))
		return -1;
	r = &x->in_region[id];
	for (size_t k = 0; k < r->n; k++)
		if (strcmp(r->v[k], name) == 0)
			return 0;
	if (!(v = realloc(r->v, (r->n + 1) * sizeof *v)))
		return -1;
	r->v = v;
	if (!(v[r->n] = strdup(name)))
		return -1;
	r->n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regions loop i ran in, sorted, joined by ", "; NULL if not told.
 * A loop runs where its nested loops run: an outer loop with no counts
 * of its own (only a counter and a branch: the simulator marks the loops
 * it charges) takes its nested loops' regions. */
static json_t *in_region_json(struct rl_run_loops *x, size_t i)
{
	struct in_regions *r = x->in_region ? &x->in_region[i + 1] : NULL;
	size_t len = 1;
	char *s;
	json_t *j;

	for (size_t k = i + 1; r && k < x->l.n &&
			       x->l.v[k].depth > x->l.v[i].depth; k++)
		for (size_t m = 0; m < x->in_region[k + 1].n; m++)
			if (add_in_region(x, i + 1, x->in_region[k + 1].v[m]) < 0)
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

/* Adds one loop-counts file of the simulator (process pid); 0 or -1
 * (malformed). */
static int read_counts(struct rl_run_loops *x, const char *path, long pid)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int ok = 0;
	struct thr_counts *cur = NULL;
	char *region[64] = {NULL}; /* this file's region numbers */

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v[RS_NSLOTS], id;
		char *p = line, *end;
		if (strncmp(line, "rlprof-loop-counts 1", 20) == 0) {
			ok = 1;
			continue;
		}
		if (strncmp(line, "levels ", 7) == 0) {
			x->levels = atoi(line + 7);
			continue;
		}
		if (strncmp(line, "thread ", 7) == 0) {
			cur = thread_counts(x, pid, atol(line + 7));
			continue;
		}
		if (strncmp(line, "region ", 7) == 0) {
			unsigned long r = strtoul(line + 7, &end, 10);
			if (end == line + 7 || *end != ' ' || r == 0 ||
			    r >= 64 || region[r])
				goto bad;
			end[strcspn(end, "\n")] = '\0';
			if (!(region[r] = strdup(end + 1)))
				goto bad;
			continue;
		}
		if (strncmp(line, "loop-regions ", 13) == 0) {
			p = line + 13;
			id = strtoull(p, &end, 10);
			if (end == p || id > x->l.n)
				goto bad;
			for (;;) {
				unsigned long r;
				p = end;
				r = strtoul(p, &end, 10);
				if (end == p)
					break;
				if (r >= 64 || (r && !region[r]) ||
				    add_in_region(x, id, r ? region[r]
							   : "<program>") < 0)
					goto bad;
			}
			continue;
		}
		if (strncmp(line, "loop ", 5) != 0)
			continue;
		p += 5;
		id = strtoull(p, &end, 10);
		if (end == p || id > x->l.n)
			goto bad;
		for (int k = 0; k < RS_NSLOTS; k++) {
			p = end;
			v[k] = strtoull(p, &end, 10);
			if (end == p)
				goto bad;
		}
		for (int k = 0; k < RS_NSLOTS; k++) {
			x->self[id][k] += v[k];
			if (cur)
				cur->self[id][k] += v[k];
		}
	}
	fclose(f);
	for (int r = 0; r < 64; r++)
		free(region[r]);
	return ok ? 0 : -1;
bad:
	fclose(f);
	for (int r = 0; r < 64; r++)
		free(region[r]);
	return -1;
}

/* The counts of every process (MPI ranks, children), summed; inclusive
 * totals up the nest. Returns the files read. */
static size_t gather(struct rl_run *run, struct rl_run_loops *x)
{
	DIR *d = opendir(run->place.raw_dir);
	struct dirent *e;
	size_t n = x->l.n + 1;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX + 300];
		if (strncmp(e->d_name, "loop-counts-", 12) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", run->place.raw_dir,
			 e->d_name);
		if (read_counts(x, path, atol(e->d_name + 12)) < 0)
			rl_run_warn("--loops: '%s' is malformed: its counts "
				    "are left out", path);
		else
			x->n_files++;
	}
	closedir(d);
	(void)n;
	inclusive(&x->l, x->incl, x->self);
	for (size_t t = 0; t < x->n_thr; t++)
		inclusive(&x->l, x->thr[t].incl, x->thr[t].self);
	return x->n_files;
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

static int write_json(struct rl_run *run, struct rl_run_loops *x)
{
	json_t *root = json_object(), *arr = json_array();
	uint64_t total[RS_NSLOTS] = {0};
	char path[PATH_MAX + 32], label[1024];
	int rc = -1;

	if (!root || !arr)
		goto out;
	json_object_set_new(root, "format", json_string(RL_LOOPS_FORMAT));
	json_object_set_new(root, "version", json_integer(RL_LOOPS_VERSION));
	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < RS_NSLOTS; k++)
			total[k] += x->self[i][k];
	json_object_set_new(root, "method",
		json_string("simulated by rlprofsim: every flop and every "
			    "byte at every level charged to the innermost loop "
			    "holding the instruction (code of shared libraries "
			    "to the loop that called it); inclusive sums "
			    "nested loops; all threads and processes"));
	json_object_set_new(root, "program",
			    json_string(run->count.program[0]
						? run->count.program
						: run->target.program));
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
		}
		if (x->is_hot[i] && x->n_thr) {
			/* its share in each process and thread: the report's
			 * records, merged by name as regions are */
			json_t *per = json_array();
			for (size_t t = 0; t < x->n_thr; t++) {
				const struct thr_counts *c = &x->thr[t];
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
	snprintf(path, sizeof path, "%s/loops.json", run->place.out_dir);
	rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				       JSON_ENSURE_ASCII);
	if (rc < 0)
		rl_run_warn("--loops: cannot write '%s'", path);
out:
	json_decref(arr);
	json_decref(root);
	return rc;
}


/* loop id's time (inclusive) and its standard error: each sample stands
 * for one period of a thread's CPU time in user space (samples in the
 * kernel are not taken), so a loop's time is its samples x the period,
 * its error the Poisson error sqrt(samples) x the period; 0 when not
 * sampled */
double rl_loops_time(const struct rl_run_loops *x, size_t id, double *err)
{
	const struct rl_loop_samples *s = &x->samples;
	double n, period = (double)s->period_ns * 1e-9;

	*err = 0;
	if (!x->sampled || !s->total)
		return 0;
	n = (double)x->samples_incl[id];
	*err = sqrt(n) * period;
	return n * period;
}

#define HOT_PCT 1   /* a hot loop: at least 1% of the run's time */
#define HOT_MAX 50  /* at most this many, the first in the nest's order */

bool rl_loops_sampled(const struct rl_run_loops *x)
{
	return x->sampled && x->samples.total;
}

void rl_loops_totals(const struct rl_run_loops *x, uint64_t *total)
{
	memset(total, 0, RS_NSLOTS * sizeof *total);
	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < RS_NSLOTS; k++)
			total[k] += x->self[i][k];
}

/* Loop i ran: it has counts or samples. */
bool rl_loops_ran(const struct rl_run_loops *x, size_t i)
{
	const uint64_t *s = x->incl[i + 1];
	return rl_loops_flops(s) || s[RS_L1_R] || s[RS_L1_W] ||
	       (rl_loops_sampled(x) && x->samples_incl[i + 1]);
}

/* Loop i is hot: at least HOT_PCT% of the samples (the run's CPU time);
 * not sampled, of the flops or of the L1 bytes. */
static bool hot(const struct rl_run_loops *x, size_t i)
{
	uint64_t total[RS_NSLOTS], tf, tb, f;
	const uint64_t *s = x->incl[i + 1];

	if (!rl_loops_ran(x, i))
		return false;
	if (rl_loops_sampled(x))
		return x->samples_incl[i + 1] * 100 >=
		       HOT_PCT * x->samples.total;
	rl_loops_totals(x, total);
	tf = rl_loops_flops(total);
	tb = total[RS_L1_R] + total[RS_L1_W];
	f = rl_loops_flops(s);
	return (tf && f * 100 >= HOT_PCT * tf) ||
	       (tb && (s[RS_L1_R] + s[RS_L1_W]) * 100 >= HOT_PCT * tb);
}

void rl_loops_hot_rule(const struct rl_run_loops *x, char *buf, size_t len)
{
	snprintf(buf, len, "the loops of at least %d%% of the %s, at most "
		 "%d (the first in the order of the nests)", HOT_PCT,
		 rl_loops_sampled(x) ? "run's sampled CPU time (all its samples: "
			      "every thread, code outside loops and shared "
			      "libraries included)"
			    : "run's flops or L1 bytes (not sampled)",
		 HOT_MAX);
}

static int by_tid(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

/* Each sampled thread's samples, inclusive, given to a thread of the
 * counts: the k-th sampled thread by kernel thread id to the k-th thread
 * of the first process counted (threads are paired by the order they
 * were made; the timing run and the counting run are two processes).
 * Without counts, the sampled threads themselves (the run was timed and
 * sampled in one). */
static void pair_samples(struct rl_run *run, struct rl_run_loops *x)
{
	const struct rl_loop_samples *s = &x->samples;
	long order[RL_LOOP_SAMPLE_THREADS][2], sim[RL_LOOP_SAMPLE_THREADS][2];
	long first = -1;
	size_t n_sim = 0;

	if (!rl_loops_sampled(x))
		return;
	for (unsigned k = 0; k < s->n_thread; k++)
		order[k][0] = s->tid[k], order[k][1] = (long)k;
	qsort(order, s->n_thread, sizeof order[0], by_tid);
	if (!x->counting)
		for (unsigned k = 0; k < s->n_thread; k++)
			thread_counts(x, (long)run->outcome.pid, order[k][0]);
	for (size_t t = 0; t < x->n_thr; t++)
		if (first < 0 || x->thr[t].pid < first)
			first = x->thr[t].pid;
	for (size_t t = 0; t < x->n_thr && n_sim < RL_LOOP_SAMPLE_THREADS; t++)
		if (x->thr[t].pid == first)
			sim[n_sim][0] = x->thr[t].tid, sim[n_sim++][1] = (long)t;
	qsort(sim, n_sim, sizeof sim[0], by_tid);
	for (size_t k = 0; k < n_sim && k < s->n_thread; k++) {
		struct thr_counts *c = &x->thr[sim[k][1]];
		const uint64_t *ts = s->thread_self[order[k][1]];
		if (!(c->samples_incl = calloc(x->l.n + 1, sizeof *c->samples_incl)))
			return;
		memcpy(c->samples_incl, ts, (x->l.n + 1) * sizeof *ts);
		for (size_t i = x->l.n; i-- > 0;)
			if (x->l.v[i].parent >= 0)
				c->samples_incl[x->l.v[i].parent + 1] +=
					c->samples_incl[i + 1];
		c->sampled = (int)order[k][1];
	}
}

#define SAMPLES_FILE "loop-samples.json"

/* The launcher form (run_mpi.h), a rank of the job rlprof runs natively
 * (or of a -b time job): its samples kept for the rank of the same
 * number in the simulated job, or why there are none. */
static void keep_samples(struct rl_run *run, struct rl_run_loops *x)
{
	char path[PATH_MAX + 64], err[512];

	if (run->mpi.mode != RL_MPI_RANK_ONLY || x->counting || run->no_files)
		return;
	snprintf(path, sizeof path, "%s/" SAMPLES_FILE, run->place.raw_dir);
	if (rl_loop_samples_save(rl_loops_sampled(x) ? &x->samples : NULL,
				 x->sample_why[0] ? x->sample_why
						  : "not sampled",
				 run->target.program, path, err,
				 sizeof err) < 0)
		rl_run_warn("--loops: %s", err);
}

/* The launcher form with -b sim: this rank of the simulated job takes
 * the samples the native job's rank of the same number took
 * (JOB/native/rank-<r>/raw/), as one rlprof takes those of its native
 * run; none when there was no native job (--sim-timing sim). */
static void take_native_samples(struct rl_run *run, struct rl_run_loops *x)
{
	char path[PATH_MAX + 64], err[768];
	int rc;

	if (run->mpi.mode != RL_MPI_RANK_ONLY || !x->counting || x->sampled)
		return;
	snprintf(path, sizeof path, "%s/native/rank-%ld/raw/" SAMPLES_FILE,
		 run->mpi.job_dir, run->mpi.rank);
	if (access(path, F_OK) != 0)
		return;
	rc = rl_loop_samples_load(path, x->l.n, &x->samples, err, sizeof err);
	if (rc == RL_ENOTSUP) {
		snprintf(x->sample_why, sizeof x->sample_why,
			 "the native timing job: %.470s", err);
	} else if (rc < 0) {
		snprintf(x->sample_why, sizeof x->sample_why,
			 "the native timing job's samples: %.470s", err);
	} else {
		x->sampled = true;
		x->sample_why[0] = '\0';
	}
}

void rl_run_loops_collect(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;
	size_t shown = 0;

	if (!x || !x->spans[0])
		return;
	if (!(x->self = calloc(x->l.n + 1, sizeof *x->self)) ||
	    !(x->incl = calloc(x->l.n + 1, sizeof *x->incl)) ||
	    !(x->samples_incl = calloc(x->l.n + 1, sizeof *x->samples_incl))) {
		rl_run_warn("--loops: out of memory");
		return;
	}
	if (x->counting && gather(run, x) == 0) {
		rl_run_warn("--loops: the simulator wrote no counts per loop "
			    "(in '%s'): did the program run?",
			    run->place.raw_dir);
		x->counting = false;
	}
	take_native_samples(run, x);
	if (x->sampled && x->samples.self) {
		memcpy(x->samples_incl, x->samples.self,
		       (x->l.n + 1) * sizeof *x->samples_incl);
		for (size_t i = x->l.n; i-- > 0;)
			if (x->l.v[i].parent >= 0)
				x->samples_incl[x->l.v[i].parent + 1] +=
					x->samples_incl[i + 1];
	}
	if (x->sampled && !x->samples.total && !x->sample_why[0]) {
		double cpu = (double)x->samples.cpu_ns * 1e-6,
		       period = (double)x->samples.period_ns * 1e-6;
		if (x->samples.cpu_ns < x->samples.period_ns)
			snprintf(x->sample_why, sizeof x->sample_why,
				 "no sample was taken: the program ran %.3g "
				 "ms of CPU time, under one sampling period "
				 "(%.3g ms)", cpu, period);
		else
			snprintf(x->sample_why, sizeof x->sample_why,
				 "no sample was taken in user space: the "
				 "program's %.3g ms of CPU time (sampling "
				 "period %.3g ms) went to the kernel (system "
				 "calls, page faults)%s",
				 cpu, period,
				 x->samples.lost ? " or its samples were lost"
						 : "");
	}
	keep_samples(run, x);
	if (!x->counting && !(x->sampled && x->samples.total)) {
		rl_run_warn("--loops: no loop was counted or timed%s%s",
			    x->sample_why[0] ? ": " : "", x->sample_why);
		return;
	}
	if (!(x->is_hot = calloc(x->l.n + 1, sizeof *x->is_hot))) {
		rl_run_warn("--loops: out of memory");
		return;
	}
	for (size_t i = 0; i < x->l.n; i++)
		if (hot(x, i) && shown < HOT_MAX)
			x->is_hot[i] = true, shown++;
	pair_samples(run, x);
	x->collected = true;
	if (!run->no_files)
		write_json(run, x);
}

void rl_run_loops_report(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;

	if (x && x->collected)
		rl_loops_print_table(x);
}
