/* rlprof probe: measure this machine's roofs (probes/), cache the model
 * ($XDG_CACHE_HOME/rlprof/), print the roofs as a table, CSV or JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "machine/machine_file.h"
#include "probes/probe.h"
#include "machine/probe_recording.h"
#include "probes/recording.h"
#include "common/rl_error.h"
#include "render/render_machine.h"
#include "analysis/roof_choice.h"

struct probe_opts {
	int force, quick, json, levels, csv;
	unsigned threads;
	const char *replay;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof probe [OPTIONS]\n"
		"\n"
		"Measures this machine's roofs once and caches them (the machine\n"
		"model that 'rlprof run' and 'rlprof report' use): bandwidth per\n"
		"memory level (L1, L2, L3, DRAM: a sweep of sizes placed from the\n"
		"claimed cache sizes, each level confirmed by its plateau) for the\n"
		"triad, a read-only stream and a fill, on one core and all cores;\n"
		"the effective capacity of each cache level; and GFLOP/s ceilings\n"
		"from independent chains per ISA width, with and without FMA, per\n"
		"precision. A cached model is printed without measuring again.\n"
		"\n"
		"options:\n"
		"      --force         measure again and replace the cached model\n"
		"      --quick         fewer trials, same sweep points (1.4-2 s)\n"
		"  -j, --json          print the machine model as JSON\n"
		"      --threads N     use N CPUs (default: all this process may use;\n"
		"                      a model for fewer CPUs is not cached)\n"
		"  -l, --levels        measure and show the working-set sweep\n"
		"                      behind the L1..DRAM roofs; with --json, write\n"
		"                      the whole recording (every point, operation,\n"
		"                      thread count and trial, with the claimed\n"
		"                      caches): attach it to a bug report\n"
		"      --replay FILE   derive levels, roofs and doubts from such a\n"
		"                      recording without measuring (nothing cached)\n"
		"      --format FMT    table (default) or csv: one row per roof\n"
		"  -h, --help          this help\n"
		"\n"
		"cache: $XDG_CACHE_HOME/rlprof/ (else ~/.cache/rlprof/), one file\n"
		"per CPU model, CPU count and memory size\n");
}

/* A short option means one thing in every command: probe's -f, -q, -t
 * and -r (once --force, --quick, --threads, --replay) mean --format,
 * --quiet, --threshold and --max-regression elsewhere, so probe takes
 * only the long forms, and says so. */
static int dropped_short(int c)
{
	static const struct {
		char c;
		const char *elsewhere, *write;
	} dropped[] = {
		{'f', "--format in rlprof report and diff", "--force (or --format FMT)"},
		{'q', "--quiet in rlprof run and check", "--quick"},
		{'t', "--threshold in rlprof diff", "--threads N"},
		{'r', "--max-regression in rlprof check", "--replay FILE"},
	};
	for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
		if (dropped[i].c == c)
			fprintf(stderr, "rlprof probe: '-%c' is not an option of "
					"probe (a short option means one thing in "
					"every command, and -%c is %s): write %s\n",
				c, c, dropped[i].elsewhere, dropped[i].write);
	return RL_EXIT_USAGE;
}

static int parse(int argc, char **argv, struct probe_opts *o)
{
	/* the long options without a short form return codes above any
	 * character, so the dropped short ones are told apart */
	enum { FORCE = 256, QUICK, THREADS, REPLAY };
	static const struct option opts[] = {
		{ "force", no_argument, NULL, FORCE },
		{ "quick", no_argument, NULL, QUICK },
		{ "json", no_argument, NULL, 'j' },
		{ "threads", required_argument, NULL, THREADS },
		{ "levels", no_argument, NULL, 'l' },
		{ "replay", required_argument, NULL, REPLAY },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+fqjtlrh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': case 'q': case 't': case 'r':
			return dropped_short(c);
		case FORCE: o->force = 1; break;
		case QUICK: o->quick = 1; break;
		case 'j': o->json = 1; break;
		case 'l': o->levels = 1; break;
		case REPLAY: o->replay = optarg; break;
		case THREADS: {
			char *end;
			errno = 0;
			long n = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || n < 1 || n > 4096) {
				fprintf(stderr, "rlprof probe: invalid thread count "
						"'%s': give a number from 1 to the CPUs "
						"available\n", optarg);
				return RL_EXIT_USAGE;
			}
			o->threads = (unsigned)n;
			break;
		}
		case 'F':
			if (!strcmp(optarg, "csv"))
				o->csv = 1;
			else if (strcmp(optarg, "table")) {
				fprintf(stderr, "rlprof probe: unknown format '%s': "
						"use table or csv\n", optarg);
				return RL_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			fprintf(stderr, "rlprof probe: unknown option '%s'; see "
					"'rlprof probe --help'\n", argv[optind - 1]);
			return RL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rlprof probe: unexpected argument '%s'\n",
			argv[optind]);
		return RL_EXIT_USAGE;
	}
	if (o->json && o->csv) {
		fputs("rlprof probe: --json and --format csv both choose the "
		      "output: give one\n", stderr);
		return RL_EXIT_USAGE;
	}
	return 0;
}

static void progress(void *ctx, const char *what, double fraction)
{
	(void)ctx;
	fprintf(stderr, "\rrlprof probe: %3.0f%% %-44.44s", fraction * 100,
		what);
	fflush(stderr);
}

/* The one-thread L1 read roof of the cached model this probe will
 * replace, in bytes per cycle of its clock, when it is this machine's
 * (same CPU model and CPU count) and no doubt hangs on it; else 0. */
static double prior_read(const char *path, const struct rl_cpu *cpu)
{
	struct rl_machine *old = calloc(1, sizeof *old);
	char err[256];
	double v = 0;
	if (old && !rl_machine_load(path, old, err, sizeof err) &&
	    !strcmp(old->cpu_model, cpu->model) &&
	    old->cores == cpu->logical_cpus && old->clock_ghz > 0) {
		const struct rl_bw_roof *b = rl_roof_bw_nearest(old, "L1", 1);
		if (b && b->threads == 1 && !b->doubt[0] && b->read_gbs > 0)
			v = b->read_gbs / old->clock_ghz;
	}
	free(old);
	return v;
}

static int print_json(const struct rl_machine *m)
{
	char tmp[] = "/tmp/rlprof-machine-XXXXXX", err[512];
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "rlprof probe: cannot create '%s': %s\n", tmp,
			strerror(errno));
		return RL_EXIT_FAILURE;
	}
	close(fd);
	int rc = rl_machine_save(tmp, m, err, sizeof err);
	FILE *f = rc ? NULL : fopen(tmp, "r");
	if (f) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(f);
	} else if (rc) {
		fprintf(stderr, "rlprof probe: %s\n", err);
	}
	unlink(tmp);
	return rc ? RL_EXIT_FAILURE : RL_EXIT_OK;
}

/* ---- replay ---------------------------------------------------------- */

/* The sweeps of a recording as --levels shows them (GB/s per thread),
 * labelled with the level whose window holds each point. */
static void sweeps_of(const struct rl_probe_recording *r,
		      const struct rl_rec_derived *d, struct rl_probe_extra *x)
{
	x->n_sweeps = 0;
	for (size_t t = 0; t < d->n_t && t < 2; t++) {
		struct rl_probe_sweep *s = &x->sweeps[x->n_sweeps++];
		s->threads = d->t[t].threads;
		s->n = 0;
		for (size_t i = 0; i < r->n && s->n < RL_PROBE_MAX_SWEEP; i++) {
			const struct rl_rec_point *p = &r->pts[i];
			if (!p->sweep || p->op != RL_REC_TRIAD ||
			    p->threads != s->threads)
				continue;
			size_t k = s->n++;
			while (k > 0 && s->pts[k - 1].bytes > p->bytes) {
				s->pts[k] = s->pts[k - 1];
				k--;
			}
			s->pts[k].bytes = p->bytes;
			s->pts[k].gbs = p->best_gbs / s->threads;
		}
		for (size_t i = 0; i < s->n; i++) {
			s->level[i][0] = 0;
			for (size_t k = 0; k < d->t[t].n; k++) {
				const struct rl_rec_level *l = &d->t[t].lv[k];
				if (s->pts[i].bytes >= l->lo &&
				    (!l->hi || s->pts[i].bytes <= l->hi))
					memcpy(s->level[i], l->name,
					       sizeof s->level[i]);
			}
		}
	}
}

static int replay(const struct probe_opts *o)
{
	struct rl_probe_recording *r = malloc(sizeof *r);
	struct rl_rec_derived *d = malloc(sizeof *d);
	struct rl_machine *m = calloc(1, sizeof *m);
	struct rl_probe_extra *x = calloc(1, sizeof *x);
	char err[1024];
	int rc = RL_EXIT_FAILURE;
	if (!r || !d || !m || !x) {
		fputs("rlprof probe: out of memory\n", stderr);
		goto out;
	}
	int lrc = rl_rec_load(o->replay, r, err, sizeof err);
	if (!lrc)
		lrc = rl_rec_derive(r, d, err, sizeof err);
	if (lrc) {
		fprintf(stderr, "rlprof probe: %s\n", err);
		goto out;
	}
	m->version = RL_MACHINE_VERSION;
	snprintf(m->cpu_model, sizeof m->cpu_model, "%.110s (replay)",
		 r->cpu_model[0] ? r->cpu_model : "unknown CPU");
	m->cores = r->cpus ? r->cpus : d->t[d->n_t - 1].threads;
	m->mem_bytes = r->mem_bytes;
	m->quick = r->quick;
	m->loadavg1 = r->loadavg1;
	snprintf(m->probed_at, sizeof m->probed_at, "%s", r->recorded_at);
	rl_rec_fill_model(r, d, m);
	sweeps_of(r, d, x);
	if (o->json) {
		rc = print_json(m);
	} else if (o->csv) {
		rl_render_machine_csv(stdout, m);
		rc = RL_EXIT_OK;
	} else {
		struct rl_ridge_set ridges;
		rl_roof_ridges(m, m->cores, &ridges);
		rl_render_machine_table(stdout, m, NULL, &ridges);
		if (o->levels)
			rl_render_probe_sweeps(stdout, x);
		rc = RL_EXIT_OK;
	}
out:
	free(r);
	free(d);
	free(m);
	free(x);
	return rc;
}

/* ---- the command ----------------------------------------------------- */

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = { 0 };
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? RL_EXIT_OK : rc;
	if (o.replay) {
		if (o.force || o.quick || o.threads) {
			fputs("rlprof probe: --replay measures nothing: "
			      "--force, --quick and --threads do not go with "
			      "it\n", stderr);
			return RL_EXIT_USAGE;
		}
		return replay(&o);
	}

	char path[4096], err[1024];
	int have_path = rl_machine_cache_path(path, sizeof path, err,
					      sizeof err) == 0;
	if (!have_path)
		fprintf(stderr, "rlprof probe: %s: the model is not cached\n",
			err);
	struct rl_cpu *cpu = malloc(sizeof *cpu);
	struct rl_machine *m = calloc(1, sizeof *m);
	struct rl_probe_extra *x = calloc(1, sizeof *x);
	struct rl_probe_recording *rec = calloc(1, sizeof *rec);
	rc = RL_EXIT_FAILURE;
	if (x)
		x->recording = rec;
	if (!cpu || !m || !x || !rec) {
		fputs("rlprof probe: out of memory\n", stderr);
		goto out;
	}
	if (rl_cpu_detect(cpu, err, sizeof err)) {
		fprintf(stderr, "rlprof probe: %s\n", err);
		goto out;
	}
	if (o.threads > cpu->logical_cpus) {
		fprintf(stderr, "rlprof probe: cannot use %u threads: this "
				"process may run on %u CPUs\n",
			o.threads, cpu->logical_cpus);
		rc = RL_EXIT_USAGE;
		goto out;
	}
	int all = !o.threads || o.threads == cpu->logical_cpus;
	int measure = o.force || o.levels || !all || !have_path;
	if (!measure) {
		int lrc = rl_machine_load(path, m, err, sizeof err);
		if (lrc == RL_ENOENT) {
			measure = 1;
		} else if (lrc == RL_EVERSION) {
			fprintf(stderr, "rlprof probe: %s; 'rlprof probe --force' "
					"replaces it\n", err);
			goto out;
		} else if (lrc) {
			fprintf(stderr, "rlprof probe: %s\n", err);
			goto out;
		}
	}
	if (measure) {
		struct rl_probe_options po = { .quick = o.quick,
					       .threads = o.threads };
		if (have_path && all)
			po.prior_read_bpc = prior_read(path, cpu);
		if (isatty(STDERR_FILENO))
			po.progress = progress;
		else
			fprintf(stderr, "rlprof probe: measuring this machine's "
					"roofs (%s)...\n",
				o.quick ? "1.4-2 s" : "about 5 s");
		int prc = rl_probe_machine(&po, m, x, err, sizeof err);
		if (po.progress)
			fprintf(stderr, "\r%-64s\r", "");
		if (prc) {
			fprintf(stderr, "rlprof probe: %s\n", err);
			goto out;
		}
		if (have_path && all) {
			if (rl_machine_save(path, m, err, sizeof err)) {
				fprintf(stderr, "rlprof probe: %s\n", err);
				have_path = 0;
			}
		} else if (!all) {
			fprintf(stderr, "rlprof probe: a model for %u of %u CPUs "
					"is not cached\n",
				o.threads, cpu->logical_cpus);
			have_path = 0;
		}
	}
	if (o.json && o.levels) {
		snprintf(rec->source, sizeof rec->source,
			 "rlprof probe --levels%s --json", o.quick ? " --quick" : "");
		rc = rl_rec_write(stdout, rec, err, sizeof err) ? RL_EXIT_FAILURE
								: RL_EXIT_OK;
		if (rc)
			fprintf(stderr, "rlprof probe: %s\n", err);
	} else if (o.json)
		rc = print_json(m);
	else if (o.csv) {
		rl_render_machine_csv(stdout, m);
		rc = RL_EXIT_OK;
	} else {
		struct rl_ridge_set ridges;
		rl_roof_ridges(m, m->cores, &ridges);
		rl_render_machine_table(stdout, m, have_path ? path : NULL, &ridges);
		if (o.levels)
			rl_render_probe_sweeps(stdout, x);
		rc = RL_EXIT_OK;
	}
out:
	free(cpu);
	free(m);
	free(x);
	free(rec);
	return rc;
}
