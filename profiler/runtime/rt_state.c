/*
 * Runtime start-up (once, from a constructor or the first region call),
 * backend choice with fallback to `time`, the thread registry, thread exit
 * and fork.
 */
#include "runtime/rlprof.h"
#include "runtime/rt_env.h"
#include "runtime/rt_internal.h"
#include "runtime/rt_scope.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct rl_rt rl_rt;
static pthread_once_t rl_once = PTHREAD_ONCE_INIT;
static void *rl_init_altstack;

uint64_t rl_rt_realtime_ns(void)
{
	struct timespec ts;
	rl_rt_clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t gettid_u64(void)
{
	return (uint64_t)syscall(SYS_gettid);
}

static void backend_warning(const char *what, const char *err)
{
	char msg[768];
	struct rl_sb b = {msg, sizeof msg, 0};
	rl_sb_str(&b, what);
	if (err && *err) {
		rl_sb_str(&b, ": ");
		rl_sb_str(&b, err);
	}
	rl_sb_str(&b, ": measured time only (backend 'time')");
	rl_rt_warn("backend", NULL, 0, false, msg);
}

static void use_time_backend(void)
{
	memset(&rl_rt.setup, 0, sizeof rl_rt.setup);
	rl_rt.backend = rl_backend_find("time");
	char err[256];
	if (rl_rt.backend && rl_rt.backend->init)
		rl_rt.backend->init("", &rl_rt.setup, err, sizeof err);
}

static void choose_backend(void)
{
	const char *name = rl_rt_env(RL_ENV_BACKEND);
	const char *opts = rl_rt_env(RL_ENV_BACKEND_OPTIONS);
	char what[256], err[512] = "";
	if (!name || !*name)
		name = "time";
	if (!opts)
		opts = "";
	const struct rl_backend *b = rl_backend_find(name);
	struct rl_sb w = {what, sizeof what, 0};
	if (!b || !b->init || !b->read) {
		rl_sb_str(&w, "backend ");
		rl_sb_name(&w, name);
		rl_sb_str(&w, b ? " cannot run inside the program"
				: " is unknown");
		backend_warning(what, NULL);
		use_time_backend();
		return;
	}
	rl_rt.backend = b;
	int rc = b->init(opts, &rl_rt.setup, err, sizeof err);
	if (rc < 0) {
		rl_sb_str(&w, "backend ");
		rl_sb_name(&w, name);
		rl_sb_str(&w, " did not start");
		backend_warning(what, err);
		use_time_backend();
	}
}

static void thread_exit(void *p);
static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);

static void at_exit(void)
{
	rl_rt_flush(0);
}

static void init_lock(void)
{
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&rl_rt.lock, &ma);
	pthread_mutexattr_destroy(&ma);
}

/* Whether the program opts out: it defines rl_runtime_disabled (as 1) and
 * exports it (-Wl,--export-dynamic-symbol=rl_runtime_disabled), as the
 * rlprof command does; looked up in the global scope, so a librlprof.so
 * preloaded into such a program sees it too. */
static bool program_opted_out(void)
{
	const int *off = dlsym(RTLD_DEFAULT, "rl_runtime_disabled");
	return off && *off;
}

int rl_runtime_wanted = 1; /* rlprof.h */

/* Nothing is measured in this process: regions return at once, and the
 * macros of rlprof.h stop calling. */
static void set_inactive(void)
{
	__atomic_store_n(&rl_rt.state, RL_RT_INACTIVE, __ATOMIC_RELEASE);
	__atomic_store_n(&rl_runtime_wanted, 0, __ATOMIC_RELAXED);
}

static void init_once(void)
{
	/* under secure execution (a setuid program) RLPROF_OUT reads as
	 * unset: inactive, nothing written where the caller points */
	const char *out = rl_rt_env(RL_ENV_OUT);
	bool off = program_opted_out();
	if (off || !out || !*out) {
		set_inactive();
		return;
	}
	if (strlen(out) + 64 > sizeof rl_rt.out_dir) {
		/* said once, not silently inactive */
		static const char msg[] =
			"rlprof: RLPROF_OUT is too long (more than 4032 "
			"bytes): nothing is measured in this process; give a "
			"shorter output directory\n";
		ssize_t n = write(2, msg, sizeof msg - 1);
		(void)n;
		set_inactive();
		return;
	}
	strcpy(rl_rt.out_dir, out);
	rl_rt_out_hold();
	/* the identity rlprof run gave this run, written into every file */
	const char *id = rl_rt_env(RL_ENV_RUN_ID);
	if (id && rl_run_id_valid(id))
		strcpy(rl_rt.run_id, id);
	init_lock();
	if (pthread_key_create(&rl_rt.key, thread_exit) != 0 ||
	    rl_rt_warn_reserve() < 0) {
		set_inactive();
		return;
	}
	snprintf(rl_rt.program, sizeof rl_rt.program, "%s",
		 program_invocation_name ? program_invocation_name : "");
	rl_rt.start_ns = rl_rt_realtime_ns();
	rl_rt_clock_init();

	choose_backend();
	rl_rt.setup.provided &= (RL_COUNTER_COUNT >= 64)
					? ~0ull
					: (1ull << RL_COUNTER_COUNT) - 1;
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (rl_rt.setup.provided >> c & 1)
			rl_rt.prov[rl_rt.n_prov++] = c;
	rl_rt.frame_size = sizeof(struct rl_frame) +
			   rl_rt.n_prov * sizeof(struct rl_counter_value);
	rl_rt_live_open();

	rl_rt_altstack_add(&rl_init_altstack);
	rl_rt_signals_install();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	atexit(at_exit);
	__atomic_store_n(&rl_rt.state, RL_RT_ACTIVE, __ATOMIC_RELEASE);

	const char *wp = rl_rt_env(RL_ENV_WHOLE_PROGRAM);
	if (wp && strcmp(wp, "1") == 0) {
		rl_rt.whole_program = true;
		rl_rt_region_begin_internal(RL_WHOLE_PROGRAM_NAME);
		rl_rt.wp_thread = rl_rt_self_get();
	}
}

void rl_rt_init(void)
{
	pthread_once(&rl_once, init_once);
}

__attribute__((constructor)) static void rl_rt_constructor(void)
{
	/* a region call from a signal handler during the start-up is
	 * refused, not left waiting on the start-up it interrupted */
	rl_rt_in_call = 1;
	rl_rt_init();
	rl_rt_in_call = 0;
}

static int open_backend_thread(struct rl_thread *t)
{
	const struct rl_backend *b = rl_rt.backend;
	char err[512] = "";
	if (b->thread_state_size) {
		t->backend_state = calloc(1, b->thread_state_size);
		if (!t->backend_state) {
			snprintf(err, sizeof err, "out of memory");
			goto fail;
		}
	}
	if (!b->thread_open || b->thread_open(t->backend_state, err,
					      sizeof err) == 0) {
		t->counters_ok = t->backend_open = true;
		return 0;
	}
fail:;
	char msg[768];
	struct rl_sb s = {msg, sizeof msg, 0};
	rl_sb_str(&s, "backend ");
	rl_sb_name(&s, b->name);
	rl_sb_str(&s, " could not count in thread ");
	rl_sb_u64(&s, t->tid);
	rl_sb_str(&s, ": ");
	rl_sb_str(&s, err);
	rl_sb_str(&s, ": its regions have time only (counters stay 0 "
		      "with enabled_ns 0)");
	rl_rt_warn("backend", NULL, t->tid, false, msg);
	t->counters_ok = false;
	return -1;
}

static int registry_add(struct rl_thread *t)
{
	int rc = -1;
	pthread_mutex_lock(&rl_rt.lock);
	if (rl_rt.n_threads == rl_rt.cap_threads) {
		size_t cap = rl_rt.cap_threads ? 2 * rl_rt.cap_threads : 8;
		struct rl_thread **th =
			realloc(rl_rt.threads, cap * sizeof *th);
		if (!th)
			goto out;
		rl_rt.threads = th;
		struct rl_thread_results *sn =
			realloc(rl_rt.snap, cap * sizeof *sn);
		if (!sn)
			goto out;
		rl_rt.snap = sn;
		rl_rt.cap_threads = cap;
	}
	t->index = (unsigned)rl_rt.n_threads;
	rl_rt.threads[rl_rt.n_threads++] = t;
	rc = 0;
out:
	pthread_mutex_unlock(&rl_rt.lock);
	return rc;
}

struct rl_thread *rl_rt_thread_new(void)
{
	struct rl_thread *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->tid = gettid_u64();
	if (registry_add(t) < 0) {
		free(t);
		return NULL;
	}
	open_backend_thread(t);
	pthread_setspecific(rl_rt.key, t);
	rl_rt_altstack_add(&t->altstack);
	return t;
}

static void close_backend_thread(struct rl_thread *t)
{
	if (t->backend_open && rl_rt.backend->thread_close)
		rl_rt.backend->thread_close(t->backend_state);
	free(t->backend_state);
	t->backend_state = NULL;
	t->counters_ok = t->backend_open = false;
}

/* pthread key destructor: the thread's stats stay for the final write. */
static void thread_exit(void *p)
{
	struct rl_thread *t = p;
	pthread_mutex_lock(&rl_rt.lock);
	if (__atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED) == RL_RT_ACTIVE) {
		rl_rt_close_all(t, "when its thread exited", false);
		close_backend_thread(t);
	}
	free(t->frames);
	t->frames = NULL;
	t->cap_frames = 0;
	t->exited = true;
	pthread_mutex_unlock(&rl_rt.lock);
	rl_rt_altstack_remove(&t->altstack);
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&rl_rt.lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&rl_rt.lock);
}

/* Re-create the region table of t with only the regions of its open
 * frames (zeroed figures), and restart those frames now. */
static void restart_open_frames(struct rl_thread *t)
{
	struct rl_region *old = t->regions;
	size_t n_old = t->n_regions;
	free(t->hash);
	t->regions = NULL;
	t->hash = NULL;
	t->n_regions = t->cap_regions = t->hash_cap = 0;
	memset(t->sites, 0, sizeof t->sites);
	size_t keep = 0;
	for (size_t i = 0; i < t->depth; i++) {
		struct rl_frame *f = rl_frame_at(t, i);
		const char *name = old[f->region].name;
		int k = rl_rt_region_index(t, name, strlen(name));
		if (k < 0)
			break;
		f->region = (uint32_t)k;
		keep++;
	}
	t->depth = keep;
	(void)n_old; /* the parent's records: its live file, never written */
	free(old);
	/* Re-read: drop the frames and push them again, bottom up. */
	size_t depth = t->depth;
	t->depth = 0;
	for (size_t i = 0; i < depth; i++)
		rl_rt_push(t, (int)rl_frame_at(t, i)->region);
}

/* The child keeps only its own thread: the parent's figures are the
 * parent's. Regions open across fork() continue in the child, counted
 * from the fork on. */
static void fork_child(void)
{
	/* The recursive mutex belongs to the parent's thread id: make it
	 * anew (no other thread exists here). */
	init_lock();
	if (__atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED) != RL_RT_ACTIVE)
		return;
	struct rl_thread *me = rl_rt_self_get();
	for (size_t i = 0; i < rl_rt.n_threads; i++) {
		struct rl_thread *t = rl_rt.threads[i];
		if (t == me)
			continue;
		if (!t->exited)
			close_backend_thread(t);
		rl_rt_thread_free_tables(t);
		free(t->altstack);
		free(t);
	}
	rl_rt.n_threads = 0;
	rl_rt_warn_free_all();
	rl_rt.start_ns = rl_rt_realtime_ns();
	rl_rt.flushing = 0;
	/* The parent's live file and blocks are the parent's: the child's
	 * records go to a file of its own, never into the shared pages. */
	rl_rt_live_open();
	struct rl_thread *wp_old = rl_rt.wp_thread;
	rl_rt.wp_thread = NULL;
	rl_scope_after_fork();
	if (me) {
		me->blk = NULL;
		me->blk_next = 0;
		me->tid = gettid_u64();
		registry_add(me);
		close_backend_thread(me);
		open_backend_thread(me);
		restart_open_frames(me);
	}
	if (!rl_rt.whole_program)
		return;
	if (me && wp_old == me) {
		rl_rt.wp_thread = me;
		return;
	}
	/* The <program> frame was another thread's: open it again at the
	 * bottom of this thread's stack. */
	if (!me) {
		rl_rt_region_begin_internal(RL_WHOLE_PROGRAM_NAME);
		rl_rt.wp_thread = rl_rt_self_get();
		return;
	}
	int k = rl_rt_region_index(me, RL_WHOLE_PROGRAM_NAME,
				   strlen(RL_WHOLE_PROGRAM_NAME));
	if (k < 0)
		return;
	rl_rt_push(me, k);
	size_t fs = rl_rt.frame_size;
	unsigned char tmp[sizeof(struct rl_frame) +
			  RL_COUNTER_COUNT * sizeof(struct rl_counter_value)];
	memcpy(tmp, rl_frame_at(me, me->depth - 1), fs);
	memmove(me->frames + fs, me->frames, (me->depth - 1) * fs);
	memcpy(me->frames, tmp, fs);
	rl_rt.wp_thread = me;
}
