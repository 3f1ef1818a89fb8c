/* Process scope of regions on the main thread (rt_scope.h). */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#include <sys/single_threaded.h>
#define RL_SINGLE_THREADED() (__libc_single_threaded != 0)
#else
#define RL_SINGLE_THREADED() false /* unknown: always snapshot */
#endif

#include "runtime/rt_env.h"
#include "runtime/rt_proc.h"
#include "runtime/rt_scope.h"

#define RL_SCOPE_TASKS 256   /* threads followed per region call */
#define RL_SCOPE_DEPTH 32    /* process-scope calls open at once */
#define RL_SCOPE_REGIONS 1024 /* regions with process-scope figures */
#define RL_SCOPE_HASH 2048    /* their index by record (a power of two) */

/* A process-scope call open now, as the other threads see it: a call of
 * the same region they begin and end inside it adds its counts to
 * `covered`, which its end leaves out of "others" (that thread's row
 * holds them). Written by the main thread only; `gen` is odd while the
 * slot is open, and read around `name` like a sequence lock. */
struct scope_cover {
	const char *name;
	uint32_t gen;
	uint64_t covered[RL_COUNTER_COUNT];
};

/* What a process-scope call saw at its begin; one per depth of the main
 * thread's stack (only the main thread uses them). */
struct scope_snap {
	const struct rl_rec *rec; /* the call's record (one process-scope
				     call per record is open at a time) */
	bool lazy; /* the process had one thread at begin: nothing was read
		      (the thread's own counts at begin are the process's) */
	struct scope_entry *e;
	int cover;  /* its slot in covers[], -1 none */
	long pid;
	uint64_t cpu_ns, wall_ns, faults, csw; /* wall_ns: read beside cpu_ns */
	bool have_proc;
	struct rl_counter_value v[RL_COUNTER_COUNT];
	/* the counts done inside MPI calls at begin, by every thread and by
	 * the calling one, when they are subtracted (rt_mpi.c) */
	bool xsub;
	uint64_t xg0[RL_COUNTER_COUNT], xt0[RL_COUNTER_COUNT];
	size_t n_tasks;
	uint32_t tid[RL_SCOPE_TASKS];
	uint64_t run_ns[RL_SCOPE_TASKS];
};

/* Scope figures of one record (main thread). */
struct scope_entry {
	const struct rl_rec *rec;
	uint64_t calls, time_ns, cpu_ns;
	uint64_t cpu_unknown_ns; /* wall time of the calls whose CPU time was
				   not measured */
	uint64_t all;         /* bit c: c[c] covers every thread in every
				 call */
	uint32_t threads;
	uint32_t cpus;        /* CPUs the process could use (affinity), 0
				 unknown */
	struct rl_counter_total c[RL_COUNTER_COUNT];
};

/* Static tables, no allocation: libc's malloc is code the simulator
 * counts, and its stores would land in the regions being measured. */
uint64_t rl_scope_main_tid;
static struct scope_entry *entries; /* RL_SCOPE_REGIONS, mmap'd */
static size_t n_entries;
static struct scope_snap *snaps;     /* RL_SCOPE_DEPTH, mmap'd */
static struct scope_cover *covers;   /* RL_SCOPE_DEPTH, mmap'd */
uint32_t rl_scope_open_calls;        /* covers open now (atomic) */
static bool straddle_said;           /* the straddle warning given */
static uint16_t *slot_of;            /* RL_SCOPE_HASH: entry + 1, 0 empty */
static bool full_said;               /* the table-full warning given */
static size_t n_snaps;               /* process-scope calls open now */
static bool deep_said;               /* the too-deep warning given */

/* The tables, mapped by a raw system call at the first main-thread
 * region (not in the library's BSS: a bigger library moves where the
 * program's own mappings land, which a small simulated cache notices). */
static bool tables(void)
{
	size_t len = RL_SCOPE_REGIONS * sizeof *entries +
		     RL_SCOPE_DEPTH * sizeof *snaps +
		     RL_SCOPE_DEPTH * sizeof *covers +
		     RL_SCOPE_HASH * sizeof *slot_of;
	void *p;

	if (snaps)
		return true;
	p = (void *)syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return false;
	entries = p;
	snaps = (struct scope_snap *)(entries + RL_SCOPE_REGIONS);
	covers = (struct scope_cover *)(snaps + RL_SCOPE_DEPTH);
	slot_of = (uint16_t *)(covers + RL_SCOPE_DEPTH);
	return true;
}
static int scope_off = -1;          /* RLPROF_SCOPE=thread */
static int (*in_parallel)(void);    /* OpenMP's omp_in_parallel */
static bool looked_up;

/* Does the backend provide a counter getrusage() gives per process? */
static bool wants_usage(void)
{
	for (size_t k = 0; k < rl_rt.n_prov; k++)
		if (rl_rt.prov[k] == RL_C_PAGE_FAULTS ||
		    rl_rt.prov[k] == RL_C_CONTEXT_SWITCHES)
			return true;
	return false;
}

static void remember(void *arg, uint32_t tid, uint64_t run)
{
	struct scope_snap *s = arg;
	if (s->n_tasks < RL_SCOPE_TASKS) {
		s->tid[s->n_tasks] = tid;
		s->run_ns[s->n_tasks++] = run;
	}
}

struct ran {
	const struct scope_snap *s;
	uint32_t n;
};

static void count_ran(void *arg, uint32_t tid, uint64_t run)
{
	struct ran *r = arg;
	for (size_t i = 0; i < r->s->n_tasks; i++)
		if (r->s->tid[i] == tid) {
			r->n += run > r->s->run_ns[i];
			return;
		}
	r->n += run > 0; /* started during the call */
}

static bool process_scope(const struct rl_thread *t)
{
	if (scope_off < 0) {
		const char *e = rl_rt_env(RL_ENV_SCOPE);
		scope_off = e && strcmp(e, "thread") == 0;
	}
	if (scope_off || t->tid != rl_scope_main_tid)
		return false;
	if (!looked_up) {
		looked_up = true;
		*(void **)&in_parallel = dlsym(RTLD_DEFAULT, "omp_in_parallel");
	}
	return !in_parallel || !in_parallel();
}

static size_t hash_rec(const struct rl_rec *rec)
{
	uint64_t x = (uint64_t)(uintptr_t)rec;
	x ^= x >> 17;
	x *= UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(x >> 40) & (RL_SCOPE_HASH - 1);
}

/* A full table: later regions stay of thread scope, and the report says
 * so (once) rather than showing them silently as one thread's. */
static void say_full(const struct rl_thread *t, const struct rl_rec *rec)
{
	if (full_said)
		return;
	full_said = true;
	rl_rt_warn("scope-full", rl_rec_name((struct rl_rec *)rec), t->tid,
		   false,
		   "more than 1024 region names begun on the main thread: "
		   "this one and later new ones count the main thread only "
		   "(thread scope), whatever threads run while they are open");
}

/* The scope figures of rec: found by its address (an index, so that a
 * program with many region names pays no search), made when `t` is given
 * and there is room. */
static struct scope_entry *entry_of(const struct rl_rec *rec,
				    const struct rl_thread *t)
{
	size_t n = __atomic_load_n(&n_entries, __ATOMIC_ACQUIRE);

	if (!entries)
		return NULL;
	for (size_t h = hash_rec(rec), k = 0; k < RL_SCOPE_HASH;
	     k++, h = (h + 1) & (RL_SCOPE_HASH - 1)) {
		uint16_t v = slot_of[h];
		if (v && entries[v - 1].rec == rec)
			return &entries[v - 1];
		if (v)
			continue;
		if (!t)
			return NULL;
		if (n == RL_SCOPE_REGIONS) {
			/* with one thread, thread scope counts the same */
			if (!RL_SINGLE_THREADED())
				say_full(t, rec);
			return NULL;
		}
		entries[n].rec = rec;
		__atomic_store_n(&slot_of[h], (uint16_t)(n + 1),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&n_entries, n + 1, __ATOMIC_RELEASE);
		return &entries[n];
	}
	return NULL;
}

/* More process-scope calls open at once than there are snapshots: said
 * once; the deeper calls count the main thread only. */
static void say_deep(const struct rl_thread *t, const struct rl_rec *rec)
{
	if (deep_said || RL_SINGLE_THREADED())
		return;
	deep_said = true;
	rl_rt_warn("scope-deep", rl_rec_name((struct rl_rec *)rec), t->tid,
		   false,
		   "more than 32 regions open at once on the main thread: this "
		   "one and others that deep count the main thread only "
		   "(thread scope), whatever threads run while they are open");
}

/* Opens a cover slot for a process-scope call of region `name` (main
 * thread): its index, -1 when none is free. */
static int cover_open(const char *name)
{
	/* nothing counted per thread (the time backend): nothing to leave
	 * out, and a region pays nothing for it */
	if (!rl_rt.n_prov)
		return -1;
	for (int i = 0; i < RL_SCOPE_DEPTH; i++) {
		struct scope_cover *c = &covers[i];
		uint32_t g = __atomic_load_n(&c->gen, __ATOMIC_RELAXED);

		if (g & 1)
			continue;
		c->name = name;
		for (size_t k = 0; k < rl_rt.n_prov; k++)
			__atomic_store_n(&c->covered[rl_rt.prov[k]], 0,
					 __ATOMIC_RELAXED);
		/* the main thread alone opens and closes: stores, not
		 * locked read-modify-writes */
		__atomic_store_n(&c->gen, g + 1, __ATOMIC_RELEASE);
		__atomic_store_n(&rl_scope_open_calls, rl_scope_open_calls + 1,
				 __ATOMIC_RELEASE);
		return i;
	}
	return -1;
}

/* Closes slot i: the counts the other threads' calls left there, into
 * covered[] (indexed by counter id; the counters provided only). */
static void cover_close(int i, uint64_t *covered)
{
	struct scope_cover *c = &covers[i];

	for (size_t k = 0; k < rl_rt.n_prov; k++) {
		int id = rl_rt.prov[k];
		covered[id] = __atomic_load_n(&c->covered[id], __ATOMIC_ACQUIRE);
	}
	__atomic_store_n(&c->gen, c->gen + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&rl_scope_open_calls, rl_scope_open_calls - 1,
			 __ATOMIC_RELEASE);
}

/* Names compared without libc (the simulator counts libc's loads in the
 * regions open around this one). */
static bool same_name(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The open cover slot of region `name`, with its generation; -1 none. */
static int cover_find(const char *name, uint32_t *gen)
{
	for (int i = 0; i < RL_SCOPE_DEPTH; i++) {
		struct scope_cover *c = &covers[i];
		uint32_t g = __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE);
		bool same;

		if (!(g & 1))
			continue;
		same = same_name(c->name, name);
		if (same && __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) == g) {
			*gen = g;
			return i;
		}
	}
	return -1;
}

void rl_scope_cover_begin_slow(struct rl_thread *t, struct rl_frame *f)
{
	uint32_t g;
	int i;

	(void)t;
	if (!covers || (i = cover_find(rl_rec_name(f->rec), &g)) < 0)
		return;
	f->cover = (uint8_t)(i + 1);
	f->cover_gen = g;
}

/* A call on another thread that began before the main thread's call of
 * the same region or ended after it: the part of its work inside that
 * call is in both; said once. */
static void say_straddle(const struct rl_thread *t, const struct rl_frame *f)
{
	if (straddle_said || !rl_rt.n_prov)
		return; /* said once; nothing counted, nothing twice */
	char msg[512];
	struct rl_sb b = {msg, sizeof msg, 0};

	straddle_said = true;
	rl_sb_str(&b, "region ");
	rl_sb_name(&b, rl_rec_name(f->rec));
	rl_sb_str(&b, ": a call on thread ");
	rl_sb_u64(&b, t->tid);
	rl_sb_str(&b, " overlapped the edge of the main thread's call of it "
		      "(which counts every thread): that thread's work inside "
		      "the main thread's call is counted twice, in its own "
		      "row and in the main thread's; end the region on the "
		      "other threads inside the main thread's call, or count "
		      "per thread (RLPROF_SCOPE=thread)");
	rl_rt_warn("scope-straddle", rl_rec_name(f->rec), t->tid, false, msg);
}

void rl_scope_cover_end_slow(struct rl_thread *t, const struct rl_frame *f)
{
	struct scope_cover *c;
	uint32_t g;

	if (!covers)
		return;
	if (!f->cover) {
		/* begun before the main thread's call of it opened */
		if (cover_find(rl_rec_name(f->rec), &g) >= 0)
			say_straddle(t, f);
		return;
	}
	c = &covers[f->cover - 1];
	if (__atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) != f->cover_gen) {
		say_straddle(t, f); /* the main thread's call ended first */
		return;
	}
	for (size_t k = 0; k < rl_rt.n_prov; k++) {
		const struct rl_counter_value *b = &f->v0[k];
		const struct rl_counter_value *e = &t->scratch[rl_rt.prov[k]];

		if (e->value > b->value)
			__atomic_add_fetch(&c->covered[rl_rt.prov[k]],
					   e->value - b->value,
					   __ATOMIC_RELEASE);
	}
}

bool rl_scope_begin_slow(struct rl_thread *t, const struct rl_rec *rec)
{
	struct scope_snap *s;
	struct scope_entry *e;

	if (rl_scope_main_tid == 0)
		rl_scope_main_tid = (uint64_t)getpid();
	if (t->tid != rl_scope_main_tid || !tables())
		return false; /* the snapshots are the main thread's */
	/* every depth: a region nested in another process-scope one counts
	 * every thread too (its call's work lies inside the outer one's
	 * window, so both hold it, as a nested region holds its thread's) */
	if (!process_scope(t) || !(e = entry_of(rec, t)))
		return false;
	if (n_snaps >= RL_SCOPE_DEPTH) {
		say_deep(t, rec);
		return false;
	}
	s = &snaps[n_snaps++];
	s->rec = rec;
	s->e = e;
	s->cover = cover_open(rl_rec_name((struct rl_rec *)rec));
	/* One thread (glibc's flag, cleared for good by the first
	 * pthread_create): the thread's own counters, read next, are the
	 * process's; nothing to read, so a region costs what it costs in a
	 * program without threads. */
	s->lazy = RL_SINGLE_THREADED();
	s->xsub = rl_rt_mpi_subtracting();
	for (size_t k = 0; s->xsub && k < rl_rt.n_prov; k++) {
		int c = rl_rt.prov[k];
		s->xg0[c] = __atomic_load_n(&rl_rt_mpi_excl[c],
					    __ATOMIC_RELAXED);
		s->xt0[c] = t->mpi_excl[c];
	}
	if (s->lazy)
		return true;
	/* the walk first: the counters read after it (the process's, then
	 * the thread's in push_frame) leave its work out */
	s->pid = (long)getpid();
	s->n_tasks = 0;
	rl_rt_proc_walk_threads(remember, s);
	if (wants_usage())
		rl_rt_proc_usage(RUSAGE_SELF, &s->faults, &s->csw);
	s->cpu_ns = rl_rt_proc_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	s->wall_ns = rl_rt_proc_clock_ns(CLOCK_MONOTONIC);
	s->have_proc = rl_rt.backend && rl_rt.backend->read_process &&
		       rl_rt.backend->read_process(s->v) == 0;
	return true;
}

static struct rl_counter_value os_value(uint64_t x, uint64_t ns)
{
	struct rl_counter_value v = {x, ns, ns};
	return v;
}

/* The thread's own value of counter c at the frame's begin (v0) and now
 * (scratch); false when it does not provide c. */
static bool own_delta(const struct rl_thread *t, const struct rl_frame *f,
		      bool ok, int c, uint64_t *delta)
{
	for (size_t k = 0; ok && k < rl_rt.n_prov; k++)
		if (rl_rt.prov[k] == c) {
			uint64_t x0 = f->v0[k].value, x1 = t->scratch[c].value;
			*delta = x1 > x0 ? x1 - x0 : 0;
			return true;
		}
	return false;
}

/* A call begun with one thread that started others before it ended: the
 * process's figures at begin were the thread's own. The other threads
 * were all born during the call, so their share is the process's total
 * now less this thread's (the CPU clocks, getrusage's SELF and THREAD);
 * this thread's share is its own counters' delta. Fills x0/x1 per
 * counter, *cpu (false: unknown, the thread's CPU time was not counted).
 */
static void lazy_figures(const struct rl_thread *t, const struct rl_frame *f,
			 bool ok, bool have_proc,
			 struct rl_counter_value *x0, struct rl_counter_value *x1,
			 uint64_t dt_ns, uint64_t *cpu, bool *cpu_known,
			 uint64_t *cover)
{
	uint64_t pcpu = rl_rt_proc_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	uint64_t tcpu = rl_rt_proc_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t sf = 0, sc = 0, tf = 0, tc = 0, own;
	uint64_t others_cpu = pcpu > tcpu ? pcpu - tcpu : 0;

	if (wants_usage()) {
		rl_rt_proc_usage(RUSAGE_SELF, &sf, &sc);
		rl_rt_proc_usage(RUSAGE_THREAD, &tf, &tc);
	}
	*cpu_known = own_delta(t, f, ok, RL_C_TASK_CLOCK_NS, &own);
	*cpu = others_cpu + (*cpu_known ? own : 0);
	for (size_t k = 0; k < rl_rt.n_prov; k++) {
		int c = rl_rt.prov[k];
		uint64_t mine, rest;

		if (have_proc) {
			if (!ok)
				continue;
			x0[c] = f->v0[k];
			continue; /* x1[c] read by the caller */
		}
		if (c == RL_C_TASK_CLOCK_NS)
			rest = others_cpu;
		else if (c == RL_C_PAGE_FAULTS)
			rest = sf > tf ? sf - tf : 0;
		else if (c == RL_C_CONTEXT_SWITCHES)
			rest = sc > tc ? sc - tc : 0;
		else
			continue;
		if (!own_delta(t, f, ok, c, &mine))
			continue;
		x0[c] = os_value(0, 0);
		x1[c] = os_value(mine + rest, dt_ns);
		*cover |= UINT64_C(1) << c;
	}
}

/* The process's delta dp of counter c less the work of the MPI calls
 * made during the call (rt_mpi.c): by every thread, where dp is the
 * process's raw delta; by the other threads, where it is made of the
 * calling thread's own count (already less its MPI work: a lazy call). */
static uint64_t less_mpi(const struct rl_thread *t,
			 const struct scope_snap *b, int c, uint64_t dp)
{
	uint64_t g = __atomic_load_n(&rl_rt_mpi_excl[c], __ATOMIC_RELAXED);
	uint64_t x = g > b->xg0[c] ? g - b->xg0[c] : 0;
	uint64_t mine = t->mpi_excl[c] - b->xt0[c];

	if (b->lazy)
		x = x > mine ? x - mine : 0;
	return dp > x ? dp - x : 0;
}

static void end_call(struct rl_thread *t, const struct rl_frame *f,
		     struct scope_snap *b, uint64_t dt_ticks, bool ok)
{
	struct rl_counter_value pv[RL_COUNTER_COUNT], p0[RL_COUNTER_COUNT];
	struct scope_entry *e = b->e;
	uint64_t covered[RL_COUNTER_COUNT]; /* the provided ones set */
	uint64_t cpu = 0, faults, csw, dt_ns, wall_ns, cover = 0;
	uint32_t cpus;
	bool have_proc, cpu_known = true;
	struct ran ran;

	dt_ns = wall_ns = rl_rt_ticks_to_ns(dt_ticks);
	if (b->cover >= 0) {
		cover_close(b->cover, covered);
		b->cover = -1;
	} else {
		for (size_t k = 0; k < rl_rt.n_prov; k++)
			covered[rl_rt.prov[k]] = 0;
	}
	if (b->lazy && RL_SINGLE_THREADED()) {
		/* one thread all along: its own counts are the process's,
		 * the other threads' share is nothing */
		e->calls++;
		e->time_ns += dt_ns;
		e->cpu_unknown_ns += dt_ns;
		if (!e->threads)
			e->threads = 1;
		for (size_t k = 0; ok && k < rl_rt.n_prov; k++)
			cover |= UINT64_C(1) << rl_rt.prov[k];
		e->all = e->calls == 1 ? cover : e->all & cover;
		return;
	}
	if (!b->lazy && b->pid != (long)getpid())
		return; /* begun before a fork */
	/* called after the thread's counters were read: the process's are
	 * read first, then the rest */
	have_proc = rl_rt.backend && rl_rt.backend->read_process &&
		    (b->lazy || b->have_proc) &&
		    rl_rt.backend->read_process(pv) == 0;
	ran.s = b;
	ran.n = 0;
	if (b->lazy) {
		lazy_figures(t, f, ok, have_proc, p0, pv, dt_ns, &cpu,
			     &cpu_known, &cover);
		b->n_tasks = 0; /* every other thread started during the call */
		rl_rt_proc_walk_threads(count_ran, &ran); /* this one included */
	} else {
		/* CPU and wall time over one window: busy threads (CPU time
		 * / wall time) cannot exceed the threads that ran */
		uint64_t now = rl_rt_proc_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
		uint64_t wall = rl_rt_proc_clock_ns(CLOCK_MONOTONIC);
		cpu = now > b->cpu_ns ? now - b->cpu_ns : 0;
		wall_ns = wall > b->wall_ns ? wall - b->wall_ns : 0;
		faults = csw = 0;
		if (wants_usage())
			rl_rt_proc_usage(RUSAGE_SELF, &faults, &csw);
		rl_rt_proc_walk_threads(count_ran, &ran);
		for (size_t k = 0; k < rl_rt.n_prov; k++) {
			int c = rl_rt.prov[k];
			if (have_proc)
				p0[c] = b->v[c];
			else if (c == RL_C_TASK_CLOCK_NS) {
				p0[c] = os_value(b->cpu_ns, 0);
				pv[c] = os_value(b->cpu_ns + cpu, dt_ns);
			} else if (c == RL_C_PAGE_FAULTS) {
				p0[c] = os_value(b->faults, 0);
				pv[c] = os_value(faults, dt_ns);
			} else if (c == RL_C_CONTEXT_SWITCHES) {
				p0[c] = os_value(b->csw, 0);
				pv[c] = os_value(csw, dt_ns);
			} else
				continue;
			cover |= UINT64_C(1) << c;
		}
	}
	if (have_proc)
		for (size_t k = 0; k < rl_rt.n_prov; k++)
			if (!b->lazy || ok)
				cover |= UINT64_C(1) << rl_rt.prov[k];
	e->calls++;
	if (cpu_known) {
		e->cpu_ns += cpu;
		e->time_ns += wall_ns;
	} else {
		e->time_ns += dt_ns;
		e->cpu_unknown_ns += dt_ns;
	}
	if (ran.n > e->threads)
		e->threads = ran.n;
	if ((cpus = rl_rt_proc_cpus()) > e->cpus)
		e->cpus = cpus;
	/* the other threads' share: the process's delta less the thread's
	 * own (which its record already holds; when its counters could not
	 * be read, the record holds nothing of this call and the whole
	 * delta is the others') and less the calls of this region the other
	 * threads made inside this one (their rows hold them) */
	for (size_t k = 0; k < rl_rt.n_prov; k++) {
		int c = rl_rt.prov[k];
		uint64_t dp, own = 0;
		struct rl_counter_value x0, x1;

		if (!(cover >> c & 1))
			continue;
		dp = pv[c].value > p0[c].value ? pv[c].value - p0[c].value : 0;
		if (!own_delta(t, f, ok, c, &own))
			own = 0;
		own += covered[c];
		if (b->xsub)
			dp = less_mpi(t, b, c, dp);
		x0 = os_value(0, 0);
		x0.enabled_ns = p0[c].enabled_ns;
		x0.running_ns = p0[c].running_ns;
		x1 = os_value(dp > own ? dp - own : 0, 0);
		x1.enabled_ns = pv[c].enabled_ns;
		x1.running_ns = pv[c].running_ns;
		rl_counter_total_add(&e->c[c], &x0, &x1);
	}
	e->all = e->calls == 1 ? cover : e->all & cover;
}

void rl_scope_end_slow(struct rl_thread *t, const struct rl_frame *f,
		       uint64_t dt_ticks, bool ok)
{
	size_t j = n_snaps;

	/* the top snapshot, unless frames were moved (a fork child puts
	 * the <program> frame back at the bottom of its stack) */
	while (j > 0 && snaps[j - 1].rec != f->rec)
		j--;
	if (!j)
		return;
	end_call(t, f, &snaps[j - 1], dt_ticks, ok);
	if (j < n_snaps)
		memmove(&snaps[j - 1], &snaps[j],
			(n_snaps - j) * sizeof *snaps);
	n_snaps--;
}

void rl_scope_after_fork(void)
{
	/* the child's records are new: the parent's figures and open
	 * calls are not its own, and its one thread is its main thread */
	n_snaps = 0;
	for (int i = 0; covers && i < RL_SCOPE_DEPTH; i++)
		if (covers[i].gen & 1)
			covers[i].gen++;
	rl_scope_open_calls = 0;
	if (entries) {
		memset(slot_of, 0, RL_SCOPE_HASH * sizeof *slot_of);
		n_entries = 0;
	}
	if (rl_scope_main_tid)
		rl_scope_main_tid = (uint64_t)getpid();
}

void rl_scope_stats(const struct rl_rec *rec, struct rl_region_stats *out)
{
	const struct scope_entry *e = entry_of(rec, NULL);

	if (!e || !e->calls)
		return;
	out->scope_calls = e->calls;
	out->scope_time_ns = e->time_ns;
	out->scope_cpu_ns = e->cpu_ns;
	out->scope_cpu_unknown_ns = e->cpu_unknown_ns;
	out->scope_threads = e->threads;
	out->scope_cpus = e->cpus;
	out->scope_all = e->all;
	out->scope_counters = (struct rl_counter_total *)e->c;
	(void)0;
}
