/*
 * The `perf` backend, runtime side: perf_event_open(2) by raw system call
 * (libc only), driven by the encoded events in RLPROF_PERF_EVENTS
 * (perf_spec.h) or, when unset, three software events (task clock, page
 * faults, context switches).
 *
 * Per-thread events (cpu -1) are opened in each thread at its first region
 * (pid 0, cpu -1); events with the same g= form a group read by one read()
 * of the leader (PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
 * | ID). System-wide events (cpu >= 0, e.g. uncore) are opened once per
 * process (pid -1) and read from any thread. Kernel-mode counting is tried
 * first and dropped (exclude_kernel) when perf_event_paranoid forbids it;
 * the counter's method then says "user only". A counter fed by several
 * events sums their weighted counts; its enabled/running times are the sums
 * over the groups that feed it (exact when they all run the same fraction
 * of the time).
 *
 * The hardware side of probe() and the event resolution for `rlprof run`
 * (prepare_launch) belong to counters/events/ and counters/perf_probe.c.
 */
#include "counters/backend.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters/perf_probe.h"
#include "counters/perf_why.h"
#include "counters/perf_spec.h"

/* What the command found when it resolved the events, for the report. */
#define RL_PERF_NOTE_ENV "RLPROF_PERF_NOTE"

#define PERF_READ_FORMAT                                                       \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |                   \
	 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

/* Process-wide: the events, their groups, the system-wide fds. Written by
 * init() before any thread_open(), read-only afterwards. */
static struct {
	size_t n;
	struct rl_perf_event_spec ev[RL_PERF_EVENTS_MAX];
	int leader[RL_PERF_EVENTS_MAX];  /* index of the group's leader */
	int pos[RL_PERF_EVENTS_MAX];     /* position in the group read */
	int members[RL_PERF_EVENTS_MAX]; /* for leaders: group size */
	uint64_t feeds[RL_PERF_EVENTS_MAX]; /* for leaders: counters fed */
	bool user_only[RL_PERF_EVENTS_MAX];
	int sys_fd[RL_PERF_EVENTS_MAX];  /* system-wide events: fd + 1 */
	uint64_t sys_id[RL_PERF_EVENTS_MAX]; /* their kernel event ids */
} perf;

/* The program may close our descriptors (a daemon closing every fd) and
 * get their numbers again for its own files or pipes: each event's kernel
 * id (unique system-wide) is kept and checked before a read or close, so
 * the runtime never reads (blocks on, or consumes) nor closes a
 * descriptor that is no longer its own. */
struct perf_thread {
	int fd[RL_PERF_EVENTS_MAX]; /* per-thread events: fd + 1, 0 = none */
	uint64_t id[RL_PERF_EVENTS_MAX];
};

/* Is fd + 1 still the perf event whose id is id? */
static bool still_ours(int fd1, uint64_t id)
{
	uint64_t got = 0;
	return fd1 > 0 && ioctl(fd1 - 1, PERF_EVENT_IOC_ID, &got) == 0 &&
	       got == id;
}

static long perf_open(const struct rl_perf_event_spec *s, bool user_only,
		      pid_t pid, int cpu, int group_fd)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	/* a leader starts disabled and is enabled, with its whole group,
	 * once every member is open (open_group), as perf stat does: the
	 * members then count from the same instant as the leader. Opened
	 * enabled one by one, a member joined a group already counting;
	 * now and then a test process here saw members (page faults,
	 * cpu-clock) read 0 beside a counting leader, which this is meant
	 * to rule out (not proven to be that cause) */
	a.disabled = group_fd < 0;
	a.size = sizeof a;
	a.type = s->type;
	a.config = s->config;
	a.config1 = s->config1;
	a.config2 = s->config2;
	a.read_format = PERF_READ_FORMAT;
	a.exclude_kernel = user_only;
	a.exclude_hv = user_only;
	return syscall(SYS_perf_event_open, &a, pid, cpu, group_fd,
		       PERF_FLAG_FD_CLOEXEC);
}

static void event_label(const struct rl_perf_event_spec *s, char *buf,
			size_t len)
{
	if (s->name[0])
		snprintf(buf, len, "%s", s->name);
	else
		snprintf(buf, len, "type %u config 0x%llx", (unsigned)s->type,
			 (unsigned long long)s->config);
}

static int open_error(const struct rl_perf_event_spec *s, int e, char *err,
		      size_t errlen)
{
	char label[128], why[768];
	struct rl_perf_facts f;

	event_label(s, label, sizeof label);
	rl_perf_facts_read(&f, "");
	if (e == EACCES || e == EPERM || e == ENOSYS) {
		f.sw_errno = e;
		rl_perf_diagnose(&f, why, sizeof why);
		return rl_fail(err, errlen, e == ENOSYS ? RL_ENOTSUP : RL_EPERM,
			       "cannot open perf event '%s': %s", label, why);
	}
	if ((e == ENOENT || e == EOPNOTSUPP || e == ENODEV) && f.cpu_pmu)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "cannot open perf event '%s': %s: this CPU's "
			       "PMU does not count it",
			       label, strerror(e));
	if (e == ENOENT || e == EOPNOTSUPP || e == ENODEV) {
		f.hw_errno = e;
		rl_perf_diagnose(&f, why, sizeof why);
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "cannot open perf event '%s': %s", label, why);
	}
	return rl_fail(err, errlen, RL_EIO, "cannot open perf event '%s': %s",
		       label, strerror(e));
}

/* Open the group led by L into fds[] (indexed like perf.ev, fd + 1).
 * pid/cpu as for perf_event_open. */
static int open_group(int L, pid_t pid, int cpu, int *fds, uint64_t *ids,
		      char *err, size_t errlen)
{
	int lfd = -1;
	for (size_t i = (size_t)L; i < perf.n; i++) {
		if (perf.leader[i] != L)
			continue;
		long fd = perf_open(&perf.ev[i], perf.user_only[i], pid, cpu,
				    lfd);
		if (fd < 0) {
			int e = errno;
			for (size_t j = (size_t)L; j < i; j++)
				if (perf.leader[j] == L && fds[j] > 0) {
					close(fds[j] - 1);
					fds[j] = 0;
				}
			errno = e;
			return open_error(&perf.ev[i], e, err, errlen);
		}
		fds[i] = (int)fd + 1;
		if (ioctl((int)fd, PERF_EVENT_IOC_ID, &ids[i]) < 0) {
			int e = errno;
			for (size_t j = (size_t)L; j <= i; j++)
				if (perf.leader[j] == L && fds[j] > 0) {
					close(fds[j] - 1);
					fds[j] = 0;
				}
			return rl_fail(err, errlen, RL_ENOTSUP,
				       "perf event id (PERF_EVENT_IOC_ID): %s",
				       strerror(e));
		}
		if (lfd < 0)
			lfd = (int)fd;
	}
	if (lfd >= 0 && ioctl(lfd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0) {
		int e = errno;
		for (size_t j = (size_t)L; j < perf.n; j++)
			if (perf.leader[j] == L && fds[j] > 0) {
				close(fds[j] - 1);
				fds[j] = 0;
			}
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "cannot enable a perf event group "
			       "(PERF_EVENT_IOC_ENABLE): %s",
			       strerror(e));
	}
	return 0;
}

/* Close what is still ours; forget the rest (the program closed it). */
static void close_group(int L, int *fds, const uint64_t *ids)
{
	for (size_t i = (size_t)L; i < perf.n; i++)
		if (perf.leader[i] == L && fds[i] > 0) {
			if (still_ours(fds[i], ids[i]))
				close(fds[i] - 1);
			fds[i] = 0;
		}
}

static void default_events(void)
{
	static const struct {
		int counter;
		uint64_t config;
		const char *name;
	} sw[] = {
		{RL_C_TASK_CLOCK_NS, PERF_COUNT_SW_TASK_CLOCK,
		 "software task-clock"},
		{RL_C_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS,
		 "software page-faults"},
		{RL_C_CONTEXT_SWITCHES, PERF_COUNT_SW_CONTEXT_SWITCHES,
		 "software context-switches"},
	};
	perf.n = sizeof sw / sizeof *sw;
	for (size_t i = 0; i < perf.n; i++) {
		struct rl_perf_event_spec *s = &perf.ev[i];
		memset(s, 0, sizeof *s);
		s->counter = sw[i].counter;
		s->type = PERF_TYPE_SOFTWARE;
		s->config = sw[i].config;
		s->weight = 1.0;
		s->cpu = -1;
		s->group = 0;
		snprintf(s->name, sizeof s->name, "%s", sw[i].name);
	}
}

/* Leaders and positions: events with the same (g, cpu) form a group, the
 * first one leads; g = -1 is a group of one. */
static void make_groups(void)
{
	for (size_t i = 0; i < perf.n; i++) {
		int L = (int)i;
		for (size_t j = 0; j < i && perf.ev[i].group >= 0; j++)
			if (perf.ev[j].group == perf.ev[i].group &&
			    perf.ev[j].cpu == perf.ev[i].cpu) {
				L = perf.leader[j];
				break;
			}
		perf.leader[i] = L;
		perf.pos[i] = perf.members[L]++;
		perf.feeds[L] |= 1ull << perf.ev[i].counter;
	}
}

static void make_method(int c, struct rl_backend_setup *setup)
{
	char *m = setup->method[c];
	size_t len = 0;
	int n = 0, cpu = -2;
	bool thread = false, sys = false, user = false, cpus_differ = false;
	len += (size_t)snprintf(m, RL_METHOD_MAX, "perf ");
	for (size_t i = 0; i < perf.n; i++) {
		const struct rl_perf_event_spec *s = &perf.ev[i];
		if (s->counter != c)
			continue;
		char label[128];
		event_label(s, label, sizeof label);
		if (len < RL_METHOD_MAX)
			len += (size_t)snprintf(m + len, RL_METHOD_MAX - len,
						"%s%s", n ? " + " : "", label);
		if (s->weight != 1.0 && len < RL_METHOD_MAX)
			len += (size_t)snprintf(m + len, RL_METHOD_MAX - len,
						" x%g", s->weight);
		n++;
		if (s->cpu < 0) {
			thread = true;
		} else {
			sys = true;
			if (cpu != -2 && cpu != s->cpu)
				cpus_differ = true;
			cpu = s->cpu;
		}
		user |= perf.user_only[i];
	}
	/* a per-thread event adding to DRAM bytes stands in for the memory
	 * controller (LLC misses x 64 B ...): a proxy */
	bool proxy = thread && !sys && rl_counter_kind_of(c) == RL_KIND_BYTES;
	if (len < RL_METHOD_MAX && thread)
		len += (size_t)snprintf(m + len, RL_METHOD_MAX - len,
					proxy ? ", per-thread proxy"
					      : ", per-thread");
	if (len < RL_METHOD_MAX && sys && cpus_differ)
		len += (size_t)snprintf(m + len, RL_METHOD_MAX - len,
					", system-wide, several cpus");
	else if (len < RL_METHOD_MAX && sys)
		len += (size_t)snprintf(m + len, RL_METHOD_MAX - len,
					", system-wide cpu %d", cpu);
	if (len < RL_METHOD_MAX && user)
		snprintf(m + len, RL_METHOD_MAX - len, " (user only)");
	setup->scope[c] = sys     ? RL_SCOPE_SYSTEM
			  : proxy ? RL_SCOPE_PROXY
				  : RL_SCOPE_THREAD;
}

static void perf_fini(void)
{
	for (size_t i = 0; i < perf.n; i++)
		if ((size_t)perf.leader[i] == i && perf.ev[i].cpu >= 0)
			close_group((int)i, perf.sys_fd, perf.sys_id);
}

static int perf_init(const char *options, struct rl_backend_setup *setup,
		     char *err, size_t errlen)
{
	(void)options;
	memset(&perf, 0, sizeof perf);
	memset(setup, 0, sizeof *setup);
	const char *text = secure_getenv(RL_PERF_ENV);
	if (text && *text) {
		int rc = rl_perf_spec_parse(text, perf.ev, RL_PERF_EVENTS_MAX,
					    &perf.n, err, errlen);
		if (rc < 0)
			return rc;
		if (perf.n == 0)
			return rl_fail(err, errlen, RL_EINVAL,
				       "no perf events in " RL_PERF_ENV);
	} else {
		default_events();
	}
	make_groups();

	/* Per-thread groups: try them once in this thread, with kernel
	 * counting first; system-wide groups: open them for good. */
	struct perf_thread trial;
	memset(&trial, 0, sizeof trial);
	size_t n_thread = 0, n_sys = 0, n_groups = 0;
	for (size_t i = 0; i < perf.n; i++) {
		if ((size_t)perf.leader[i] != i)
			continue;
		n_groups++;
		bool sys = perf.ev[i].cpu >= 0;
		int *fds = sys ? perf.sys_fd : trial.fd;
		uint64_t *ids = sys ? perf.sys_id : trial.id;
		pid_t pid = sys ? -1 : 0;
		int rc = open_group((int)i, pid, perf.ev[i].cpu, fds, ids,
				    err, errlen);
		if (rc == RL_EPERM && !sys) {
			for (size_t j = i; j < perf.n; j++)
				if ((size_t)perf.leader[j] == i)
					perf.user_only[j] = true;
			rc = open_group((int)i, pid, -1, fds, ids, err,
					errlen);
		}
		if (rc < 0) {
			close_group((int)i, trial.fd, trial.id);
			perf_fini();
			return rc;
		}
		if (!sys)
			close_group((int)i, trial.fd, trial.id);
	}
	for (size_t i = 0; i < perf.n; i++) {
		int c = perf.ev[i].counter;
		if (perf.ev[i].cpu >= 0)
			n_sys++;
		else
			n_thread++;
		if (setup->provided >> c & 1)
			continue;
		setup->provided |= 1ull << c;
		make_method(c, setup);
		if (c >= RL_C_EXTRA0 && c < RL_C_EXTRA0 + RL_EXTRA_MAX)
			event_label(&perf.ev[i], setup->extra_name[c - RL_C_EXTRA0],
				    sizeof setup->extra_name[0]);
	}
	snprintf(setup->note, sizeof setup->note,
		 "perf_event_open: %zu per-thread and %zu system-wide events "
		 "in %zu groups%s",
		 n_thread, n_sys, n_groups,
		 text && *text ? "" : " (default software events)");
	{
		const char *cmd_note = secure_getenv(RL_PERF_NOTE_ENV);
		size_t used = strlen(setup->note);
		if (cmd_note && *cmd_note && used + 3 < sizeof setup->note)
			snprintf(setup->note + used, sizeof setup->note - used,
				 "; %s", cmd_note);
	}
	return 0;
}

static int perf_thread_open(void *state, char *err, size_t errlen)
{
	struct perf_thread *t = state;
	for (size_t i = 0; i < perf.n; i++)
		if ((size_t)perf.leader[i] == i && perf.ev[i].cpu < 0) {
			int rc = open_group((int)i, 0, -1, t->fd, t->id, err,
					    errlen);
			if (rc < 0) {
				for (size_t j = 0; j < i; j++)
					if ((size_t)perf.leader[j] == j)
						close_group((int)j, t->fd, t->id);
				return rc;
			}
		}
	return 0;
}

static void perf_thread_close(void *state)
{
	struct perf_thread *t = state;
	for (size_t i = 0; i < perf.n; i++)
		if ((size_t)perf.leader[i] == i && perf.ev[i].cpu < 0)
			close_group((int)i, t->fd, t->id);
}

static uint64_t weighted(double w, uint64_t raw)
{
	return w == 1.0 ? raw : (uint64_t)(w * (double)raw + 0.5);
}

static int perf_read(void *state, struct rl_counter_value *values)
{
	struct perf_thread *t = state;
	uint64_t buf[3 + 2 * RL_PERF_EVENTS_MAX];
	uint64_t seen = 0;
	for (size_t L = 0; L < perf.n; L++) {
		if ((size_t)perf.leader[L] != L)
			continue;
		bool sys = perf.ev[L].cpu >= 0;
		int fd = sys ? perf.sys_fd[L] : t->fd[L];
		size_t want = (3 + 2 * (size_t)perf.members[L]) * sizeof *buf;
		if (!still_ours(fd, sys ? perf.sys_id[L] : t->id[L])) {
			if (!sys) /* shared ones stay: other threads check */
				close_group((int)L, t->fd, t->id);
			return RL_EIO;
		}
		if (read(fd - 1, buf, want) != (ssize_t)want)
			return RL_EIO;
		uint64_t te = buf[1], tr = buf[2];
		for (size_t i = L; i < perf.n; i++) {
			if ((size_t)perf.leader[i] != L)
				continue;
			int c = perf.ev[i].counter;
			if (!(seen >> c & 1)) {
				memset(&values[c], 0, sizeof values[c]);
				seen |= 1ull << c;
			}
			values[c].value += weighted(
				perf.ev[i].weight, buf[3 + 2 * perf.pos[i]]);
		}
		for (int c = 0; c < RL_COUNTER_COUNT; c++)
			if (perf.feeds[L] >> c & 1) {
				values[c].enabled_ns += te;
				values[c].running_ns += tr;
			}
	}
	return 0;
}

/* perf_why.c names the setting that blocks perf and its fix. */
static int perf_probe(char *why, size_t whylen)
{
	return rl_perf_probe_hw(why, whylen);
}

/* In rlprof run: the command resolves the hardware events of this machine
 * (counters/events/) and hands them to the program in RLPROF_PERF_EVENTS,
 * with the software events beside them. Events that do not open here are
 * left out and named in RLPROF_PERF_NOTE, which init() adds to the note;
 * when no hardware event opens, the program counts the default software
 * events. */
static int perf_prepare_launch(struct rl_launch *l, char *err, size_t errlen)
{
	static const uint64_t sw[] = {PERF_COUNT_SW_TASK_CLOCK,
				      PERF_COUNT_SW_PAGE_FAULTS,
				      PERF_COUNT_SW_CONTEXT_SWITCHES};
	static const int sw_counter[] = {RL_C_TASK_CLOCK_NS, RL_C_PAGE_FAULTS,
					 RL_C_CONTEXT_SWITCHES};
	static const char *const sw_name[] = {"software task-clock",
					      "software page-faults",
					      "software context-switches"};
	struct rl_perf_event_spec specs[RL_PERF_EVENTS_MAX];
	char note[1024] = "", text[RL_PERF_EVENTS_MAX * 200];
	size_t n = 0, resolved, hardware;
	int rc, group = 0;

	rl_perf_resolve_fn *resolve = rl_perf_resolver();
	if (!resolve)
		return 0; /* no event tables linked in: software events */
	rc = resolve(l->options ? l->options : "", specs,
				    RL_PERF_EVENTS_MAX, &n, note, sizeof note);
	if (rc < 0)
		return rl_fail(err, errlen, rc, "%s", note);
	resolved = 0;
	for (size_t i = 0; i < n; i++)
		resolved += rl_counter_kind_of(specs[i].counter) != RL_KIND_EXTRA;
	n = rl_perf_specs_keep_openable(specs, n, note, sizeof note);
	hardware = 0;
	for (size_t i = 0; i < n; i++)
		hardware += rl_counter_kind_of(specs[i].counter) != RL_KIND_EXTRA;
	if (hardware == 0)
		snprintf(note, sizeof note,
			 "none of the %zu hardware events resolved for this "
			 "CPU opens here (no hardware PMU exposed?): software "
			 "events only",
			 resolved);
	if (n == 0) {
		return rl_launch_setenv(l, RL_PERF_NOTE_ENV, note) < 0
			       ? rl_fail(err, errlen, RL_ENOMEM, "out of memory")
			       : 0;
	}
	for (size_t i = 0; i < n; i++)
		if (specs[i].group >= group)
			group = specs[i].group + 1;
	for (size_t i = 0; i < 3 && n < RL_PERF_EVENTS_MAX; i++, n++) {
		memset(&specs[n], 0, sizeof specs[n]);
		specs[n].counter = sw_counter[i];
		specs[n].type = PERF_TYPE_SOFTWARE;
		specs[n].config = sw[i];
		specs[n].weight = 1.0;
		specs[n].cpu = -1;
		specs[n].group = group + (int)i;
		snprintf(specs[n].name, sizeof specs[n].name, "%s", sw_name[i]);
	}
	if ((rc = rl_perf_spec_format(specs, n, text, sizeof text)) < 0)
		return rl_fail(err, errlen, rc,
			       "the %zu perf events do not fit in " RL_PERF_ENV,
			       n);
	if (rl_launch_setenv(l, RL_PERF_ENV, text) < 0 ||
	    rl_launch_setenv(l, RL_PERF_NOTE_ENV, note) < 0)
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	return 0;
}

const struct rl_backend rl_backend_perf = {
	.abi = RL_BACKEND_ABI,
	.name = "perf",
	.summary = "Linux perf_event_open: per-thread core events, "
		   "system-wide uncore events, software events",
	.thread_state_size = sizeof(struct perf_thread),
	.probe = perf_probe,
	.init = perf_init,
	.thread_open = perf_thread_open,
	.read = perf_read,
	.thread_close = perf_thread_close,
	.fini = perf_fini,
	.prepare_launch = perf_prepare_launch,
};
