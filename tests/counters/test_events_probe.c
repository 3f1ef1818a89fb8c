/* perf_probe.c: the hardware PMU's state with its exact cause. The
 * expectation is computed here from the kernel's own answer, so the test
 * holds on a VM (no PMU) and on bare metal alike. */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters/backend.h"
#include "counters/perf_probe.h"
#include "counters/perf_spec.h"

static int open_errno(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

Test(perf_probe, says_exactly_why_hardware_counting_fails)
{
	char why[512] = "";
	int sw = open_errno(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	int hw = open_errno(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	int cap = rl_perf_probe_hw(why, sizeof why);

	cr_assert_null(strchr(why, '\n'), "one line: %s", why);
	if (sw) {
		cr_assert_eq(cap, RL_CAP_NONE);
		cr_assert_gt(strlen(why), 10);
		return;
	}
	if (hw == ENOENT || hw == EOPNOTSUPP || hw == ENODEV) {
		cr_assert_eq(cap, RL_CAP_SOFTWARE);
		cr_assert(strstr(why, "exposes no PMU to this virtual machine") ||
				  strstr(why, "the kernel exposes no CPU PMU") ||
				  strstr(why, "does not count cycles"),
			  "names what lacks the PMU: %s", why);
		cr_assert_null(strstr(why, "virtual machine?"), "%s", why);
	} else if (hw == EACCES || hw == EPERM) {
		cr_assert_eq(cap, RL_CAP_SOFTWARE);
		cr_assert(strstr(why, "kernel.perf_event_paranoid is "), "%s",
			  why);
		cr_assert(strstr(why, "sysctl"), "says what to change: %s", why);
	} else if (hw == 0) {
		cr_assert_geq(cap, RL_CAP_SOFTWARE, "%s", why);
		if (cap < RL_CAP_FLOPS_BYTES)
			cr_assert_gt(strlen(why), 10, "below the best, say why");
	}
}

Test(perf_probe, paranoid_and_privilege_are_read)
{
	char why[512];
	int p = rl_perf_paranoid();
	int major, minor;

	cr_assert(p >= -1 && p <= 4, "perf_event_paranoid %d", p);
	if (rl_perf_system_allowed(why, sizeof why)) {
		cr_assert(p <= 0 || rl_perf_privileged());
		cr_assert_str_eq(why, "");
	} else {
		cr_assert(strstr(why, "uncore not allowed") &&
				  strstr(why, "CAP_PERFMON"),
			  "%s", why);
	}
	cr_assert_eq(rl_kernel_version(&major, &minor), 0);
	cr_assert_geq(major, 3);
}

Test(perf_probe, events_that_do_not_open_are_left_out_and_named)
{
	struct rl_perf_event_spec s[3];
	char note[512] = "";
	size_t n;

	memset(s, 0, sizeof s);
	s[0].type = PERF_TYPE_SOFTWARE;
	s[0].config = PERF_COUNT_SW_TASK_CLOCK;
	s[0].cpu = -1;
	strcpy(s[0].name, "task-clock");
	s[1].type = 4242; /* no such PMU */
	s[1].cpu = -1;
	s[1].group = 0;
	strcpy(s[1].name, "no-such-pmu");
	s[2].type = PERF_TYPE_SOFTWARE;
	s[2].config = PERF_COUNT_SW_PAGE_FAULTS;
	s[2].cpu = -1;
	strcpy(s[2].name, "page-faults");
	if (open_errno(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK))
		cr_skip_test("perf_event_open does not work here at all");
	n = rl_perf_specs_keep_openable(s, 3, note, sizeof note);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(s[0].name, "task-clock");
	cr_assert_str_eq(s[1].name, "page-faults", "order kept");
	cr_assert(strstr(note, "does not open here: no-such-pmu ("), "%s", note);
	cr_assert_eq(s[1].group, 0, "a group that fits stays together");
}
