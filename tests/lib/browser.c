/* Headless Chromium for the tests: see browser.h. */
#include "tests/lib/browser.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char profile[] = "/tmp/rlprof-chromium-XXXXXX";
static int made;

void rl_test_need_chromium(void)
{
	if (access(RL_TEST_CHROMIUM, X_OK) != 0)
		cr_skip_test("no chromium at " RL_TEST_CHROMIUM
			     " (apt-get install chromium)");
	if (!made) {
		cr_assert_not_null(mkdtemp(profile));
		made = 1;
	}
}

const char *rl_test_chromium_dir(void)
{
	return made ? profile : "";
}

void rl_test_chromium_cleanup(void)
{
	char cmd[128];

	if (!made)
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", profile);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", profile);
}

char *rl_test_chromium(const char *args, const char *url)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "timeout 90 " RL_TEST_CHROMIUM " --headless --no-sandbox "
		 "--disable-gpu --disable-quic --no-first-run "
		 "--disable-background-networking --disable-component-update "
		 "--disable-sync --user-data-dir='%s' %s '%s' 2>/dev/null",
		 profile, args, url);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
		fwrite(chunk, 1, n, mem);
	int st = pclose(p);
	fclose(mem);
	cr_assert_eq(st, 0, "chromium failed (status %d): %s", st, cmd);
	return buf;
}
