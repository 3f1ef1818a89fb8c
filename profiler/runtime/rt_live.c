/*
 * The live file (formats/live.h): region records in a file mapped MAP_SHARED,
 * so that a process killed by SIGKILL or ended by _exit() still leaves
 * its completed regions behind for `rlprof run`.
 *
 * The file is opened by path each time a block is added and closed
 * again: the program may close or reuse any descriptor (daemons do), so
 * the runtime keeps none. Blocks are reserved with fallocate first, so a
 * full disk gives a failed block (records then go to plain memory, with
 * a warning) instead of a SIGBUS at a later store.
 */
#include "runtime/rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define RL_LIVE_FIRST_BLOCK (16 * 1024)
#define RL_LIVE_MAX_BLOCK (1024 * 1024)

void rl_rt_random_hex(char *buf, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char r[32];
	size_t want = n / 2 + 1 < sizeof r ? n / 2 + 1 : sizeof r;

	if (getrandom(r, want, GRND_NONBLOCK) != (ssize_t)want) {
		uint64_t x = rl_rt_mono_ns() * 0x9e3779b97f4a7c15ull ^
			     (uint64_t)getpid() << 32;
		for (size_t i = 0; i < want; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			r[i] = (unsigned char)(x >> 56);
		}
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = hex[(r[i / 2] >> (i % 2 ? 0 : 4)) & 15];
	buf[n] = '\0';
}

static size_t header_size(void)
{
	return (sizeof(struct rl_live_header) + 4095) & ~(size_t)4095;
}

/* Reserve [off, off+len) of the file at fd: 0 or -1. */
static int reserve(int fd, uint64_t off, uint64_t len)
{
	if (fallocate(fd, 0, (off_t)off, (off_t)len) == 0)
		return 0;
	if (errno != EOPNOTSUPP)
		return -1;
	return posix_fallocate(fd, (off_t)off, (off_t)len) == 0 ? 0 : -1;
}

/* Map [off, off+len) of the live file, reserved first; NULL on failure. */
static void *map_range(uint64_t off, uint64_t len, bool create)
{
	/* created new under a name nobody could guess, and never through a
	 * link: a link planted in DIR/raw is not followed */
	int flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW |
		    (create ? O_CREAT | O_EXCL : 0);
	const char *name;
	int at = rl_rt_out_at(rl_rt.live_path, &name);
	int fd = openat(at, name, flags, 0644);
	if (fd < 0)
		return NULL;
	if (create) /* reopened for each block, read by rlprof run */
		rl_rt_owner_may_use(fd, NULL, S_IRUSR | S_IWUSR);
	void *p = MAP_FAILED;
	if (reserve(fd, off, len) == 0)
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)off);
	close(fd);
	/* a live file made here but never usable (a full disk) is not left
	 * behind empty */
	if (create && p == MAP_FAILED)
		unlinkat(at, name, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void lost_warning(void)
{
	if (rl_rt.live_lost)
		return;
	rl_rt.live_lost = true;
	char msg[sizeof rl_rt.live_path + 256];
	struct rl_sb b = {msg, sizeof msg, 0};
	rl_sb_str(&b, "cannot keep region records in the live file ");
	rl_sb_name(&b, rl_rt.live_path);
	rl_sb_str(&b, " (disk full, or the directory is gone?): if the "
		      "process is killed, its regions are lost");
	rl_rt_warn("live-file", NULL, 0, false, msg);
}

static void unlink_live(void)
{
	const char *name;
	int at = rl_rt_out_at(rl_rt.live_path, &name);
	unlinkat(at, name, 0);
}

void rl_rt_live_open(void)
{
	struct rl_sb p = {rl_rt.live_path, sizeof rl_rt.live_path, 0};
	rl_sb_str(&p, rl_rt.out_dir);
	rl_sb_str(&p, "/" RL_LIVE_PREFIX);
	rl_sb_u64(&p, (uint64_t)getpid());
	char rnd[17];
	rl_rt_random_hex(rnd, 16);
	rl_sb_str(&p, "-");
	rl_sb_str(&p, rnd);
	rl_sb_str(&p, RL_LIVE_SUFFIX);
	rl_rt.live = NULL;
	rl_rt.live_end = 0;
	size_t hs = header_size();
	struct rl_live_header *h = map_range(0, hs, true);
	if (!h) {
		lost_warning();
		return;
	}
	memset(h, 0, sizeof *h);
	h->version = RL_LIVE_VERSION;
	h->header_size = (uint32_t)hs;
	h->counter_count = RL_COUNTER_COUNT;
	h->setup_size = sizeof(struct rl_backend_setup);
	h->n_prov = (uint32_t)rl_rt.n_prov;
	h->rec_align = RL_REC_ALIGN;
	h->pid = (int64_t)getpid();
	h->ppid = (int64_t)getppid();
	h->start_ns = rl_rt.start_ns;
	h->tick_mult = rl_rt.clock.mult;
	struct rl_sb s = {h->backend, sizeof h->backend, 0};
	rl_sb_str(&s, rl_rt.backend ? rl_rt.backend->name : "time");
	s = (struct rl_sb){h->program, sizeof h->program, 0};
	rl_sb_str(&s, rl_rt.program);
	h->setup = rl_rt.setup;
	memcpy(h->run_id, rl_rt.run_id, sizeof h->run_id);
	h->mpi_calls = (uint32_t)rl_rt_mpi_calls();
	/* the magic last: a reader never takes a half-written header */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(h->magic, RL_LIVE_MAGIC, sizeof h->magic);
	rl_rt.live = h;
	rl_rt.live_end = hs;
	rl_rt.live_lost = false;
}

bool rl_rt_live_drop_if_empty(void)
{
	if (!rl_rt.live || rl_rt.live_end > header_size())
		return false;
	unlink_live();
	/* a mapped page keeps its room even when its file is gone */
	munmap(rl_rt.live, header_size());
	rl_rt.live = NULL;
	rl_rt.live_lost = true; /* nothing is kept there now */
	return true;
}

void rl_rt_live_remove(void)
{
	if (rl_rt.live)
		unlink_live();
}

/* A new block for t, large enough for a record of `need` bytes: in the
 * live file when it can be, else in plain memory. */
static struct rl_live_block *new_block(struct rl_thread *t, size_t need)
{
	size_t size = t->blk_next ? t->blk_next : RL_LIVE_FIRST_BLOCK;
	while (size < need + RL_LIVE_BLOCK_HEAD)
		size *= 2;
	t->blk_next = size < RL_LIVE_MAX_BLOCK ? 2 * size : size;
	pthread_mutex_lock(&rl_rt.lock);
	struct rl_live_block *b = NULL;
	if (rl_rt.live) {
		b = map_range(rl_rt.live_end, size, false);
		/* a nearly full disk: the smallest block the record needs
		 * (whole pages) may still fit, so the records stay where
		 * rlprof run can recover them (with 8 KiB free, none did) */
		size_t small = (need + RL_LIVE_BLOCK_HEAD + 4095) &
			       ~(size_t)4095;
		if (!b && small < size &&
		    (b = map_range(rl_rt.live_end, small, false)))
			size = small;
		if (b) {
			/* also updated at each block: the rate refined so far */
			rl_rt.live->tick_mult = rl_rt.clock.mult;
			rl_rt.live_end += size;
		}
	}
	if (!b) {
		b = aligned_alloc(RL_REC_ALIGN, size);
		if (b)
			memset(b, 0, size);
		lost_warning();
	}
	if (b) {
		b->thread_index = t->index;
		b->tid = t->tid;
		b->size = size;
		b->used = RL_LIVE_BLOCK_HEAD;
		__atomic_store_n(&b->magic, RL_LIVE_BLOCK_MAGIC,
				 __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&rl_rt.lock);
	return b;
}

struct rl_rec *rl_rt_live_rec(struct rl_thread *t, size_t size)
{
	struct rl_live_block *b = t->blk;
	if (!b || b->size - b->used < size) {
		b = new_block(t, size);
		if (!b)
			return NULL;
		t->blk = b;
	}
	struct rl_rec *r = (struct rl_rec *)(void *)((char *)b + b->used);
	memset(r, 0, size);
	return r;
}

void rl_rt_live_publish(struct rl_thread *t, struct rl_rec *r)
{
	__atomic_store_n(&t->blk->used, t->blk->used + r->size,
			 __ATOMIC_RELEASE);
}
