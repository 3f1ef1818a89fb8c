/* Time per loop: a CPU-clock sampling event on the running program, its
 * samples mapped to the loops of its code. */
#include "cli/run/loop_samples.h"

#include <dirent.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/rl_error.h"
#include "inspect/elf_file.h"

#define DATA_PAGES 64 /* 256 KiB per CPU: 10000 samples between drains */
#define MAX_TIDS 4096
#define MAX_CPUS 1024

/* One event per CPU: the kernel maps no buffer of an inherited event
 * that follows its task on every CPU (cpu -1). */
struct rl_loop_sampler {
	int n_cpu;
	int fd[MAX_CPUS];
	void *map[MAX_CPUS];
	size_t map_len, data_len;
	const struct rl_loops *loops;
	uint64_t bias;
	int bias_known;
	pid_t pid;
	const char *program;
	struct rl_loop_samples out;
	pid_t tids[MAX_TIDS];
	unsigned n_tids;
	/* events of the threads already running when rlprof attached
	 * (inherit covers only those created after), written into the
	 * buffer of their CPU's event (PERF_EVENT_IOC_SET_OUTPUT) */
	int *xfd;
	size_t n_xfd;
	pthread_t thread;
	int stop;
	pthread_mutex_t lock;
};

/* The program's load bias in pid (0 for a fixed-address executable);
 * *found 0 when its mapping was not found (yet). Its mapping is known by
 * the file's inode, whatever path the kernel shows. */
static uint64_t load_bias(pid_t pid, const char *program, int *found)
{
	struct stat st;
	char path[64], line[PATH_MAX + 256], real[PATH_MAX];
	uint64_t start = 0, min_vaddr = UINT64_MAX;
	FILE *f;
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	size_t n;
	int is_dyn = 0;

	if (rl_elf_file_open(program, &fd, &elf, line, sizeof line) < 0)
		return 0;
	if (gelf_getehdr(elf, &eh))
		is_dyn = eh.e_type == ET_DYN;
	if (elf_getphdrnum(elf, &n) == 0)
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    ph.p_vaddr < min_vaddr)
				min_vaddr = ph.p_vaddr & ~(uint64_t)0xfff;
		}
	rl_elf_file_close(fd, elf);
	*found = 1;
	if (!is_dyn || min_vaddr == UINT64_MAX)
		return 0;
	*found = 0;
	if (stat(program, &st) < 0)
		return 0;
	if (!realpath(program, real))
		snprintf(real, sizeof real, "%s", program);
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, off, ino;
		int pos = 0;
		char *p;
		if (sscanf(line, "%llx-%*x %*s %llx %*s %llu %n", &lo, &off,
			   &ino, &pos) < 3 || !pos)
			continue;
		p = line + pos;
		p[strcspn(p, "\n")] = '\0';
		if (off == 0 && (ino == (unsigned long long)st.st_ino ||
				 strcmp(p, real) == 0)) {
			start = lo;
			*found = 1;
			break;
		}
	}
	fclose(f);
	return *found ? start - min_vaddr : 0;
}

static long loop_of(const struct rl_loops *l, uint64_t fa)
{
	size_t lo = 0, hi = l->n_span;
	while (lo < hi) {
		size_t m = (lo + hi) / 2;
		if (l->span[m].hi <= fa)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo < l->n_span && l->span[lo].lo <= fa)
		return l->span[lo].loop;
	return -1;
}

void rl_loop_samples_free(struct rl_loop_samples *s)
{
	free(s->self);
	s->self = NULL;
	for (unsigned i = 0; i < s->n_thread; i++) {
		free(s->thread_self[i]);
		s->thread_self[i] = NULL;
	}
	s->n_thread = 0;
}

/* The per-thread samples of tid (made on its first sample), NULL beyond
 * RL_LOOP_SAMPLE_THREADS threads or out of memory. */
static uint64_t *thread_samples(struct rl_loop_sampler *s, pid_t tid)
{
	struct rl_loop_samples *o = &s->out;
	for (unsigned i = 0; i < o->n_thread; i++)
		if (o->tid[i] == tid)
			return o->thread_self[i];
	if (o->n_thread == RL_LOOP_SAMPLE_THREADS ||
	    !(o->thread_self[o->n_thread] = calloc(o->n_loops + 1,
						   sizeof (uint64_t))))
		return NULL;
	o->tid[o->n_thread] = tid;
	return o->thread_self[o->n_thread++];
}

static void note_tid(struct rl_loop_sampler *s, pid_t tid)
{
	for (unsigned i = 0; i < s->n_tids; i++)
		if (s->tids[i] == tid)
			return;
	if (s->n_tids < MAX_TIDS)
		s->tids[s->n_tids++] = tid;
}

/* Reads every record in the ring buffer of CPU c. */
static void drain_one(struct rl_loop_sampler *s, int c)
{
	struct perf_event_mmap_page *meta = s->map[c];
	const unsigned char *data = (const unsigned char *)s->map[c] + meta->data_offset;
	uint64_t head, tail = meta->data_tail;
	unsigned char rec[256];

	if (!meta->data_offset)
		data = (const unsigned char *)s->map[c] + sysconf(_SC_PAGESIZE);
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	while (tail < head) {
		struct perf_event_header h;
		size_t size;
		for (size_t k = 0; k < sizeof h; k++)
			((unsigned char *)&h)[k] = data[(tail + k) % s->data_len];
		size = h.size;
		if (size < sizeof h)
			break;
		for (size_t k = 0; k < size && k < sizeof rec; k++)
			rec[k] = data[(tail + k) % s->data_len];
		tail += size;
		if (h.type == PERF_RECORD_SAMPLE && size >= sizeof h + 16) {
			uint64_t ip;
			uint32_t pt[2];
			long id;
			memcpy(&ip, rec + sizeof h, 8);
			memcpy(pt, rec + sizeof h + 8, 8);
			note_tid(s, (pid_t)pt[1]);
			s->out.total++;
			id = loop_of(s->loops, ip - s->bias);
			if (id < 0)
				s->out.elsewhere++;
			else if ((uint64_t)id <= s->out.n_loops) {
				uint64_t *t = thread_samples(s, (pid_t)pt[1]);
				s->out.self[id]++;
				if (t)
					t[id]++;
			}
		} else if (h.type == PERF_RECORD_LOST && size >= sizeof h + 16) {
			uint64_t lost;
			memcpy(&lost, rec + sizeof h + 8, 8);
			s->out.lost += lost;
		}
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void drain(struct rl_loop_sampler *s)
{
	/* the mapping is read once the program runs (at the first drain,
	 * 10 ms in), not while it may still be starting */
	if (!s->bias_known)
		s->bias = load_bias(s->pid, s->program, &s->bias_known);
	for (int c = 0; c < s->n_cpu; c++)
		drain_one(s, c);
}

static void close_all(struct rl_loop_sampler *s)
{
	for (int c = 0; c < s->n_cpu; c++) {
		if (s->map[c] && s->map[c] != MAP_FAILED)
			munmap(s->map[c], s->map_len);
		close(s->fd[c]);
	}
	s->n_cpu = 0;
	for (size_t i = 0; i < s->n_xfd; i++)
		close(s->xfd[i]);
	free(s->xfd);
	s->xfd = NULL;
	s->n_xfd = 0;
}

/* The threads pid already runs besides itself (an OpenMP team made
 * before rlprof attached): one event per CPU each, into that CPU's
 * buffer. A thread made after the scan is a child of one with an event
 * (inherited); a thread that ends meanwhile is skipped. */
static void attach_running_threads(struct rl_loop_sampler *s,
				   struct perf_event_attr *a, const int *cpu)
{
	char path[64];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof path, "/proc/%d/task", (int)s->pid);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atol(e->d_name);
		if (tid <= 0 || tid == s->pid)
			continue;
		for (int c = 0; c < s->n_cpu; c++) {
			int fd = (int)syscall(SYS_perf_event_open, a, tid,
					      cpu[c], -1, 0);
			int *v;
			if (fd < 0)
				break;
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->fd[c]) < 0 ||
			    !(v = realloc(s->xfd, (s->n_xfd + 1) * sizeof *v))) {
				close(fd);
				break;
			}
			s->xfd = v;
			s->xfd[s->n_xfd++] = fd;
		}
	}
	closedir(d);
}

static void *drainer(void *arg)
{
	struct rl_loop_sampler *s = arg;
	const struct timespec ms10 = {0, 10 * 1000 * 1000};
	for (;;) {
		pthread_mutex_lock(&s->lock);
		int stop = s->stop;
		drain(s);
		pthread_mutex_unlock(&s->lock);
		if (stop)
			return NULL;
		nanosleep(&ms10, NULL);
	}
}

/* The sampler's events on every CPU, of task pid (0: rlprof's calling
 * thread, armed by exec: enable_on_exec), inherited; 0 or RL_E*. */
static int open_events(struct rl_loop_sampler *s, pid_t pid,
		       struct perf_event_attr *a, int *cpu, char *err,
		       size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int e = 0;

	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = s->out.period_ns;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a->inherit = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	if (pid == 0) {
		/* rlprof itself never execs: only the program it spawns
		 * next (a child, inheriting the events) is sampled, from
		 * its first instruction */
		a->disabled = 1;
		a->enable_on_exec = 1;
	}
	s->data_len = (size_t)DATA_PAGES * (size_t)page;
	s->map_len = s->data_len + (size_t)page;
	for (long c = 0; c < ncpu && c < MAX_CPUS; c++) {
		int fd = (int)syscall(SYS_perf_event_open, a, pid, (int)c, -1, 0);
		void *m;
		if (fd < 0) {
			e = errno; /* an offline CPU: skipped */
			continue;
		}
		m = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
		if (m == MAP_FAILED) {
			e = errno;
			close(fd);
			continue;
		}
		cpu[s->n_cpu] = (int)c;
		s->fd[s->n_cpu] = fd;
		s->map[s->n_cpu++] = m;
	}
	if (!s->n_cpu && e == ESRCH)
		return rl_fail(err, errlen, RL_ENOENT,
			       "the program ended before rlprof could sample "
			       "it (it ran too briefly to be timed per loop)");
	if (!s->n_cpu)
		return rl_fail(err, errlen, RL_ENOTSUP,
			       "cannot sample the program (perf_event_open: "
			       "%s; /proc/sys/kernel/perf_event_paranoid must "
			       "be 2 or less)", strerror(e));
	return 0;
}

static struct rl_loop_sampler *new_sampler(const struct rl_loops *loops)
{
	struct rl_loop_sampler *s = calloc(1, sizeof *s);

	if (!s || !(s->out.self = calloc(loops->n + 1, sizeof *s->out.self))) {
		free(s);
		return NULL;
	}
	s->out.n_loops = loops->n;
	s->out.period_ns = RL_LOOP_SAMPLE_PERIOD_NS;
	s->loops = loops;
	return s;
}

/* The drainer started on pid's samples; 0 or RL_ENOMEM (s freed). */
static int run_drainer(struct rl_loop_sampler *s, pid_t pid,
		       const char *program, char *err, size_t errlen)
{
	s->pid = pid;
	s->program = program;
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, drainer, s) != 0) {
		close_all(s);
		pthread_mutex_destroy(&s->lock);
		free(s->out.self);
		free(s);
		return rl_fail(err, errlen, RL_ENOMEM,
			       "cannot start the thread reading samples");
	}
	return 0;
}

int rl_loop_sampler_start(pid_t pid, const char *program,
			  const struct rl_loops *loops,
			  struct rl_loop_sampler **out, char *err,
			  size_t errlen)
{
	struct perf_event_attr a;
	struct rl_loop_sampler *s;
	int cpu[MAX_CPUS]; /* the CPU of each fd */
	int rc;

	*out = NULL;
	if (!(s = new_sampler(loops)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if ((rc = open_events(s, pid, &a, cpu, err, errlen)) < 0) {
		free(s->out.self);
		free(s);
		return rc;
	}
	s->pid = pid;
	attach_running_threads(s, &a, cpu);
	if ((rc = run_drainer(s, pid, program, err, errlen)) < 0)
		return rc;
	*out = s;
	return 0;
}

int rl_loop_sampler_open(const char *program, const struct rl_loops *loops,
			 struct rl_loop_sampler **out, char *err,
			 size_t errlen)
{
	struct perf_event_attr a;
	struct rl_loop_sampler *s;
	int cpu[MAX_CPUS];
	int rc;

	*out = NULL;
	if (!(s = new_sampler(loops)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	if ((rc = open_events(s, 0, &a, cpu, err, errlen)) < 0) {
		free(s->out.self);
		free(s);
		return rc;
	}
	s->program = program;
	*out = s;
	return 0;
}

int rl_loop_sampler_attach(struct rl_loop_sampler *s, pid_t pid, char *err,
			   size_t errlen)
{
	return run_drainer(s, pid, s->program, err, errlen);
}

void rl_loop_sampler_discard(struct rl_loop_sampler *s)
{
	if (!s)
		return;
	close_all(s);
	rl_loop_samples_free(&s->out);
	free(s);
}

int rl_loop_sampler_stop(struct rl_loop_sampler *s,
			 struct rl_loop_samples *out)
{
	uint64_t count = 0;

	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	drain(s);
	/* the program's threads have ended: their counts are the events' */
	for (int c = 0; c < s->n_cpu; c++)
		if (read(s->fd[c], &count, sizeof count) == (ssize_t)sizeof count)
			s->out.cpu_ns += count;
	for (size_t i = 0; i < s->n_xfd; i++)
		if (read(s->xfd[i], &count, sizeof count) == (ssize_t)sizeof count)
			s->out.cpu_ns += count;
	s->out.threads = s->n_tids;
	*out = s->out;
	close_all(s);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return 0;
}
