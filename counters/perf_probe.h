/*
 * Why the hardware PMU works here or not (perf_probe.c, part of librlprof:
 * libc only). Used by the perf backend's probe() and by the command's
 * event resolution.
 */
#ifndef RL_PERF_PROBE_H
#define RL_PERF_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/* kernel.perf_event_paranoid, or 99 when it cannot be read. */
int rl_perf_paranoid(void);
/* CAP_PERFMON or CAP_SYS_ADMIN in the effective set of this process. */
bool rl_perf_privileged(void);
/* May this process open system-wide (uncore, cpu >= 0) events? When not,
 * why says so with what to change. */
bool rl_perf_system_allowed(char *why, size_t len);
/* Kernel version from uname(2); 0 on success. */
int rl_kernel_version(int *major, int *minor);

struct rl_perf_event_spec;
/* Keeps the specs that open here (each alone: per-thread ones in this
 * process, system-wide ones on their cpu), in order; appends to note which
 * were dropped and why. Returns how many were kept. */
size_t rl_perf_specs_keep_openable(struct rl_perf_event_spec *specs,
				   size_t n, char *note, size_t len);

/* The hardware PMU's state: RL_CAP_SOFTWARE when perf works but counts no
 * hardware event (why: the exact cause), RL_CAP_FLOPS when core events
 * open, RL_CAP_FLOPS_BYTES when DRAM bytes are countable too (uncore, or
 * a per-thread proxy: why says which), RL_CAP_NONE when perf_event_open
 * does not work at all. */
int rl_perf_probe_hw(char *why, size_t len);

#endif
