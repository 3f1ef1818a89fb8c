/*
 * rlprof compare [OPTIONS] [--] OLD [ARGS...] -- NEW [ARGS...]: the gate
 * in one command. Runs the two programs N times each, interleaved in
 * ABBA order (old new, new old, old new, ...) so that drift of the host
 * falls on both alike, each run an `rlprof run -b time` of its own into
 * DIR/old/K or DIR/new/K; then tests each region's times as rlprof check
 * does (gate.h, shift_test.h). With -b sim each program is also counted
 * once under the simulator (DIR/old/sim, DIR/new/sim) and a region whose
 * counted work differs at all fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "analysis/report_file.h"
#include "analysis/shift_test.h"
#include "analysis/work_cmp.h"
#include "cli/commands.h"
#include "cli/gate.h"
#include "cli/parse_pct.h"
#include "common/term_text.h"
#include "render/render_compare.h"

#define DEFAULT_RUNS 10
#define DEFAULT_MAX_RUNS 40
#define MAX_RUNS 100
#define DEFAULT_MAX_PCT 10.0

extern char **environ;

static void usage(FILE *out)
{
	fputs("usage: rlprof compare [OPTIONS] [--] OLD [ARGS...] -- NEW "
	      "[ARGS...]\n"
	      "\n"
	      "The CI gate in one command: runs OLD and NEW (each with its\n"
	      "arguments; the first '--' after OLD ends them) N times each,\n"
	      "interleaved (old new, new old, old new, ...) so that drift of\n"
	      "the machine falls on both, and tests each region's times as\n"
	      "'rlprof check' does against a baseline: a region fails when NEW is\n"
	      "slower than PCT at 95% confidence, holds when it is within PCT\n"
	      "at 95%, and is 'not enough evidence' otherwise.\n"
	      "\n"
	      "  -n, --runs N         runs of each program before the first\n"
	      "                       look (default 10, 3 to 100)\n"
	      "  -N, --max-runs M     where a region is undecided, more runs\n"
	      "                       (twice as many at each look) up to M a\n"
	      "                       side (default 40, or N when larger); each\n"
	      "                       look's bounds at 95% shared over the\n"
	      "                       looks (Bonferroni)\n"
	      "  -r, --max-regression PCT\n"
	      "                       the slowdown a region may have (default\n"
	      "                       10)\n"
	      "  -b, --backend NAME   time (default): times only; sim: also\n"
	      "                       counts each program once under the\n"
	      "                       simulator, and a region whose counted\n"
	      "                       flops or bytes differ at all fails\n"
	      "  -o, --output DIR     where the runs go (default\n"
	      "                       rlprof-compare): DIR/old/K, DIR/new/K,\n"
	      "                       each an rlprof run directory, with its\n"
	      "                       output in DIR/old/K.log\n"
	      "  -q, --quiet          say nothing when every check holds\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "The programs' standard output and error go to the .log files.\n"
	      "\n"
	      "Exit status: 0 every check holds, 1 a check failed, 2 usage\n"
	      "error or a program that could not run or failed, 3 no check\n"
	      "failed but the runs could not decide one (not enough\n"
	      "evidence).\n",
	      out);
}

struct side {
	const char *label;  /* "old", "new" */
	char **argv;        /* the program and its arguments */
	int argc;
	struct rl_report_file *runs; /* one report per timing run */
	size_t n_runs;
	struct rl_report_file sim;   /* -b sim: the counted run */
	int has_sim;
};

struct opts {
	unsigned runs, max_runs; /* the first look's runs, the last's */
	unsigned looks;          /* runs, 2 runs, 4 runs, ... max_runs */
	double confidence;       /* each bound's at each look */
	double max_pct;
	int sim, quiet;
	const char *out;
};

static int make_dir(const char *p)
{
	if (mkdir(p, 0777) == 0 || errno == EEXIST)
		return 0;
	fprintf(stderr, "rlprof: cannot create '%s': %s: give another -o DIR\n",
		p, strerror(errno));
	return -1;
}

/* The last line of the log at path into buf (what the run said last). */
static void last_line(const char *path, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (line[0] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			rl_term_cut(buf, len, line, 160);
		}
	fclose(f);
}

/* One `rlprof run` of side s into dir, its output into dir.log.
 * Returns 0, RL_EXIT_USAGE when it failed (said), 128+N when the user
 * stopped it with signal N. */
static int run_one(const char *self, const struct side *s, const char *dir,
		   const char *backend, unsigned k)
{
	char log[PATH_MAX + 8], said[200];
	/* one timing run each: compare interleaves the runs itself (not
	 * run's default of 5 for a short program) */
	const char *fixed[] = {self, "run", "-q", "--no-probe", "--repeat",
			       "1", "-b", backend, "-o", dir, "--"};
	size_t nf = sizeof fixed / sizeof *fixed;
	char **argv = calloc(nf + (size_t)s->argc + 1, sizeof *argv);
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, st;

	if (!argv) {
		fputs("rlprof: out of memory\n", stderr);
		return RL_EXIT_USAGE;
	}
	for (size_t i = 0; i < nf; i++)
		argv[i] = (char *)fixed[i];
	for (int i = 0; i < s->argc; i++)
		argv[nf + (size_t)i] = s->argv[i];
	snprintf(log, sizeof log, "%s.log", dir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log,
					 O_WRONLY | O_CREAT | O_TRUNC, 0666);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawn(&pid, self, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (rc != 0) {
		fprintf(stderr, "rlprof: cannot start '%s': %s\n", self,
			strerror(rc));
		return RL_EXIT_USAGE;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return RL_EXIT_USAGE;
	if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT ||
				WTERMSIG(st) == SIGTERM))
		return 128 + WTERMSIG(st);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 128 + SIGINT ||
			      WEXITSTATUS(st) == 128 + SIGTERM))
		return WEXITSTATUS(st);
	last_line(log, said, sizeof said);
	fprintf(stderr, "rlprof: %s run %u of the %s program '",
		strcmp(backend, "sim") == 0 ? "the counting" : "timing", k,
		s->label);
	rl_term_put(stderr, s->argv[0]);
	fprintf(stderr, "' failed (%s %d; %s%s%s): compare needs both "
			"programs to run and succeed\n",
		WIFEXITED(st) ? "exit status" : "signal",
		WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), log,
		said[0] ? " ends: " : "", said);
	return RL_EXIT_USAGE;
}

/* Runs side s once more (timing run k, or the counting run when sim)
 * and reads its report. */
static int run_and_read(const char *self, const struct opts *o,
			struct side *s, unsigned k, int sim)
{
	char dir[PATH_MAX], err[1024];
	struct rl_report_file *f = sim ? &s->sim : &s->runs[s->n_runs];
	int rc;

	if (sim)
		snprintf(dir, sizeof dir, "%s/%s/sim", o->out, s->label);
	else
		snprintf(dir, sizeof dir, "%s/%s/%u", o->out, s->label, k);
	if ((rc = run_one(self, s, dir, sim ? "sim" : "time", k)) != 0)
		return rc;
	if (rl_report_file_load(dir, f, err, sizeof err) != 0) {
		fprintf(stderr, "rlprof: %s\n", err);
		return RL_EXIT_USAGE;
	}
	if (sim)
		s->has_sim = 1;
	else
		s->n_runs++;
	return 0;
}

/* The times of region name over side s's runs into t; their count. */
static size_t times_of(const struct side *s, const char *name, double *t)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_runs; i++) {
		const struct rl_report_region *r =
			rl_report_file_find(&s->runs[i], name);
		if (r && isfinite(r->time_s) && r->time_s > 0)
			t[n++] = r->time_s;
	}
	return n;
}

/* Each region's change of time at this look into tc (ref's regions). */
static void compare_all(const struct opts *o, const struct side *old,
			const struct side *new, struct rl_time_cmp *tc)
{
	const struct rl_report_file *ref = &old->runs[0];
	double ta[MAX_RUNS], tb[MAX_RUNS];

	for (size_t i = 0; i < ref->n_regions; i++) {
		const char *name = ref->regions[i].region;
		size_t na = times_of(old, name, ta), nb = times_of(new, name, tb);
		rl_compare_times_at(ta, na, tb, nb, o->max_pct, o->confidence,
				    &tc[i]);
	}
}

/* Whether both sides were counted (-b sim) and region name's counted
 * work differs: a failure that no number of timing runs changes. */
static bool work_differs(const struct side *old, const struct side *new,
			 const char *name)
{
	struct rl_work_diff d[RL_WORK_FIGURES];
	const struct rl_report_region *a, *b;
	bool bytes;

	if (!old->has_sim || !new->has_sim ||
	    !(a = rl_report_file_find(&old->sim, name)) ||
	    !(b = rl_report_file_find(&new->sim, name)) ||
	    !rl_work_comparable(a, b))
		return false;
	bytes = rl_report_file_one_thread(&old->sim) &&
		rl_report_file_one_thread(&new->sim);
	return rl_work_compare(a, b, bytes, d) > 0;
}

/* Whether the runs so far decide the gate: a region failed (slower,
 * gone, or its counted work differs: the one counting run decides that),
 * or none is left undecided. */
static bool decided(const struct opts *o, const struct side *old,
		    const struct side *new)
{
	const struct rl_report_file *ref = &old->runs[0];
	struct rl_time_cmp *tc = calloc(ref->n_regions + 1, sizeof *tc);
	bool undecided = false, failed = false;

	if (!tc)
		return true;
	compare_all(o, old, new, tc);
	for (size_t i = 0; i < ref->n_regions; i++) {
		if (!rl_report_file_find(&new->runs[0], ref->regions[i].region))
			failed = true;
		else if (tc[i].tested && tc[i].verdict == RL_CHANGE_WORSE)
			failed = true;
		else if (work_differs(old, new, ref->regions[i].region))
			failed = true;
		else if (!tc[i].tested || tc[i].unsure)
			undecided = true;
	}
	free(tc);
	return failed || !undecided;
}

/* The table (render/render_compare.c), then the gate's lines; the exit
 * status. */
static int judge(const struct opts *o, struct side *old, struct side *new,
		 unsigned look)
{
	struct rl_gate g = {0};
	const struct rl_report_file *ref = &old->runs[0];
	struct rl_time_cmp *tc = calloc(ref->n_regions + 1, sizeof *tc);
	bool bytes = old->has_sim && new->has_sim &&
		     rl_report_file_one_thread(&old->sim) &&
		     rl_report_file_one_thread(&new->sim);

	if (!tc) {
		fputs("rlprof: out of memory\n", stderr);
		return RL_EXIT_USAGE;
	}
	g.quiet = o->quiet;
	g.old_name = "the old program";
	g.advice = "more runs with -n or --max-runs, on a quieter machine";
	compare_all(o, old, new, tc);
	if (!o->quiet) {
		struct rl_compare_runs runs = {
			.n_old = old->n_runs,
			.n_new = new->n_runs,
			.confidence = o->confidence,
			.look = look,
			.looks = o->looks,
		};
		rl_render_compare_table(stdout, ref, &new->runs[0], tc, &runs);
	}
	for (size_t i = 0; i < ref->n_regions; i++) {
		const char *name = ref->regions[i].region;
		if (!rl_report_file_find(&new->runs[0], name)) {
			g.n_checks++;
			rl_gate_fail(&g, name, "of the old program is not in "
					       "the new one");
			continue;
		}
		rl_gate_time(&g, name, &tc[i], o->max_pct);
		if (old->has_sim && new->has_sim) {
			const struct rl_report_region *a, *b;
			a = rl_report_file_find(&old->sim, name);
			b = rl_report_file_find(&new->sim, name);
			if (a && b)
				rl_gate_work(&g, name, a, b, bytes);
		}
	}
	rl_gate_bytes_note(&g, bytes);
	free(tc);
	return rl_gate_end(&g);
}

/* OLD [ARGS...] -- NEW [ARGS...] from argv[at..argc). */
static int split(int argc, char **argv, int at, struct side *old,
		 struct side *new)
{
	int sep = -1;

	for (int i = at; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			sep = i;
			break;
		}
	if (sep < 0 || sep == at || sep + 1 >= argc) {
		fputs("rlprof: compare needs two programs: rlprof compare "
		      "[OPTIONS] -- OLD [ARGS...] -- NEW [ARGS...], e.g. "
		      "rlprof compare -- ./app-main 1e7 -- ./app-branch 1e7\n",
		      stderr);
		return -1;
	}
	old->argv = argv + at;
	old->argc = sep - at;
	new->argv = argv + sep + 1;
	new->argc = argc - sep - 1;
	return 0;
}

/* The runs a side at the look after one at n: twice n, at most max. */
static unsigned next_look(unsigned n, unsigned max)
{
	return 2 * n < max ? 2 * n : max;
}

static int parse(int argc, char **argv, struct opts *o, struct side *old,
		 struct side *new)
{
	static const struct option lopts[] = {
		{"runs", required_argument, NULL, 'n'},
		{"max-runs", required_argument, NULL, 'N'},
		{"max-regression", required_argument, NULL, 'r'},
		{"backend", required_argument, NULL, 'b'},
		{"output", required_argument, NULL, 'o'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+n:N:r:b:o:qh", lopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'n':
		case 'N': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || end == optarg || n < 3 || n > MAX_RUNS) {
				fprintf(stderr,
					"rlprof: --%s '%s' is not a count "
					"from 3 to %d: give e.g. --%s %d\n",
					c == 'n' ? "runs" : "max-runs", optarg,
					MAX_RUNS, c == 'n' ? "runs" : "max-runs",
					c == 'n' ? DEFAULT_RUNS
						 : DEFAULT_MAX_RUNS);
				return RL_EXIT_USAGE;
			}
			if (c == 'n')
				o->runs = (unsigned)n;
			else
				o->max_runs = (unsigned)n;
			break;
		}
		case 'r':
			if ((o->max_pct = rl_parse_pct_option(
				     "max-regression", optarg)) < 0)
				return RL_EXIT_USAGE;
			break;
		case 'b':
			if (strcmp(optarg, "time") && strcmp(optarg, "sim")) {
				fprintf(stderr,
					"rlprof: compare takes -b time or -b "
					"sim, not '%s': hardware counts vary "
					"from run to run, so compare times "
					"them and counts exactly only under "
					"the simulator\n",
					optarg);
				return RL_EXIT_USAGE;
			}
			o->sim = strcmp(optarg, "sim") == 0;
			break;
		case 'o': o->out = optarg; break;
		case 'q': o->quiet = 1; break;
		case 'h': usage(stdout); return RL_EXIT_OK;
		default:
			fputs("rlprof: see 'rlprof compare --help'\n", stderr);
			return RL_EXIT_USAGE;
		}
	}
	if (split(argc, argv, optind, old, new))
		return RL_EXIT_USAGE;
	if (!o->max_runs)
		o->max_runs = o->runs > DEFAULT_MAX_RUNS ? o->runs
							 : DEFAULT_MAX_RUNS;
	if (o->max_runs < o->runs) {
		fprintf(stderr, "rlprof: --max-runs %u is below --runs %u: "
				"give --max-runs %u or more\n",
			o->max_runs, o->runs, o->runs);
		return RL_EXIT_USAGE;
	}
	o->looks = 1;
	for (unsigned n = o->runs; n < o->max_runs; o->looks++)
		n = next_look(n, o->max_runs);
	o->confidence = 1 - (1 - RL_SHIFT_CONFIDENCE) / o->looks;
	return -1;
}

int cmd_compare(int argc, char **argv)
{
	struct opts o = {.runs = DEFAULT_RUNS, .max_pct = DEFAULT_MAX_PCT,
			 .out = "rlprof-compare"};
	struct side s[2] = {{.label = "old"}, {.label = "new"}};
	char self[PATH_MAX], dir[PATH_MAX];
	ssize_t n;
	unsigned look = 1;
	int rc;

	if ((rc = parse(argc, argv, &o, &s[0], &s[1])) >= 0)
		return rc;
	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0) {
		fprintf(stderr, "rlprof: cannot find the rlprof command itself "
				"(/proc/self/exe): %s\n",
			strerror(errno));
		return RL_EXIT_USAGE;
	}
	self[n] = '\0';
	for (int i = 0; i < 2; i++) {
		char path[PATH_MAX], msg[PATH_MAX + 200];
		if (rl_resolve_program(s[i].argv[0], path, sizeof path, msg,
				       sizeof msg)) {
			fprintf(stderr, "rlprof: the %s program: %s\n",
				s[i].label, msg);
			return RL_EXIT_USAGE;
		}
	}
	if (make_dir(o.out))
		return RL_EXIT_USAGE;
	for (int i = 0; i < 2; i++) {
		snprintf(dir, sizeof dir, "%s/%s", o.out, s[i].label);
		if (make_dir(dir))
			return RL_EXIT_USAGE;
		if (!(s[i].runs = calloc(o.max_runs, sizeof *s[i].runs))) {
			fputs("rlprof: out of memory\n", stderr);
			return RL_EXIT_USAGE;
		}
	}
	if (!o.quiet)
		fprintf(stderr, "rlprof: %u runs of each program, interleaved%s, "
				"into %s/...%s\n",
			o.runs, o.sim ? ", and one counting run each (sim)" : "",
			o.out, o.looks > 1 ? " (more, up to --max-runs, where "
					     "a region is undecided)"
					   : "");
	rc = 0;
	for (int i = 0; o.sim && i < 2 && !rc; i++)
		rc = run_and_read(self, &o, &s[i], 0, 1);
	/* ABBA: old new, new old, ...: a trend of the machine's speed
	 * falls on both sides alike, and so does going first; at each look
	 * (o.runs, twice that, ... o.max_runs) the gate stops where the runs
	 * decide it */
	for (unsigned k = 1, target = o.runs; !rc; k++) {
		for (int j = 0; j < 2 && !rc; j++)
			rc = run_and_read(self, &o, &s[k % 2 ? j : 1 - j], k, 0);
		if (rc || k < target)
			continue;
		if (look == o.looks || decided(&o, &s[0], &s[1]))
			break;
		if (!o.quiet)
			fprintf(stderr, "rlprof: undecided after %u runs a "
					"side: %u more each\n",
				k, next_look(target, o.max_runs) - k);
		target = next_look(target, o.max_runs);
		look++;
	}
	if (!rc)
		rc = judge(&o, &s[0], &s[1], look);
	for (int i = 0; i < 2; i++) {
		for (size_t k = 0; k < s[i].n_runs; k++)
			rl_report_file_release(&s[i].runs[k]);
		free(s[i].runs);
		if (s[i].has_sim)
			rl_report_file_release(&s[i].sim);
	}
	return rc;
}
