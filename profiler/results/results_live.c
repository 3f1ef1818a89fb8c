/*
 * rl_results_live_load(): a live results file (formats/live.h) into a struct
 * rl_process_results. The file comes from a process that may have died at
 * any instruction: every size and offset is checked against the file, a
 * block or record that does not fit ends the reading of that block, and a
 * file from another build (version, counter count, setup size) is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/results_live.h"
#include "common/rl_error.h"
#include "common/held_dir.h"
#include "formats/live.h"

#define RL_LIVE_MAX_THREADS 65536

unsigned long long rl_results_total_calls(const struct rl_process_results *r)
{
	unsigned long long n = 0;
	for (size_t t = 0; t < r->n_threads; t++)
		for (size_t i = 0; i < r->threads[t].n_regions; i++)
			n += r->threads[t].regions[i].calls;
	return n;
}

static char *dup_str(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *p = malloc(n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static struct rl_thread_results *thread_for(struct rl_process_results *r,
					    const struct rl_live_block *b)
{
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->threads[i].index == b->thread_index &&
		    r->threads[i].tid == b->tid)
			return &r->threads[i];
	if (r->n_threads == RL_LIVE_MAX_THREADS)
		return NULL;
	struct rl_thread_results *t =
		realloc(r->threads, (r->n_threads + 1) * sizeof *t);
	if (!t)
		return NULL;
	r->threads = t;
	t = &r->threads[r->n_threads++];
	memset(t, 0, sizeof *t);
	t->index = b->thread_index;
	t->tid = b->tid;
	return t;
}

static int add_region(struct rl_thread_results *t, struct rl_rec *rec,
		      const struct rl_live_header *h)
{
	struct rl_region_stats *s =
		realloc(t->regions, (t->n_regions + 1) * sizeof *s);
	if (!s)
		return RL_ENOMEM;
	t->regions = s;
	s = &t->regions[t->n_regions];
	memset(s, 0, sizeof *s);
	const struct rl_rec_tail *x = rl_rec_tail_n(rec, h->n_prov);
	if (!(s->name = dup_str(rl_rec_name_n(rec, h->n_prov), rec->name_len)))
		return RL_ENOMEM;
	t->n_regions++;
	if (h->setup.provided && rl_region_counters(s))
		return RL_ENOMEM;
	s->calls = rec->calls;
	s->time_ns = (uint64_t)(((unsigned __int128)rec->ticks *
				 h->tick_mult) >> 32);
	size_t k = 0;
	for (int c = 0; c < RL_COUNTER_COUNT && k < h->n_prov; c++) {
		if (!(h->setup.provided >> c & 1))
			continue;
		struct rl_counter_total *ct = &s->counters[c];
		ct->value = rec->c[k].value;
		ct->enabled_ns = rec->c[k].enabled_ns;
		ct->running_ns = rec->c[k].running_ns;
		ct->scaled = rl_counter_scaled(ct->value, ct->enabled_ns,
					       ct->running_ns);
		k++;
	}
	s->expected_flops = x->expected_flops;
	s->expected_bytes = x->expected_bytes;
	s->expect_calls = x->expect_calls;
	s->depth = x->depth > 1 ? x->depth : 0;
	s->open_at_exit = rec->open;
	s->mpi_known = h->mpi_calls != RL_MPI_CALLS_NONE;
	s->mpi_ns = (uint64_t)(((unsigned __int128)x->mpi_ticks *
				h->tick_mult) >> 32);
	s->clock_known = true;
	s->clock_reads = x->clock_reads;
	return 0;
}

/* A record's figures within what the results reader accepts (integers
 * up to INT64_MAX, declared sums finite and not negative): recovery
 * writes only what its reader takes back (a calls of 2^64-1 became a
 * real the reader refused, and the whole run was lost). */
static bool rec_in_limits(const struct rl_rec *rec,
			  const struct rl_live_header *h)
{
	const struct rl_rec_tail *x =
		rl_rec_tail_n((struct rl_rec *)rec, h->n_prov);
	uint64_t time_ns = (uint64_t)(((unsigned __int128)rec->ticks *
				       h->tick_mult) >> 32);
	unsigned __int128 mpi_ns = ((unsigned __int128)x->mpi_ticks *
				    h->tick_mult) >> 32;

	if (rec->calls > INT64_MAX || time_ns > INT64_MAX ||
	    mpi_ns > INT64_MAX ||
	    rec->open > INT64_MAX || x->expect_calls > INT64_MAX ||
	    x->depth > INT64_MAX ||
	    !(x->expected_flops >= 0 && x->expected_flops < 1e300) ||
	    !(x->expected_bytes >= 0 && x->expected_bytes < 1e300))
		return false;
	for (size_t k = 0; k < h->n_prov; k++)
		if (rec->c[k].value > INT64_MAX ||
		    rec->c[k].enabled_ns > INT64_MAX ||
		    rec->c[k].running_ns > INT64_MAX)
			return false;
	return true;
}

/* Whether another block already holds the thread index of b with another
 * thread id: the results reader refuses an index listed twice. */
static bool index_taken(const struct rl_process_results *r,
			const struct rl_live_block *b)
{
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->threads[i].index == b->thread_index &&
		    r->threads[i].tid != b->tid)
			return true;
	return false;
}

static int cmp_name_first(const void *a, const void *b)
{
	const struct rl_region_stats *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);

	return c ? c : (*x > *y) - (*x < *y);
}

/* The runtime keeps one record per name and thread: a name read again in
 * the same thread is damage (the results reader refuses a name listed
 * twice, and recovery writes only what it takes back). The first record
 * stays; the later ones are freed and counted in *twice. */
static int drop_repeated(struct rl_thread_results *t, size_t *twice)
{
	struct rl_region_stats **v;
	const char *keep;
	size_t k = 0;

	if (t->n_regions < 2)
		return 0;
	if (!(v = malloc(t->n_regions * sizeof *v)))
		return RL_ENOMEM;
	for (size_t i = 0; i < t->n_regions; i++)
		v[i] = &t->regions[i];
	qsort(v, t->n_regions, sizeof *v, cmp_name_first);
	keep = v[0]->name;
	for (size_t i = 1; i < t->n_regions; i++) {
		if (strcmp(keep, v[i]->name) != 0) {
			keep = v[i]->name;
			continue;
		}
		free(v[i]->name);
		free(v[i]->counters);
		v[i]->name = NULL;
		v[i]->counters = NULL;
		++*twice;
	}
	free(v);
	for (size_t i = 0; i < t->n_regions; i++)
		if (t->regions[i].name)
			t->regions[k++] = t->regions[i];
	t->n_regions = k;
	return 0;
}

/* The records of one block (already checked to lie inside the file);
 * records with figures beyond the limits, or of a thread whose index
 * another thread holds, are counted in *damaged. */
static int read_block(struct rl_process_results *r,
		      const struct rl_live_block *b,
		      const struct rl_live_header *h, size_t *damaged)
{
	size_t min = rl_rec_size_n(0, h->n_prov);
	uint64_t used = b->used <= b->size ? b->used : b->size;
	uint64_t off = RL_LIVE_BLOCK_HEAD;
	struct rl_thread_results *t = NULL;
	bool clash = index_taken(r, b);
	while (off + min <= used) {
		struct rl_rec *rec = (struct rl_rec *)((char *)b + off);
		if (rec->size < min || rec->size % RL_REC_ALIGN ||
		    rec->size > used - off ||
		    rl_rec_size_n(rec->name_len, h->n_prov) != rec->size)
			break; /* torn or damaged: the rest is unreadable */
		/* a thread id past 2^63 is damage too: it would be written
		 * as a real the results reader refuses (make fuzz) */
		if (!rec_in_limits(rec, h) || b->tid > (uint64_t)INT64_MAX ||
		    clash) {
			++*damaged;
			off += rec->size;
			continue;
		}
		if (!t && !(t = thread_for(r, b)))
			return RL_ENOMEM;
		int rc = add_region(t, rec, h);
		if (rc)
			return rc;
		off += rec->size;
	}
	return 0;
}

static int check_header(const struct rl_live_header *h, size_t len,
			const char *path, char *err, size_t errlen)
{
	if (len < sizeof *h || memcmp(h->magic, RL_LIVE_MAGIC, 8) != 0)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "'%s' is not an rlprof live results file (or "
			       "its process died while starting)",
			       path);
	if (h->version != RL_LIVE_VERSION ||
	    h->counter_count != RL_COUNTER_COUNT ||
	    h->setup_size != sizeof(struct rl_backend_setup) ||
	    h->rec_align != RL_REC_ALIGN)
		return rl_fail(err, errlen, RL_EVERSION,
			       "'%s' was written by another version of "
			       "librlprof (live file version %u): run the "
			       "program with the librlprof of this rlprof",
			       path, h->version);
	if (h->pid <= 0 || h->pid > INT32_MAX || h->ppid < 0 ||
	    h->ppid > INT32_MAX || h->header_size < sizeof *h ||
	    /* a CLOCK_REALTIME past 2^63 (the year 2262) is damage, and
	     * would be written as a real the results reader refuses */
	    h->start_ns > (uint64_t)INT64_MAX ||
	    h->header_size > len ||
	    h->header_size % 4096 || /* blocks are page-aligned */
	    h->n_prov != (uint32_t)__builtin_popcountll(h->setup.provided) ||
	    h->n_prov > RL_COUNTER_COUNT)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "cannot read '%s': damaged header", path);
	return 0;
}

static int fill_process(struct rl_process_results *r,
			const struct rl_live_header *h, const struct stat *st)
{
	r->version = RL_RESULTS_VERSION;
	r->pid = (long)h->pid;
	r->ppid = (long)h->ppid;
	r->start_ns = h->start_ns;
	r->end_ns = (uint64_t)st->st_mtim.tv_sec * 1000000000u +
		    (uint64_t)st->st_mtim.tv_nsec;
	r->complete = false;
	r->provided = h->setup.provided;
	r->clock_reads_counted = true;
	r->mpi_calls = h->mpi_calls <= RL_MPI_CALLS_IN ? (uint8_t)h->mpi_calls
						       : RL_MPI_CALLS_NONE;
	if (memchr(h->run_id, '\0', sizeof h->run_id) &&
	    rl_run_id_valid(h->run_id))
		strcpy(r->run_id, h->run_id);
	if (!(r->program = dup_str(h->program, sizeof h->program)) ||
	    !(r->backend = dup_str(h->backend, sizeof h->backend)) ||
	    !(r->backend_note = dup_str(h->setup.note, sizeof h->setup.note)))
		return RL_ENOMEM;
	for (int c = 0; c < RL_COUNTER_COUNT; c++) {
		if (!(h->setup.provided >> c & 1))
			continue;
		r->scope[c] = h->setup.scope[c];
		if (!(r->method[c] = dup_str(h->setup.method[c],
					     sizeof h->setup.method[c])))
			return RL_ENOMEM;
	}
	for (int i = 0; i < RL_EXTRA_MAX; i++)
		if ((h->setup.provided >> (RL_C_EXTRA0 + i) & 1) &&
		    !(r->extra_name[i] = dup_str(h->setup.extra_name[i],
						 sizeof h->setup.extra_name[i])))
			return RL_ENOMEM;
	return 0;
}

/* The live-damaged warning for n records left out because they what
 * (none when n is 0). */
static int live_warning(struct rl_process_results *p, size_t n,
			const char *path, const char *what)
{
	char msg[1024];

	if (!n)
		return 0;
	snprintf(msg, sizeof msg,
		 "%zu region record%s of the live file '%s' %s: damaged, "
		 "left out",
		 n, n == 1 ? "" : "s", path, what);
	return rl_results_add_warning(p, "live-damaged", msg);
}

int rl_results_live_load(const char *path, struct rl_process_results *out,
			 char *err, size_t errlen)
{
	size_t damaged = 0, twice = 0;
	struct stat st;
	int rc;
	memset(out, 0, sizeof *out);
	/* non-blocking (a FIFO at a live file's name never hangs), and never
	 * through a link: the name is rlprof's */
	int fd = rl_held_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
				      O_NOFOLLOW, 0);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = rl_fail(err, errlen, RL_EIO, "cannot read '%s': %s", path,
			     fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return rc;
	}
	size_t len = (size_t)st.st_size;
	void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)
			: MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED)
		return rl_fail(err, errlen, RL_EFORMAT,
			       "'%s' is not an rlprof live results file (or "
			       "its process died while starting)",
			       path);
	const struct rl_live_header *h = map;
	if ((rc = check_header(h, len, path, err, errlen)))
		goto out;
	if ((rc = fill_process(out, h, &st)))
		goto oom;
	for (uint64_t off = h->header_size; off + RL_LIVE_BLOCK_HEAD <= len;) {
		const struct rl_live_block *b =
			(const void *)((const char *)map + off);
		if (b->magic != RL_LIVE_BLOCK_MAGIC || b->size < 4096 ||
		    b->size > len - off || b->size % 4096)
			break;
		if ((rc = read_block(out, b, h, &damaged)))
			goto oom;
		off += b->size;
	}
	for (size_t i = 0; i < out->n_threads; i++)
		if ((rc = drop_repeated(&out->threads[i], &twice)))
			goto oom;
	if (live_warning(out, twice, path,
			 "repeat a name already read for the same thread") ||
	    live_warning(out, damaged, path,
			 "hold figures no process reaches (more than 2^63, a "
			 "negative or non-finite declared count, or a thread "
			 "index another thread holds)"))
		goto oom;
	rc = 0;
	goto out;
oom:
	rc = rl_fail(err, errlen, RL_ENOMEM, "out of memory");
out:
	munmap(map, len);
	if (rc)
		rl_results_release(out);
	return rc;
}
