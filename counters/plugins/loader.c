/* Finding and loading backend plugins (see plugin.h). Part of librlprof. */
#include "counters/plugins/plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct rl_backend *rl_plugin_active;

int rl_stderr_mute(void)
{
	int saved = dup(2), fd;

	if (saved < 0)
		return -1;
	fd = memfd_create("rlprof-stderr", MFD_CLOEXEC);
	if (fd < 0) {
		close(saved);
		return -1;
	}
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	return saved;
}

void rl_stderr_restore(int saved, char *first, size_t len)
{
	if (first && len)
		first[0] = '\0';
	if (saved < 0)
		return;
	fflush(stderr);
	if (first && len) {
		ssize_t k = pread(2, first, len - 1, 0);
		first[k > 0 ? k : 0] = '\0';
		first[strcspn(first, "\n")] = '\0';
	}
	dup2(saved, 2);
	close(saved);
}

/* dir of the object holding this code: librlprof.so's lib/, or bin/ when
 * librlprof.a is linked into the rlprof command or the tests. */
static int self_dir(char *dir, size_t len)
{
	Dl_info info;
	char *slash;

	if (!dladdr((void *)rl_plugin_load, &info) || !info.dli_fname)
		return -1;
	if (strchr(info.dli_fname, '/')) {
		snprintf(dir, len, "%s", info.dli_fname);
	} else { /* the main program: dladdr gives its argv[0] */
		ssize_t k = readlink("/proc/self/exe", dir, len - 1);
		if (k <= 0)
			return -1;
		dir[k] = '\0';
	}
	slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

static void load_once(struct rl_plugin *p)
{
	const char *env = secure_getenv("RLPROF_PLUGIN_DIR");
	char dir[1024], path[1200], first[1200] = "";
	const char *subs[] = {"rlprof", "../lib/rlprof"};
	void *h = NULL;
	rl_plugin_get_fn get;

	if (env && *env) {
		snprintf(path, sizeof path, "%s/%s", env, p->file);
	} else if (self_dir(dir, sizeof dir) == 0) {
		for (size_t i = 0; i < 2; i++) {
			snprintf(path, sizeof path, "%s/%s/%s", dir, subs[i],
				 p->file);
			if (access(path, F_OK) == 0)
				break;
			if (i == 0)
				snprintf(first, sizeof first, "%s", path);
		}
	} else {
		snprintf(p->why, sizeof p->why,
			 "cannot find where librlprof lives to load '%s'",
			 p->file);
		return;
	}
	if (access(path, F_OK) != 0) {
		snprintf(p->why, sizeof p->why,
			 "the plugin '%s' is not installed (looked for '%.300s')",
			 p->file, path);
		return;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		if (e && strstr(e, p->library))
			snprintf(p->why, sizeof p->why,
				 "%s is not installed: %.400s (install it and "
				 "retry)",
				 p->library, e);
		else
			snprintf(p->why, sizeof p->why,
				 "cannot load '%.200s': %.280s", path, e ? e : "?");
		return;
	}
	get = (rl_plugin_get_fn)(uintptr_t)dlsym(h, RL_PLUGIN_SYMBOL);
	p->backend = get ? get(RL_BACKEND_ABI) : NULL;
	if (!p->backend) {
		snprintf(p->why, sizeof p->why,
			 "'%.300s' is not an rlprof plugin of this version", path);
		return;
	}
	if (p->backend->thread_state_size > RL_PLUGIN_STATE_MAX) {
		snprintf(p->why, sizeof p->why,
			 "'%.300s' needs %zu bytes of thread state (at most %d)",
			 path, p->backend->thread_state_size,
			 RL_PLUGIN_STATE_MAX);
		p->backend = NULL;
	}
}

static struct rl_plugin *loading;
static void load_current(void) { load_once(loading); }

int rl_plugin_load(struct rl_plugin *p)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&lock);
	loading = p;
	pthread_once(&p->once, load_current);
	pthread_mutex_unlock(&lock);
	return p->backend ? 0 : RL_ENOENT;
}

/* The probe runs in a child process: the libraries' stderr noise, their
 * leaks (liblikwid leaks after a failed perfmon_init) and any crash stay
 * there; the child sends back the capability and the why line. */
/* The probe child's words, said at exit() too: a library that exits from
 * inside the probe (liblikwid does on a CPU it does not know) leaves
 * whatever the probe wrote into its `why` before the call. */
static char probe_words[580];
static int probe_fd = -1;
static pid_t probe_pid; /* the probe child: not a process the library
			   forked from it (liblikwid starts its access
			   daemon so), which inherits the atexit handler */

static void probe_say(int cap)
{
	char buf[600];

	if (probe_fd < 0 || getpid() != probe_pid)
		return;
	snprintf(buf, sizeof buf, "%d %s", cap, probe_words);
	if (write(probe_fd, buf, strlen(buf)) < 0)
		_exit(1);
	probe_fd = -1;
}

/* The library under probe called exit() (liblikwid does on a CPU it does
 * not know): say what is known, then end the child here. Registered last,
 * this runs before every handler the child inherited from its parent, so
 * none of those runs in the child: the parent's (a test runner's, say)
 * would act as if the parent itself were ending. */
static void probe_say_at_exit(void)
{
	if (getpid() != probe_pid)
		return;
	if (probe_words[0])
		probe_say(RL_CAP_NONE);
	_exit(0);
}

int rl_plugin_probe(struct rl_plugin *p, char *why, size_t len)
{
	int fds[2], status = 0, cap = RL_CAP_NONE;
	char buf[600];
	ssize_t k, got = 0;
	pid_t pid;

	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		snprintf(why, len, "cannot start the %s probe", p->library);
		return RL_CAP_NONE;
	}
	if (pid == 0) {
		int c;
		close(fds[0]);
		rl_stderr_mute();
		probe_fd = fds[1];
		probe_pid = getpid();
		atexit(probe_say_at_exit);
		if (rl_plugin_load(p) < 0) {
			snprintf(probe_words, sizeof probe_words, "%s", p->why);
			c = RL_CAP_NONE;
		} else {
			c = p->backend->probe(probe_words, sizeof probe_words);
		}
		probe_say(c);
		_exit(0);
	}
	close(fds[1]);
	while (got < (ssize_t)sizeof buf - 1 &&
	       (k = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
		got += k;
	buf[got > 0 ? got : 0] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		snprintf(why, len, "%s crashed while probing (signal %d)",
			 p->library, WTERMSIG(status));
		return RL_CAP_NONE;
	}
	if (sscanf(buf, "%d", &cap) != 1 || !strchr(buf, ' ')) {
		snprintf(why, len, "the %s probe said nothing", p->library);
		return RL_CAP_NONE;
	}
	snprintf(why, len, "%s", strchr(buf, ' ') + 1);
	return cap;
}

int rl_plugin_init(struct rl_plugin *p, const char *options,
		   struct rl_backend_setup *setup, char *err, size_t errlen)
{
	int saved, r;

	saved = rl_stderr_mute();
	if (rl_plugin_load(p) < 0) {
		rl_stderr_restore(saved, NULL, 0);
		return rl_fail(err, errlen, RL_ENOTSUP, "%s", p->why);
	}
	r = p->backend->init(options, setup, err, errlen);
	rl_stderr_restore(saved, NULL, 0);
	if (r == 0)
		rl_plugin_active = p->backend;
	return r;
}

/* The one plugin backend a process runs (set by a successful init). */
int rl_plugin_thread_open(void *state, char *err, size_t errlen)
{
	if (!rl_plugin_active)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "the plugin backend did not start");
	return rl_plugin_active->thread_open(state, err, errlen);
}

int rl_plugin_read(void *state, struct rl_counter_value *values)
{
	return rl_plugin_active ? rl_plugin_active->read(state, values)
				: RL_ENOTSUP;
}

void rl_plugin_thread_close(void *state)
{
	if (rl_plugin_active)
		rl_plugin_active->thread_close(state);
}

void rl_plugin_fini(void)
{
	if (rl_plugin_active)
		rl_plugin_active->fini();
}
