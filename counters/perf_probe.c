/*
 * Why hardware counting through perf_event_open(2) works here or not, with
 * the exact cause and what to change (after perf's evsel__open_strerror).
 * Part of librlprof: libc only. The event tables live in the command
 * (counters/events/), reached through rl_perf_resolver() when linked in.
 */
#include "counters/perf_probe.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/perf_spec.h"
#include "counters/perf_why.h"

bool rl_perf_system_allowed(char *why, size_t len)
{
	int p = rl_perf_paranoid();

	if (why && len)
		why[0] = '\0';
	if (p <= 0 || rl_perf_privileged())
		return true;
	if (why)
		snprintf(why, len,
			 "uncore not allowed: kernel.perf_event_paranoid is %d "
			 "and rlprof lacks CAP_PERFMON (run 'sysctl "
			 "kernel.perf_event_paranoid=0' or grant CAP_PERFMON)",
			 p);
	return false;
}

int rl_kernel_version(int *major, int *minor)
{
	struct utsname u;

	*major = *minor = 0;
	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", major, minor) != 2)
		return -1;
	return 0;
}

/* Opens one event (per-thread user-only when cpu < 0, system-wide on cpu
 * otherwise: uncore PMUs refuse any exclude_* bit); fd or -errno. */
static int open_fd(uint32_t type, uint64_t config, uint64_t config1,
		   uint64_t config2, int cpu, int group_fd)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	a.config1 = config1;
	a.config2 = config2;
	a.disabled = 1;
	a.exclude_kernel = cpu < 0;
	a.exclude_hv = cpu < 0;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd = (int)syscall(SYS_perf_event_open, &a, cpu < 0 ? 0 : -1, cpu,
			  group_fd, PERF_FLAG_FD_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

static int open_event(uint32_t type, uint64_t config, uint64_t config1,
		      uint64_t config2, int cpu)
{
	int fd = open_fd(type, config, config1, config2, cpu, -1);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* A group whose events open alone may still not fit the counters
 * together (the kernel checks at open): such a group is split into groups
 * of one, which the kernel multiplexes. */
static void split_unschedulable_groups(struct rl_perf_event_spec *specs,
				       size_t n)
{
	int next = 0;

	for (size_t i = 0; i < n; i++)
		if (specs[i].group >= next)
			next = specs[i].group + 1;
	for (size_t i = 0; i < n; i++) {
		int fds[RL_PERF_EVENTS_MAX], nf = 0, ok = 1;
		bool leader = true;
		if (specs[i].group < 0)
			continue;
		for (size_t j = 0; j < i && leader; j++)
			leader = !(specs[j].group == specs[i].group &&
				   specs[j].cpu == specs[i].cpu);
		if (!leader)
			continue;
		for (size_t j = i; j < n && ok; j++) {
			const struct rl_perf_event_spec *s = &specs[j];
			int fd;
			if (s->group != specs[i].group || s->cpu != specs[i].cpu)
				continue;
			fd = open_fd(s->type, s->config, s->config1, s->config2,
				     s->cpu, nf ? fds[0] : -1);
			if (fd < 0)
				ok = 0;
			else
				fds[nf++] = fd;
		}
		while (nf > 0)
			close(fds[--nf]);
		if (ok)
			continue;
		for (size_t j = i + 1; j < n; j++)
			if (specs[j].group == specs[i].group &&
			    specs[j].cpu == specs[i].cpu)
				specs[j].group = next++;
	}
}

size_t rl_perf_specs_keep_openable(struct rl_perf_event_spec *specs,
				   size_t n, char *note, size_t len)
{
	size_t kept = 0, used = note && len ? strlen(note) : 0;
	int dropped = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rl_perf_event_spec *s = &specs[i];
		int e = open_event(s->type, s->config, s->config1, s->config2,
				   s->cpu);
		if (e == 0) {
			specs[kept++] = specs[i];
			continue;
		}
		if (note && used + 8 < len) {
			int k = snprintf(note + used, len - used, "%s%s (%s)",
					 dropped ? ", "
					 : used  ? "; not counted, does not open "
						   "here: "
						 : "not counted, does not open here: ",
					 s->name, strerror(-e));
			used = k > 0 && (size_t)k < len - used ? used + (size_t)k
							       : len - 1;
		}
		dropped++;
	}
	split_unschedulable_groups(specs, kept);
	return kept;
}

/* With the command's event tables: are flops and DRAM events usable? */
static int probe_tables(char *why, size_t len)
{
	struct rl_perf_event_spec specs[RL_PERF_EVENTS_MAX];
	char note[1024];
	size_t n = 0;
	int flops = -1, dram_sys = -1, dram_proxy = -1;

	if (rl_perf_resolver()("", specs, RL_PERF_EVENTS_MAX, &n, note,
				   sizeof note) < 0) {
		snprintf(why, len, "cannot resolve events: %s", note);
		return RL_CAP_SOFTWARE;
	}
	for (size_t i = 0; i < n; i++) {
		enum rl_counter_kind k = rl_counter_kind_of(specs[i].counter);
		if (k == RL_KIND_FLOPS && flops < 0)
			flops = (int)i;
		if (k == RL_KIND_BYTES && specs[i].cpu >= 0 && dram_sys < 0)
			dram_sys = (int)i;
		if (k == RL_KIND_BYTES && specs[i].cpu < 0 && dram_proxy < 0)
			dram_proxy = (int)i;
	}
	if (flops < 0) {
		snprintf(why, len, "hardware counters work but no flops event "
				   "here: %s", note);
		return RL_CAP_SOFTWARE;
	}
	{
		const struct rl_perf_event_spec *s = &specs[flops];
		int e = open_event(s->type, s->config, s->config1, s->config2,
				   -1);
		if (e < 0) {
			snprintf(why, len, "cannot open %s (type %u config "
					   "0x%llx): %s",
				 s->name, s->type, (unsigned long long)s->config,
				 strerror(-e));
			return RL_CAP_SOFTWARE;
		}
	}
	if (dram_sys >= 0) {
		const struct rl_perf_event_spec *s = &specs[dram_sys];
		int e = open_event(s->type, s->config, s->config1, s->config2,
				   s->cpu);
		if (e == 0)
			return RL_CAP_FLOPS_BYTES;
		snprintf(why, len, "uncore event %s on cpu %d does not open "
				   "(%s): DRAM bytes not counted",
			 s->name, s->cpu, strerror(-e));
		return RL_CAP_FLOPS;
	}
	if (dram_proxy >= 0) {
		const char *p = strstr(note, "per-thread proxy");
		snprintf(why, len, "DRAM bytes only from a %s",
			 p ? p : "per-thread proxy");
		return RL_CAP_FLOPS;
	}
	{
		const char *p = strstr(note, "DRAM bytes not counted");
		snprintf(why, len, "%s", p ? p : "DRAM bytes not counted here");
	}
	return RL_CAP_FLOPS;
}

int rl_perf_probe_hw(char *why, size_t len)
{
	struct rl_perf_facts f;
	int cap;

	if (why && len)
		why[0] = '\0';
	rl_perf_facts_read(&f, "");
	f.sw_errno = -open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
				 0, 0, -1);
	f.hw_errno = f.sw_errno ? 0 : -open_event(PERF_TYPE_HARDWARE,
						  PERF_COUNT_HW_CPU_CYCLES, 0,
						  0, -1);
	cap = rl_perf_diagnose(&f, why, len);
	if (cap >= RL_CAP_FLOPS) {
		if (!rl_perf_resolver())
			snprintf(why, len, "hardware counters work; flops and "
					   "DRAM events are resolved by the "
					   "rlprof command");
		else
			cap = probe_tables(why, len);
	}
	if (cap >= RL_CAP_SOFTWARE)
		rl_perf_diagnose_more(&f, why, len);
	return cap;
}
