/* SPDX-License-Identifier: MIT */
/*
 * The sim backend's command side (rlprof run; backend_sim.c has the
 * whole story): the cache geometry's text, the backend options, probe()
 * (valgrind on PATH, the tool beside rlprof), prepare_launch() (the
 * program under `valgrind --tool=rlprofsim`, glibc pinned to its native
 * behaviour) and explain_exit().
 */
#include "formats/sim_caches.h"
#include "formats/sim_protocol.h"
#include "counters/backend_sim.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- cache geometry (command side; pure parts tested directly) ---- */

struct rl_sim_level {
	uint64_t size_bytes;
	unsigned ways;
};

int rl_sim_geometry_format(const struct rl_sim_level *lv, int n, char *buf,
			   size_t len);
int rl_sim_geometry_parse(const char *text, struct rl_sim_level *lv,
			  char *err, size_t errlen);

/* "48K:12,1M:8,32M:16"; returns the length written. */
int rl_sim_geometry_format(const struct rl_sim_level *lv, int n, char *buf,
			   size_t len)
{
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		char s[32];
		rl_sim_caches_size_text(lv[i].size_bytes, s, sizeof s);
		rl_appendf(buf, len, "%s%s:%u", i ? "," : "", s, lv[i].ways);
	}
	return (int)strlen(buf);
}

/* Parse SIZE:WAYS,... (K, M, G suffixes); returns the level count or a
 * negative RL_E* code with a message. */
int rl_sim_geometry_parse(const char *text, struct rl_sim_level *lv,
			  char *err, size_t errlen)
{
	struct rl_sim_cache_level got[RS_MAX_LEVELS];
	int level = 0, n = rl_sim_caches_parse(text, got, &level);

	for (int i = 0; i < n; i++) {
		lv[i].size_bytes = got[i].size_bytes;
		lv[i].ways = got[i].ways;
	}
	if (n == RL_SIM_CACHES_TOO_MANY)
		return rl_fail(err, errlen, RL_EINVAL,
			       "sim-caches '%s': more than %d levels", text,
			       RS_MAX_LEVELS);
	if (n == RL_SIM_CACHES_SHAPE)
		return rl_fail(err, errlen, RL_EINVAL,
			       "sim-caches '%s': level %d: the size must be a "
			       "multiple of ways x 64 B (1 to 64 ways)",
			       text, level);
	if (n < 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "sim-caches '%s': expected SIZE:WAYS per level, "
			       "e.g. 48K:12,1M:8,32M:16",
			       text);
	return n;
}

/* ---- options ---- */

/* Value of key in "k=v;k=v" into buf; NULL when absent. */
static const char *opt_get(const char *opts, const char *key, char *buf,
			   size_t len)
{
	size_t klen = strlen(key);
	const char *s = opts;
	while (s && *s) {
		const char *end = strchr(s, ';');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		if (n > klen && strncmp(s, key, klen) == 0 && s[klen] == '=') {
			size_t v = n - klen - 1;
			if (v >= len)
				v = len - 1;
			memcpy(buf, s + klen + 1, v);
			buf[v] = '\0';
			return buf;
		}
		s = end ? end + 1 : NULL;
	}
	return NULL;
}

/* ---- probe and launch (command side) ---- */

static int find_in_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		snprintf(out, len, "%.*s/%s", (int)n, n ? path : ".", name);
		if (access(out, X_OK) == 0)
			return 0;
		path += n + (end ? 1 : 0);
	}
	return -1;
}

static int tool_dir(char *out, size_t len)
{
	char exe[PATH_MAX], tmp[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(tmp, sizeof tmp, "%s/../libexec/rlprof", exe);
	if (!realpath(tmp, out)) {
		out[0] = '\0';
		rl_appendf(out, len, "%s", tmp);
	}
	return 0;
}

int rl_sim_probe(char *why, size_t whylen)
{
	char path[PATH_MAX + 64], dir[PATH_MAX];
	if (find_in_path("valgrind", path, sizeof path) < 0) {
		rl_fail(why, whylen, RL_ENOTSUP,
			"'valgrind' is not on PATH: install valgrind");
		return RL_CAP_NONE;
	}
	if (tool_dir(dir, sizeof dir) < 0) {
		rl_fail(why, whylen, RL_ENOENT, "cannot read /proc/self/exe");
		return RL_CAP_NONE;
	}
	snprintf(path, sizeof path, "%s/" SIM_TOOL, dir);
	if (access(path, X_OK) != 0) {
		rl_fail(why, whylen, RL_ENOENT,
			"the simulator was not built: install valgrind "
			"(its tool archives) and rebuild ('%s' is missing)",
			path);
		return RL_CAP_NONE;
	}
	snprintf(path, sizeof path, "%s/vgpreload_core-amd64-linux.so", dir);
	if (access(path, R_OK) != 0) {
		rl_fail(why, whylen, RL_ENOENT,
			"'%s' is missing or dangling: reinstall valgrind",
			path);
		return RL_CAP_NONE;
	}
	return RL_CAP_FLOPS_BYTES;
}

/* glibc's native x86_non_temporal_threshold, from `ld.so --list-tunables`
 * (glibc >= 2.33); 0 when unknown. */
static unsigned long long native_nt_threshold(void)
{
	static const char *const ldso[] = {"/lib64/ld-linux-x86-64.so.2",
		"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"};
	const char *key = "glibc.cpu.x86_non_temporal_threshold:";
	unsigned long long v = 0;
	for (size_t k = 0; k < 2 && v == 0; k++) {
		int fd[2];
		pid_t pid;
		posix_spawn_file_actions_t fa;
		char *argv[] = {(char *)ldso[k], (char *)"--list-tunables", NULL};
		if (access(ldso[k], X_OK) != 0 || pipe(fd) < 0)
			continue;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
		posix_spawn_file_actions_addclose(&fa, fd[0]);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
		int rc = posix_spawn(&pid, ldso[k], &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
		close(fd[1]);
		if (rc != 0) {
			close(fd[0]);
			continue;
		}
		FILE *f = fdopen(fd[0], "r");
		char line[256];
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, key, strlen(key)) == 0)
				v = strtoull(line + strlen(key), NULL, 0);
		if (f)
			fclose(f);
		else
			close(fd[0]);
		waitpid(pid, NULL, 0);
	}
	return v;
}

/*
 * GLIBC_TUNABLES for the program under the simulator, keeping the user's
 * own settings (a key the user set is left alone):
 * - glibc picks memcpy's non-temporal threshold from the (simulated,
 *   Haswell) CPUID under Valgrind: pin the native one;
 * - rep movsb/stosb (ERMS, which glibc uses for copies and fills from
 *   about 2 KiB up to the non-temporal threshold) run one byte per
 *   Valgrind block (a 32 MiB memcpy took 1.2-2.0 s against 0.09-0.29 s
 *   on its vector loop on this project's VM). Thresholds at their
 *   maximum keep memcpy/memmove/memset on the vector loop (the same bytes
 *   moved, the same lines touched; non-temporal stores still above the
 *   threshold).
 * Says what was done in note.
 */
static int pin_glibc_tunables(struct rl_launch *l, char *note, size_t nlen)
{
	static const char *const rep[] = {"x86_rep_movsb_threshold",
					  "x86_rep_stosb_threshold"};
	const char *old = getenv("GLIBC_TUNABLES");
	char tun[1024];
	int rep_pinned = 0;
	snprintf(tun, sizeof tun, "%s", old ? old : "");
	if (!old || !strstr(old, "x86_non_temporal_threshold")) {
		unsigned long long t = native_nt_threshold();
		if (t) {
			rl_appendf(tun, sizeof tun,
			       "%sglibc.cpu.x86_non_temporal_threshold=%#llx",
			       *tun ? ":" : "", t);
			rl_appendf(note, nlen,
			       "; glibc non-temporal threshold pinned to the "
			       "native %#llx",
			       t);
		} else {
			rl_appendf(note, nlen,
			       "; glibc's native non-temporal threshold unknown "
			       "(ld.so --list-tunables failed): memcpy may use "
			       "non-temporal stores at smaller sizes than "
			       "natively");
		}
	}
	for (size_t k = 0; k < 2; k++)
		if (!old || !strstr(old, rep[k])) {
			rl_appendf(tun, sizeof tun,
			       "%sglibc.cpu.%s=0xffffffffffffffff",
			       *tun ? ":" : "", rep[k]);
			rep_pinned++;
		}
	if (rep_pinned)
		rl_appendf(note, nlen,
		       "; glibc rep movsb/stosb off (memcpy and memset on "
		       "their vector loops, which the simulator runs faster)");
	if (strcmp(tun, old ? old : "") != 0 &&
	    rl_launch_setenv(l, "GLIBC_TUNABLES", tun) < 0)
		return RL_ENOMEM;
	return 0;
}

/* Valgrind gives the main thread min(max(stack limit, 1 MiB), 16 MiB)
 * of stack; natively it may grow to the stack limit. A program that
 * needs more (OpenMP STREAM with its arrays on the stack under
 * `ulimit -s unlimited`) would die under the simulator only. Its size in
 * bytes: the limit, at most 2 GiB (Valgrind's most; "unlimited" too);
 * 0 when Valgrind's own choice is the limit already. */
static uint64_t sim_main_stack(void)
{
	struct rlimit rl;
	const uint64_t vg_default = 16ull << 20, most = 2ull << 30;

	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur <= vg_default)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > most)
		return most;
	return rl.rlim_cur;
}

/* The stack limit is above what Valgrind can give */
static bool sim_stack_capped(void)
{
	struct rlimit rl;

	return getrlimit(RLIMIT_STACK, &rl) == 0 &&
	       (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (2ull << 30));
}

/* "--main-stacksize=N" into buf when the limit exceeds Valgrind's own
 * choice; false otherwise */
static bool main_stacksize(char *buf, size_t len)
{
	uint64_t size = sim_main_stack();

	if (!size)
		return false;
	snprintf(buf, len, "--main-stacksize=%llu", (unsigned long long)size);
	return true;
}

int rl_sim_prepare_launch(struct rl_launch *l, char *err, size_t errlen)
{
	char valgrind[PATH_MAX + 16], caches[128], bounds[32], census[8];
	char origin[512];
	char note[1024] = "", a_caches[160], a_bounds[64], a_log[PATH_MAX + 32];
	char loops[PATH_MAX], a_loops[PATH_MAX + 16], a_loops_out[PATH_MAX + 48];
	char a_stack[64], mpi[8];
	const char *args[12];
	size_t n = 0;
	int rc;

	if (find_in_path("valgrind", valgrind, sizeof valgrind) < 0)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "'valgrind' is not on PATH: install valgrind");
	if (!opt_get(l->options, "sim-caches", caches, sizeof caches))
		return rl_fail(err, errlen, RL_EINVAL,
			       "no cache geometry to simulate: give it with "
			       "--sim-caches SIZE:WAYS,... from L1 out (e.g. "
			       "48K:12,1M:16,32M:16)");
	struct rl_sim_level lv[RS_MAX_LEVELS];
	if ((rc = rl_sim_geometry_parse(caches, lv, err, errlen)) < 0)
		return rc;
	rl_sim_geometry_format(lv, rc, caches, sizeof caches);
	if (opt_get(l->options, "sim-origin", origin, sizeof origin))
		snprintf(note, sizeof note, "cache geometry from %s: %s",
			 opt_get(l->options, "sim-claims", census,
				 sizeof census)
				 ? "what this machine claims, unmeasured (no "
				   "usable machine model)"
				 : "the machine model",
			 origin);
	else
		snprintf(note, sizeof note, "cache geometry from --sim-caches");
	if (opt_get(l->options, "mpi-calls", mpi, sizeof mpi))
		rl_appendf(note, sizeof note, "%s",
			   strcmp(mpi, "in") == 0
				   ? "; MPI calls counted as the program's "
				     "work (--mpi-calls in)"
				   : "; MPI calls not counted (librlprof-mpi's "
				     "PMPI wrappers pause the count; "
				     "--mpi-calls in keeps them)");
	if (opt_get(l->options, "sim-bounds", bounds, sizeof bounds) &&
	    strcmp(bounds, "cause") != 0 && strcmp(bounds, "region") != 0 &&
	    strcmp(bounds, "raw") != 0)
		return rl_fail(err, errlen, RL_EINVAL,
			       "sim-bounds '%s': expected cause, region or raw",
			       bounds);
	args[n++] = valgrind;
	args[n++] = "--tool=rlprofsim";
	/* no -q: Valgrind reports an instruction it cannot decode only when
	 * verbose, and the log goes to raw_dir, not to the user */
	args[n++] = "--trace-children=yes";
	snprintf(a_log, sizeof a_log, "--log-file=%s/valgrind-%%p.log",
		 l->raw_dir);
	args[n++] = a_log;
	snprintf(a_caches, sizeof a_caches, "--sim-caches=%s", caches);
	args[n++] = a_caches;
	if (opt_get(l->options, "sim-bounds", bounds, sizeof bounds)) {
		snprintf(a_bounds, sizeof a_bounds, "--sim-bounds=%s", bounds);
		args[n++] = a_bounds;
	}
	/* rlprof run --loops: the spans of the program's loops; the counts
	 * per loop come back per process (counters/sim/rs_loops.c) */
	if (opt_get(l->options, "sim-loops", loops, sizeof loops)) {
		snprintf(a_loops, sizeof a_loops, "--sim-loops=%s", loops);
		snprintf(a_loops_out, sizeof a_loops_out,
			 "--sim-loops-out=%s/loop-counts-%%p.txt", l->raw_dir);
		args[n++] = a_loops;
		args[n++] = a_loops_out;
		/* --loop-calls: each loop's total with the functions it
		 * calls (blocks end at calls: slower) */
		if (opt_get(l->options, "sim-loop-calls", loops, sizeof loops) &&
		    strcmp(loops, "yes") == 0)
			args[n++] = "--sim-loop-calls=yes";
	}
	if (opt_get(l->options, "sim-census", census, sizeof census))
		args[n++] = strcmp(census, "yes") == 0 ? "--sim-census=yes"
						       : "--sim-census=no";
	if (main_stacksize(a_stack, sizeof a_stack))
		args[n++] = a_stack;
	if ((rc = rl_launch_prepend(l, args, n)) < 0)
		return rl_fail(err, errlen, rc, "out of memory");

	if ((rc = pin_glibc_tunables(l, note, sizeof note)) < 0)
		return rl_fail(err, errlen, rc, "out of memory");
	/* Open MPI's hwloc would say, in every rank, that its x86 backend
	 * cannot work under Valgrind (and disable itself): it is left out
	 * from the start, so the run is quiet; a user's own choice stays */
	if (!getenv("HWLOC_COMPONENTS") &&
	    rl_launch_setenv(l, "HWLOC_COMPONENTS", "-x86") < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if (!getenv("OMP_WAIT_POLICY") &&
	    rl_launch_setenv(l, "OMP_WAIT_POLICY", "passive") < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if (rl_launch_setenv(l, "VALGRIND_LIB", l->libexec_dir) < 0 ||
	    rl_launch_setenv(l, "RLPROF_SIM_NOTE", note) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	return 0;
}

/* Does a valgrind log in raw_dir contain needle? With after (may be
 * NULL), copy the first quoted text found from that line on into it. */
static int log_find(const char *raw_dir, const char *needle, char *after,
		    size_t alen)
{
	DIR *d = opendir(raw_dir);
	struct dirent *e;
	int found = 0;
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		char path[PATH_MAX], line[1024];
		if (strncmp(e->d_name, "valgrind-", 9) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", raw_dir, e->d_name);
		FILE *f = fopen(path, "r");
		while (f && !found && fgets(line, sizeof line, f))
			found = strstr(line, needle) != NULL;
		while (f && found && after && fgets(line, sizeof line, f)) {
			char *q = strchr(line, '"'), *r = q ? strchr(q + 1, '"') : NULL;
			if (r) {
				*r = '\0';
				after[0] = '\0';
				rl_appendf(after, alen, "%s", q + 1);
				break;
			}
		}
		if (f)
			fclose(f);
	}
	closedir(d);
	return found;
}

int rl_sim_explain_exit(const char *raw_dir, int st, char *msg,
			    size_t msglen)
{
	int sigill = (WIFSIGNALED(st) && WTERMSIG(st) == SIGILL) ||
		     (WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGILL);
	char file[512] = "a library";
	if (!raw_dir)
		return 0;
	if (sigill && log_find(raw_dir, "unhandled instruction bytes: 0x62",
			       NULL, 0)) {
		snprintf(msg, msglen,
			 "the program uses AVX-512 instructions, which the "
			 "simulator (Valgrind %d.%d) cannot execute: the "
			 "report keeps the native run's times; to count, build "
			 "it also with -march=x86-64-v3 and add "
			 "'--count-with PORTABLE' (or use a hardware backend)",
			 __VALGRIND_MAJOR__, __VALGRIND_MINOR__);
		return 1;
	}
	if (sigill && log_find(raw_dir, "unhandled instruction bytes", NULL, 0)) {
		snprintf(msg, msglen,
			 "the program uses an instruction the simulator "
			 "(Valgrind %d.%d) cannot execute (see valgrind-*.log "
			 "in '%s'): rebuild it for an older CPU "
			 "(-march=x86-64-v3) or use a hardware backend",
			 __VALGRIND_MAJOR__, __VALGRIND_MINOR__, raw_dir);
		return 1;
	}
	if (((WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) ||
	     (WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGSEGV)) &&
	    sim_stack_capped()) {
		snprintf(msg, msglen,
			 "under the simulator (Valgrind %d.%d) the program's "
			 "main thread has at most 2 GiB of stack, less than "
			 "its stack limit ('ulimit -s'): a program that needs "
			 "more (arrays on the stack) dies there only; put its "
			 "large arrays on the heap, or use a hardware backend",
			 __VALGRIND_MAJOR__, __VALGRIND_MINOR__);
		return 1;
	}
	if (log_find(raw_dir, "debuginfo reader: ensure_valid failed", file,
		     sizeof file)) {
		msg[0] = '\0';
		rl_appendf(msg, msglen,
		       "the simulator (Valgrind %d.%d) cannot read the debug "
		       "information of '%s' (DWARF 5 as clang writes it) and "
		       "gave up: rebuild it with -gdwarf-4",
		       __VALGRIND_MAJOR__, __VALGRIND_MINOR__, file);
		return 1;
	}
	return 0;
}
