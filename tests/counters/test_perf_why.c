/* perf_why.c from the errno values perf_event_open(2) documents and the
 * files in /proc and /sys: every blocking setting is named with its fix.
 * The facts are laid out here (a fake root for the files), so each branch
 * is reached whatever this machine is; test_perf_why_real.c checks the
 * branches this machine can really reach. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/events/msr_why.h"
#include "counters/perf_why.h"

/* A user without capabilities on a 6.1 kernel at Debian's default. */
static struct rl_perf_facts user(void)
{
	struct rl_perf_facts f;

	memset(&f, 0, sizeof f);
	f.paranoid = 3;
	f.seccomp = 0;
	f.nmi_watchdog = 0;
	f.cpu_pmu = true;
	f.kernel_major = 6;
	f.kernel_minor = 1;
	return f;
}

static int diagnose(const struct rl_perf_facts *f, char *why, size_t len)
{
	int cap = rl_perf_diagnose(f, why, len);

	if (cap >= RL_CAP_SOFTWARE)
		rl_perf_diagnose_more(f, why, len);
	cr_assert_null(strchr(why, '\n'), "one line: %s", why);
	return cap;
}

#define HAS(why, text) cr_assert(strstr(why, text), "no '%s' in: %s", text, why)
#define HASNT(why, text) cr_assert_null(strstr(why, text), "'%s' in: %s", text, why)

Test(perf_why, paranoid_3_blocks_every_event_for_a_user)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.sw_errno = EACCES;
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_NONE);
	HAS(why, "kernel.perf_event_paranoid is 3: no perf events at all");
	HAS(why, "sudo sysctl kernel.perf_event_paranoid=2");
	HAS(why, "CAP_PERFMON");
	HASNT(why, "virtual machine");
	f.paranoid = 4; /* Ubuntu's newer level */
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_NONE);
	HAS(why, "kernel.perf_event_paranoid is 4: no perf events at all");
}

Test(perf_why, old_kernels_name_cap_sys_admin)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.sw_errno = EACCES;
	f.kernel_major = 5;
	f.kernel_minor = 4;
	diagnose(&f, why, sizeof why);
	HAS(why, "CAP_SYS_ADMIN");
	HASNT(why, "CAP_PERFMON");
}

Test(perf_why, a_seccomp_filter_is_named_not_the_paranoid_level)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.seccomp = 2;
	f.sw_errno = EPERM; /* Docker's default profile */
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_NONE);
	HAS(why, "seccomp filter");
	HAS(why, "returns EPERM");
	HAS(why, "--security-opt seccomp=");
	HASNT(why, "perf_event_paranoid");
	f.sw_errno = ENOSYS;
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_NONE);
	HAS(why, "seccomp filter");
	HAS(why, "returns ENOSYS");
	/* EACCES under a filter at level 3 is the level's answer */
	f.sw_errno = EACCES;
	diagnose(&f, why, sizeof why);
	HAS(why, "perf_event_paranoid is 3");
	/* ... and the filter's where the level allows the event */
	f.paranoid = 1;
	diagnose(&f, why, sizeof why);
	HAS(why, "seccomp filter");
}

Test(perf_why, a_kernel_without_perf_events)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.paranoid = RL_PARANOID_UNKNOWN;
	f.sw_errno = ENOSYS;
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_NONE);
	HAS(why, "CONFIG_PERF_EVENTS");
}

Test(perf_why, a_denial_the_level_does_not_explain_blames_a_security_module)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.paranoid = 1;
	f.sw_errno = EACCES;
	diagnose(&f, why, sizeof why);
	HAS(why, "security module");
	HAS(why, "perf_event_paranoid is 1");
	f = user();
	f.cap_perfmon = true;
	f.sw_errno = EACCES;
	diagnose(&f, why, sizeof why);
	HAS(why, "security module");
	HAS(why, "rlprof has the capability");
}

Test(perf_why, a_vm_without_pmu_names_the_hypervisor_and_the_fix)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.paranoid = -1;
	f.cpu_pmu = false;
	f.hypervisor = true;
	strcpy(f.hv_vendor, "QEMU");
	f.hw_errno = ENOENT;
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_SOFTWARE);
	HAS(why, "the hypervisor (QEMU) exposes no PMU");
	HAS(why, "pmu=on");
	HASNT(why, "perf_event_paranoid");
	/* bare metal without a PMU driver is not a VM */
	f.hypervisor = false;
	diagnose(&f, why, sizeof why);
	HAS(why, "no driver for this CPU's PMU");
	HASNT(why, "hypervisor");
	/* a PMU that is there but lacks cycles */
	f.cpu_pmu = true;
	f.hw_errno = EOPNOTSUPP;
	diagnose(&f, why, sizeof why);
	HAS(why, "does not count cycles");
}

Test(perf_why, paranoid_2_is_named_for_the_uncore_after_the_missing_pmu)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.paranoid = 2;
	f.cpu_pmu = false;
	f.hypervisor = true;
	f.hw_errno = ENOENT;
	diagnose(&f, why, sizeof why);
	HAS(why, "exposes no PMU");
	HAS(why, "kernel.perf_event_paranoid 2 would still keep the uncore");
	HAS(why, "sudo sysctl kernel.perf_event_paranoid=0");
	f.cap_perfmon = true; /* a privileged user is not held back */
	diagnose(&f, why, sizeof why);
	HASNT(why, "perf_event_paranoid");
}

Test(perf_why, paranoid_3_on_a_kernel_without_the_level_says_it_acts_as_2)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.cpu_pmu = false;
	f.hypervisor = true;
	f.hw_errno = ENOENT; /* software events opened at level 3 */
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_SOFTWARE);
	HAS(why, "kernel.perf_event_paranoid is 3, but this kernel");
	HAS(why, "treats it as 2");
}

Test(perf_why, hardware_denied_and_busy)
{
	struct rl_perf_facts f = user();
	char why[1024];

	f.paranoid = 3; /* software allowed (kernel without the level) */
	f.hw_errno = EACCES;
	cr_assert_eq(diagnose(&f, why, sizeof why), RL_CAP_SOFTWARE);
	HAS(why, "kernel.perf_event_paranoid is 3");
	HAS(why, "sysctl kernel.perf_event_paranoid=2");
	f.hw_errno = EBUSY;
	diagnose(&f, why, sizeof why);
	HAS(why, "EBUSY");
	HAS(why, "another tool");
}

Test(perf_why, the_nmi_watchdog_is_named_where_there_is_a_pmu)
{
	struct rl_perf_facts f = user();
	char why[1024] = "";

	f.paranoid = 0;
	f.nmi_watchdog = 1;
	cr_assert_eq(rl_perf_diagnose(&f, why, sizeof why), RL_CAP_FLOPS);
	cr_assert_str_eq(why, "");
	rl_perf_diagnose_more(&f, why, sizeof why);
	HAS(why, "kernel.nmi_watchdog is 1");
	HAS(why, "sudo sysctl kernel.nmi_watchdog=0");
	/* without a PMU the watchdog holds nothing worth naming */
	f.cpu_pmu = false;
	f.hypervisor = true;
	f.hw_errno = ENOENT;
	diagnose(&f, why, sizeof why);
	HASNT(why, "nmi_watchdog");
}

static void put(const char *root, const char *path, const char *text)
{
	char full[512], *slash;
	FILE *f;

	snprintf(full, sizeof full, "%s%s", root, path);
	for (slash = full + strlen(root) + 1; (slash = strchr(slash, '/'));
	     slash++) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	if (!text) {
		mkdir(full, 0755);
		return;
	}
	f = fopen(full, "w");
	cr_assert_not_null(f, "%s", full);
	fputs(text, f);
	fclose(f);
}

Test(perf_why, facts_are_read_from_the_files_under_a_root)
{
	char root[] = "/tmp/rlprof-perf-why-XXXXXX", cmd[600];
	struct rl_perf_facts f;

	cr_assert_not_null(mkdtemp(root));
	put(root, "/proc/sys/kernel/perf_event_paranoid", "3\n");
	put(root, "/proc/sys/kernel/nmi_watchdog", "1\n");
	put(root, "/proc/sys/kernel/osrelease", "5.4.0-150-generic\n");
	put(root, "/proc/self/status",
	    "Name:\tx\nCapEff:\t0000004000000000\nSeccomp:\t2\n");
	put(root, "/proc/cpuinfo",
	    "processor\t: 0\nflags\t\t: fpu sse2 hypervisor avx\n");
	put(root, "/sys/class/dmi/id/sys_vendor", "Amazon EC2\n");
	put(root, "/sys/bus/event_source/devices/software", NULL);
	put(root, "/sys/bus/event_source/devices/power", NULL);
	rl_perf_facts_read(&f, root);
	cr_assert_eq(f.paranoid, 3);
	cr_assert_eq(f.nmi_watchdog, 1);
	cr_assert_eq(f.kernel_major, 5);
	cr_assert_eq(f.kernel_minor, 4);
	cr_assert(f.cap_perfmon);
	cr_assert(!f.cap_sys_admin);
	cr_assert_eq(f.seccomp, 2);
	cr_assert(f.hypervisor);
	cr_assert_str_eq(f.hv_vendor, "Amazon EC2");
	cr_assert(!f.cpu_pmu, "RAPL's 'power' is not a CPU PMU");
	put(root, "/sys/bus/event_source/devices/cpu_core", NULL);
	rl_perf_facts_read(&f, root);
	cr_assert(f.cpu_pmu, "hybrid Intel's cpu_core is");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
	/* an empty root: nothing known, nothing invented */
	rl_perf_facts_read(&f, "/nonexistent-rlprof-root");
	cr_assert_eq(f.paranoid, RL_PARANOID_UNKNOWN);
	cr_assert_eq(f.seccomp, -1);
	cr_assert_eq(f.nmi_watchdog, -1);
	cr_assert(!f.cpu_pmu && !f.hypervisor);
}

/* LIKWID's MSR access (counters/events/msr_why.c), from the files. */
Test(perf_why, likwid_msr_access_names_the_module_the_device_and_writes)
{
	char root[] = "/tmp/rlprof-msr-why-XXXXXX", why[512], cmd[600];

	cr_assert_not_null(mkdtemp(root));
	put(root, "/proc/cpuinfo", "flags\t\t: fpu hypervisor\n");
	cr_assert_eq(rl_msr_why(root, why, sizeof why), 1);
	HAS(why, "the msr module is not loaded: run 'sudo modprobe msr'");
	HAS(why, "hypervisor");
	put(root, "/sys/module/msr/parameters", NULL);
	cr_assert_eq(rl_msr_why(root, why, sizeof why), 1);
	HAS(why, "no /dev/cpu/0/msr");
	HAS(why, "--device /dev/cpu");
	put(root, "/dev/cpu/0/msr", "");
	put(root, "/sys/module/msr/parameters/allow_writes", "off\n");
	cr_assert_eq(rl_msr_why(root, why, sizeof why), 1);
	HAS(why, "msr.allow_writes is off");
	put(root, "/sys/module/msr/parameters/allow_writes", "default\n");
	cr_assert_eq(rl_msr_why(root, why, sizeof why), 0);
	cr_assert_str_eq(why, "");
	snprintf(cmd, sizeof cmd, "chmod 0400 '%s/dev/cpu/0/msr'", root);
	cr_assert_eq(system(cmd), 0);
	if (geteuid() != 0) { /* root passes access() whatever the mode */
		cr_assert_eq(rl_msr_why(root, why, sizeof why), 1);
		HAS(why, "not readable and writable for this user");
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
}
