/*
 * The house in layers (docs/development.md, "Layout"): every project
 * include names its folder, and a folder includes only folders of a lower
 * layer, so no folder reaches up and no two folders depend on each other.
 * Read from the sources themselves (RL_SOURCE_DIR).
 */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each job folder and its layer; a subfolder belongs to its folder. An
 * include from A to B is allowed when B's layer is below A's. */
static const struct {
	const char *folder;
	int layer;
} layers[] = {
	{"profiler/common", 0},  {"profiler/formats", 1},
	{"counters", 2},         {"probes", 2},
	{"profiler/runtime", 3}, {"profiler/compat", 4},
	{"profiler/mpi", 4},     {"profiler/fortran", 4},
	{"profiler/machine", 4}, {"profiler/results", 4},
	{"profiler/inspect", 4},
	{"kernels", 5},          {"profiler/analysis", 5},
	{"profiler/render", 6},  {"profiler/cli", 7},
};

static int layer_of(const char *rel, const char **folder)
{
	int best = -1;
	size_t best_len = 0;
	for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++) {
		size_t n = strlen(layers[i].folder);
		if (strncmp(rel, layers[i].folder, n) == 0 && rel[n] == '/' &&
		    n > best_len) {
			best = layers[i].layer;
			best_len = n;
			*folder = layers[i].folder;
		}
	}
	return best;
}

static char problems[16384];
static size_t n_problems, n_includes;
static size_t root_len;

static void problem(const char *fmt, const char *a, const char *b,
		    const char *c)
{
	size_t used = strlen(problems);
	if (used + 300 < sizeof problems)
		snprintf(problems + used, sizeof problems - used, fmt, a, b, c);
	n_problems++;
}

/* The project header an include names: "results/x.h" is profiler/results,
 * "counters/x.h" is counters. Empty when the file does not exist (a
 * system header, or Valgrind's). */
static int resolve(const char *inc, char *out, size_t len)
{
	char path[4096];
	snprintf(out, len, "%s", inc);
	snprintf(path, sizeof path, "%s/%s", RL_SOURCE_DIR, inc);
	if (access(path, F_OK) == 0)
		return 1;
	snprintf(out, len, "profiler/%s", inc);
	snprintf(path, sizeof path, "%s/profiler/%s", RL_SOURCE_DIR, inc);
	return access(path, F_OK) == 0;
}

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	(void)st, (void)ftw;
	const char *rel = path + root_len + 1;
	size_t n = strlen(path);
	if (type != FTW_F || n < 3 ||
	    (strcmp(path + n - 2, ".c") && strcmp(path + n - 2, ".h")))
		return 0;
	const char *from_folder = NULL;
	int from = layer_of(rel, &from_folder);
	if (from < 0)
		return 0; /* tests, scripts, build output */
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		char inc[512], target[600];
		if (sscanf(line, " # include \"%511[^\"]\"", inc) != 1)
			continue;
		/* the Valgrind tool's own headers, and a user program's view */
		if (strncmp(inc, "pub_tool_", 9) == 0 ||
		    strcmp(inc, "valgrind.h") == 0)
			continue;
		n_includes++;
		if (!strchr(inc, '/')) {
			problem("%s: include \"%s\" does not name its folder%s\n",
				rel, inc, "");
			continue;
		}
		if (!resolve(inc, target, sizeof target)) {
			problem("%s: include \"%s\" names no file of the "
				"project%s\n", rel, inc, "");
			continue;
		}
		const char *to_folder = NULL;
		int to = layer_of(target, &to_folder);
		if (to < 0 || strcmp(to_folder, from_folder) == 0)
			continue;
		if (to >= from)
			problem("%s includes \"%s\": %s does not sit below "
				"its folder\n", rel, inc, to_folder);
	}
	fclose(f);
	return 0;
}

Test(layers, no_folder_reaches_up_or_hides_its_name)
{
	root_len = strlen(RL_SOURCE_DIR);
	const char *roots[] = {"profiler", "counters", "probes", "kernels"};
	for (size_t i = 0; i < 4; i++) {
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", RL_SOURCE_DIR, roots[i]);
		cr_assert_eq(nftw(p, visit, 16, FTW_PHYS), 0, "%s", p);
	}
	cr_assert_gt(n_includes, 300, "only %zu project includes read",
		     n_includes);
	cr_expect_eq(n_problems, 0, "%zu include(s) break the layers:\n%s",
		     n_problems, problems);
}
