/*
 * The program's clock reads, counted per thread (issue 38, section 4: the
 * same work in both runs). A region whose work follows the clock (it
 * repeats until a time has passed) makes the same calls natively and
 * under the simulator, but reads the clock a different number of times:
 * each repetition reads it once more, and the simulator runs each one
 * tens of times slower. rlprof compares each region's clock reads
 * between the timing and the counting run (results/results_native.c).
 *
 * The program's calls of clock_gettime, gettimeofday and time (and what
 * calls them through the PLT: omp_get_wtime, gfortran's system_clock,
 * std::chrono's clocks) come here first (rl_clock_interpose.h: defined
 * here, and in the compat shims that rlprof run preloads), are counted in
 * the calling thread's rl_rt_clock_reads and go on to the C library's (its
 * own definitions, else the system call). A region takes the
 * growth of its thread's count while it is open (rt_region.c), as it
 * takes the time spent in MPI calls. The cost: one thread-local
 * increment per clock read. The runtime's own clock reads
 * (rl_rt_clock_gettime) are not counted.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "runtime/rt_internal.h"

__thread uint64_t rl_rt_clock_reads __attribute__((tls_model("initial-exec")));

typedef int (*gettime_fn)(clockid_t, struct timespec *);
typedef int (*timeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);

/* The C library's function name, or NULL (a static program): from the
 * C library itself (a preloaded shim's librlprof loads after it, where
 * RTLD_NEXT finds nothing), else the next definition after this one.
 * Resolved once per name; racing threads store the same pointer. */
static void *next_fn(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);

	if (!f) {
		void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
		if (libc) {
			f = dlsym(libc, name);
			dlclose(libc);
		}
		if (!f)
			f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, f, __ATOMIC_RELAXED);
	}
	return f;
}

static void *next_gettime, *next_timeofday, *next_time;

int rl_rt_clock_gettime(clockid_t id, struct timespec *ts)
{
	gettime_fn f = (gettime_fn)next_fn(&next_gettime, "clock_gettime");

	if (f)
		return f(id, ts);
	return (int)syscall(SYS_clock_gettime, id, ts);
}

int rl_clock_reads_gettime(clockid_t id, struct timespec *ts)
{
	rl_rt_clock_reads++;
	return rl_rt_clock_gettime(id, ts);
}

int rl_clock_reads_gettimeofday(struct timeval *tv, void *tz)
{
	timeofday_fn f =
		(timeofday_fn)next_fn(&next_timeofday, "gettimeofday");

	rl_rt_clock_reads++;
	if (f)
		return f(tv, tz);
	return (int)syscall(SYS_gettimeofday, tv, tz);
}

time_t rl_clock_reads_time(time_t *t)
{
	time_fn f = (time_fn)next_fn(&next_time, "time");
	struct timespec ts;

	rl_rt_clock_reads++;
	if (f)
		return f(t);
	if (rl_rt_clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (time_t)-1;
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

/* The program's calls come first here (or to a preloaded shim's copy). */
#include "runtime/rl_clock_interpose.h"
