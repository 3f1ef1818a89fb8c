/*
 * rlprof report DIR: re-render saved results (DIR/raw/rlprof-*.json and
 * DIR/run.json) without running anything.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "machine/machine_stored.h"
#include "render/render.h"
#include "cli/render_file.h"
#include "results/run_results.h"
#include "common/rl_error.h"
#include "cli/machine_obtain.h"
#include "common/term_color.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof report DIR [--format FORMAT] [--plot] "
		"[--per-thread] [-o FILE]\n"
		"                     [--no-probe] [--model FILE|cache]\n"
		"\n"
		"Re-renders the results that 'rlprof run' saved in DIR (its output\n"
		"directory, rlprof-out/ by default). Nothing is run. The regions are\n"
		"placed against the machine model stored with the results\n"
		"(DIR/machine.json), so the report stays the same when 'rlprof probe'\n"
		"measures the machine again; results without one (an older rlprof)\n"
		"use the cached model (measured once when missing, unless --no-probe).\n"
		"\n"
		"  -f, --format FORMAT  table (default), json, csv, svg or html\n"
		"      --plot           table: add a small text roofline\n"
		"      --per-thread     table: one row per thread under each region\n"
		"  -v, --verbose        table: the backend, note and method lines in full\n"
		"                       (on a terminal or with COLUMNS they are cut to\n"
		"                       its width, and columns left out to fit)\n"
		"  -o, --output FILE    write to FILE instead of standard output\n"
		"      --no-probe       never measure the machine: without a stored\n"
		"                       or cached model the bounds are left empty\n"
		"      --model FILE     place against this machine model file instead\n"
		"                       ('cache': this machine's cached model)\n"
		"      --color WHEN     table colours: auto (default), always, never\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 ok, 1 unreadable results or output, 2 usage error.\n");
}

static void list_formats(char *buf, size_t len)
{
	size_t n = rl_renderer_count(), off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
		off += (size_t)snprintf(buf + off, len - off, "%s%s", sep,
					rl_renderer_at(i)->format);
	}
}

enum { OPT_PLOT = 256, OPT_PER_THREAD, OPT_NO_PROBE, OPT_COLOR, OPT_MODEL };

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"plot", no_argument, NULL, OPT_PLOT},
		{"per-thread", no_argument, NULL, OPT_PER_THREAD},
		{"verbose", no_argument, NULL, 'v'},
		{"no-probe", no_argument, NULL, OPT_NO_PROBE},
		{"color", required_argument, NULL, OPT_COLOR},
		{"model", required_argument, NULL, OPT_MODEL},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "table", *output = NULL, *color = "auto", *dir;
	const char *model = NULL;
	struct rl_render_options ro = {0};
	const struct rl_renderer *rd;
	struct rl_run_results res;
	struct rl_machine *m = NULL;
	struct rl_report rep;
	struct rl_repeat_runs runs;
	char err[1024], names[128];
	int no_probe = 0, c, rc = RL_EXIT_FAILURE, probed = 0, brc;
	FILE *out = stdout;

	optind = 0; /* reset getopt: another command may have used it */
	while ((c = getopt_long(argc, argv, "f:o:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'o': output = optarg; break;
		case OPT_PLOT: ro.plot = 1; break;
		case OPT_PER_THREAD: ro.per_thread = 1; break;
		case 'v': ro.verbose = 1; break;
		case OPT_NO_PROBE: no_probe = 1; break;
		case OPT_COLOR: color = optarg; break;
		case OPT_MODEL: model = optarg; break;
		case 'h': usage(stdout); return RL_EXIT_OK;
		default:
			fputs("rlprof: see 'rlprof report --help'\n", stderr);
			return RL_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "rlprof: report needs %s: rlprof report DIR "
				"(the output directory of rlprof run)\n",
			optind < argc ? "exactly one directory" : "a directory");
		return RL_EXIT_USAGE;
	}
	dir = argv[optind];
	list_formats(names, sizeof names);
	if (!(rd = rl_renderer_find(format))) {
		fprintf(stderr, "rlprof: unknown format '%s': use %s\n", format,
			names);
		return RL_EXIT_USAGE;
	}
	if (strcmp(color, "auto") && strcmp(color, "always") &&
	    strcmp(color, "never")) {
		fprintf(stderr, "rlprof: unknown --color '%s': use auto, always "
				"or never\n",
			color);
		return RL_EXIT_USAGE;
	}
	if ((ro.plot || ro.per_thread) && strcmp(rd->format, "table") != 0)
		fprintf(stderr, "rlprof: --plot and --per-thread apply to the "
				"table only; ignored for '%s'\n",
			rd->format);

	if (rl_results_load_dir(dir, &res, err, sizeof err)) {
		fprintf(stderr, "rlprof: %s\n", err);
		return RL_EXIT_FAILURE;
	}
	if (!(m = calloc(1, sizeof *m))) {
		fputs("rlprof: out of memory\n", stderr);
		goto out_res;
	}
	if (model && strcmp(model, "cache") != 0) {
		if (rl_machine_load(model, m, err, sizeof err)) {
			fprintf(stderr, "rlprof: %s\n", err);
			goto out_m;
		}
		goto build;
	}
	if (!model) {
		int lr = rl_machine_load_stored(dir, m, err, sizeof err);
		if (lr == 0)
			goto build;
		if (lr != RL_ENOENT)
			fprintf(stderr, "rlprof: the machine model stored with the "
				"results cannot be used (%s): placing against "
				"this machine's cached model\n", err);
	}
	if (!no_probe) {
		char cache[4096];
		if (rl_machine_cache_path(cache, sizeof cache, err,
					  sizeof err) == 0 &&
		    access(cache, R_OK) != 0)
			fputs("rlprof: no cached machine model: measuring this "
			      "machine's roofs once (--no-probe skips this)\n",
			      stderr);
	}
	if (rl_machine_obtain(m, !no_probe, &probed, err, sizeof err)) {
		fprintf(stderr, "rlprof: %s (bounds are left empty)\n", err);
		free(m);
		m = NULL;
	}
build:
	if (rl_repeat_runs_read(&runs, dir)) /* rlprof run --repeat's runs */
		fputs("rlprof: out of memory: the --repeat timing runs are left "
		      "out\n", stderr);
	brc = rl_report_build_runs(&res, m, &runs, &rep, err, sizeof err);
	rl_repeat_runs_release(&runs);
	if (brc) {
		fprintf(stderr, "rlprof: %s\n", err);
		goto out_m;
	}
	rl_run_results_release(&res); /* the report holds copies */
	ro.width = output ? 0 : rl_render_term_width();
	ro.color = strcmp(color, "always") == 0 ||
		   (strcmp(color, "auto") == 0 && !output &&
		    rl_term_color_auto(fileno(stdout)));
	if (output) {
		/* whole or not at all, with the system's reason */
		char ferr[PATH_MAX + 1024];
		if (rl_render_file(rd, output, false, &rep, &ro, ferr, sizeof ferr))
			fprintf(stderr, "rlprof: %s\n", ferr);
		else
			rc = RL_EXIT_OK;
	} else if (rd->render(out, &rep, &ro, err, sizeof err)) {
		fprintf(stderr, "rlprof: %s\n", err);
	} else if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "rlprof: cannot write to standard output: %s\n",
			strerror(errno));
	} else {
		rc = RL_EXIT_OK;
	}
	rl_report_release(&rep);
out_m:
	free(m);
out_res:
	rl_run_results_release(&res);
	return rc;
}
