/*
 * rlprof check DIR: the CI gate. Checks a run's report against limits and
 * exits 0 when all hold, 1 when one fails (each failure on its own line),
 * 2 on bad input, 3 when none failed but the runs' noise hid a change
 * (not enough evidence: never a silent pass).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "analysis/compare.h"
#include "cli/gate.h"
#include "cli/parse_pct.h"
#include "analysis/report_file.h"
#include "common/rl_error.h"
#include "common/term_text.h"

#define MAX_RULES 64

static void usage(FILE *out)
{
	fputs("usage: rlprof check DIR [--min-roof-pct [REGION=]PCT]...\n"
	      "                        [--max-regression PCT --baseline BASE]\n"
	      "                        [--require-region NAME]...\n"
	      "\n"
	      "The CI gate: checks the report that 'rlprof run' saved in DIR\n"
	      "(DIR/report.json, or a report.json named directly).\n"
	      "\n"
	      "  -m, --min-roof-pct [REGION=]PCT\n"
	      "                       REGION reaches at least PCT % of its\n"
	      "                       binding roof; without REGION= every\n"
	      "                       region does. A region whose % of roof is\n"
	      "                       unknown (no machine model, no counts and\n"
	      "                       nothing declared) fails.\n"
	      "  -r, --max-regression PCT\n"
	      "                       no region of the baseline takes more than\n"
	      "                       PCT % more time in DIR, nor is missing\n"
	      "                       from DIR (needs --baseline)\n"
	      "  -B, --baseline BASE  the run to compare with (its output\n"
	      "                       directory or report.json). With\n"
	      "                       'rlprof run --repeat N' the runs are\n"
	      "                       tested (Hodges-Lehmann change, Moses\n"
	      "                       bounds of the Mann-Whitney test, 95%\n"
	      "                       confidence each): a region fails when\n"
	      "                       its change is beyond PCT at 95%, holds\n"
	      "                       when it is within PCT at 95%, and is\n"
	      "                       'not enough evidence' otherwise. With\n"
	      "                       one run a side, the change is taken at\n"
	      "                       face value. Under -b sim, a region\n"
	      "                       whose counted flops or bytes differ at\n"
	      "                       all fails\n"
	      "  -R, --require-region NAME\n"
	      "                       the report has a region NAME\n"
	      "  -q, --quiet          say nothing when every check holds\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Options may be repeated. Each failure is one line on standard\n"
	      "output, starting with 'fail: '.\n"
	      "\n"
	      "Exit status: 0 every check holds, 1 a check failed, 2 usage\n"
	      "error or unreadable report, 3 no check failed but the runs\n"
	      "could not decide one (not enough evidence).\n",
	      out);
}

struct roof_rule {
	const char *region; /* NULL: every region */
	double pct;
};

static void check_roof(struct rl_gate *st, const struct rl_report_file *f,
		       const struct rl_report_region *r, double min)
{
	char msg[256];

	st->n_checks++;
	if (isnan(r->roof_pct)) {
		/* why, as the analysis said it: its advice's first clause */
		char why[160] = "";
		if (r->diagnosis) {
			size_t n = strcspn(r->diagnosis, ";");
			char *first = strndup(r->diagnosis, n);
			if (first)
				rl_term_cut(why, sizeof why, first, 120);
			free(first);
		}
		snprintf(msg, sizeof msg,
			 "has no %% of roof to check against the minimum %g%% "
			 "(%s)",
			 min,
			 !f->has_machine ? "the report has no machine model: "
					   "run 'rlprof probe' first"
			 : why[0]	 ? why
					 : "no counted flops and nothing "
					   "declared: add RL_REGION_EXPECT or "
					   "use a counting backend");
		rl_gate_fail(st, r->region, msg);
	} else if (r->roof_pct < min) {
		char roof[96]; /* the report's text: escaped, one line */
		rl_term_cut(roof, sizeof roof,
			    r->bound_roof ? r->bound_roof : "-", 40);
		snprintf(msg, sizeof msg,
			 "reaches %.3g%% of its roof (%s), under the minimum "
			 "%g%%",
			 r->roof_pct, roof, min);
		rl_gate_fail(st, r->region, msg);
	}
}

/* Every region of the baseline against the report: its time within
 * max, and under the simulator its counted work the same. */
static void check_regression(struct rl_gate *g,
			     const struct rl_report_file *cur,
			     const struct rl_report_file *base, double max)
{
	bool bytes = rl_report_file_one_thread(base) &&
		     rl_report_file_one_thread(cur);

	for (size_t i = 0; i < base->n_regions; i++) {
		const struct rl_report_region *b = &base->regions[i];
		const struct rl_report_region *r =
			rl_report_file_find(cur, b->region);
		struct rl_time_cmp tc;

		if (!r) {
			g->n_checks++;
			rl_gate_fail(g, b->region,
				     "of the baseline is not in the report");
			continue;
		}
		rl_compare_time(b, r, max, &tc);
		rl_gate_time(g, b->region, &tc, max);
		rl_gate_work(g, b->region, b, r, bytes);
	}
	rl_gate_untested_note(g);
	rl_gate_bytes_note(g, bytes);
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"min-roof-pct", required_argument, NULL, 'm'},
		{"max-regression", required_argument, NULL, 'r'},
		{"baseline", required_argument, NULL, 'B'},
		{"require-region", required_argument, NULL, 'R'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct roof_rule roof[MAX_RULES];
	const char *require[MAX_RULES], *baseline = NULL;
	size_t n_roof = 0, n_require = 0;
	double max_regression = -1;
	struct rl_report_file cur, base;
	struct rl_gate st = {0};
	char err[1024];
	int c, failed = 0;

	optind = 0;
	while ((c = getopt_long(argc, argv, "m:r:B:R:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': {
			char *eq = strrchr(optarg, '=');
			const char *pct = eq ? eq + 1 : optarg;
			if (n_roof == MAX_RULES) {
				fprintf(stderr, "rlprof: more than %d "
						"--min-roof-pct options\n",
					MAX_RULES);
				return RL_EXIT_USAGE;
			}
			roof[n_roof].pct = rl_parse_pct(pct);
			if (roof[n_roof].pct < 0 || (eq && eq == optarg)) {
				fprintf(stderr,
					"rlprof: --min-roof-pct '%s' is not "
					"[REGION=]PCT: give e.g. "
					"--min-roof-pct 50 or --min-roof-pct "
					"triad=50\n",
					optarg);
				return RL_EXIT_USAGE;
			}
			if (eq)
				*eq = '\0';
			roof[n_roof++].region = eq ? optarg : NULL;
			break;
		}
		case 'r':
			if ((max_regression = rl_parse_pct_option(
				     "max-regression", optarg)) < 0)
				return RL_EXIT_USAGE;
			break;
		case 'B': baseline = optarg; break;
		case 'R':
			if (n_require == MAX_RULES) {
				fprintf(stderr, "rlprof: more than %d "
						"--require-region options\n",
					MAX_RULES);
				return RL_EXIT_USAGE;
			}
			require[n_require++] = optarg;
			break;
		case 'q': st.quiet = 1; break;
		case 'h': usage(stdout); return RL_EXIT_OK;
		default:
			fputs("rlprof: see 'rlprof check --help'\n", stderr);
			return RL_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fputs("rlprof: check needs one results directory: rlprof check "
		      "DIR [checks] (the output directory of rlprof run)\n",
		      stderr);
		return RL_EXIT_USAGE;
	}
	if ((max_regression >= 0) != (baseline != NULL)) {
		fputs("rlprof: --max-regression and --baseline go together: "
		      "give both, e.g. --max-regression 10 --baseline "
		      "main-run/\n",
		      stderr);
		return RL_EXIT_USAGE;
	}
	if (n_roof == 0 && n_require == 0 && !baseline) {
		fputs("rlprof: nothing to check: give --min-roof-pct, "
		      "--max-regression with --baseline, or --require-region\n",
		      stderr);
		return RL_EXIT_USAGE;
	}
	if (baseline ? rl_report_file_load_two(argv[optind], &cur, baseline,
					       &base, &failed, err, sizeof err)
		     : rl_report_file_load(argv[optind], &cur, err, sizeof err)) {
		fprintf(stderr, "rlprof: %s%s\n", baseline && failed ?
			"baseline: " : "", err);
		return RL_EXIT_USAGE;
	}

	for (size_t i = 0; i < n_require; i++) {
		st.n_checks++;
		if (!rl_report_file_find(&cur, require[i]))
			rl_gate_fail(&st, require[i], "is not in the report");
	}
	for (size_t k = 0; k < n_roof; k++) {
		if (!roof[k].region) {
			for (size_t i = 0; i < cur.n_regions; i++)
				check_roof(&st, &cur, &cur.regions[i],
					   roof[k].pct);
			continue;
		}
		const struct rl_report_region *r =
			rl_report_file_find(&cur, roof[k].region);
		if (r) {
			check_roof(&st, &cur, r, roof[k].pct);
		} else {
			st.n_checks++;
			rl_gate_fail(&st, roof[k].region,
				    "is not in the report: its % of roof "
				    "cannot be checked");
		}
	}
	if (baseline) {
		check_regression(&st, &cur, &base, max_regression);
		rl_report_file_release(&base);
	}
	rl_report_file_release(&cur);
	if (st.n_checks == 0) {
		/* checks over every region of a report with none: a gate
		 * that checked nothing does not pass (issue 41) */
		fprintf(stderr,
			"rlprof: no check was made: the report in '%s'%s has "
			"no regions; was the program run under rlprof run, "
			"with regions?\n",
			argv[optind], baseline ? " (and its baseline)" : "");
		return RL_EXIT_FAILURE;
	}
	return rl_gate_end(&st);
}
