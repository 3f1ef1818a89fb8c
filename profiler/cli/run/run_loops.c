/* rlprof run --loops: the loops of the counted program found before the
 * run (inspect/loops.h) and given to the simulator, the timed run
 * sampled, its counts per loop read back after it into the loops'
 * figures (analysis/loop_figures.h: sums up the nest, the hot rule),
 * printed (render/render_loop_table.h) and written to DIR/loops.json
 * (render/render_loops_file.h). */
#include "cli/run/run_loops.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/loop_figures.h"
#include "cli/run/loop_samples.h"
#include "cli/run/run_loops_state.h"
#include "formats/sim_protocol.h"
#include "inspect/loops.h"
#include "common/rl_error.h"
#include "render/render_loop_table.h"
#include "render/render_loops_file.h"



void rl_run_loops_release(struct rl_run_loops **loops)
{
	struct rl_run_loops *x = *loops;
	if (!x)
		return;
	if (x->armed)
		rl_loop_sampler_discard(x->sampler);
	else if (x->sampler) {
		struct rl_loop_samples s;
		rl_loop_sampler_stop(x->sampler, &s);
		rl_loop_samples_free(&s);
	}
	rl_loop_samples_free(&x->f.samples);
	free(x->f.samples_incl);
	free(x->f.is_hot);
	for (size_t t = 0; t < x->f.n_thr; t++) {
		free(x->f.thr[t].self);
		free(x->f.thr[t].incl);
		free(x->f.thr[t].samples_incl);
	}
	free(x->f.thr);
	rl_loops_release(&x->f.l);
	for (size_t i = 0; x->f.in_region && i <= x->f.l.n; i++) {
		for (size_t k = 0; k < x->f.in_region[i].n; k++)
			free(x->f.in_region[i].v[k]);
		free(x->f.in_region[i].v);
	}
	free(x->f.in_region);
	free(x->f.self);
	free(x->f.calls);
	free(x->f.with_calls);
	free(x->f.incl);
	free(x);
	*loops = NULL;
}

int rl_run_loops_prepare(const struct rl_run *run, struct rl_run_loops **loops,
			 const char **spans_path,
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
	*loops = x;
	if ((rc = rl_loops_find(prog, &x->f.l, err, errlen)) < 0) {
		rl_run_warn("--loops: %s; no loop counted", err);
		rl_run_loops_release(loops);
		return 0;
	}
	if (!x->f.l.have_symbols)
		rl_run_warn("--loops: '%s' has no symbol table (stripped): "
			    "no loops found", prog);
	else if (!x->f.l.have_lines)
		rl_run_warn("--loops: '%s' has no line table: loops are named "
			    "by function and address (build it with -g for "
			    "source lines)", prog);
	snprintf(x->spans, sizeof x->spans, "%s/loop-spans.txt",
		 run->place.raw_dir);
	if (!(f = fopen(x->spans, "w")))
		return rl_fail(err, errlen, RL_EIO,
			       "cannot write '%s': %s", x->spans,
			       strerror(errno));
	rc = rl_loops_write_spans(&x->f.l, prog, f);
	if (fclose(f) != 0 || rc < 0)
		return rl_fail(err, errlen, RL_EIO, "cannot write '%s'",
			       x->spans);
	rl_run_say(&run->opt, "--loops: %zu loops found in '%s'%s", x->f.l.n,
		   prog, x->f.l.have_lines ? "" : " (no line table)");
	if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0) {
		*spans_path = x->spans;
		x->f.counting = true;
		x->f.calls_counted = run->opt.loop_calls;
	} else if (run->mpi.mode != RL_MPI_RANK_ONLY) {
		/* (a rank of the launcher form: the launcher said it) */
		rl_run_warn("--loops counts flops and bytes per loop under the "
			    "simulator only (-b sim); with backend '%s' loops "
			    "get their time alone",
			    rl_run_backend_name(&run->backend));
	}
	if (run->count.program[0])
		snprintf(x->f.sample_why, sizeof x->f.sample_why,
			 "--count-with: the timed build is not the one whose "
			 "loops were found");
	else if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0 &&
		 run->mpi.mode == RL_MPI_RANK)
		snprintf(x->f.sample_why, sizeof x->f.sample_why,
			 "under mpirun each rank runs once, under the "
			 "simulator: no native run to sample ('rlprof run -b "
			 "sim --loops -- mpirun ...' runs a native job too)");
	else if (strcmp(rl_run_backend_name(&run->backend), "sim") == 0 &&
		 !run->native.timing)
		snprintf(x->f.sample_why, sizeof x->f.sample_why,
			 "--sim-timing sim: no native run to sample");
	return 0;
}

/* Whether this spawn is the native run whose loops are timed. */
static bool to_sample(const struct rl_run *run, const struct rl_run_loops *x)
{
	bool timed = run->native.phase ||
		     strcmp(rl_run_backend_name(&run->backend), "sim") != 0;

	return x && timed && !x->f.sample_why[0] && !x->sampler && !x->f.sampled;
}

void rl_run_loops_before_spawn(const struct rl_run *run,
			       struct rl_run_loops *x)
{
	char err[512];

	if (!to_sample(run, x))
		return;
	/* armed by the program's exec (loop_samples.h); where that cannot
	 * be opened, rl_run_loops_started() attaches to the program */
	if (rl_loop_sampler_open(run->target.program, &x->f.l, &x->sampler, err,
				 sizeof err) == 0)
		x->armed = true;
}

void rl_run_loops_started(const struct rl_run *run, struct rl_run_loops *x)
{
	char err[512];

	if (x && x->armed) {
		x->armed = false;
		if (rl_loop_sampler_attach(x->sampler, run->outcome.pid, err,
					   sizeof err) < 0) {
			x->sampler = NULL;
			snprintf(x->f.sample_why, sizeof x->f.sample_why, "%s", err);
		}
		return;
	}
	if (!to_sample(run, x))
		return;
	if (rl_loop_sampler_start(run->outcome.pid, run->target.program, &x->f.l,
				  &x->sampler, err, sizeof err) < 0)
		snprintf(x->f.sample_why, sizeof x->f.sample_why, "%s", err);
}

void rl_run_loops_ended(struct rl_run_loops *x)
{

	if (x && x->armed) { /* the spawn failed */
		rl_loop_sampler_discard(x->sampler);
		x->sampler = NULL;
		x->armed = false;
		return;
	}
	if (!x || !x->sampler)
		return;
	rl_loop_sampler_stop(x->sampler, &x->f.samples);
	x->sampler = NULL;
	x->f.sampled = true;
}

/* The counts of thread tid of process pid, made when new; NULL out of
 * memory. */
static struct rl_loop_thread *thread_counts(struct rl_run_loops *x, long pid,
					long tid)
{
	struct rl_loop_thread *t;

	for (size_t i = 0; i < x->f.n_thr; i++)
		if (x->f.thr[i].pid == pid && x->f.thr[i].tid == tid)
			return &x->f.thr[i];
	if (!(t = realloc(x->f.thr, (x->f.n_thr + 1) * sizeof *t)))
		return NULL;
	x->f.thr = t;
	t += x->f.n_thr;
	memset(t, 0, sizeof *t);
	t->pid = pid;
	t->tid = tid;
	t->sampled = -1;
	if (!(t->self = calloc(x->f.l.n + 1, sizeof *t->self)) ||
	    !(t->incl = calloc(x->f.l.n + 1, sizeof *t->incl))) {
		free(t->self);
		return NULL;
	}
	x->f.n_thr++;
	return t;
}





/* Adds one loop-counts file of the simulator (process pid); 0 or -1
 * (malformed). */
static int read_counts(struct rl_run_loops *x, const char *path, long pid)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int ok = 0;
	struct rl_loop_thread *cur = NULL;
	char *region[64] = {NULL}; /* this file's region numbers */

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v[RS_NSLOTS], id;
		bool calls;
		char *p = line, *end;
		if (strncmp(line, "rlprof-loop-counts 1", 20) == 0) {
			ok = 1;
			continue;
		}
		if (strncmp(line, "levels ", 7) == 0) {
			x->f.levels = atoi(line + 7);
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
			if (end == p || id > x->f.l.n)
				goto bad;
			for (;;) {
				unsigned long r;
				p = end;
				r = strtoul(p, &end, 10);
				if (end == p)
					break;
				if (r >= 64 || (r && !region[r]) ||
				    rl_loops_add_in_region(&x->f, id, r ? region[r]
							   : "<program>") < 0)
					goto bad;
			}
			continue;
		}
		/* "calls ID S...": counted in the calls made from loop
		 * ID's body (the loop's total, rl_loops_with_calls) */
		calls = strncmp(line, "calls ", 6) == 0;
		if (strncmp(line, "loop ", 5) != 0 && !calls)
			continue;
		p += calls ? 6 : 5;
		id = strtoull(p, &end, 10);
		if (end == p || id > x->f.l.n)
			goto bad;
		for (int k = 0; k < RS_NSLOTS; k++) {
			p = end;
			v[k] = strtoull(p, &end, 10);
			if (end == p)
				goto bad;
		}
		for (int k = 0; k < RS_NSLOTS && calls; k++)
			x->f.calls[id][k] += v[k];
		for (int k = 0; k < RS_NSLOTS && !calls; k++) {
			x->f.self[id][k] += v[k];
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
static size_t gather(const struct rl_run *run, struct rl_run_loops *x)
{
	DIR *d = opendir(run->place.raw_dir);
	struct dirent *e;
	size_t n = x->f.l.n + 1;

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
			x->f.n_files++;
	}
	closedir(d);
	(void)n;
	rl_loops_inclusive(&x->f.l, x->f.incl, x->f.self);
	rl_loops_with_calls(&x->f);
	for (size_t t = 0; t < x->f.n_thr; t++)
		rl_loops_inclusive(&x->f.l, x->f.thr[t].incl, x->f.thr[t].self);
	return x->f.n_files;
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
static void pair_samples(const struct rl_run *run, struct rl_run_loops *x)
{
	const struct rl_loop_samples *s = &x->f.samples;
	long order[RL_LOOP_SAMPLE_THREADS][2], sim[RL_LOOP_SAMPLE_THREADS][2];
	long first = -1;
	size_t n_sim = 0;

	if (!rl_loops_sampled(&x->f))
		return;
	for (unsigned k = 0; k < s->n_thread; k++)
		order[k][0] = s->tid[k], order[k][1] = (long)k;
	qsort(order, s->n_thread, sizeof order[0], by_tid);
	if (!x->f.counting)
		for (unsigned k = 0; k < s->n_thread; k++)
			thread_counts(x, (long)run->outcome.pid, order[k][0]);
	for (size_t t = 0; t < x->f.n_thr; t++)
		if (first < 0 || x->f.thr[t].pid < first)
			first = x->f.thr[t].pid;
	for (size_t t = 0; t < x->f.n_thr && n_sim < RL_LOOP_SAMPLE_THREADS; t++)
		if (x->f.thr[t].pid == first)
			sim[n_sim][0] = x->f.thr[t].tid, sim[n_sim++][1] = (long)t;
	qsort(sim, n_sim, sizeof sim[0], by_tid);
	for (size_t k = 0; k < n_sim && k < s->n_thread; k++) {
		struct rl_loop_thread *c = &x->f.thr[sim[k][1]];
		const uint64_t *ts = s->thread_self[order[k][1]];
		if (!(c->samples_incl = calloc(x->f.l.n + 1, sizeof *c->samples_incl)))
			return;
		memcpy(c->samples_incl, ts, (x->f.l.n + 1) * sizeof *ts);
		rl_loops_samples_up(&x->f.l, c->samples_incl);
		c->sampled = (int)order[k][1];
	}
}

#define SAMPLES_FILE "loop-samples.json"

/* The launcher form (run_mpi.h), a rank of the job rlprof runs natively
 * (or of a -b time job): its samples kept for the rank of the same
 * number in the simulated job, or why there are none. */
static void keep_samples(const struct rl_run *run, struct rl_run_loops *x)
{
	char path[PATH_MAX + 64], err[512];

	if (run->mpi.mode != RL_MPI_RANK_ONLY || x->f.counting || run->no_files)
		return;
	snprintf(path, sizeof path, "%s/" SAMPLES_FILE, run->place.raw_dir);
	if (rl_loop_samples_save(rl_loops_sampled(&x->f) ? &x->f.samples : NULL,
				 x->f.sample_why[0] ? x->f.sample_why
						  : "not sampled",
				 run->target.program, path, err,
				 sizeof err) < 0)
		rl_run_warn("--loops: %s", err);
}

/* The launcher form with -b sim: this rank of the simulated job takes
 * the samples the native job's rank of the same number took
 * (JOB/native/rank-<r>/raw/), as one rlprof takes those of its native
 * run; none when there was no native job (--sim-timing sim). */
static void take_native_samples(const struct rl_run *run, struct rl_run_loops *x)
{
	char path[PATH_MAX + 64], err[768];
	int rc;

	if (run->mpi.mode != RL_MPI_RANK_ONLY || !x->f.counting || x->f.sampled)
		return;
	snprintf(path, sizeof path, "%s/native/rank-%ld/raw/" SAMPLES_FILE,
		 run->mpi.job_dir, run->mpi.rank);
	if (access(path, F_OK) != 0)
		return;
	rc = rl_loop_samples_load(path, x->f.l.n, &x->f.samples, err, sizeof err);
	if (rc == RL_ENOTSUP) {
		snprintf(x->f.sample_why, sizeof x->f.sample_why,
			 "the native timing job: %.470s", err);
	} else if (rc < 0) {
		snprintf(x->f.sample_why, sizeof x->f.sample_why,
			 "the native timing job's samples: %.470s", err);
	} else {
		x->f.sampled = true;
		x->f.sample_why[0] = '\0';
	}
}

void rl_run_loops_collect(const struct rl_run *run, struct rl_run_loops *x)
{

	if (!x || !x->spans[0])
		return;
	if (!(x->f.self = calloc(x->f.l.n + 1, sizeof *x->f.self)) ||
	    !(x->f.calls = calloc(x->f.l.n + 1, sizeof *x->f.calls)) ||
	    !(x->f.with_calls = calloc(x->f.l.n + 1, sizeof *x->f.with_calls)) ||
	    !(x->f.incl = calloc(x->f.l.n + 1, sizeof *x->f.incl)) ||
	    !(x->f.samples_incl = calloc(x->f.l.n + 1, sizeof *x->f.samples_incl))) {
		rl_run_warn("--loops: out of memory");
		return;
	}
	if (x->f.counting && gather(run, x) == 0) {
		rl_run_warn("--loops: the simulator wrote no counts per loop "
			    "(in '%s'): did the program run?",
			    run->place.raw_dir);
		x->f.counting = false;
	}
	take_native_samples(run, x);
	if (x->f.sampled && x->f.samples.self) {
		memcpy(x->f.samples_incl, x->f.samples.self,
		       (x->f.l.n + 1) * sizeof *x->f.samples_incl);
		rl_loops_samples_up(&x->f.l, x->f.samples_incl);
	}
	if (x->f.sampled && !x->f.samples.total && !x->f.sample_why[0]) {
		double cpu = (double)x->f.samples.cpu_ns * 1e-6,
		       period = (double)x->f.samples.period_ns * 1e-6;
		if (x->f.samples.cpu_ns < x->f.samples.period_ns)
			snprintf(x->f.sample_why, sizeof x->f.sample_why,
				 "no sample was taken: the program ran %.3g "
				 "ms of CPU time, under one sampling period "
				 "(%.3g ms)", cpu, period);
		else
			snprintf(x->f.sample_why, sizeof x->f.sample_why,
				 "no sample was taken in user space: the "
				 "program's %.3g ms of CPU time (sampling "
				 "period %.3g ms) went to the kernel (system "
				 "calls, page faults)%s",
				 cpu, period,
				 x->f.samples.lost ? " or its samples were lost"
						 : "");
	}
	keep_samples(run, x);
	if (!x->f.counting && !(x->f.sampled && x->f.samples.total)) {
		rl_run_warn("--loops: no loop was counted or timed%s%s",
			    x->f.sample_why[0] ? ": " : "", x->f.sample_why);
		return;
	}
	if (!(x->f.is_hot = calloc(x->f.l.n + 1, sizeof *x->f.is_hot))) {
		rl_run_warn("--loops: out of memory");
		return;
	}
	rl_loops_choose_hot(&x->f);
	pair_samples(run, x);
	x->collected = true;
	if (!run->no_files) {
		char path[PATH_MAX + 32];
		snprintf(path, sizeof path, "%s/loops.json", run->place.out_dir);
		if (rl_loops_file_write(&x->f, run->count.program[0]
							? run->count.program
							: run->target.program,
					path) < 0)
			rl_run_warn("--loops: cannot write '%s'", path);
	}
}

void rl_run_loops_report(const struct rl_run_loops *x)
{

	if (x && x->collected)
		rl_loop_table_print(&x->f);
}
