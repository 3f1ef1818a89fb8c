/*
 * rl_region_begin/end/expect: the per-thread stack of open regions (the
 * per-thread table of region records, hash by name: rt_table.c).
 *
 * Cost: the inactive path is one predictable branch. The active steady
 * state (a site already seen, a string-literal name) is a load of the
 * thread pointer, one site-slot compare, a clock read (rdtsc) and plain
 * integer stores into the frame and the region's record: no system call,
 * no allocation, no string work, no floating point. Everything else
 * (a new site or name, a name in writable memory, misuse) takes the slow
 * path, which hashes the name as before.
 */

#include "runtime/rlprof.h"
#include "runtime/rt_internal.h"
#include "runtime/rt_scope.h"

#include <link.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static __thread struct rl_thread *rl_self
	__attribute__((tls_model("initial-exec")));
__thread unsigned char rl_rt_in_call
	__attribute__((tls_model("initial-exec")));
static unsigned long refused_calls; /* atomic */

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Integers only: this runs between the counter reads, where any
 * floating-point work would be counted as the program's flops. A counter
 * never runs backwards; if a backend says so, count 0 rather than a
 * wrapped-around figure. The scaled value (value * enabled / running) is
 * computed by the reader from these sums. */
static inline void add_delta(struct rl_counter_value *sum,
			     const struct rl_counter_value *b,
			     const struct rl_counter_value *e)
{
	sum->value += e->value >= b->value ? e->value - b->value : 0;
	sum->enabled_ns += e->enabled_ns >= b->enabled_ns
				   ? e->enabled_ns - b->enabled_ns
				   : 0;
	sum->running_ns += e->running_ns >= b->running_ns
				   ? e->running_ns - b->running_ns
				   : 0;
}

void rl_counter_total_add(struct rl_counter_total *tot,
			  const struct rl_counter_value *b,
			  const struct rl_counter_value *e)
{
	struct rl_counter_value sum = {tot->value, tot->enabled_ns,
				       tot->running_ns};
	add_delta(&sum, b, e);
	tot->value = sum.value;
	tot->enabled_ns = sum.enabled_ns;
	tot->running_ns = sum.running_ns;
}

/* The backend could not read this thread's counters (e.g. the program
 * closed their descriptors): time only from here on, said once. Not
 * from the signal flush, which must not malloc. */
static void read_failed(struct rl_thread *t)
{
	t->counters_ok = false;
	if (__atomic_load_n(&rl_rt.flushing, __ATOMIC_RELAXED))
		return;
	char msg[512];
	struct rl_sb b = {msg, sizeof msg, 0};
	rl_sb_str(&b, "backend ");
	rl_sb_name(&b, rl_rt.backend->name);
	rl_sb_str(&b, " could not read the counters of thread ");
	rl_sb_u64(&b, t->tid);
	rl_sb_str(&b, " (did the program close their file descriptors?): "
		      "its regions from here on have time only");
	rl_rt_warn("backend", NULL, t->tid, false, msg);
}

/* Read the thread's counters into t->scratch (indexed by counter id).
 * Returns 0, or -1 when nothing could be read (*ok cleared). */
static int read_scratch(struct rl_thread *t, uint8_t *ok)
{
	if (!t->counters_ok) {
		*ok = 0;
		return -1;
	}
	if (rl_rt.backend->read(t->backend_state, t->scratch) < 0) {
		*ok = 0;
		read_failed(t);
		return -1;
	}
	if (UNLIKELY(t->mpi_excl_any)) /* less the work of MPI calls */
		for (size_t k = 0; k < rl_rt.n_prov; k++) {
			struct rl_counter_value *v =
				&t->scratch[rl_rt.prov[k]];
			uint64_t x = t->mpi_excl[rl_rt.prov[k]];
			v->value = v->value > x ? v->value - x : 0;
		}
	return 0;
}

static void read_counters(struct rl_thread *t, struct rl_counter_value *out,
			  uint8_t *ok)
{
	if (!rl_rt.n_prov || read_scratch(t, ok) < 0)
		return;
	for (size_t k = 0; k < rl_rt.n_prov; k++)
		out[k] = t->scratch[rl_rt.prov[k]];
}

static int grow_frames(struct rl_thread *t)
{
	size_t cap = t->cap_frames ? 2 * t->cap_frames : 16;
	unsigned char *f = malloc(cap * rl_rt.frame_size);
	if (!f)
		return -1;
	if (t->depth)
		memcpy(f, t->frames, t->depth * rl_rt.frame_size);
	pthread_mutex_lock(&rl_rt.lock);
	unsigned char *old = t->frames;
	t->frames = f;
	t->cap_frames = cap;
	pthread_mutex_unlock(&rl_rt.lock);
	free(old);
	return 0;
}

/* Open region `region` on t; the frame has room (depth < cap_frames). */
static inline void push_frame(struct rl_thread *t, struct rl_rec *rec,
			      uint32_t region, const char *name, bool ro)
{
	struct rl_frame *f = rl_frame_at(t, t->depth);
	f->rec = rec;
	f->name = name;
	f->region = region;
	f->name_ro = ro;
	f->counters_ok = 1;
	if (UNLIKELY(rec->open++)) {
		/* entered again while open on this thread: its outermost
		 * activation counts the work (inclusive), this one is a call */
		struct rl_rec_tail *x = rl_rec_tail(rec);
		f->reentry = 1;
		f->scoped = 0;
		f->cover = 0;
		if (rec->open > x->depth)
			x->depth = rec->open;
		f->t0 = 0;
		t->depth++;
		if (UNLIKELY(rl_rt.backend && rl_rt.backend->region))
			rl_rt.backend->region(name, 0);
		return;
	}
	f->reentry = 0;
	f->mpi0 = t->mpi_ticks;
	f->scoped = rl_scope_begin(t, rec);
	/* told once the call's scope is known: a process-scope call's
	 * region is also that of the loops other threads run meanwhile */
	if (UNLIKELY(rl_rt.backend && rl_rt.backend->region))
		rl_rt.backend->region(name, f->scoped);
	rl_scope_cover_begin(t, f);
	read_counters(t, f->v0, &f->counters_ok);
	/* after the backend's reads, which may read the clock: only the
	 * program's count (rt_clock_reads.c), up to the end's delta */
	f->clock0 = rl_rt_clock_reads;
	f->t0 = rl_rt_ticks();
	t->depth++;
}

void rl_rt_push(struct rl_thread *t, int region)
{
	if (t->depth == t->cap_frames && grow_frames(t) < 0)
		return;
	push_frame(t, t->regions[region].rec, (uint32_t)region,
		   t->regions[region].name, false);
}

static inline void pop_frame(struct rl_thread *t)
{
	uint64_t now = rl_rt_ticks();
	struct rl_frame *f = rl_frame_at(t, t->depth - 1);
	struct rl_rec *r = f->rec;
	uint8_t ok = f->counters_ok;
	if (UNLIKELY(rl_rt.backend && rl_rt.backend->region))
		rl_rt.backend->region(NULL, 0);
	r->calls++;
	if (UNLIKELY(f->reentry)) {
		r->open--;
		t->depth--;
		return;
	}
	r->ticks += now - f->t0;
	if (UNLIKELY(t->mpi_ticks != f->mpi0)) /* MPI calls made inside */
		rl_rec_tail(r)->mpi_ticks += t->mpi_ticks - f->mpi0;
	if (UNLIKELY(rl_rt_clock_reads != f->clock0)) /* the program's */
		rl_rec_tail(r)->clock_reads += rl_rt_clock_reads - f->clock0;
	r->open--;
	if (rl_rt.n_prov && ok && read_scratch(t, &ok) == 0)
		for (size_t k = 0; k < rl_rt.n_prov; k++)
			add_delta(&r->c[k], &f->v0[k],
				  &t->scratch[rl_rt.prov[k]]);
	if (ok)
		rl_scope_cover_end(t, f);
	rl_scope_end(t, f, now - f->t0, ok);
	t->depth--;
}

void rl_rt_pop_complete(struct rl_thread *t)
{
	pop_frame(t);
}

void rl_rt_close_all(struct rl_thread *t, const char *why, bool in_signal)
{
	while (t->depth > 0) {
		struct rl_frame *f = rl_frame_at(t, t->depth - 1);
		const char *name = t->regions[f->region].name;
		if (t == rl_rt.wp_thread && t->depth == 1 &&
		    strcmp(name, RL_WHOLE_PROGRAM_NAME) == 0) {
			rl_rt_pop_complete(t);
			continue;
		}
		/* its record keeps open > 0: reported as open at exit */
		char msg[512];
		struct rl_sb b = {msg, sizeof msg, 0};
		rl_sb_str(&b, "region ");
		rl_sb_name(&b, name);
		rl_sb_str(&b, " still open ");
		rl_sb_str(&b, why);
		rl_sb_str(&b, " (thread ");
		rl_sb_u64(&b, t->tid);
		rl_sb_str(&b, "): its unfinished call is not counted");
		rl_rt_warn("open-at-exit", name, t->tid, in_signal, msg);
		t->depth--;
	}
}

/* The calling thread's state, created at its first region call. */
static struct rl_thread *self(void)
{
	struct rl_thread *t = rl_self;
	if (LIKELY(t))
		return t;
	t = rl_rt_thread_new();
	rl_self = t;
	return t;
}

void rl_rt_self_set(struct rl_thread *t)
{
	rl_self = t;
}

struct rl_thread *rl_rt_self_get(void)
{
	return rl_self;
}

/* Name as recorded: NULL or "" -> "<empty>", > 255 bytes truncated (at a
 * UTF-8 character boundary); misuse is warned. */
static const char *normalize(struct rl_thread *t, const char *name,
			     size_t *len)
{
	if (!name || !*name) {
		char msg[128];
		struct rl_sb b = {msg, sizeof msg, 0};
		rl_sb_str(&b, "empty region name (thread ");
		rl_sb_u64(&b, t->tid);
		rl_sb_str(&b, "): recorded as '" RL_EMPTY_NAME "'");
		rl_rt_warn("empty-name", RL_EMPTY_NAME, t->tid, false, msg);
		*len = strlen(RL_EMPTY_NAME);
		return RL_EMPTY_NAME;
	}
	size_t n = strnlen(name, RL_NAME_MAX + 1);
	if (LIKELY(n <= RL_NAME_MAX)) {
		*len = n;
		return name;
	}
	n = RL_NAME_MAX;
	while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
		n--;
	char cut[RL_NAME_MAX + 1], msg[RL_NAME_MAX + 160];
	memcpy(cut, name, n);
	cut[n] = '\0';
	struct rl_sb b = {msg, sizeof msg, 0};
	rl_sb_str(&b, "region name longer than 255 bytes (thread ");
	rl_sb_u64(&b, t->tid);
	rl_sb_str(&b, "): truncated to ");
	rl_sb_name(&b, cut);
	rl_rt_warn("long-name", cut, t->tid, false, msg);
	*len = n;
	return name;
}

static struct rl_thread *enter(void)
{
	int s = __atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED);
	if (LIKELY(s == RL_RT_INACTIVE))
		return NULL;
	if (UNLIKELY(s == RL_RT_UNINIT)) {
		rl_rt_init();
		s = __atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED);
	}
	if (s != RL_RT_ACTIVE)
		return NULL;
	struct rl_thread *t = self();
	return t && !t->exited ? t : NULL;
}

/* Read-only segments of the objects loaded at start-up: a name pointer
 * inside one is a string literal (or other constant data), whose bytes
 * cannot change while the pointer stays the same. Objects loaded later
 * (dlopen) are not listed: their names take the string-compare path. */
#define RL_RO_RANGES 64
static struct {
	uintptr_t lo, hi;
} ro_range[RL_RO_RANGES];
static size_t n_ro_range;
static pthread_once_t ro_once = PTHREAD_ONCE_INIT;

static int ro_collect(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
			continue;
		if (n_ro_range == RL_RO_RANGES)
			return 1;
		ro_range[n_ro_range].lo = info->dlpi_addr + ph->p_vaddr;
		ro_range[n_ro_range].hi =
			info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		n_ro_range++;
	}
	return 0;
}

static void ro_init(void)
{
	dl_iterate_phdr(ro_collect, NULL);
}

static bool name_is_ro(const char *name)
{
	pthread_once(&ro_once, ro_init);
	uintptr_t p = (uintptr_t)name;
	for (size_t i = 0; i < n_ro_range; i++)
		if (p >= ro_range[i].lo && p < ro_range[i].hi)
			return true;
	return false;
}

static inline struct rl_site_slot *site_slot(struct rl_thread *t,
					     const void *site,
					     const char *name)
{
	uint64_t h = ((uint64_t)(uintptr_t)site ^
		      ((uint64_t)(uintptr_t)name << 7)) *
		     0x9e3779b97f4a7c15ull;
	return &t->sites[h >> (64 - 7)];
}

static void begin_slow(const char *name, const void *site)
{
	struct rl_thread *t = enter();
	if (!t)
		return;
	if (t->depth == t->cap_frames && grow_frames(t) < 0)
		return;
	struct rl_site_slot *e = site_slot(t, site, name);
	/* Same site and pointer, bytes maybe changed: compare them. */
	if (e->site == site && e->name == name && name &&
	    strcmp(rl_rec_name(e->rec), name) == 0) {
		push_frame(t, e->rec, e->region, name, false);
		return;
	}
	size_t len;
	const char *n = normalize(t, name, &len);
	int i = rl_rt_region_index(t, n, len);
	if (i < 0)
		return;
	struct rl_rec *rec = t->regions[i].rec;
	bool as_given = n == name && name[len] == '\0';
	bool ro = as_given && name_is_ro(name);
	if (as_given) {
		e->site = site;
		e->name = name;
		e->rec = rec;
		e->region = (uint32_t)i;
		e->name_ro = ro;
	}
	push_frame(t, rec, (uint32_t)i, name, ro);
}

/* A region call while this thread is inside another (a signal handler
 * that interrupted one, or the runtime's start-up): the thread's tables
 * are half-updated, a one-time set-up may be waiting on itself. It is
 * ignored and counted (async-signal-safe); the flush says how many. */
static bool refused(void)
{
	if (LIKELY(!rl_rt_in_call))
		return false;
	__atomic_fetch_add(&refused_calls, 1, __ATOMIC_RELAXED);
	return true;
}

unsigned long rl_rt_refused_calls(void)
{
	return __atomic_load_n(&refused_calls, __ATOMIC_RELAXED);
}

#define CALL_ENTER()                                                         \
	do {                                                                 \
		rl_rt_in_call = 1;                                           \
		__atomic_signal_fence(__ATOMIC_SEQ_CST);                     \
	} while (0)
#define CALL_LEAVE()                                                         \
	do {                                                                 \
		__atomic_signal_fence(__ATOMIC_SEQ_CST);                     \
		rl_rt_in_call = 0;                                           \
	} while (0)

/* The steady state: a site seen before, with the same read-only name
 * (a string literal), and room on the stack. */
static inline __attribute__((always_inline)) void
begin_at(const char *name, const void *site, int s)
{
	struct rl_thread *t = rl_self;
	if (LIKELY(s == RL_RT_ACTIVE && t)) {
		struct rl_site_slot *e = site_slot(t, site, name);
		if (LIKELY(e->site == site && e->name == name && e->name_ro &&
			   t->depth < t->cap_frames)) {
			push_frame(t, e->rec, e->region, name, true);
			return;
		}
	}
	begin_slow(name, site);
}

void rl_region_begin(const char *name)
{
	const void *site = __builtin_return_address(0);
	int s = __atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED);
	if (LIKELY(s == RL_RT_INACTIVE) || refused())
		return;
	CALL_ENTER();
	begin_at(name, site, s);
	CALL_LEAVE();
}

void rl_rt_region_begin_internal(const char *name)
{
	begin_at(name, __builtin_return_address(0),
		 __atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED));
}

static void end_slow(struct rl_thread *t, const char *name)
{
	size_t len;
	name = normalize(t, name, &len);
	/* The innermost open region, by its bytes. */
	if (LIKELY(t->depth > 0)) {
		struct rl_frame *f = rl_frame_at(t, t->depth - 1);
		const char *n = t->regions[f->region].name;
		if (LIKELY(strncmp(n, name, len) == 0 && n[len] == '\0')) {
			rl_rt_pop_complete(t);
			return;
		}
	}
	size_t k = t->depth;
	while (k > 0) {
		const char *n = t->regions[rl_frame_at(t, k - 1)->region].name;
		if (strncmp(n, name, len) == 0 && n[len] == '\0')
			break;
		k--;
	}
	char cut[RL_NAME_MAX + 1];
	memcpy(cut, name, len);
	cut[len] = '\0';
	char msg[2 * RL_NAME_MAX + 200];
	struct rl_sb b = {msg, sizeof msg, 0};
	if (k == 0) {
		rl_sb_str(&b, "end of region ");
		rl_sb_name(&b, cut);
		rl_sb_str(&b, " that is not open (thread ");
		rl_sb_u64(&b, t->tid);
		rl_sb_str(&b, "): ignored");
		rl_rt_warn("end-without-begin", cut, t->tid, false, msg);
		return;
	}
	while (t->depth > k) {
		const char *inner =
			t->regions[rl_frame_at(t, t->depth - 1)->region].name;
		b.len = 0;
		rl_sb_str(&b, "end of region ");
		rl_sb_name(&b, cut);
		rl_sb_str(&b, " while ");
		rl_sb_name(&b, inner);
		rl_sb_str(&b, " is still open inside it (thread ");
		rl_sb_u64(&b, t->tid);
		rl_sb_str(&b, "): ");
		rl_sb_name(&b, inner);
		rl_sb_str(&b, " closed there too");
		rl_rt_warn("end-mismatch", inner, t->tid, false, msg);
		rl_rt_pop_complete(t);
	}
	rl_rt_pop_complete(t);
}

/* The steady state: the innermost region, begun with this same
 * read-only name pointer. */
static inline __attribute__((always_inline)) void end_at(const char *name,
							 int s)
{
	struct rl_thread *t = rl_self;
	if (LIKELY(s == RL_RT_ACTIVE && t && t->depth > 0)) {
		struct rl_frame *f = rl_frame_at(t, t->depth - 1);
		if (LIKELY(f->name == name && f->name_ro)) {
			pop_frame(t);
			return;
		}
	}
	t = enter();
	if (t)
		end_slow(t, name);
}

void rl_region_end(const char *name)
{
	int s = __atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED);
	if (LIKELY(s == RL_RT_INACTIVE) || refused())
		return;
	CALL_ENTER();
	end_at(name, s);
	CALL_LEAVE();
}

static void expect_at(const char *name, double flops, double bytes);

void rl_region_expect(const char *name, double flops, double bytes)
{
	if (__atomic_load_n(&rl_rt.state, __ATOMIC_RELAXED) ==
		    RL_RT_INACTIVE ||
	    refused())
		return;
	CALL_ENTER();
	expect_at(name, flops, bytes);
	CALL_LEAVE();
}

static void expect_at(const char *name, double flops, double bytes)
{
	struct rl_thread *t = enter();
	if (!t)
		return;
	size_t len;
	name = normalize(t, name, &len);
	if (!(flops >= 0) || !(bytes >= 0) || isinf(flops) || isinf(bytes)) {
		char cut[RL_NAME_MAX + 1], msg[RL_NAME_MAX + 160];
		memcpy(cut, name, len);
		cut[len] = '\0';
		struct rl_sb b = {msg, sizeof msg, 0};
		/* a NaN and a negative value are two mistakes, two warnings
		 * (one kind merged them into one message) */
		bool negative = flops < 0 || bytes < 0;
		rl_sb_str(&b, negative ? "negative flops or bytes declared "
					 "for region "
				       : "NaN or infinite flops or bytes "
					 "declared for region ");
		rl_sb_name(&b, cut);
		rl_sb_str(&b, " (thread ");
		rl_sb_u64(&b, t->tid);
		rl_sb_str(&b, "): ignored");
		rl_rt_warn(negative ? "bad-expect" : "bad-expect-nonfinite",
			   cut, t->tid, false, msg);
		return;
	}
	int i = rl_rt_region_index(t, name, len);
	if (i < 0)
		return;
	struct rl_rec_tail *s = rl_rec_tail(t->regions[i].rec);
	if (isinf(s->expected_flops + flops) ||
	    isinf(s->expected_bytes + bytes)) {
		char msg[RL_NAME_MAX + 160];
		struct rl_sb b = {msg, sizeof msg, 0};
		rl_sb_str(&b, "flops or bytes declared for region ");
		rl_sb_name(&b, t->regions[i].name);
		rl_sb_str(&b, " (thread ");
		rl_sb_u64(&b, t->tid);
		rl_sb_str(&b, ") would make the declared total infinite: "
			      "ignored");
		/* its own kind: merged with a negative declaration's, it
		 * was called negative */
		rl_rt_warn("bad-expect-overflow", t->regions[i].name, t->tid,
			   false, msg);
		return;
	}
	s->expected_flops += flops;
	s->expected_bytes += bytes;
	s->expect_calls++;
}
