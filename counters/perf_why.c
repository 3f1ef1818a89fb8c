/*
 * Why perf_event_open(2) cannot count here: the blocking setting and its
 * fix, from the errno values the man page documents and the files in /proc
 * and /sys (see perf_why.h). Part of librlprof: libc only.
 */
#include "counters/perf_why.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "counters/backend.h"
#include "counters/perf_probe.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

static FILE *open_under(const char *root, const char *path)
{
	char full[1024];

	snprintf(full, sizeof full, "%s%s", root, path);
	return fopen(full, "r");
}

static int read_int(const char *root, const char *path, int fallback)
{
	FILE *f = open_under(root, path);
	int v = fallback;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = fallback;
		fclose(f);
	}
	return v;
}

static void read_status(struct rl_perf_facts *f, const char *root)
{
	FILE *s = open_under(root, "/proc/self/status");
	char line[256];
	unsigned long long eff = 0;
	int mode;

	if (!s)
		return;
	while (fgets(line, sizeof line, s)) {
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			f->cap_perfmon = eff >> CAP_PERFMON_BIT & 1;
			f->cap_sys_admin = eff >> CAP_SYS_ADMIN_BIT & 1;
		} else if (sscanf(line, "Seccomp: %d", &mode) == 1) {
			f->seccomp = mode;
		}
	}
	fclose(s);
}

static void read_hypervisor(struct rl_perf_facts *f, const char *root)
{
	FILE *c = open_under(root, "/proc/cpuinfo");
	char line[4096];

	if (c) {
		while (fgets(line, sizeof line, c)) {
			if (strncmp(line, "flags", 5) != 0)
				continue;
			f->hypervisor = strstr(line, " hypervisor") != NULL;
			break;
		}
		fclose(c);
	}
	c = open_under(root, "/sys/class/dmi/id/sys_vendor");
	if (c) {
		if (fgets(f->hv_vendor, sizeof f->hv_vendor, c))
			f->hv_vendor[strcspn(f->hv_vendor, "\n")] = '\0';
		fclose(c);
	}
}

/* The core PMU's name: "cpu" on x86, "cpu_core"/"cpu_atom" on hybrid
 * Intel, "armv8_*"/"armv9_*" on Arm, "cpum_cf" on s390 (not "power":
 * that is RAPL on x86). */
static bool cpu_pmu_present(const char *root)
{
	static const char *const prefixes[] = {"cpu", "armv", "arm_", "cpum_",
					       "riscv_pmu"};
	char dir[1024];
	DIR *d;
	struct dirent *e;
	bool found = false;

	snprintf(dir, sizeof dir, "%s/sys/bus/event_source/devices", root);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (e = readdir(d)))
		for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
			if (strncmp(e->d_name, prefixes[i],
				    strlen(prefixes[i])) == 0 &&
			    strncmp(e->d_name, "cpuid", 5) != 0)
				found = true;
	closedir(d);
	return found;
}

void rl_perf_facts_read(struct rl_perf_facts *f, const char *root)
{
	FILE *v;

	if (!root)
		root = "";
	memset(f, 0, sizeof *f);
	f->seccomp = -1;
	f->paranoid = read_int(root, "/proc/sys/kernel/perf_event_paranoid",
			       RL_PARANOID_UNKNOWN);
	f->nmi_watchdog = read_int(root, "/proc/sys/kernel/nmi_watchdog", -1);
	read_status(f, root);
	read_hypervisor(f, root);
	f->cpu_pmu = cpu_pmu_present(root);
	v = open_under(root, "/proc/sys/kernel/osrelease");
	if (v) {
		if (fscanf(v, "%d.%d", &f->kernel_major, &f->kernel_minor) != 2)
			f->kernel_major = f->kernel_minor = 0;
		fclose(v);
	}
	if (f->kernel_major == 0 && !root[0]) {
		struct utsname u;
		if (uname(&u) == 0 &&
		    sscanf(u.release, "%d.%d", &f->kernel_major,
			   &f->kernel_minor) != 2)
			f->kernel_major = f->kernel_minor = 0;
	}
}

int rl_perf_paranoid(void)
{
	return read_int("", "/proc/sys/kernel/perf_event_paranoid",
			RL_PARANOID_UNKNOWN);
}

bool rl_perf_privileged(void)
{
	struct rl_perf_facts f;

	memset(&f, 0, sizeof f);
	read_status(&f, "");
	return f.cap_perfmon || f.cap_sys_admin;
}

/* CAP_PERFMON exists from Linux 5.8; before it CAP_SYS_ADMIN. */
static const char *perf_cap(const struct rl_perf_facts *f)
{
	return f->kernel_major > 5 || (f->kernel_major == 5 &&
				       f->kernel_minor >= 8)
		       ? "CAP_PERFMON"
		       : "CAP_SYS_ADMIN";
}

static bool privileged(const struct rl_perf_facts *f)
{
	return f->cap_sys_admin || (f->cap_perfmon && perf_cap(f)[4] == 'P');
}

static const char *errno_name(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSYS: return "ENOSYS";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBUSY: return "EBUSY";
	case EINVAL: return "EINVAL";
	default: return "error";
	}
}

static int seccomp_why(const struct rl_perf_facts *f, char *why, size_t len)
{
	snprintf(why, len,
		 "perf_event_open is denied by a seccomp filter on this process "
		 "(Seccomp: 2 in /proc/self/status; the call returns %s), as "
		 "container runtimes' default profiles do: run the container "
		 "with a profile that allows perf_event_open (docker/podman: "
		 "--security-opt seccomp=unconfined, or --cap-add PERFMON, with "
		 "which Docker's default profile allows it)",
		 errno_name(f->sw_errno));
	return RL_CAP_NONE;
}

static int denied_why(const struct rl_perf_facts *f, const char *what,
		      int err, char *why, size_t len)
{
	if (f->paranoid != RL_PARANOID_UNKNOWN && f->paranoid > 2 &&
	    !privileged(f)) {
		snprintf(why, len,
			 "kernel.perf_event_paranoid is %d: no perf events at "
			 "all for users without %s (a level Debian's and "
			 "Ubuntu's kernels add): run 'sudo sysctl "
			 "kernel.perf_event_paranoid=2' (own user-space "
			 "events; 0 also lets the uncore count DRAM bytes), or "
			 "run rlprof with %s",
			 f->paranoid, perf_cap(f), perf_cap(f));
		return 0;
	}
	snprintf(why, len,
		 "perf_event_open(%s) returns %s although "
		 "kernel.perf_event_paranoid is %d%s: a security module "
		 "(SELinux perf_event rules, AppArmor) or kernel lockdown denies "
		 "it; see 'dmesg' and the audit log",
		 what, errno_name(err), f->paranoid,
		 privileged(f) ? " and rlprof has the capability" : "");
	return 0;
}

static int no_pmu_why(const struct rl_perf_facts *f, char *why, size_t len)
{
	if (f->cpu_pmu) {
		snprintf(why, len,
			 "the CPU PMU does not count cycles "
			 "(perf_event_open(cycles) returns %s): the PMU "
			 "exposed here is a partial one; use -b sim",
			 errno_name(f->hw_errno));
	} else if (f->hypervisor) {
		snprintf(why, len,
			 "the hypervisor%s%s%s exposes no PMU to this virtual "
			 "machine (CPUID's hypervisor flag is set and "
			 "/sys/bus/event_source/devices has no cpu PMU; "
			 "perf_event_open(cycles) returns %s): enable the "
			 "guest's virtual PMU (QEMU/KVM: -cpu host,pmu=on or "
			 "libvirt <pmu state='on'/>; VMware: 'Virtualize CPU "
			 "performance counters'; in a cloud: a bare-metal or "
			 "whole-socket instance), or use -b sim",
			 f->hv_vendor[0] ? " (" : "", f->hv_vendor,
			 f->hv_vendor[0] ? ")" : "", errno_name(f->hw_errno));
	} else {
		snprintf(why, len,
			 "the kernel exposes no CPU PMU "
			 "(/sys/bus/event_source/devices has no cpu; "
			 "perf_event_open(cycles) returns %s): it has no "
			 "driver for this CPU's PMU or the firmware turned it "
			 "off (see 'dmesg | grep -i \"performance events\"'); "
			 "a newer kernel may know it, or use -b sim",
			 errno_name(f->hw_errno));
	}
	return RL_CAP_SOFTWARE;
}

int rl_perf_diagnose(const struct rl_perf_facts *f, char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	switch (f->sw_errno) {
	case 0:
		break;
	case ENOSYS:
		if (f->seccomp == 2)
			return seccomp_why(f, why, len);
		if (f->paranoid == RL_PARANOID_UNKNOWN)
			snprintf(why, len,
				 "this kernel has no perf events (built without "
				 "CONFIG_PERF_EVENTS: no "
				 "/proc/sys/kernel/perf_event_paranoid): use a "
				 "kernel with perf events, or -b sim");
		else
			snprintf(why, len,
				 "perf_event_open returns ENOSYS although the "
				 "kernel has perf events: something between "
				 "rlprof and the kernel (a sandbox, a ptrace "
				 "supervisor) refuses the call");
		return RL_CAP_NONE;
	case EPERM:
	case EACCES:
		if (f->seccomp == 2 &&
		    (f->sw_errno == EPERM || f->paranoid <= 2 || privileged(f)))
			return seccomp_why(f, why, len);
		denied_why(f, "task-clock", f->sw_errno, why, len);
		return RL_CAP_NONE;
	default:
		snprintf(why, len, "perf_event_open(task-clock) fails: %s",
			 strerror(f->sw_errno));
		return RL_CAP_NONE;
	}
	switch (f->hw_errno) {
	case 0:
		return RL_CAP_FLOPS;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return no_pmu_why(f, why, len);
	case EPERM:
	case EACCES:
		denied_why(f, "cycles", f->hw_errno, why, len);
		return RL_CAP_SOFTWARE;
	case EBUSY:
		snprintf(why, len,
			 "the PMU is busy (perf_event_open(cycles) returns "
			 "EBUSY): another tool holds it exclusively; stop it "
			 "(a profiler, a monitoring agent) and run again");
		return RL_CAP_SOFTWARE;
	default:
		snprintf(why, len, "perf_event_open(cycles) fails: %s",
			 strerror(f->hw_errno));
		return RL_CAP_SOFTWARE;
	}
}

static void append(char *why, size_t len, const char *text)
{
	size_t used = strlen(why);

	if (used + 3 < len)
		snprintf(why + used, len - used, "%s%s", used ? "; " : "", text);
}

void rl_perf_diagnose_more(const struct rl_perf_facts *f, char *why,
			   size_t len)
{
	char buf[320];

	if (f->sw_errno == 0 && f->paranoid != RL_PARANOID_UNKNOWN &&
	    f->paranoid > 2 && !privileged(f)) {
		snprintf(buf, sizeof buf,
			 "kernel.perf_event_paranoid is %d, but this kernel "
			 "lacks the level Debian's kernels give 3 (no perf "
			 "events for users) and treats it as 2",
			 f->paranoid);
		append(why, len, buf);
	}
	if (f->sw_errno == 0 && f->hw_errno != 0 &&
	    f->paranoid != RL_PARANOID_UNKNOWN && f->paranoid > 0 &&
	    !privileged(f)) {
		snprintf(buf, sizeof buf,
			 "with a PMU, kernel.perf_event_paranoid %d would "
			 "still keep the uncore DRAM counters from this user "
			 "('sudo sysctl kernel.perf_event_paranoid=0' or %s)",
			 f->paranoid, perf_cap(f));
		append(why, len, buf);
	}
	if (f->nmi_watchdog == 1 && (f->hw_errno == 0 || f->cpu_pmu))
		append(why, len,
		       "the NMI watchdog holds a hardware counter "
		       "(kernel.nmi_watchdog is 1), so fewer events fit "
		       "together and more are multiplexed: 'sudo sysctl "
		       "kernel.nmi_watchdog=0' frees it");
}
