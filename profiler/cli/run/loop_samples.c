/* Time per loop: a CPU-clock sampling event on the running program, its
 * samples mapped to the loops of its code. */
#include "cli/run/loop_samples.h"
#include "cli/run/loop_samples_map.h"

#include <dirent.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
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

/* The sampler's two stages (loop_samples.h): fine first, coarse once the
 * fine stage holds RL_LOOP_SAMPLE_FINE_MAX samples. */
enum { FINE, COARSE, STAGES };

/* One event per CPU: the kernel maps no buffer of an inherited event
 * that follows its task on every CPU (cpu -1). */
struct rl_loop_sampler {
	int n_cpu;
	int fd[MAX_CPUS];
	int coarse_fd[MAX_CPUS]; /* -1: none (written into fd's buffer) */
	uint64_t *coarse_id; /* the coarse events' ids, sorted */
	size_t n_coarse_id;
	uint64_t coarse_ns;  /* the coarse stage's period */
	int switched;        /* the coarse stage enabled */
	void *map[MAX_CPUS];
	size_t map_len, data_len;
	const struct rl_loops *loops;
	uint64_t bias;
	int bias_known;
	struct rl_loop_map exe; /* the program's code, for its exec's
				   PERF_RECORD_MMAP (loop_samples_map.h) */
	pid_t pid;
	const char *program;
	/* out: the fine stage's samples; coarse: the coarse stage's,
	 * with every RL_LOOP_SAMPLE_COARSEN-th fine sample of each thread
	 * (a thread's k-th, 2k-th, ... fine sample is where a sampler of
	 * the coarse period would have taken one) */
	struct rl_loop_samples out, coarse;
	pid_t tids[MAX_TIDS];
	unsigned thin[MAX_TIDS]; /* fine samples of each thread, modulo k */
	unsigned n_tids;
	/* events of the threads already running when rlprof attached
	 * (inherit covers only those created after), written into the
	 * buffer of their CPU's event (PERF_EVENT_IOC_SET_OUTPUT); of each
	 * stage */
	int *xfd[STAGES];
	size_t n_xfd[STAGES];
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
static uint64_t *thread_samples(struct rl_loop_samples *o, pid_t tid)
{
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

/* tid's index among the sampled threads, -1 past MAX_TIDS */
static int note_tid(struct rl_loop_sampler *s, pid_t tid)
{
	for (unsigned i = 0; i < s->n_tids; i++)
		if (s->tids[i] == tid)
			return (int)i;
	if (s->n_tids == MAX_TIDS)
		return -1;
	s->tids[s->n_tids] = tid;
	return (int)s->n_tids++;
}

/* One sample of thread tid at the address ip into the stage o. */
static void count_sample(struct rl_loop_sampler *s, struct rl_loop_samples *o,
			 pid_t tid, uint64_t ip)
{
	long id = loop_of(s->loops, ip - s->bias);

	o->total++;
	if (id < 0)
		o->elsewhere++;
	else if ((uint64_t)id <= o->n_loops) {
		uint64_t *t = thread_samples(o, tid);
		o->self[id]++;
		if (t)
			t[id]++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* id of a coarse event, kept in order; 0 or -1 (no memory: then its
 * samples would read as fine ones, so the caller drops the event) */
static int add_coarse_id(struct rl_loop_sampler *s, uint64_t id)
{
	uint64_t *v = realloc(s->coarse_id, (s->n_coarse_id + 1) * sizeof *v);
	size_t k;

	if (!v)
		return -1;
	s->coarse_id = v;
	for (k = s->n_coarse_id; k > 0 && v[k - 1] > id; k--)
		v[k] = v[k - 1];
	v[k] = id;
	s->n_coarse_id++;
	return 0;
}

/* A sample of the program (not of rlprof's own threads, which inherit
 * the disabled events and are counted once the coarse stage is enabled
 * on every child), its stage told by its event's id. */
static void take_sample(struct rl_loop_sampler *s, const unsigned char *rec)
{
	uint64_t ip, id;
	uint32_t pt[2];
	int k;

	memcpy(&ip, rec, 8);
	memcpy(pt, rec + 8, 8);
	memcpy(&id, rec + 16, 8);
	if (s->pid && (pid_t)pt[0] != s->pid)
		return;
	k = note_tid(s, (pid_t)pt[1]);
	if (s->n_coarse_id && bsearch(&id, s->coarse_id, s->n_coarse_id,
				      sizeof id, cmp_u64)) {
		count_sample(s, &s->coarse, (pid_t)pt[1], ip);
		return;
	}
	count_sample(s, &s->out, (pid_t)pt[1], ip);
	/* (a thread past MAX_TIDS: its fine samples are not thinned) */
	if (k >= 0 && ++s->thin[k] == RL_LOOP_SAMPLE_COARSEN) {
		s->thin[k] = 0;
		count_sample(s, &s->coarse, (pid_t)pt[1], ip);
	}
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
		if (h.type == PERF_RECORD_SAMPLE && size >= sizeof h + 24) {
			take_sample(s, rec + sizeof h);
		} else if (h.type == PERF_RECORD_LOST && size >= sizeof h + 16) {
			uint64_t lost;
			memcpy(&lost, rec + sizeof h + 8, 8);
			s->out.lost += lost;
		}
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

/* The program's load bias from its exec's PERF_RECORD_MMAP, looked for
 * in every CPU's ring before any sample is taken from them. */
static void find_mapping(struct rl_loop_sampler *s)
{
	for (int c = 0; c < s->n_cpu && !s->bias_known; c++)
		s->bias_known = rl_loop_map_scan(&s->exe, s->pid, s->map[c],
						 s->data_len, &s->bias);
}

static void drain(struct rl_loop_sampler *s)
{
	/* the mapping, where run_drainer did not find it yet: the exec's
	 * record, else /proc/PID/maps while the program runs */
	if (!s->bias_known)
		find_mapping(s);
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
		if (s->coarse_fd[c] >= 0)
			close(s->coarse_fd[c]);
	}
	s->n_cpu = 0;
	for (int k = 0; k < STAGES; k++) {
		for (size_t i = 0; i < s->n_xfd[k]; i++)
			close(s->xfd[k][i]);
		free(s->xfd[k]);
		s->xfd[k] = NULL;
		s->n_xfd[k] = 0;
	}
}

/* The coarse stage's events of every CPU (disabled, inherited), each
 * written into the fine event's buffer of its CPU; a CPU where one
 * cannot be had keeps -1, and the run stays at the fine period. */
static void open_coarse(struct rl_loop_sampler *s, struct perf_event_attr *a,
			pid_t pid, const int *cpu)
{
	struct perf_event_attr c = *a;

	c.sample_period = s->coarse_ns;
	c.disabled = 1;
	c.enable_on_exec = 0;
	c.mmap = 0;
	for (int k = 0; k < s->n_cpu; k++) {
		int fd = (int)syscall(SYS_perf_event_open, &c, pid, cpu[k], -1, 0);
		uint64_t id;
		if (fd >= 0 && (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->fd[k]) < 0 ||
				ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0 ||
				add_coarse_id(s, id) < 0)) {
			close(fd);
			fd = -1;
		}
		s->coarse_fd[k] = fd;
	}
}

/* Whether every fine event has its coarse one (else no switch). */
static bool can_coarsen(const struct rl_loop_sampler *s)
{
	for (int c = 0; c < s->n_cpu; c++)
		if (s->coarse_fd[c] < 0)
			return false;
	return s->n_cpu > 0 && s->n_xfd[COARSE] == s->n_xfd[FINE];
}

/* The program ran long enough for RL_LOOP_SAMPLE_FINE_MAX fine samples:
 * its fine events disabled and the coarse ones enabled, on every child
 * (the threads it made: ioctl on an inherited event acts on its
 * children too). A thread's samples between the two lose at most the
 * part of one coarse period it had begun. */
static void coarsen(struct rl_loop_sampler *s)
{
	for (int c = 0; c < s->n_cpu; c++)
		ioctl(s->fd[c], PERF_EVENT_IOC_DISABLE, 0);
	for (size_t i = 0; i < s->n_xfd[FINE]; i++)
		ioctl(s->xfd[FINE][i], PERF_EVENT_IOC_DISABLE, 0);
	for (int c = 0; c < s->n_cpu; c++)
		ioctl(s->coarse_fd[c], PERF_EVENT_IOC_ENABLE, 0);
	for (size_t i = 0; i < s->n_xfd[COARSE]; i++)
		ioctl(s->xfd[COARSE][i], PERF_EVENT_IOC_ENABLE, 0);
	s->switched = 1;
}

/* The threads pid already runs besides itself (an OpenMP team made
 * before rlprof attached): one event per CPU each, into that CPU's
 * buffer. A thread made after the scan is a child of one with an event
 * (inherited); a thread that ends meanwhile is skipped. */
static void attach_stage(struct rl_loop_sampler *s, int stage,
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
			uint64_t id;
			if (fd < 0)
				break;
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->fd[c]) < 0 ||
			    ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0 ||
			    !(v = realloc(s->xfd[stage], (s->n_xfd[stage] + 1) *
							      sizeof *v)) ||
			    (stage == COARSE && add_coarse_id(s, id) < 0)) {
				close(fd);
				break;
			}
			s->xfd[stage] = v;
			s->xfd[stage][s->n_xfd[stage]++] = fd;
		}
	}
	closedir(d);
}

static void attach_running_threads(struct rl_loop_sampler *s,
				   struct perf_event_attr *a, const int *cpu)
{
	struct perf_event_attr c = *a;

	attach_stage(s, FINE, a, cpu);
	c.sample_period = s->coarse_ns;
	c.disabled = 1;
	attach_stage(s, COARSE, &c, cpu);
}

static void *drainer(void *arg)
{
	struct rl_loop_sampler *s = arg;
	const struct timespec ms10 = {0, 10 * 1000 * 1000};
	for (;;) {
		pthread_mutex_lock(&s->lock);
		int stop = s->stop;
		drain(s);
		if (!s->switched && s->out.total >= RL_LOOP_SAMPLE_FINE_MAX &&
		    can_coarsen(s))
			coarsen(s);
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
	/* the id tells the stage (of the event rlprof opened, for its
	 * inherited copies too) */
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	a->inherit = 1;
	/* the program's executable mappings (its exec's among them): where
	 * its code lies, however short it ran (loop_samples_map.h) */
	a->mmap = 1;
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
	open_coarse(s, a, pid, cpu);
	return 0;
}

/* The fine stage's period: RL_LOOP_SAMPLE_FINE_NS, or longer where the
 * kernel's cap on an event's samples per second
 * (/proc/sys/kernel/perf_event_max_sample_rate, which the kernel lowers
 * itself when its sampling interrupts run long) would throttle it: at
 * most half that rate. (The CPU clock's own floor is 10 us: the kernel
 * runs its hrtimer no more often.) */
static uint64_t fine_period(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long rate = 0;
	uint64_t p = RL_LOOP_SAMPLE_FINE_NS;

	if (f) {
		if (fscanf(f, "%lu", &rate) != 1)
			rate = 0;
		fclose(f);
	}
	if (rate && 2000000000u / rate > p)
		p = (2000000000u / rate + 999) / 1000 * 1000;
	return p;
}

static void free_sampler(struct rl_loop_sampler *s)
{
	rl_loop_samples_free(&s->out);
	rl_loop_samples_free(&s->coarse);
	free(s->coarse_id);
	free(s);
}

static struct rl_loop_sampler *new_sampler(const struct rl_loops *loops)
{
	struct rl_loop_sampler *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->out.self = calloc(loops->n + 1, sizeof *s->out.self);
	s->coarse.self = calloc(loops->n + 1, sizeof *s->coarse.self);
	if (!s->out.self || !s->coarse.self) {
		free_sampler(s);
		return NULL;
	}
	for (int c = 0; c < MAX_CPUS; c++)
		s->coarse_fd[c] = -1;
	s->out.n_loops = s->coarse.n_loops = loops->n;
	s->out.period_ns = fine_period();
	s->coarse_ns = s->out.period_ns * RL_LOOP_SAMPLE_COARSEN;
	s->coarse.period_ns = s->coarse_ns;
	s->loops = loops;
	return s;
}

/* The drainer started on pid's samples; 0 or RL_ENOMEM (s freed). */
static int run_drainer(struct rl_loop_sampler *s, pid_t pid,
		       const char *program, char *err, size_t errlen)
{
	s->pid = pid;
	s->program = program;
	/* where the program's code lies: its exec's record in the rings
	 * (loop_samples_map.h), else its maps, now or at a drain */
	rl_loop_map_prepare(program, &s->exe);
	s->bias = load_bias(pid, program, &s->bias_known);
	pthread_mutex_init(&s->lock, NULL);
	if (pthread_create(&s->thread, NULL, drainer, s) != 0) {
		close_all(s);
		pthread_mutex_destroy(&s->lock);
		free_sampler(s);
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
		free_sampler(s);
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
		free_sampler(s);
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
	free_sampler(s);
}

int rl_loop_sampler_stop(struct rl_loop_sampler *s,
			 struct rl_loop_samples *out)
{
	uint64_t count = 0, cpu_ns = 0;
	struct rl_loop_samples *keep, *drop;

	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	drain(s);
	/* the program's threads have ended: their counts are the events'
	 * (each stage's while it was enabled) */
	for (int c = 0; c < s->n_cpu; c++) {
		if (read(s->fd[c], &count, sizeof count) == (ssize_t)sizeof count)
			cpu_ns += count;
		if (s->coarse_fd[c] >= 0 &&
		    read(s->coarse_fd[c], &count, sizeof count) ==
			    (ssize_t)sizeof count)
			cpu_ns += count;
	}
	for (int k = 0; k < STAGES; k++)
		for (size_t i = 0; i < s->n_xfd[k]; i++)
			if (read(s->xfd[k][i], &count, sizeof count) ==
			    (ssize_t)sizeof count)
				cpu_ns += count;
	/* one period for every sample: the fine stage's where the program
	 * never left it, else the coarse one's (with the fine stage
	 * thinned to it) */
	keep = s->switched ? &s->coarse : &s->out;
	drop = s->switched ? &s->out : &s->coarse;
	keep->cpu_ns = cpu_ns;
	keep->lost = s->out.lost;
	keep->threads = s->n_tids;
	*out = *keep;
	memset(keep, 0, sizeof *keep);
	rl_loop_samples_free(drop);
	close_all(s);
	pthread_mutex_destroy(&s->lock);
	free(s->coarse_id);
	free(s);
	return 0;
}
