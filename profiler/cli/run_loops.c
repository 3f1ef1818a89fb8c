/* rlprof run --loops: the loops of the counted program found before the
 * run (inspect/loops.h) and given to the simulator, its counts per loop
 * read back after it, summed up the nest, printed and written to
 * DIR/loops.json. */
#include "cli/run_loops.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/loops.h"
#include "common/rl_error.h"
#include "common/term_text.h"

/* the slots of the simulator's counts (counters/sim/rs.h) */
enum { S_F64_S, S_F64_128, S_F64_256, S_F32_S, S_F32_128, S_F32_256,
       S_L1_R, S_L1_W, S_B1_R, S_B1_W, S_B2_R, S_B2_W, S_B3_R, S_B3_W,
       S_NLEVELS, S_VERSION, S_FMA, S_N };

struct rl_run_loops {
	struct rl_loops l;
	char spans[PATH_MAX + 32];
	uint64_t (*self)[S_N]; /* per id: 0 outside loops, i + 1 loop i */
	uint64_t (*incl)[S_N];
	int levels;
	size_t n_files;
};

static const char *const flop_key[6] = {
	"f64_scalar", "f64_128", "f64_256", "f32_scalar", "f32_128", "f32_256"};

static uint64_t flops(const uint64_t *s)
{
	uint64_t f = 0;
	for (int k = S_F64_S; k <= S_F32_256; k++)
		f += s[k];
	return f;
}

static uint64_t dram(const uint64_t *s, int levels)
{
	int b = levels >= 1 && levels <= 3 ? levels : 1;
	return s[S_B1_R + 2 * (b - 1)] + s[S_B1_W + 2 * (b - 1)];
}

void rl_run_loops_release(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;
	if (!x)
		return;
	rl_loops_release(&x->l);
	free(x->self);
	free(x->incl);
	free(x);
	run->loops = NULL;
}

int rl_run_loops_prepare(struct rl_run *run, const char **spans_path,
			 char *err, size_t errlen)
{
	const char *prog = run->count_program[0] ? run->count_program
						 : run->program;
	struct rl_run_loops *x;
	FILE *f;
	int rc;

	*spans_path = NULL;
	if (!run->opt.loops)
		return 0;
	if (strcmp(run->probes[run->chosen].backend->name, "sim") != 0) {
		rl_run_warn("--loops counts per loop under the simulator only "
			    "(-b sim); with backend '%s' no loop is counted",
			    run->probes[run->chosen].backend->name);
		return 0;
	}
	if (run->elf.kind == RL_FILE_SCRIPT) {
		rl_run_warn("--loops: '%s' is a script: its loops are its "
			    "interpreter's; none counted", run->program);
		return 0;
	}
	if (strchr(run->raw_dir, ';'))
		return rl_fail(err, errlen, RL_EINVAL,
			       "--loops: the output directory '%s' has a ';', "
			       "which the simulator's options cannot carry: "
			       "choose another with -o", run->out_dir);
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
	snprintf(x->spans, sizeof x->spans, "%s/loop-spans.txt", run->raw_dir);
	if (!(f = fopen(x->spans, "w")))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot write '%s': %s", x->spans,
			       strerror(errno));
	rc = rl_loops_write_spans(&x->l, prog, f);
	if (fclose(f) != 0 || rc < 0)
		return rl_fail(err, errlen, RL_EIO, "cannot write '%s'",
			       x->spans);
	rl_run_say(run, "--loops: %zu loops found in '%s'%s", x->l.n, prog,
		   x->l.have_lines ? "" : " (no line table)");
	*spans_path = x->spans;
	return 0;
}

/* Adds one loop-counts file of the simulator; 0 or -1 (malformed). */
static int read_counts(struct rl_run_loops *x, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int ok = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v[S_N], id;
		char *p = line, *end;
		if (strncmp(line, "rlprof-loop-counts 1", 20) == 0) {
			ok = 1;
			continue;
		}
		if (strncmp(line, "levels ", 7) == 0) {
			x->levels = atoi(line + 7);
			continue;
		}
		if (strncmp(line, "loop ", 5) != 0)
			continue;
		p += 5;
		id = strtoull(p, &end, 10);
		if (end == p || id > x->l.n)
			goto bad;
		for (int k = 0; k < S_N; k++) {
			p = end;
			v[k] = strtoull(p, &end, 10);
			if (end == p)
				goto bad;
		}
		for (int k = 0; k < S_N; k++)
			x->self[id][k] += v[k];
	}
	fclose(f);
	return ok ? 0 : -1;
bad:
	fclose(f);
	return -1;
}

/* The counts of every process (MPI ranks, children), summed; inclusive
 * totals up the nest. Returns the files read. */
static size_t gather(struct rl_run *run, struct rl_run_loops *x)
{
	DIR *d = opendir(run->raw_dir);
	struct dirent *e;
	size_t n = x->l.n + 1;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX + 300];
		if (strncmp(e->d_name, "loop-counts-", 12) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", run->raw_dir, e->d_name);
		if (read_counts(x, path) < 0)
			rl_run_warn("--loops: '%s' is malformed: its counts "
				    "are left out", path);
		else
			x->n_files++;
	}
	closedir(d);
	memcpy(x->incl, x->self, n * sizeof *x->incl);
	/* preorder: children after parents, so walk backwards */
	for (size_t i = x->l.n; i-- > 0;) {
		int p = x->l.v[i].parent;
		if (p >= 0)
			for (int k = 0; k < S_N; k++)
				x->incl[p + 1][k] += x->incl[i + 1][k];
	}
	return x->n_files;
}

static json_t *counts_json(const uint64_t *s, int levels)
{
	static const char *const lv[] = {"l2", "l3", "dram"};
	json_t *o = json_object(), *f = json_object();
	char key[32];

	if (!o || !f)
		goto nomem;
	json_object_set_new(o, "flops", json_integer((json_int_t)flops(s)));
	for (int k = 0; k < 6; k++)
		json_object_set_new(f, flop_key[k], json_integer((json_int_t)s[k]));
	json_object_set_new(o, "flops_by_kind", f);
	f = NULL;
	json_object_set_new(o, "fma_flops", json_integer((json_int_t)s[S_FMA]));
	json_object_set_new(o, "l1_read_bytes", json_integer((json_int_t)s[S_L1_R]));
	json_object_set_new(o, "l1_write_bytes", json_integer((json_int_t)s[S_L1_W]));
	for (int b = 1; b <= levels && b <= 3; b++) {
		const char *name = b == levels ? "dram" : lv[b - 1];
		snprintf(key, sizeof key, "%s_read_bytes", name);
		json_object_set_new(o, key,
			json_integer((json_int_t)s[S_B1_R + 2 * (b - 1)]));
		snprintf(key, sizeof key, "%s_write_bytes", name);
		json_object_set_new(o, key,
			json_integer((json_int_t)s[S_B1_W + 2 * (b - 1)]));
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
	uint64_t total[S_N] = {0};
	char path[PATH_MAX + 32], label[1024];
	int rc = -1;

	if (!root || !arr)
		goto out;
	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < S_N; k++)
			total[k] += x->self[i][k];
	json_object_set_new(root, "method",
		json_string("simulated by rlprofsim: every flop and every "
			    "byte at every level charged to the innermost loop "
			    "holding the instruction (code of shared libraries "
			    "to the loop that called it); inclusive sums "
			    "nested loops; all threads and processes"));
	json_object_set_new(root, "program", json_string(
		run->count_program[0] ? run->count_program : run->program));
	json_object_set_new(root, "lines", json_boolean(x->l.have_lines));
	json_object_set_new(root, "cache_levels", json_integer(x->levels));
	json_object_set_new(root, "processes", json_integer((json_int_t)x->n_files));
	json_object_set_new(root, "total", counts_json(total, x->levels));
	json_object_set_new(root, "outside_loops", counts_json(x->self[0], x->levels));
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
		json_object_set_new(o, "address", json_string(addr));
		json_object_set_new(o, "self", counts_json(x->self[i + 1], x->levels));
		json_object_set_new(o, "inclusive",
				    counts_json(x->incl[i + 1], x->levels));
	}
	snprintf(path, sizeof path, "%s/loops.json", run->out_dir);
	rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				       JSON_ENSURE_ASCII);
	if (rc < 0)
		rl_run_warn("--loops: cannot write '%s'", path);
out:
	json_decref(arr);
	json_decref(root);
	return rc;
}

static void human(uint64_t v, char *buf, size_t len)
{
	if (v >= 1000000000ull)
		snprintf(buf, len, "%.1fG", (double)v / 1e9);
	else if (v >= 1000000ull)
		snprintf(buf, len, "%.1fM", (double)v / 1e6);
	else if (v >= 10000ull)
		snprintf(buf, len, "%.1fk", (double)v / 1e3);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

static void print_table(struct rl_run_loops *x)
{
	uint64_t total[S_N] = {0}, tf, tb;
	size_t shown = 0, ran = 0;

	for (size_t i = 0; i <= x->l.n; i++)
		for (int k = 0; k < S_N; k++)
			total[k] += x->self[i][k];
	tf = flops(total);
	tb = total[S_L1_R] + total[S_L1_W];
	printf("\nloops (simulated counts, inclusive of nested loops; "
	       "DIR/loops.json has them all)\n");
	printf("  %-34s %-16s %9s %6s %9s %9s %8s\n", "loop", "function",
	       "flops", "%", "L1 bytes", "DRAM B", "AI DRAM");
	for (size_t i = 0; i < x->l.n; i++) {
		const uint64_t *s = x->incl[i + 1];
		uint64_t f = flops(s), d = dram(s, x->levels);
		char label[1024], a[16], b[16], c[16], ai[16], name[64];
		int ind = 2 * x->l.v[i].depth;
		if (!f && !s[S_L1_R] && !s[S_L1_W])
			continue;
		ran++;
		/* loops of at least 1% of the flops or of the L1 bytes */
		if ((tf && f * 100 < tf) &&
		    (!tb || (s[S_L1_R] + s[S_L1_W]) * 100 < tb))
			continue;
		if (!tf && tb && (s[S_L1_R] + s[S_L1_W]) * 100 < tb)
			continue;
		if (shown++ == 50)
			break;
		rl_loop_label(&x->l, i, label, sizeof label);
		rl_term_cut(name, sizeof name, x->l.v[i].func, 16);
		human(f, a, sizeof a);
		human(s[S_L1_R] + s[S_L1_W], b, sizeof b);
		human(d, c, sizeof c);
		if (d)
			snprintf(ai, sizeof ai, "%.3g", (double)f / (double)d);
		else
			snprintf(ai, sizeof ai, "-");
		printf("  %*s", ind, "");
		rl_term_put(stdout, label);
		printf("%*s %-16s %9s %5.1f%% %9s %9s %8s\n",
		       (int)(34 - ind - (int)strlen(label) > 0
				     ? 34 - ind - (int)strlen(label) : 0),
		       "", name, a, tf ? 100.0 * (double)f / (double)tf : 0.0,
		       b, c, ai);
	}
	{
		char a[16], b[16], c[16];
		human(flops(x->self[0]), a, sizeof a);
		human(x->self[0][S_L1_R] + x->self[0][S_L1_W], b, sizeof b);
		human(dram(x->self[0], x->levels), c, sizeof c);
		printf("  %-34s %-16s %9s %5.1f%% %9s %9s\n", "(outside loops)",
		       "", a, tf ? 100.0 * (double)flops(x->self[0]) / (double)tf
				 : 0.0, b, c);
		human(tf, a, sizeof a);
		human(tb, b, sizeof b);
		human(dram(total, x->levels), c, sizeof c);
		printf("  %-34s %-16s %9s %5.1f%% %9s %9s\n", "(program)", "",
		       a, 100.0, b, c);
	}
	printf("  %zu of %zu loops ran; those of at least 1%% of the flops "
	       "or bytes shown\n", ran, x->l.n);
}

void rl_run_loops_report(struct rl_run *run)
{
	struct rl_run_loops *x = run->loops;

	if (!x || !x->spans[0])
		return;
	if (!(x->self = calloc(x->l.n + 1, sizeof *x->self)) ||
	    !(x->incl = calloc(x->l.n + 1, sizeof *x->incl))) {
		rl_run_warn("--loops: out of memory");
		return;
	}
	if (gather(run, x) == 0) {
		rl_run_warn("--loops: the simulator wrote no counts per loop "
			    "(in '%s'): did the program run?", run->raw_dir);
		return;
	}
	print_table(x);
	if (!run->no_files)
		write_json(run, x);
}
