/*
 * rlprof diff A B: two runs' reports compared region by region.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "analysis/compare.h"
#include "cli/parse_pct.h"
#include "render/render_diff.h"
#include "analysis/report_file.h"
#include "common/rl_error.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof diff A B [--threshold PCT] [--format FORMAT] "
		"[-o FILE]\n"
		"\n"
		"Compares two runs region by region: the report.json that\n"
		"'rlprof run' saved in each output directory (or a report.json\n"
		"named directly). For each region: time, GFLOP/s, counted AI,\n"
		"%% of roof and the binding roof in A and in B, and the change\n"
		"(B - A) / A. A change larger than the threshold is marked '*';\n"
		"the last column says slower, faster, same, new (only in B) or\n"
		"gone (only in A).\n"
		"\n"
		"  -t, --threshold PCT  noise threshold in percent (default %g):\n"
		"                       smaller changes are not marked\n"
		"  -f, --format FORMAT  table (default), json or csv\n"
		"  -o, --output FILE    write to FILE instead of standard output\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 compared (whatever changed), 1 output not\n"
		"written, 2 usage error or a directory without a readable report.\n",
		RL_DIFF_DEFAULT_THRESHOLD_PCT);
}


int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{"threshold", required_argument, NULL, 't'},
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "table", *output = NULL;
	double threshold = RL_DIFF_DEFAULT_THRESHOLD_PCT;
	struct rl_report_file a, b;
	int failed = 0;
	struct rl_diff d;
	char err[1024];
	int c, rc = RL_EXIT_FAILURE;
	FILE *out = stdout;

	optind = 0;
	while ((c = getopt_long(argc, argv, "t:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if ((threshold = rl_parse_pct(optarg)) < 0) {
				fprintf(stderr,
					"rlprof: threshold '%s' is not a "
					"percentage: give a number >= 0, e.g. "
					"--threshold 5\n",
					optarg);
				return RL_EXIT_USAGE;
			}
			break;
		case 'f': format = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(stdout); return RL_EXIT_OK;
		default:
			fputs("rlprof: see 'rlprof diff --help'\n", stderr);
			return RL_EXIT_USAGE;
		}
	}
	if (optind + 2 != argc) {
		fputs("rlprof: diff needs two results directories: rlprof diff "
		      "A B (output directories of rlprof run)\n",
		      stderr);
		return RL_EXIT_USAGE;
	}
	if (strcmp(format, "table") && strcmp(format, "json") &&
	    strcmp(format, "csv")) {
		fprintf(stderr, "rlprof: unknown format '%s': use table, json "
				"or csv\n",
			format);
		return RL_EXIT_USAGE;
	}
	if (rl_report_file_load_two(argv[optind], &a, argv[optind + 1], &b,
				    &failed, err, sizeof err)) {
		fprintf(stderr, "rlprof: %s\n", err);
		return RL_EXIT_USAGE;
	}
	if (rl_diff_build(&a, &b, threshold, &d, err, sizeof err)) {
		fprintf(stderr, "rlprof: %s\n", err);
		goto out_files;
	}
	if (output && !(out = fopen(output, "w"))) {
		fprintf(stderr, "rlprof: cannot open '%s': %s\n", output,
			strerror(errno));
		goto out_diff;
	}
	if (rl_render_diff(out, &d, format, &a, &b, err, sizeof err))
		fprintf(stderr, "rlprof: %s\n", err);
	else if (fflush(out) != 0 || ferror(out))
		fprintf(stderr, "rlprof: cannot write '%s': %s\n",
			output ? output : "standard output", strerror(errno));
	else
		rc = RL_EXIT_OK;
	if (output && fclose(out) != 0 && rc == RL_EXIT_OK) {
		fprintf(stderr, "rlprof: cannot write '%s': %s\n", output,
			strerror(errno));
		rc = RL_EXIT_FAILURE;
	}
out_diff:
	rl_diff_release(&d);
out_files:
	rl_report_file_release(&a);
	rl_report_file_release(&b);
	return rc;
}
