/* The fuzz corpora of tests/fuzz/<target>/ (seeds from real runs, and
 * crashes/: every input that once crashed) fed to the same targets as
 * `make fuzz` (tests/fuzz/fuzz_targets.c), without libFuzzer: under
 * `make test SANITIZE=1` a past finding that comes back fails here. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz_targets.h"

#define FUZZ_DIR RL_SOURCE_DIR "/tests/fuzz/"

/* Every regular file under dir (and its subdirectories) through target;
 * the count of files fed. */
static size_t replay(const char *dir, int (*target)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t fed = 0;

	cr_assert_not_null(d, "no corpus '%s'", dir);
	while ((de = readdir(d)) != NULL) {
		char path[1024];
		struct stat st;
		uint8_t *buf;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			fed += replay(path, target);
			continue;
		}
		buf = malloc((size_t)st.st_size + 1);
		f = fopen(path, "rb");
		cr_assert(buf && f, "cannot read '%s'", path);
		cr_assert_eq(fread(buf, 1, (size_t)st.st_size, f),
			     (size_t)st.st_size, "cannot read '%s'", path);
		fclose(f);
		cr_expect_eq(target(buf, (size_t)st.st_size), 0, "%s", path);
		free(buf);
		fed++;
	}
	closedir(d);
	return fed;
}

Test(fuzz_replay, results_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "results", rl_fuzz_results), 0);
}

Test(fuzz_replay, machine_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "machine", rl_fuzz_machine), 0);
}

Test(fuzz_replay, live_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "live", rl_fuzz_live), 0);
}

Test(fuzz_replay, ranks_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "ranks", rl_fuzz_ranks), 0);
}

Test(fuzz_replay, elf_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "elf", rl_fuzz_elf), 0);
}

Test(fuzz_replay, report_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "report", rl_fuzz_report), 0);
}

Test(fuzz_replay, loops_corpus, .timeout = 120)
{
	cr_expect_gt(replay(FUZZ_DIR "loops", rl_fuzz_loops), 0);
}
