/*
 * The known-answer check: the kernels of kat_kernels.c through a backend,
 * counted against what they are known to do (see selftest.h).
 */
#include "results/selftest_run.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/rl_error.h"
#include "counters/launch.h"
#include "counters/selftest/kat_kernels.h"
#include "results/run_results.h"
#include "results/selftest_json.h"

#define BIT(c) (UINT64_C(1) << (c))

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t dram_mask(void)
{
	return BIT(RL_C_DRAM_READ_BYTES) | BIT(RL_C_DRAM_WRITE_BYTES) |
	       BIT(RL_C_DRAM_BYTES);
}

/* One kernel between two reads: counted (scaled by enabled/running) and
 * done, per counter. */
static int measure(const struct rl_backend *be, void *state,
		   const struct rl_kat_kernel *k, double counted[],
		   double done[])
{
	struct rl_counter_value v0[RL_COUNTER_COUNT], v1[RL_COUNTER_COUNT];
	int rc;

	memset(v0, 0, sizeof v0);
	memset(v1, 0, sizeof v1);
	memset(done, 0, RL_COUNTER_COUNT * sizeof *done);
	/* nothing but the kernel between the reads */
	if ((rc = be->read(state, v0)) < 0)
		return rc;
	rl_kat_run(k);
	if ((rc = be->read(state, v1)) < 0)
		return rc;
	rl_kat_did(k, done);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		counted[c] = rl_counter_scaled(v1[c].value - v0[c].value,
					       v1[c].enabled_ns - v0[c].enabled_ns,
					       v1[c].running_ns - v0[c].running_ns);
	return 0;
}

static void note(struct rl_selftest *st, const char *text)
{
	size_t used = strlen(st->why);

	if (used + 3 < sizeof st->why)
		snprintf(st->why + used, sizeof st->why - used, "%s%s",
			 used ? "; " : "", text);
}

/* The kernels through an initialised backend. */
static int run_kernels(const struct rl_backend *be,
		       const struct rl_backend_setup *setup,
		       struct rl_selftest *st, char *err, size_t errlen)
{
	uint64_t flops = (rl_counter_kind_mask(RL_KIND_FLOPS) | BIT(RL_C_FLOPS_FMA)),
		 held = 0;
	double counted[RL_COUNTER_COUNT] = {0}, expected[RL_COUNTER_COUNT] = {0};
	double c1[RL_COUNTER_COUNT], d1[RL_COUNTER_COUNT];
	const struct rl_kat_kernel *ks;
	size_t nk;
	void *state;
	int rc = 0;
	cpu_set_t cpus;
	bool affine;

	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(setup->provided & BIT(c)) ||
		    !((flops | dram_mask()) & BIT(c)))
			continue;
		if (setup->scope[c] == RL_SCOPE_PROXY ||
		    setup->scope[c] == RL_SCOPE_SIMULATED) {
			char t[80];
			snprintf(t, sizeof t, "%s not held to it (%s)",
				 rl_counter_name(c),
				 rl_scope_name(setup->scope[c]));
			note(st, t);
			continue;
		}
		held |= BIT(c);
	}
	if (!held) {
		note(st, "no flops or DRAM counter to check");
		return 0;
	}
	if (!(state = calloc(1, be->thread_state_size ? be->thread_state_size
						      : 1)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	/* a backend may pin the thread it counts (likwid does): the program
	 * started after the check must not inherit that */
	affine = sched_getaffinity(0, sizeof cpus, &cpus) == 0;
	if ((rc = be->thread_open(state, err, errlen)) < 0) {
		if (affine)
			sched_setaffinity(0, sizeof cpus, &cpus);
		free(state);
		return rc;
	}
	ks = rl_kat_kernels(&nk);
	for (size_t i = 0; i < nk && rc == 0; i++) {
		const struct rl_kat_kernel *k = &ks[i];
		bool dram = k->counter < 0;
		double best[RL_COUNTER_COUNT], best_done[RL_COUNTER_COUNT];
		uint64_t mine = dram ? held : held & flops;
		if (!k->runs_here || (dram && !(held & dram_mask())))
			continue;
		for (int t = 0; t < (dram ? RL_KAT_DRAM_TRIES : 1) && rc == 0; t++) {
			if (dram && rl_kat_dram_prepare() < 0) {
				rc = rl_fail(err, errlen, RL_ENOMEM,
					     "out of memory");
				break;
			}
			if ((rc = measure(be, state, k, c1, d1)) < 0)
				break;
			for (int c = 0; c < RL_COUNTER_COUNT; c++)
				if (t == 0 || c1[c] < best[c]) {
					best[c] = c1[c];
					best_done[c] = d1[c];
				}
		}
		for (int c = 0; rc == 0 && c < RL_COUNTER_COUNT; c++) {
			if (!(mine & BIT(c)))
				continue;
			counted[c] += best[c];
			expected[c] += best_done[c];
		}
	}
	be->thread_close(state);
	if (affine)
		sched_setaffinity(0, sizeof cpus, &cpus);
	free(state);
	rl_kat_release();
	if (rc < 0)
		return rc;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		struct rl_selftest_item *it = &st->items[st->n];
		if (!(held & BIT(c)))
			continue;
		if (expected[c] <= 0 && counted[c] <= 0) {
			char t[80];
			snprintf(t, sizeof t, "%s not exercised here",
				 rl_counter_name(c));
			note(st, t);
			continue;
		}
		it->counter = c;
		it->counted = counted[c];
		it->expected = expected[c];
		it->factor = expected[c] > 0 ? counted[c] / expected[c] : INFINITY;
		it->ok = rl_selftest_within(c, it->factor);
		st->n++;
	}
	st->ran = true;
	return 0;
}

int rl_selftest_run(const struct rl_backend *be, const char *options,
		    struct rl_selftest *st, char *err, size_t errlen)
{
	return rl_selftest_cached(be, options, NULL, st, err, errlen);
}

/* FNV-1a over the text that names this machine, kernel and event set. */
static uint64_t fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (h ^ 0xff) * UINT64_C(1099511628211);
}

static uint64_t cache_key(const struct rl_backend *be, const char *options,
			  const struct rl_backend_setup *setup)
{
	uint64_t h = UINT64_C(14695981039346656037);
	struct utsname u;
	char line[512], *model = NULL;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "model name", 10) == 0) {
			model = line;
			break;
		}
	h = fnv(h, model ? model : "?");
	if (f)
		fclose(f);
	if (uname(&u) == 0) {
		h = fnv(h, u.release);
		h = fnv(h, u.version);
	}
	h = fnv(h, be->name);
	h = fnv(h, options);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (setup->provided & BIT(c)) {
			char s[8];
			snprintf(s, sizeof s, "%d:%d", c, setup->scope[c]);
			h = fnv(h, s);
			h = fnv(h, setup->method[c]);
		}
	return h;
}

static int cache_path(const char *dir, uint64_t key, char *path, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int w;

	if (dir[0])
		w = snprintf(path, len, "%s/selftest-%016llx.json", dir,
			     (unsigned long long)key);
	else if (xdg && xdg[0] == '/')
		w = snprintf(path, len, "%s/rlprof/selftest-%016llx.json", xdg,
			     (unsigned long long)key);
	else if (home && home[0])
		w = snprintf(path, len,
			     "%s/.cache/rlprof/selftest-%016llx.json", home,
			     (unsigned long long)key);
	else
		return -1;
	return w > 0 && (size_t)w < len ? 0 : -1;
}

static int cache_load(const char *path, struct rl_selftest *st)
{
	json_t *o = json_load_file(path, 0, NULL);
	int rc = o ? rl_selftest_from_json(o, st) : -1;

	json_decref(o);
	return rc == 0 && st->ran ? 0 : -1;
}

/* Written whole or not at all; a cache that cannot be written is no
 * failure (the check runs again next time). */
static void cache_store(const char *path, const struct rl_selftest *st)
{
	char tmp[4200], dir[4096], *slash;
	json_t *o = rl_selftest_json(st);

	snprintf(dir, sizeof dir, "%s", path);
	if ((slash = strrchr(dir, '/'))) {
		*slash = '\0';
		mkdir(dir, 0755); /* its parent exists where the model is */
	}
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	if (o && json_dump_file(o, tmp, JSON_INDENT(2)) == 0 &&
	    rename(tmp, path) != 0)
		remove(tmp);
	json_decref(o);
}

int rl_selftest_cached(const struct rl_backend *be, const char *options,
		       const char *cache_dir, struct rl_selftest *st,
		       char *err, size_t errlen)
{
	struct rl_backend_setup setup;
	double t0 = now_s();
	char path[4096];
	bool cache;
	int rc;

	memset(st, 0, sizeof *st);
	memset(&setup, 0, sizeof setup);
	if ((rc = be->init(options ? options : "", &setup, err, errlen)) < 0)
		return rc;
	cache = cache_dir &&
		cache_path(cache_dir, cache_key(be, options, &setup), path,
			   sizeof path) == 0;
	if (cache && cache_load(path, st) == 0) {
		st->cached = true;
	} else {
		rc = run_kernels(be, &setup, st, err, errlen);
		if (rc == 0 && cache && st->ran)
			cache_store(path, st);
	}
	if (be->fini)
		be->fini();
	st->seconds = now_s() - t0;
	return rc;
}

/* ---- with a launch's settings ---- */

#define ENV_MAX 16

/* The launch's RLPROF_* settings (e.g. the perf backend's resolved
 * events) in this process for the check; restored after. */
struct saved_env {
	char *name[ENV_MAX];
	char *old[ENV_MAX];
	size_t n;
};

static void env_in(const struct rl_launch *l, struct saved_env *s)
{
	s->n = 0;
	for (size_t i = 0; i < l->envc && s->n < ENV_MAX; i++) {
		const char *eq = strchr(l->env[i], '=');
		char *name;
		if (!eq || strncmp(l->env[i], "RLPROF_", 7) != 0 ||
		    !(name = strndup(l->env[i], (size_t)(eq - l->env[i]))))
			continue;
		s->old[s->n] = getenv(name) ? strdup(getenv(name)) : NULL;
		s->name[s->n++] = name;
		setenv(name, eq + 1, 1);
	}
}

static void env_out(struct saved_env *s)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->old[i])
			setenv(s->name[i], s->old[i], 1);
		else
			unsetenv(s->name[i]);
		free(s->name[i]);
		free(s->old[i]);
	}
	s->n = 0;
}

int rl_selftest_for_launch(const struct rl_backend *be,
			   const struct rl_launch *l, const char *options,
			   const char *cache_dir, struct rl_selftest *st,
			   char *err, size_t errlen)
{
	struct saved_env env;
	int rc;

	env_in(l, &env);
	rc = rl_selftest_cached(be, options, cache_dir, st, err, errlen);
	env_out(&env);
	return rc;
}

int rl_selftest_standalone(const struct rl_backend *be, const char *options,
			   const char *cache_dir, struct rl_selftest *st,
			   char *err, size_t errlen)
{
	char *argv[] = {(char *)"true", NULL};
	struct rl_launch l;
	int rc;

	memset(st, 0, sizeof *st);
	if (rl_launch_init(&l, argv, 1) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	l.options = options ? options : "";
	rc = be->prepare_launch ? be->prepare_launch(&l, err, errlen) : 0;
	if (rc >= 0)
		rc = rl_selftest_for_launch(be, &l, options, cache_dir, st, err,
					    errlen);
	rl_launch_release(&l);
	return rc;
}
