/* rlprof probe: measure this machine's roofs (probes/), cache the model
 * ($XDG_CACHE_HOME/rlprof/), print the roofs as a table, CSV or JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "model/machine.h"
#include "probes/probe.h"
#include "model/probe_recording.h"
#include "probes/recording.h"
#include "common/rl_error.h"

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

/* ---- output ---------------------------------------------------------- */

static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void csv_row(const char *roof, const char *kind, const char *prec,
		    unsigned threads, double value, const char *unit,
		    const char *method)
{
	csv_field(roof);
	printf(",%s,%s,%u,%.1f,%s,", kind, prec, threads, value, unit);
	csv_field(method);
	putchar('\n');
}

static void print_csv(const struct rl_machine *m)
{
	char method[192];
	puts("roof,kind,precision,threads,value,unit,method");
	for (size_t i = 0; i < m->n_bw; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		csv_row(b->level, "bandwidth", "", b->threads, b->stream_gbs,
			"GB/s", b->method);
		snprintf(method, sizeof method,
			 "stream x 32/24: write-allocate counted (%s)", b->method);
		csv_row(b->level, "bandwidth-moved", "", b->threads,
			b->moved_gbs, "GB/s", method);
		if (b->nt_gbs > 0) {
			snprintf(method, sizeof method,
				 "triad non-temporal stores 24 B/elem (%s)",
				 b->method);
			csv_row(b->level, "bandwidth-nt", "", b->threads,
				b->nt_gbs, "GB/s", method);
		}
		if (b->read_gbs > 0) {
			snprintf(method, sizeof method,
				 "read-only stream, bytes read (%s)", b->method);
			csv_row(b->level, "bandwidth-read", "", b->threads,
				b->read_gbs, "GB/s", method);
		}
		if (b->write_gbs > 0) {
			snprintf(method, sizeof method,
				 "fill, plain stores: written + write-allocate "
				 "bytes (%s)", b->method);
			csv_row(b->level, "bandwidth-write", "", b->threads,
				b->write_gbs, "GB/s", method);
		}
		if (b->write_nt_gbs > 0) {
			snprintf(method, sizeof method,
				 "fill, non-temporal stores: bytes written (%s)",
				 b->method);
			csv_row(b->level, "bandwidth-write-nt", "", b->threads,
				b->write_nt_gbs, "GB/s", method);
		}
		if (b->update_gbs > 0) {
			snprintf(method, sizeof method,
				 "in-place update a += s*b: bytes moved, no "
				 "write-allocate (%s)",
				 b->method);
			csv_row(b->level, "bandwidth-update", "", b->threads,
				b->update_gbs, "GB/s", method);
		}
	}
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		char kind[32];
		if (!strcmp(c->kind, "peak"))
			snprintf(kind, sizeof kind, "compute");
		else
			snprintf(kind, sizeof kind, "compute-%s", c->kind);
		csv_row(c->name, kind, c->precision, c->threads, c->gflops,
			"GFLOP/s", c->method);
		if (strcmp(c->kind, "peak") || !(c->theoretical_gflops > 0))
			continue;
		snprintf(method, sizeof method,
			 "%u core%s x %.2f GHz (scalar clock: dependent integer "
			 "adds alone) x units x lanes x 2",
			 c->threads, c->threads > 1 ? "s" : "", m->clock_ghz);
		csv_row(c->name, "theoretical", c->precision, c->threads,
			c->theoretical_gflops, "GFLOP/s", method);
		if (!(c->theoretical_load_gflops > 0))
			continue;
		snprintf(method, sizeof method,
			 "%u core%s x %.2f GHz (clock under %s load: dependent "
			 "integer adds beside fma chains on as many cores) x "
			 "units x lanes x 2",
			 c->threads, c->threads > 1 ? "s" : "",
			 c->load_clock_ghz, c->name);
		csv_row(c->name, "theoretical-load", c->precision, c->threads,
			c->theoretical_load_gflops, "GFLOP/s", method);
	}
}

static const struct rl_compute_roof *
find(const struct rl_machine *m, const char *name, const char *kind,
     const char *prec, unsigned threads)
{
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (!strcmp(c->name, name) && !strcmp(c->kind, kind) &&
		    !strcmp(c->precision, prec) && c->threads == threads)
			return c;
	}
	return NULL;
}

static void cell(double v, const char *fmt)
{
	if (v > 0)
		printf(fmt, v);
	else
		printf("%9s", "-");
}

/* The peaks against the theoretical figure at both clocks: the scalar
 * one (dependent adds alone) and the one under the ISA's FMA load. */
static void print_load_clock(const struct rl_machine *m)
{
	int head = 0;
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (strcmp(c->kind, "peak") || !(c->theoretical_gflops > 0) ||
		    !(c->gflops > 0))
			continue;
		if (!head++)
			printf("\nmeasured / theoretical at the scalar clock and "
			       "at the clock under the ISA's FMA load\n");
		printf("%-11s %-4s %u core%s %7.1f: at %.2f GHz (scalar "
		       "clock) %3.0f%%",
		       c->name, c->precision, c->threads,
		       c->threads > 1 ? "s" : " ", c->gflops, m->clock_ghz,
		       100 * c->gflops / c->theoretical_gflops);
		if (c->theoretical_load_gflops > 0)
			printf("; at %.2f GHz (clock under %s load) %3.0f%%",
			       c->load_clock_ghz, c->name,
			       100 * c->gflops / c->theoretical_load_gflops);
		else
			printf("; clock under load not measured");
		putchar('\n');
	}
}

static void size_cell(uint64_t bytes)
{
	char h[32];
	if (!bytes)
		snprintf(h, sizeof h, "-");
	else if (bytes >= (1u << 20))
		snprintf(h, sizeof h, "%.3g MiB", bytes / 1048576.0);
	else
		snprintf(h, sizeof h, "%.3g KiB", bytes / 1024.0);
	printf(" %10s", h);
}

static void print_cache_levels(const struct rl_machine *m)
{
	if (!m->n_levels)
		return;
	printf("\ncache levels: claimed (per instance) and effective (where "
	       "the triad bandwidth has fallen\nhalfway to the next level's: "
	       "one thread, and summed over %u threads; - not seen)\n",
	       m->cores);
	printf("%-6s %10s %5s %5s %7s %-7s %10s %10s\n", "level", "claimed",
	       "ways", "line", "shared", "source", "effective", "all");
	for (size_t i = 0; i < m->n_levels; i++) {
		const struct rl_cache_level *l = &m->levels[i];
		printf("%-6s", l->level);
		size_cell(l->claimed_bytes);
		if (l->ways)
			printf(" %5u", l->ways);
		else
			printf(" %5s", "-");
		if (l->line_bytes)
			printf(" %5u", l->line_bytes);
		else
			printf(" %5s", "-");
		if (l->shared_cpus)
			printf(" %7u", l->shared_cpus);
		else
			printf(" %7s", "-");
		printf(" %-7s", l->source);
		size_cell(l->effective_bytes);
		size_cell(l->effective_all_bytes);
		putchar('\n');
	}
	for (size_t i = 0; i < m->n_levels; i++)
		if (m->levels[i].note[0])
			printf("%s: %s\n", m->levels[i].level, m->levels[i].note);
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
		const struct rl_bw_roof *b = rl_machine_bw(old, "L1", 1);
		if (b && b->threads == 1 && !b->doubt[0] && b->read_gbs > 0)
			v = b->read_gbs / old->clock_ghz;
	}
	free(old);
	return v;
}

/* Roofs kept in doubt, each with its reason (the probe measured them
 * again and they stayed). */
static void print_doubts(const struct rl_machine *m)
{
	int head = 0;
	for (size_t i = 0; i < m->n_bw; i++) {
		const struct rl_bw_roof *b = &m->bw[i];
		if (!b->doubt[0])
			continue;
		if (!head++)
			printf("in doubt (measured again, kept; the report's "
			       "self-check names them):\n");
		printf("  %s %u thread%s: %s\n", b->level, b->threads,
		       b->threads > 1 ? "s" : "", b->doubt);
	}
	/* compute roofs share their reason (the core's rate around them):
	 * one line per reason, not one per roof */
	for (size_t i = 0; i < m->n_compute; i++) {
		const char *why = m->compute[i].doubt;
		int seen = 0;
		size_t n = 0;
		for (size_t k = 0; k < m->n_compute; k++)
			if (!strcmp(m->compute[k].doubt, why)) {
				seen |= k < i;
				n++;
			}
		if (!why[0] || seen)
			continue;
		if (!head++)
			printf("in doubt (measured again, kept; the report's "
			       "self-check names them):\n");
		printf("  %zu compute roof%s: %s\n", n, n > 1 ? "s" : "", why);
	}
}

static void print_table(const struct rl_machine *m, const char *path)
{
	unsigned T = m->cores;
	if (m->clock_ghz > 0)
		printf("%s, %u CPUs, %.1f GiB; clock %.2f GHz measured "
		       "(dependent integer adds), %.2f nominal\n",
		       m->cpu_model, m->cores, m->mem_bytes / 1073741824.0,
		       m->clock_ghz, m->nominal_ghz);
	else
		printf("%s, %u CPUs, %.1f GiB; clock not measured\n",
		       m->cpu_model, m->cores, m->mem_bytes / 1073741824.0);
	printf("caches %s\n", m->caches);
	printf("probed %s in %.1f s%s", m->probed_at, m->probe_seconds,
	       m->quick ? " (--quick)" : "");
	if (m->loadavg1 >= 0)
		printf(", load average %.2f", m->loadavg1);
	printf("%s%s\n\n", path ? ", cached in " : "", path ? path : "");

	static const char *const levels[] = { "L1", "L2", "L3", "L4", "DRAM" };
	printf("bandwidth (GB/s): triad 24 B/elem, moved = x 32/24 with "
	       "write-allocate, nt = non-temporal stores;\n"
	       "read-only stream; fill = plain stores, write-allocate "
	       "counted; fill nt = non-temporal stores;\n"
	       "update = a += s*b in place (daxpy's access), bytes moved\n");
	printf("%-6s %-7s %9s %9s %9s %9s %9s %9s %9s\n", "level", "threads",
	       "triad", "moved", "nt", "read", "fill", "fill nt", "update");
	for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
		int rows = T > 1 ? 2 : 1; /* 1 thread, then all threads */
		for (int all = 0; all < rows; all++) {
			const struct rl_bw_roof *b = NULL;
			for (size_t i = 0; i < m->n_bw; i++)
				if (!strcmp(m->bw[i].level, levels[l]) &&
				    m->bw[i].threads == (all ? T : 1))
					b = &m->bw[i];
			if (!b)
				continue;
			printf("%-6s %-7u", levels[l], b->threads);
			cell(b->stream_gbs, " %9.1f");
			cell(b->moved_gbs, " %9.1f");
			cell(b->nt_gbs, " %9.1f");
			cell(b->read_gbs, " %9.1f");
			cell(b->write_gbs, " %9.1f");
			cell(b->write_nt_gbs, " %9.1f");
			cell(b->update_gbs, " %9.1f");
			putchar('\n');
		}
	}
	print_doubts(m);
	print_cache_levels(m);
	if (!m->n_compute)
		return;

	printf("\ncompute (GFLOP/s): plateau of K independent chains; "
	       "theoretical (all cores) = cores x GHz x units x lanes x 2\n");
	printf("%-11s %-12s %-4s %9s %9s %11s %6s %6s %6s %8s\n", "isa",
	       "kind", "prec", "1 core", T > 1 ? "all" : "", "theoretical",
	       "1c %", T > 1 ? "all %" : "", "chains", "latency");
	for (size_t i = 0; i < m->n_compute; i++) {
		const struct rl_compute_roof *c = &m->compute[i];
		if (c->threads != 1)
			continue;
		const struct rl_compute_roof *ct =
			T > 1 ? find(m, c->name, c->kind, c->precision, T) : NULL;
		const struct rl_compute_roof *top = ct ? ct : c;
		printf("%-11s %-12s %-4s", c->name, c->kind, c->precision);
		cell(c->gflops, " %9.1f");
		if (T > 1)
			cell(ct ? ct->gflops : 0, " %9.1f");
		else
			printf(" %9s", "");
		if (top->theoretical_gflops > 0)
			printf(" %11.1f", top->theoretical_gflops);
		else
			printf(" %11s", "-");
		if (c->theoretical_gflops > 0)
			printf(" %5.0f%%", 100 * c->gflops / c->theoretical_gflops);
		else
			printf(" %6s", "-");
		if (ct && ct->theoretical_gflops > 0)
			printf(" %5.0f%%",
			       100 * ct->gflops / ct->theoretical_gflops);
		else
			printf(" %6s", T > 1 ? "-" : "");
		printf(" %6u", c->chains);
		if (c->latency_cycles > 0)
			printf(" %6.1f c", c->latency_cycles);
		putchar('\n');
	}

	print_load_clock(m);

	printf("\nridge points (flop/B = peak / triad bandwidth, %u core%s)\n",
	       T, T > 1 ? "s" : "");
	for (int f32 = 0; f32 < 2; f32++) {
		const char *prec = f32 ? "f32" : "f64";
		const struct rl_compute_roof *p = rl_machine_peak(m, prec, T);
		if (!p)
			continue;
		printf("%s %s %.1f GFLOP/s:", prec, p->name, p->gflops);
		for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
			const struct rl_bw_roof *b = rl_machine_bw(m, levels[l], T);
			if (b)
				printf("  %s %.2f", levels[l],
				       rl_ridge(p->gflops, b->stream_gbs));
		}
		putchar('\n');
	}
}

static void print_levels(const struct rl_probe_extra *x)
{
	for (size_t s = 0; s < x->n_sweeps; s++) {
		const struct rl_probe_sweep *sw = &x->sweeps[s];
		printf("\ntriad sweep, %u thread%s (working set per thread, GB/s "
		       "per thread)\n", sw->threads, sw->threads > 1 ? "s" : "");
		for (size_t i = 0; i < sw->n; i++)
			printf("  %10.1f KiB %9.1f  %s\n",
			       sw->pts[i].bytes / 1024.0, sw->pts[i].gbs,
			       sw->level[i][0] ? sw->level[i] : "(transition)");
	}
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
		print_csv(m);
		rc = RL_EXIT_OK;
	} else {
		print_table(m, NULL);
		if (o->levels)
			print_levels(x);
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
		print_csv(m);
		rc = RL_EXIT_OK;
	} else {
		print_table(m, have_path ? path : NULL);
		if (o.levels)
			print_levels(x);
		rc = RL_EXIT_OK;
	}
out:
	free(cpu);
	free(m);
	free(x);
	free(rec);
	return rc;
}
