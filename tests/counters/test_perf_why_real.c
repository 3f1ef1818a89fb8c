/* `rlprof counters` where this machine really blocks perf: run as an
 * unprivileged user (nobody) at each kernel.perf_event_paranoid level the
 * test can set (as root; restored before any assert), and inside a seccomp
 * filter the test installs that denies perf_event_open. Each names the
 * blocking setting and its fix. */
#include <criterion/criterion.h>
#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define NOBODY 65534

static int drop_to_nobody(void)
{
	return setgroups(0, NULL) == 0 && setgid(NOBODY) == 0 &&
			       setuid(NOBODY) == 0
		       ? 0
		       : -1;
}

/* Denies perf_event_open with err (x86-64 and aarch64 numbers from the
 * headers); every other call passes. */
static int deny_perf(int err)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof code / sizeof *code, code};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

enum as { AS_NOBODY, AS_SECCOMP_EPERM, AS_SECCOMP_ENOSYS };

/* `rlprof counters` run as `as`; its perf line and the why below it
 * (NULL when it could not be run). */
static char *counters_as(enum as as)
{
	static char out[16384];
	char path[512];
	int fd[2], st;
	size_t len = 0;
	ssize_t k;
	pid_t pid;

	snprintf(path, sizeof path, "%s/bin/rlprof", RL_BUILD_DIR);
	if (pipe(fd) != 0)
		return NULL;
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		if (as == AS_NOBODY ? drop_to_nobody()
				    : deny_perf(as == AS_SECCOMP_EPERM ? EPERM
								       : ENOSYS))
			_exit(77);
		execl(path, "rlprof", "counters", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (len < sizeof out - 1 &&
	       (k = read(fd[0], out + len, sizeof out - 1 - len)) > 0)
		len += (size_t)k;
	out[len] = '\0';
	close(fd[0]);
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return NULL;
	return out;
}

/* The text from the perf line to the next backend's line. */
static char *perf_part(char *out)
{
	char *p = out ? strstr(out, "  perf ") : NULL, *end;

	if (!p)
		return NULL;
	end = strstr(p + 1, "\n  papi ");
	if (!end)
		end = strstr(p + 1, "\n* ");
	if (end)
		*end = '\0';
	return p;
}

static int read_paranoid(void)
{
	FILE *f = fopen(PARANOID, "r");
	int v = 99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 99;
		fclose(f);
	}
	return v;
}

static int write_paranoid(int level)
{
	FILE *f = fopen(PARANOID, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", level) > 0;
	return fclose(f) == 0 && ok && read_paranoid() == level ? 0 : -1;
}

/* Can nobody run the rlprof under test? Not where a folder above the
 * build is closed to others (a clone under mktemp -d, mode 0700). */
static int nobody_can_run_rlprof(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(drop_to_nobody() == 0 &&
				      access(RL_BUILD_DIR "/bin/rlprof", X_OK) == 0
			      ? 0
			      : 1);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Does an unprivileged process open a software event at this level? */
static int nobody_opens_task_clock(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.exclude_kernel = a.exclude_hv = 1;
		if (drop_to_nobody())
			_exit(2);
		_exit(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) >= 0 ? 0
									  : 1);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

struct at_level {
	int level;
	int set;       /* the kernel took it */
	int sw_opens;  /* nobody opens task-clock */
	char why[4096];
};

Test(perf_why_real, nobody_at_each_paranoid_level_is_told_the_setting_and_fix,
     .timeout = 120)
{
	struct at_level at[] = {{.level = 2}, {.level = 3}, {.level = -1}};
	int saved = read_paranoid(), restored;

	if (geteuid() != 0)
		cr_skip_test("not root: cannot become nobody nor set "
			     "kernel.perf_event_paranoid");
	if (saved == 99)
		cr_skip_test("no " PARANOID ": kernel without perf events");
	if (write_paranoid(saved) != 0)
		cr_skip_test(PARANOID " is not writable here (a container?)");
	if (!nobody_can_run_rlprof())
		cr_skip_test("nobody cannot run " RL_BUILD_DIR "/bin/rlprof "
			     "(a folder above it is closed to others)");
	/* nothing asserted while the level is changed */
	for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
		char *p;
		at[i].set = write_paranoid(at[i].level) == 0;
		if (!at[i].set)
			continue;
		at[i].sw_opens = nobody_opens_task_clock() == 0;
		p = perf_part(counters_as(AS_NOBODY));
		snprintf(at[i].why, sizeof at[i].why, "%s", p ? p : "");
	}
	restored = write_paranoid(saved);
	cr_assert_eq(restored, 0, "perf_event_paranoid restored to %d", saved);
	for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
		const char *w = at[i].why;
		if (!at[i].set)
			continue; /* e.g. 3 where the kernel refuses it */
		cr_assert(w[0], "rlprof counters ran as nobody at level %d",
			  at[i].level);
		if (!at[i].sw_opens) {
			char want[80];
			cr_assert(strstr(w, "unavailable"), "%s", w);
			snprintf(want, sizeof want,
				 "kernel.perf_event_paranoid is %d: no perf "
				 "events at all",
				 at[i].level);
			cr_assert(strstr(w, want), "level %d: %s", at[i].level,
				  w);
			cr_assert(strstr(w, "sudo sysctl "
					    "kernel.perf_event_paranoid=2"),
				  "%s", w);
			cr_assert_null(strstr(w, "no PMU"), "%s", w);
			continue;
		}
		cr_assert_null(strstr(w, "unavailable"), "level %d: %s",
			       at[i].level, w);
		if (at[i].level == 3)
			cr_assert(strstr(w, "kernel.perf_event_paranoid is 3, "
					    "but this kernel"),
				  "a kernel without Debian's level says so: %s",
				  w);
		if (at[i].level > 0 && strstr(w, "no PMU"))
			cr_assert(strstr(w, "sudo sysctl "
					    "kernel.perf_event_paranoid=0"),
				  "level %d names the uncore's block: %s",
				  at[i].level, w);
		if (at[i].level < 0)
			cr_assert_null(strstr(w, "perf_event_paranoid"),
				       "-1 blocks nothing: %s", w);
	}
}

static void under_seccomp(enum as as, const char *err)
{
	char *w = perf_part(counters_as(as));

	cr_assert_not_null(w, "rlprof counters ran under the filter");
	cr_assert(strstr(w, "unavailable"), "%s", w);
	cr_assert(strstr(w, "denied by a seccomp filter"), "%s", w);
	cr_assert(strstr(w, err), "%s", w);
	cr_assert(strstr(w, "--security-opt seccomp="), "the fix: %s", w);
	cr_assert_null(strstr(w, "perf_event_paranoid"), "%s", w);
}

Test(perf_why_real, a_seccomp_filter_returning_eperm_is_named, .timeout = 60)
{
	under_seccomp(AS_SECCOMP_EPERM, "returns EPERM");
}

Test(perf_why_real, a_seccomp_filter_returning_enosys_is_named, .timeout = 60)
{
	under_seccomp(AS_SECCOMP_ENOSYS, "returns ENOSYS");
}
