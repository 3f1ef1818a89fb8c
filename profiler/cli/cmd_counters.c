/* rlprof counters: which backends work here, what they count, why not. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/backend_choice.h"
#include "cli/commands.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof counters [--auto]\n"
		"\n"
		"Lists every counter backend, what it can count on this machine and,\n"
		"where it falls short, why. The backend 'rlprof run -b auto' picks is\n"
		"marked with '*'.\n"
		"\n"
		"  --auto     print only the name of the backend '-b auto' picks\n"
		"  -h, --help this text\n");
}

int cmd_counters(int argc, char **argv)
{
	static const struct option opts[] = {
		{"auto", no_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct rl_backend_probe probes[16];
	int only_auto = 0, c, pick;
	size_t n;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': only_auto = 1; break;
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
	n = rl_backends_probe_all(probes, sizeof probes / sizeof *probes);
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
