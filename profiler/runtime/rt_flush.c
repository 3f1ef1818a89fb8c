/*
 * Writing $RLPROF_OUT/rlprof-<pid>.json at exit or on a fatal signal
 * (temporary file + rename, no malloc on the signal path), the fatal-signal
 * handlers and the alternate signal stacks they run on.
 */
#include "runtime/rl_results_now.h"
#include "runtime/rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RL_ALTSTACK_BYTES (64 * 1024)

/* Every signal whose default action ends the process and that programs
 * meet in practice: faults, abort, stop requests (Ctrl-C, kill, hangup of
 * the terminal), a closed pipe (`rlprof run ./app | head`), alarm(),
 * limits. SIGKILL cannot be caught; SIGPROF/SIGVTALRM belong to
 * profilers. */
static const int rl_fatal_signals[] = {
	SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,  SIGABRT, SIGTERM, SIGINT,
	SIGQUIT, SIGXCPU, SIGHUP,  SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXFSZ, SIGSYS,
};

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	case SIGTERM: return "SIGTERM";
	case SIGINT: return "SIGINT";
	case SIGQUIT: return "SIGQUIT";
	case SIGXCPU: return "SIGXCPU";
	case SIGHUP: return "SIGHUP";
	case SIGPIPE: return "SIGPIPE";
	case SIGALRM: return "SIGALRM";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGXFSZ: return "SIGXFSZ";
	case SIGSYS: return "SIGSYS";
	}
	return "signal";
}

/* errno in words, without strerror (not async-signal-safe). */
static const char *errno_text(int e)
{
	switch (e) {
	case ENOENT: return "No such file or directory";
	case EACCES: return "Permission denied";
	case EPERM: return "Operation not permitted";
	case ENOSPC: return "No space left on device";
	case EDQUOT: return "Disk quota exceeded";
	case EROFS: return "Read-only file system";
	case ENOTDIR: return "Not a directory";
	case EIO: return "Input/output error";
	case ENAMETOOLONG: return "File name too long";
	case EMFILE: return "Too many open files";
	}
	return "error";
}

void rl_rt_owner_may_use(int fd, const char *path, mode_t need)
{
	struct stat st;

	if (fd >= 0 ? fstat(fd, &st) != 0 : lstat(path, &st) != 0)
		return;
	if ((st.st_mode & need) == need)
		return;
	if (fd >= 0)
		(void)fchmod(fd, (st.st_mode & 07777) | need);
	else if (S_ISDIR(st.st_mode))
		(void)chmod(path, (st.st_mode & 07777) | need);
}

/* mkdir -p: the directory may have been removed while the program ran. */
static void make_dirs(const char *dir)
{
	char buf[sizeof rl_rt.out_dir];
	struct rl_sb b = {buf, sizeof buf, 0};
	rl_sb_str(&b, dir);
	for (size_t i = 1; i <= b.len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		char saved = buf[i];
		buf[i] = '\0';
		if (mkdir(buf, 0777) == 0)
			rl_rt_owner_may_use(-1, buf, S_IRWXU);
		buf[i] = saved;
	}
}

/* What a failed write leaves: the regions with completed calls, and
 * where they are kept, if anywhere (the live file, unless it could not
 * keep them: then they are lost, and named). */
static void write_failed(const char *path, int e,
			 const struct rl_process_results *r)
{
	char line[sizeof rl_rt.out_dir + sizeof rl_rt.live_path + 768];
	struct rl_sb s = {line, sizeof line, 0};
	uint64_t n_regions = 0, calls = 0;
	bool kept = rl_rt.live && !rl_rt.live_lost;

	rl_sb_str(&s, "rlprof: cannot write '");
	rl_sb_str(&s, path);
	rl_sb_str(&s, "': ");
	rl_sb_str(&s, errno_text(e));
	if (!strcmp(errno_text(e), "error")) {
		rl_sb_str(&s, " ");
		rl_sb_u64(&s, (uint64_t)e);
	}
	for (size_t t = 0; t < r->n_threads; t++)
		for (size_t k = 0; k < r->threads[t].n_regions; k++) {
			struct rl_region_stats st;
			memset(&st, 0, sizeof st);
			r->threads[t].region_at(r->threads[t].ctx, k, &st);
			if (!st.calls)
				continue;
			if (!kept && n_regions < 4) {
				rl_sb_str(&s, n_regions ? ", " : ": lost: ");
				rl_sb_name(&s, st.name);
			}
			n_regions++;
			calls += st.calls;
		}
	if (!kept && n_regions > 4) {
		rl_sb_str(&s, " and ");
		rl_sb_u64(&s, n_regions - 4);
		rl_sb_str(&s, " more");
	}
	if (n_regions == 0) {
		rl_sb_str(&s, ": no region of this process completed a call");
	} else if (kept) {
		rl_sb_str(&s, ": the ");
		rl_sb_u64(&s, calls);
		rl_sb_str(&s, calls == 1 ? " call of its " : " calls of its ");
		rl_sb_u64(&s, n_regions);
		rl_sb_str(&s, n_regions == 1 ? " region" : " regions");
		rl_sb_str(&s, " (per thread) are kept in its live file ");
		rl_sb_name(&s, rl_rt.live_path);
		rl_sb_str(&s, ", which rlprof run recovers");
	} else {
		rl_sb_str(&s, " (");
		rl_sb_u64(&s, n_regions);
		rl_sb_str(&s, n_regions == 1 ? " region per thread, "
					     : " regions per thread, ");
		rl_sb_u64(&s, calls);
		rl_sb_str(&s, calls == 1 ? " call" : " calls");
		rl_sb_str(&s, ", which its live file could not keep either)");
	}
	rl_sb_str(&s, "; keep the output directory (RLPROF_OUT) writable "
		      "while the program runs\n");
	ssize_t n = write(2, line, s.len);
	(void)n;
}

/* One try at DIR/rlprof-<pid>.json: 0, else the errno, with the path that
 * failed in failed (a buffer as large as rl_rt.out_dir + 64). */
static int try_write(const struct rl_process_results *r, char *failed)
{
	char tmp[sizeof rl_rt.out_dir + 64], fin[sizeof rl_rt.out_dir + 64];
	struct rl_sb a = {tmp, sizeof tmp, 0}, b = {fin, sizeof fin, 0};
	struct rl_sb f = {failed, sizeof rl_rt.out_dir + 64, 0};
	rl_sb_str(&a, rl_rt.out_dir);
	rl_sb_str(&a, "/.rlprof-");
	rl_sb_u64(&a, (uint64_t)r->pid);
	char rnd[17];
	rl_rt_random_hex(rnd, 16);
	rl_sb_str(&a, "-");
	rl_sb_str(&a, rnd);
	rl_sb_str(&a, ".json.tmp");
	rl_sb_str(&b, rl_rt.out_dir);
	rl_sb_str(&b, "/rlprof-");
	rl_sb_u64(&b, (uint64_t)r->pid);
	rl_sb_str(&b, ".json");

	/* a new file under an unguessable name, never through a link; the
	 * rename replaces whatever is at the final name, following nothing */
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	const char *tmp_name, *fin_name;
	int at = rl_rt_out_at(tmp, &tmp_name);
	int fd = openat(at, tmp_name, flags, 0644);
	if (fd < 0 && errno == ENOENT && at == AT_FDCWD) {
		make_dirs(rl_rt.out_dir);
		fd = open(tmp, flags, 0644);
	}
	if (fd < 0) {
		int e = errno;
		rl_sb_str(&f, tmp);
		return e;
	}
	/* readable by its owner whatever the program's umask (0777 made it
	 * mode 000, and rlprof lost every region) */
	rl_rt_owner_may_use(fd, NULL, S_IRUSR | S_IWUSR);
	int rc = rl_results_write_fd(fd, r);
	int saved = errno;
	if (close(fd) < 0 && rc == 0)
		rc = -1, saved = errno;
	if (rc < 0) {
		unlinkat(at, tmp_name, 0);
		rl_sb_str(&f, tmp);
		return saved ? saved : EIO;
	}
	/* in the same folder as the temporary file, whatever its path
	 * leads to now */
	fin_name = at == AT_FDCWD ? fin : fin + strlen(rl_rt.out_dir) + 1;
	if (renameat(at, tmp_name, at, fin_name) < 0) {
		saved = errno;
		unlinkat(at, tmp_name, 0);
		rl_sb_str(&f, fin);
		return saved;
	}
	return 0;
}

static void write_file(const struct rl_process_results *r)
{
	char failed[sizeof rl_rt.out_dir + 64];
	int e = try_write(r, failed);

	/* a full disk, and a live file that holds no record (with 8 KiB
	 * free its header took the room): it only takes the room the
	 * results need, so it goes and the write is tried again */
	if ((e == ENOSPC || e == EDQUOT) && rl_rt_live_drop_if_empty())
		e = try_write(r, failed);
	if (e) {
		write_failed(failed, e, r);
		return;
	}
	/* written: the live file is not needed (kept when the write failed,
	 * so rlprof run can still recover the regions) */
	rl_rt_live_remove();
}

static void region_at(const void *ctx, size_t k, struct rl_region_stats *out)
{
	rl_rt_region_stats(ctx, k, out);
}

static void flush_when(int sig, const char *when);

void rl_rt_flush(int sig)
{
	flush_when(sig, "at exit");
}

void rl_results_write_now(const char *when)
{
	flush_when(0, when && *when ? when : "at exit");
}

static void flush_when(int sig, const char *when)
{
	if (__atomic_exchange_n(&rl_rt.flushing, 1, __ATOMIC_ACQ_REL))
		return;
	if (__atomic_load_n(&rl_rt.state, __ATOMIC_ACQUIRE) != RL_RT_ACTIVE)
		return;
	/* Later region calls (other threads, atexit handlers) are ignored. */
	__atomic_store_n(&rl_rt.state, RL_RT_DONE, __ATOMIC_RELEASE);
	bool in_signal = sig != 0;
	bool locked = in_signal ? pthread_mutex_trylock(&rl_rt.lock) == 0
				: pthread_mutex_lock(&rl_rt.lock) == 0;
	char why[96];
	struct rl_sb w = {why, sizeof why, 0};
	if (in_signal) {
		char msg[192];
		struct rl_sb m = {msg, sizeof msg, 0};
		rl_sb_str(&m, "program stopped by signal ");
		rl_sb_u64(&m, (uint64_t)sig);
		rl_sb_str(&m, " (");
		rl_sb_str(&m, signal_name(sig));
		rl_sb_str(&m, "): results written before the end "
			      "(complete: false)");
		rl_rt_warn("signal", NULL, 0, true, msg);
		rl_sb_str(&w, "when signal ");
		rl_sb_u64(&w, (uint64_t)sig);
		rl_sb_str(&w, " (");
		rl_sb_str(&w, signal_name(sig));
		rl_sb_str(&w, ") arrived");
	} else {
		rl_sb_str(&w, when);
	}
	unsigned long refused = rl_rt_refused_calls();
	if (refused) {
		char msg[320];
		struct rl_sb m = {msg, sizeof msg, 0};
		rl_sb_u64(&m, refused);
		rl_sb_str(&m, refused == 1 ? " region call" : " region calls");
		rl_sb_str(&m, " made from a signal handler while its thread "
			      "was inside another region call (or the "
			      "runtime's start-up): ignored, as the half-done "
			      "call could not be interrupted safely; call "
			      "regions in a handler only around code that no "
			      "region call interrupts, or not at all");
		rl_rt_warn("signal-handler-call", NULL, 0, in_signal, msg);
	}
	for (size_t i = 0; i < rl_rt.n_threads; i++)
		if (!rl_rt.threads[i]->exited)
			rl_rt_close_all(rl_rt.threads[i], why, in_signal);

	rl_rt_clock_refine();
	for (size_t i = 0; i < rl_rt.n_threads; i++) {
		const struct rl_thread *t = rl_rt.threads[i];
		memset(&rl_rt.snap[i], 0, sizeof rl_rt.snap[i]);
		rl_rt.snap[i].tid = t->tid;
		rl_rt.snap[i].index = t->index;
		rl_rt.snap[i].n_regions = t->n_regions;
		rl_rt.snap[i].region_at = region_at;
		rl_rt.snap[i].ctx = t;
	}
	struct rl_process_results r = {
		.version = RL_RESULTS_VERSION,
		.pid = (long)getpid(),
		.ppid = (long)getppid(),
		.program = rl_rt.program,
		.backend = (char *)rl_rt.backend->name,
		.backend_note = rl_rt.setup.note,
		.provided = rl_rt.setup.provided,
		.start_ns = rl_rt.start_ns,
		.end_ns = rl_rt_realtime_ns(),
		.complete = !in_signal,
		.signal = sig,
		.threads = rl_rt.snap,
		.n_threads = rl_rt.n_threads,
		.warnings = rl_rt.warnings,
		.n_warnings = rl_rt.n_warnings,
	};
	memcpy(r.run_id, rl_rt.run_id, sizeof r.run_id);
	r.mpi_calls = (uint8_t)rl_rt_mpi_calls();
	r.clock_reads_counted = true;
	memcpy(r.scope, rl_rt.setup.scope, sizeof r.scope);
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		r.method[c] = (rl_rt.setup.provided >> c & 1)
				      ? rl_rt.setup.method[c]
				      : NULL;
	for (int i = 0; i < RL_EXTRA_MAX; i++)
		r.extra_name[i] = rl_rt.setup.extra_name[i];
	write_file(&r);

	if (!in_signal && rl_rt.backend->fini)
		rl_rt.backend->fini();
	if (locked)
		pthread_mutex_unlock(&rl_rt.lock);
}

static void on_fatal_signal(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	int saved = errno;
	rl_rt_flush(sig);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	/* Pending while this handler runs; delivered with the default action
	 * on return, so the exit status is the signal's. */
	raise(sig);
	errno = saved;
}

/* Only where the action is still the default: a handler the program (or a
 * sanitizer) installed is left alone, and an ignored signal stays ignored. */
void rl_rt_signals_install(void)
{
	for (size_t i = 0; i < sizeof rl_fatal_signals / sizeof *rl_fatal_signals;
	     i++) {
		int sig = rl_fatal_signals[i];
		struct sigaction old, sa;
		if (sigaction(sig, NULL, &old) < 0)
			continue;
		if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_fatal_signal;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(sig, &sa, NULL);
	}
}

void rl_rt_altstack_add(void **slot)
{
	stack_t cur;
	if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
		return;
	size_t size = RL_ALTSTACK_BYTES;
	long min = sysconf(_SC_SIGSTKSZ);
	if (min > 0 && (size_t)min * 4 > size)
		size = (size_t)min * 4;
	void *p = malloc(size);
	if (!p)
		return;
	stack_t ss = {.ss_sp = p, .ss_size = size, .ss_flags = 0};
	if (sigaltstack(&ss, NULL) < 0) {
		free(p);
		return;
	}
	*slot = p;
}

void rl_rt_altstack_remove(void **slot)
{
	if (!*slot)
		return;
	stack_t cur;
	if (sigaltstack(NULL, &cur) == 0 && cur.ss_sp == *slot &&
	    !(cur.ss_flags & SS_ONSTACK)) {
		stack_t off = {.ss_sp = NULL, .ss_size = 0,
			       .ss_flags = SS_DISABLE};
		if (sigaltstack(&off, NULL) == 0) {
			free(*slot);
			*slot = NULL;
		}
	}
}
