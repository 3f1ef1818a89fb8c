/*
 * Region scenarios for tests/runtime/test_runtime.c: `rt_scenarios MODE`, one
 * process per mode, results checked from the file librlprof writes.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rlprof.h"

static volatile double sink;

static void spin_ms(int ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			sink += i * 0.5;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
			 (t.tv_nsec - t0.tv_nsec) / 1000000 <
		 ms);
}

static void nest(void)
{
	RL_REGION_BEGIN("outer");
	for (int i = 0; i < 3; i++) {
		RL_REGION_BEGIN("inner");
		spin_ms(2);
		RL_REGION_END("inner");
	}
	RL_REGION_END("outer");
}

static void repeat(void)
{
	for (int i = 0; i < 5; i++) {
		RL_REGION_BEGIN("r");
		sink += i;
		RL_REGION_END("r");
	}
}

static void *worker(void *arg)
{
	int n = (int)(long)arg;
	RL_REGION_BEGIN("work");
	for (int i = 0; i < n; i++) {
		RL_REGION_BEGIN("step");
		spin_ms(1);
		RL_REGION_END("step");
	}
	RL_REGION_END("work");
	return NULL;
}

static void threads(void)
{
	pthread_t th[3];
	RL_REGION_BEGIN("main");
	for (long i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	RL_REGION_END("main");
}

static void *leave_open(void *arg)
{
	(void)arg;
	RL_REGION_BEGIN("left-open");
	return NULL;
}

static void misuse(void)
{
	char longname[301];
	memset(longname, 'x', 300);
	longname[300] = '\0';
	RL_REGION_BEGIN("a");
	RL_REGION_BEGIN("b");
	RL_REGION_END("a");    /* b closed too, with end-mismatch */
	RL_REGION_END("zz");   /* end-without-begin */
	RL_REGION_BEGIN("");
	RL_REGION_END("");
	rl_region_begin(NULL);
	rl_region_end(NULL);
	RL_REGION_BEGIN(longname);
	RL_REGION_END(longname);
	RL_REGION_EXPECT("a", -1.0, 5.0); /* bad-expect */
	RL_REGION_EXPECT("a", NAN, 5.0);  /* bad-expect-nonfinite, its own */
	pthread_t t;
	pthread_create(&t, NULL, leave_open, NULL);
	pthread_join(t, NULL);
	RL_REGION_BEGIN("c"); /* open at exit */
}

static void expect(void)
{
	RL_REGION_EXPECT("e", 1.0, 10.0);   /* before */
	RL_REGION_BEGIN("e");
	RL_REGION_EXPECT("e", 2.0, 20.0);   /* inside */
	RL_REGION_END("e");
	RL_REGION_EXPECT("e", 4.0, 40.0);   /* after */
	RL_REGION_EXPECT("only", 8.0, 80.0); /* never entered */
}

/* Two finite declarations whose sum is not: the second is refused (its
 * own warning, not merged into the negative one's before it). */
static void expect_overflow(void)
{
	RL_REGION_EXPECT("big", -1.0, 0.0);
	RL_REGION_EXPECT("big", 1e308, 1e308);
	RL_REGION_EXPECT("big", 1e308, 1.0);
	RL_REGION_BEGIN("big");
	RL_REGION_END("big");
}

static void do_fork(void)
{
	RL_REGION_BEGIN("parent");
	pid_t pid = fork();
	if (pid == 0) {
		RL_REGION_BEGIN("child");
		sink += 1;
		RL_REGION_END("child");
		RL_REGION_END("parent");
		exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	RL_REGION_END("parent");
}

/* A child that outlives the program: it completes "child-done", then is
 * still inside "child-late" (2 s) when the parent has exited. */
static void orphan(void)
{
	RL_REGION_BEGIN("parent");
	pid_t pid = fork();
	if (pid == 0) {
		RL_REGION_BEGIN("child-done");
		sink += 1;
		RL_REGION_END("child-done");
		RL_REGION_BEGIN("child-late");
		struct timespec ts = {2, 0};
		nanosleep(&ts, NULL);
		RL_REGION_END("child-late");
		exit(0);
	}
	struct timespec ts = {0, 200 * 1000000L}; /* the child's first region */
	nanosleep(&ts, NULL);
	RL_REGION_END("parent");
}

static void *fork_in_thread(void *arg)
{
	(void)arg;
	RL_REGION_BEGIN("t");
	pid_t pid = fork();
	if (pid == 0) {
		RL_REGION_END("t");
		exit(0);
	}
	waitpid(pid, NULL, 0);
	RL_REGION_END("t");
	return NULL;
}

static void fork_thread(void)
{
	pthread_t t;
	pthread_create(&t, NULL, fork_in_thread, NULL);
	pthread_join(t, NULL);
}

static void escape(void)
{
	RL_REGION_BEGIN("<script>\"&\n");
	RL_REGION_END("<script>\"&\n");
	const char bad[] = {'b', 'a', 'd', (char)0xff, (char)0xc3, 0};
	RL_REGION_BEGIN(bad);
	RL_REGION_END(bad);
	RL_REGION_BEGIN("caf\xc3\xa9 \x01");
	RL_REGION_END("caf\xc3\xa9 \x01");
}

static void busy(void)
{
	RL_REGION_BEGIN("busy");
	spin_ms(50);
	/* fresh pages from mmap, so each touch faults whatever the malloc
	 * (a sanitizer's allocator may hand out pages it touched before) */
	size_t n = 8u << 20;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		for (size_t i = 0; i < n; i += 4096)
			p[i] = (char)i;
		sink += p[4096];
		munmap(p, n);
	}
	RL_REGION_END("busy");
}

static void deep(void)
{
	char name[32];
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "d%d", i % 7);
		rl_region_begin(name);
	}
	for (int i = 999; i >= 0; i--) {
		snprintf(name, sizeof name, "d%d", i % 7);
		rl_region_end(name);
	}
}

static void many(void)
{
	char name[32];
	for (int i = 0; i < 2000; i++) {
		snprintf(name, sizeof name, "m%d", i);
		rl_region_begin(name);
		rl_region_end(name);
	}
}

static void *nothing(void *p)
{
	return p;
}

/* many() once the process has had a thread: more main-thread region
 * names than process scope keeps figures for (1024) */
static void many_threaded(void)
{
	pthread_t th;
	if (pthread_create(&th, NULL, nothing, NULL) == 0)
		pthread_join(th, NULL);
	many();
}

/* One begin site, many names: string literals cycling, a wrapper whose
 * single call site serves every name, and a writable buffer whose bytes
 * change under the same pointer. Ends given as copies of the name. */
__attribute__((noinline)) static void my_begin(const char *name)
{
	rl_region_begin(name);
}

static void sites(void)
{
	static const char *const lits[] = {"lit-a", "lit-b", "lit-c"};
	char buf[16], end[16];
	for (int i = 0; i < 10; i++) {
		RL_REGION_BEGIN(lits[i % 3]);
		RL_REGION_END(lits[i % 3]);
	}
	for (int i = 0; i < 6; i++) {
		my_begin(i % 2 ? "wrap-y" : "wrap-x");
		snprintf(end, sizeof end, "wrap-%c", i % 2 ? 'y' : 'x');
		rl_region_end(end);
	}
	for (int i = 0; i < 8; i++) {
		snprintf(buf, sizeof buf, "buf-%d", i % 2);
		rl_region_begin(buf);
		rl_region_end(i % 2 ? "buf-1" : "buf-0");
	}
}

/* A region around a 30 ms sleep, whichever clock the runtime uses. */
static void sleeper(void)
{
	struct timespec ts = {0, 30 * 1000000L};
	RL_REGION_BEGIN("sleep");
	nanosleep(&ts, NULL);
	RL_REGION_END("sleep");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *mode;
		void (*fn)(void);
	} modes[] = {{"nest", nest},     {"repeat", repeat},
		     {"threads", threads}, {"misuse", misuse},
		     {"expect", expect}, {"fork", do_fork}, {"orphan", orphan},
		     {"escape", escape}, {"fork-thread", fork_thread}, {"busy", busy},
		     {"deep", deep},     {"many", many},
		     {"many-threaded", many_threaded},
		     {"expect-overflow", expect_overflow}, {"sites", sites},
		     {"sleep", sleeper}};
	if (argc < 2) {
		fprintf(stderr, "usage: rt_scenarios MODE\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
		if (strcmp(argv[1], modes[i].mode) == 0) {
			modes[i].fn();
			return 0;
		}
	if (strcmp(argv[1], "none") == 0)
		return 0;
	fprintf(stderr, "rt_scenarios: unknown mode '%s'\n", argv[1]);
	return 2;
}
