/*
 * Why perf_event_open(2) cannot count here, named as the setting that
 * blocks it and the exact fix (perf_why.c, part of librlprof: libc only).
 *
 * The diagnosis is a pure function of facts: the errno values the two
 * probe opens returned (perf_event_open(2) documents EACCES/EPERM for
 * kernel.perf_event_paranoid and missing capabilities, ENOSYS for a kernel
 * without perf events, ENOENT/EOPNOTSUPP/ENODEV for an event the PMU does
 * not have) and what /proc and /sys say. rl_perf_facts_read() reads those
 * files under a root directory ("" for the real ones) so tests can lay out
 * any machine; rl_perf_diagnose() turns the facts into one line.
 */
#ifndef RL_PERF_WHY_H
#define RL_PERF_WHY_H

#include <stdbool.h>
#include <stddef.h>

#define RL_PARANOID_UNKNOWN 99 /* no /proc/sys/kernel/perf_event_paranoid */

struct rl_perf_facts {
	int sw_errno;       /* perf_event_open(task-clock, user only): 0 opened */
	int hw_errno;       /* perf_event_open(cycles, user only): 0 opened */
	int paranoid;       /* kernel.perf_event_paranoid or RL_PARANOID_UNKNOWN */
	bool cap_perfmon;   /* in this process's effective set */
	bool cap_sys_admin;
	int seccomp;        /* "Seccomp:" of /proc/self/status: 0 none,
			       1 strict, 2 filter; -1 unknown */
	bool hypervisor;    /* "hypervisor" in /proc/cpuinfo's flags */
	char hv_vendor[64]; /* /sys/class/dmi/id/sys_vendor, "" unknown */
	bool cpu_pmu;       /* a CPU PMU in /sys/bus/event_source/devices */
	int nmi_watchdog;   /* kernel.nmi_watchdog, -1 unknown */
	int kernel_major, kernel_minor;
};

/* Fills everything but sw_errno and hw_errno (left 0) from the files under
 * root ("" or NULL: this machine). */
void rl_perf_facts_read(struct rl_perf_facts *f, const char *root);

/* How far perf gets with these facts: RL_CAP_NONE (no perf event opens),
 * RL_CAP_SOFTWARE (software events only) or RL_CAP_FLOPS (hardware events
 * open; the event tables decide the rest). Below RL_CAP_FLOPS why names
 * the blocking setting and its fix, in one line. */
int rl_perf_diagnose(const struct rl_perf_facts *f, char *why, size_t len);

/* Appends (after "; ") what a PMU that counts would still meet here: the
 * NMI watchdog holding a counter, kernel.perf_event_paranoid keeping the
 * uncore DRAM counters from this user. Nothing when nothing applies. */
void rl_perf_diagnose_more(const struct rl_perf_facts *f, char *why,
			   size_t len);

#endif
