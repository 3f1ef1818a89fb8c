/* rlprof counters: which backends work here, what they count, why not. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/backend_choice.h"
#include "cli/commands.h"
#include "cli/counters_selftest.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof counters [--auto | --selftest [-b NAME] [--no-cache]]\n"
		"\n"
		"Lists every counter backend, what it can count on this machine and,\n"
		"where it falls short, why. The backend 'rlprof run -b auto' picks is\n"
		"marked with '*'.\n"
		"\n"
		"  --auto     print only the name of the backend '-b auto' picks\n"
		"  --selftest run the known-answer check that 'rlprof run' makes before a\n"
		"             hardware-counted program: small kernels of known flops (per\n"
		"             precision, width, FMA) and DRAM bytes through the backend;\n"
		"             prints counted and expected per event. Exit status 0 all\n"
		"             within tolerance (flops 1%%, bytes 10%%), 1 one outside, 77\n"
		"             no backend counts hardware flops here\n"
		"  -b, --backend NAME  with --selftest: this backend (default: the best\n"
		"             that counts hardware flops)\n"
		"  --no-cache with --selftest: run it even when this machine, kernel and\n"
		"             event set have a cached result (and do not store it)\n"
		"  -h, --help this text\n");
}

int cmd_counters(int argc, char **argv)
{
	static const struct option opts[] = {
		{"auto", no_argument, NULL, 'a'},
		{"selftest", no_argument, NULL, 's'},
		{"backend", required_argument, NULL, 'b'},
		{"no-cache", no_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct rl_backend_probe probes[16];
	int only_auto = 0, selftest = 0, no_cache = 0, c, pick;
	const char *named = NULL;
	size_t n;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+hb:", opts, NULL)) != -1) {
		switch (c) {
		case 'a': only_auto = 1; break;
		case 's': selftest = 1; break;
		case 'b': named = optarg; break;
		case 'n': no_cache = 1; break;
		case 'h': usage(stdout); return RL_EXIT_OK;
		default:
			fprintf(stderr,
				"rlprof counters: unknown option '%s'; see 'rlprof counters --help'\n",
				argv[optind - 1]);
			return RL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"rlprof counters: unexpected argument '%s'; see 'rlprof counters --help'\n",
			argv[optind]);
		return RL_EXIT_USAGE;
	}
	if ((named || no_cache) && !selftest) {
		fprintf(stderr, "rlprof counters: -b and --no-cache go with "
				"--selftest; see 'rlprof counters --help'\n");
		return RL_EXIT_USAGE;
	}
	n = rl_backends_probe_all(probes, sizeof probes / sizeof *probes);
	if (selftest)
		return rl_counters_selftest(probes, n, named, !no_cache);
	pick = rl_backend_pick_auto(probes, n);
	if (only_auto) {
		if (pick < 0) {
			fprintf(stderr, "rlprof: no counter backend works here; "
					"see 'rlprof counters'\n");
			return RL_EXIT_FAILURE;
		}
		printf("%s\n", probes[pick].backend->name);
		return RL_EXIT_OK;
	}
	printf("  %-8s %-16s %s\n", "backend", "capability", "what / why not");
	for (size_t i = 0; i < n; i++) {
		const struct rl_backend_probe *p = &probes[i];
		printf("%c %-8s %-16s %s\n", (int)i == pick ? '*' : ' ',
		       p->backend->name, rl_capability_name(p->capability),
		       p->backend->summary ? p->backend->summary : "");
		if (p->why[0])
			printf("  %-8s %-16s why: %s\n", "", "", p->why);
	}
	if (pick >= 0)
		printf("\n-b auto picks '%s' (%s)\n", probes[pick].backend->name,
		       rl_capability_name(probes[pick].capability));
	else
		printf("\nno backend works here: 'rlprof run' cannot count\n");
	return RL_EXIT_OK;
}
