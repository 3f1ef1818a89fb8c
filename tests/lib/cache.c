/* Every test process's own model cache: see cache.h. */
#include "tests/lib/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/machine_file.h"
#include "tests/lib/machine.h"
#include "tests/lib/run.h"

/* the runner's folder of every test process's cache, handed down to the
 * test processes (Criterion runs each test in a process of this binary,
 * started with BXFI_MAP in its environment) */
#define ROOT_ENV "RLPROF_TEST_CACHE_ROOT"

static char own_dir[512];
static pid_t own_pid;

const char *rl_test_cache_home(void)
{
	return own_dir[0] ? own_dir : NULL;
}

void rl_test_cache_model(struct rl_machine *m)
{
	static const struct {
		const char *level;
		uint64_t bytes;
	} levels[] = {{"L1", 48u << 10}, {"L2", 1u << 20}, {"L3", 32u << 20}};

	/* in place, no allocation: this also runs before any test */
	rl_test_machine_init(m, 2, "Test CPU");
	m->version = RL_MACHINE_VERSION;
	snprintf(m->probed_at, sizeof m->probed_at, "2026-01-01T00:00:00Z");
	rl_test_machine_default_roofs(m);
	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
		struct rl_cache_level *l = rl_test_machine_add_level(
			m, levels[i].level, levels[i].bytes, levels[i].bytes);
		l->effective_all_bytes = levels[i].bytes;
		l->line_bytes = 64;
		snprintf(l->source, sizeof l->source, "sysfs");
	}
}

int rl_test_cache_put(const char *cache_home, const struct rl_machine *m,
		      char *err, size_t errlen)
{
	char path[4096], sub[1024];

	if (setenv("XDG_CACHE_HOME", cache_home, 1) != 0) {
		snprintf(err, errlen, "setenv failed");
		return -1;
	}
	snprintf(sub, sizeof sub, "%s/rlprof", cache_home);
	mkdir(cache_home, 0755);
	mkdir(sub, 0755);
	if (rl_machine_cache_path(path, sizeof path, err, errlen) != 0 ||
	    rl_machine_save(path, m, err, errlen) != 0)
		return -1;
	return 0;
}

/* removes the folder this process made, from this process only (a forked
 * child that exits runs the same handlers) */
static void remove_own(void)
{
	if (getpid() == own_pid && own_dir[0])
		e2e_rmtree_raw(own_dir);
}

static void own_cache(void)
{
	const char *root = getenv(ROOT_ENV);
	static struct rl_machine m;
	char err[512];

	/* a test binary started by hand without the runner's folder */
	snprintf(own_dir, sizeof own_dir, "%s/cache-XXXXXX",
		 root && root[0] == '/' ? root : "/tmp");
	if (!mkdtemp(own_dir)) {
		fprintf(stderr, "rlprof-tests: cannot make a model cache "
			"under %s: the tests would use yours\n", own_dir);
		own_dir[0] = 0;
		return;
	}
	unsetenv("RLPROF_MACHINE");
	rl_test_cache_model(&m);
	if (rl_test_cache_put(own_dir, &m, err, sizeof err) != 0)
		fprintf(stderr, "rlprof-tests: cannot write the test model "
			"into %s: %s\n", own_dir, err);
}

__attribute__((constructor)) static void rl_test_cache_setup(void)
{
	own_pid = getpid();
	if (getenv("BXFI_MAP")) {
		own_cache(); /* a test process */
	} else {
		/* the runner: one folder for the run, every test process's
		 * cache in it; an empty cache of its own meanwhile */
		snprintf(own_dir, sizeof own_dir, "/tmp/rlprof-tests-XXXXXX");
		if (!mkdtemp(own_dir)) {
			own_dir[0] = 0;
			return;
		}
		setenv(ROOT_ENV, own_dir, 1);
		setenv("XDG_CACHE_HOME", own_dir, 1);
		unsetenv("RLPROF_MACHINE");
	}
	atexit(remove_own);
}
