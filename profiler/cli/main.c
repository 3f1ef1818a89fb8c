/* rlprof: the command. A table of subcommands, one file each. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "runtime/rlprof.h"

/* librlprof's runtime never profiles the rlprof command itself (e.g. when
 * an outer rlprof run preloads librlprof.so into it); exported from the
 * executable so a preloaded librlprof.so sees it (profiler/build.mk). */
extern const int rl_runtime_disabled;
const int rl_runtime_disabled = 1;

struct rl_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct rl_command commands[] = {
	{"run", cmd_run, "profile a program: table on stdout, report in a directory"},
	{"report", cmd_report, "render a previous run's directory again (table, JSON, CSV, SVG, HTML)"},
	{"inspect", cmd_inspect, "list the regions compiled into a program"},
	{"counters", cmd_counters, "list the counter backends, what works here and why not"},
	{"probe", cmd_probe, "measure this machine's roofs (cached)"},
	{"diff", cmd_diff, "compare two runs region by region"},
	{"check", cmd_check, "CI gate: exit 1 when a region misses a limit, 3 when the runs cannot tell"},
	{"compare", cmd_compare, "CI gate in one command: two programs run interleaved, each region tested"},
};
#define N_COMMANDS (sizeof commands / sizeof *commands)

const char *rl_version_string(void)
{
#define RL_STR2(x) #x
#define RL_STR(x) RL_STR2(x)
	return RL_STR(RLPROF_VERSION_MAJOR) "." RL_STR(RLPROF_VERSION_MINOR);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof COMMAND [OPTIONS] [ARGS]\n"
		"\n"
		"A roofline profiler: counts flops and DRAM bytes per marked region\n"
		"and places each region under this machine's measured roofs.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(out,
		"\n"
		"  rlprof help COMMAND   or   rlprof COMMAND --help   for its options\n"
		"  rlprof --version\n"
		"\n"
		"environment (man rlprof: ENVIRONMENT, PARALLEL PROGRAMS):\n"
		"  RLPROF_MACHINE   the machine model file to use instead of the cache's\n"
		"  RLPROF_SCOPE     thread: main-thread regions count their own thread only\n"
		"  RLPROF_MPI_WAIT  seconds rank 0 waits for the other ranks (default 120)\n"
		"  RLPROF_CLOCK     monotonic: time regions without the TSC\n"
		"  XDG_CACHE_HOME   where the machine model is cached (rlprof/ in it)\n"
		"  NO_COLOR         no colours in the table\n"
		"  COLUMNS          the width the table fits (else the terminal's)\n"
		"\n"
		"exit status: 0 ok, 1 failure, 2 usage error; 'rlprof run' returns the\n"
		"program's own status (128+N if it died of signal N, 127 not found,\n"
		"126 not executable)\n");
}

static const struct rl_command *find(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* The command's status, unless what it printed on stdout did not all
 * get there (stdout on a full disk, /dev/full, a closed pipe): then one
 * message and status 1. Commands that check their own output (report,
 * diff, inspect) have already said so and failed; rlprof run keeps the
 * program's failing status, and says it too. */
static int dispatch(const struct rl_command *c, int argc, char **argv)
{
	int rc = c->fn(argc, argv);

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (rc == RL_EXIT_OK || strcmp(c->name, "run") == 0)
		fprintf(stderr,
			"rlprof %s: cannot write to standard output: %s; "
			"what it printed is incomplete\n",
			c->name, errno ? strerror(errno) : "a write failed");
	return rc == RL_EXIT_OK ? RL_EXIT_FAILURE : rc;
}

int main(int argc, char **argv)
{
	const struct rl_command *c;

	if (argc < 2) {
		usage(stderr);
		return RL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return RL_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("rlprof %s\n", rl_version_string());
		return RL_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		char *help_argv[] = {NULL, "--help", NULL};
		if (argc < 3) {
			usage(stdout);
			return RL_EXIT_OK;
		}
		c = find(argv[2]);
		if (!c) {
			fprintf(stderr,
				"rlprof: unknown command '%s'; see 'rlprof --help'\n",
				argv[2]);
			return RL_EXIT_USAGE;
		}
		help_argv[0] = argv[2];
		return dispatch(c, 2, help_argv);
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "rlprof: unknown option '%s'; see 'rlprof --help'\n",
			argv[1]);
		return RL_EXIT_USAGE;
	}
	c = find(argv[1]);
	if (!c) {
		fprintf(stderr, "rlprof: unknown command '%s'; see 'rlprof --help'\n",
			argv[1]);
		return RL_EXIT_USAGE;
	}
	return dispatch(c, argc - 1, argv + 1);
}
