/*
 * The process as the kernel tells it, for process scope (rt_scope.c): its
 * CPU clocks, page faults and context switches, the CPUs it may use and
 * its threads with the time each ran. Raw system calls: no libc code runs
 * (the simulator would count its loads and stores in the regions open
 * around the caller), nothing is allocated (a signal flush may call
 * them).
 */
#include <sys/syscall.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/rt_proc.h"

uint64_t rl_rt_proc_clock_ns(clockid_t clock)
{
	struct timespec ts;
	if (syscall(SYS_clock_gettime, clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t proc_cpus; /* CPUs of the affinity mask, 0 unread */

uint32_t rl_rt_proc_cpus(void)
{
	uint64_t mask[16] = {0}; /* 1024 CPUs */
	long n;
	uint32_t c = 0;

	if (proc_cpus)
		return proc_cpus;
	n = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
	for (long i = 0; n > 0 && i < n / 8 && i < 16; i++)
		c += (uint32_t)__builtin_popcountll(mask[i]);
	return proc_cpus = c;
}

void rl_rt_proc_usage(int who, uint64_t *faults, uint64_t *csw)
{
	struct rusage ru;
	if (syscall(SYS_getrusage, who, &ru) != 0) {
		*faults = *csw = 0;
		return;
	}
	*faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
	*csw = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

/* Nanoseconds thread tid of this process ran (its CPU clock: the
 * clock id glibc's pthread_getcpuclockid() makes, CPUCLOCK_SCHED of a
 * thread); 0 when unreadable. A raw system call: no libc code runs (the
 * simulator would count its loads and stores in the regions open around
 * this one), nothing is allocated (a signal flush may call it). Reading
 * /proc/self/task/<tid>/schedstat instead costs about 120 us a file on
 * the development VM, the clock about 0.5 us. */
static uint64_t task_run_ns(uint32_t tid)
{
	clockid_t id = (clockid_t)((~(unsigned)tid << 3) | 6);
	struct timespec ts;

	if (syscall(SYS_clock_gettime, id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* /proc/self/task, kept open between listings (opening it costs about
 * 2.5 us of a 3.5 us listing on the development VM). The descriptor is
 * the program's to close: before each use it must still be this
 * process's directory (same device and inode, same pid: a forked child
 * inherits the parent's); else it is left alone and a new one opened. */
static int task_fd = -1;
static long task_pid;
static dev_t task_dev;
static ino_t task_ino;

static int tasks_dir(void)
{
	long pid = (long)syscall(SYS_getpid);
	struct stat st;
	int fd;

	if (task_fd >= 0 && syscall(SYS_fstat, task_fd, &st) == 0 &&
	    st.st_dev == task_dev && st.st_ino == task_ino) {
		if (task_pid == pid &&
		    syscall(SYS_lseek, task_fd, 0L, SEEK_SET) == 0)
			return task_fd;
		if (task_pid != pid) /* the parent's, inherited by fork */
			syscall(SYS_close, task_fd);
	}
	task_fd = -1;
	fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/task",
			  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_fstat, fd, &st) != 0) {
		if (fd >= 0)
			syscall(SYS_close, fd);
		return -1;
	}
	task_fd = fd;
	task_pid = pid;
	task_dev = st.st_dev;
	task_ino = st.st_ino;
	return fd;
}

void rl_rt_proc_walk_threads(void (*fn)(void *, uint32_t, uint64_t),
			     void *arg)
{
	char buf[512] __attribute__((aligned(8))); /* small: the kernel
						      writes it, the simulator
						      sees those lines */
	int fd = tasks_dir();
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d =
				(struct linux_dirent64 *)(buf + off);
			uint32_t tid = 0;
			off += d->d_reclen;
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			for (const char *p = d->d_name; *p >= '0' && *p <= '9';
			     p++)
				tid = tid * 10 + (uint32_t)(*p - '0');
			fn(arg, tid, task_run_ns(tid));
		}
}
