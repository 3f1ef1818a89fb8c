/* Per-thread region table of the compatibility shims (compat_regions.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat/compat_regions.h"

/* Entries never move once made (an array of pointers grows, not the
 * entries), so a caller may keep one across calls; names are found
 * through an open-addressing hash of their bytes. */
struct table {
	struct rl_compat_region **r;
	int n, cap;
	int *slot;       /* index + 1 into r, 0 when empty */
	size_t nslot;    /* a power of two, at least 2 * cap */
};

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int key_ok;

static void free_table(void *p)
{
	struct table *t = p;

	for (int i = 0; t && i < t->n; i++) {
		free(t->r[i]->name);
		free(t->r[i]);
	}
	if (t) {
		free(t->r);
		free(t->slot);
	}
	free(t);
}

static void make_key(void)
{
	key_ok = pthread_key_create(&key, free_table) == 0;
}

static struct table *thread_table(void)
{
	struct table *t;

	pthread_once(&once, make_key);
	if (!key_ok)
		return NULL;
	t = pthread_getspecific(key);
	if (!t && (t = calloc(1, sizeof *t)) &&
	    pthread_setspecific(key, t) != 0) {
		free(t);
		t = NULL;
	}
	return t;
}

void rl_compat_clock(struct timespec *ts)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
}

long long rl_compat_elapsed_ns(const struct timespec *a,
			       const struct timespec *b)
{
	return (long long)(b->tv_sec - a->tv_sec) * 1000000000LL +
	       (long long)(b->tv_nsec - a->tv_nsec);
}

static size_t hash_name(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

/* Doubles the slots (and the room for entries); 0 or -1 */
static int grow(struct table *t)
{
	int cap = t->cap ? 2 * t->cap : 16;
	size_t nslot = 2 * (size_t)cap;
	struct rl_compat_region **r = realloc(t->r, (size_t)cap * sizeof *r);
	int *slot;

	if (!r)
		return -1;
	t->r = r;
	if (!(slot = calloc(nslot, sizeof *slot)))
		return -1;
	for (int i = 0; i < t->n; i++) {
		size_t j = hash_name(t->r[i]->name) & (nslot - 1);
		while (slot[j])
			j = (j + 1) & (nslot - 1);
		slot[j] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = nslot;
	t->cap = cap;
	return 0;
}

struct rl_compat_region *rl_compat_find(const char *name, int create)
{
	struct table *t = thread_table();
	struct rl_compat_region *r;
	size_t j;

	if (!t || !name)
		return NULL;
	if (t->nslot) {
		j = hash_name(name) & (t->nslot - 1);
		for (; t->slot[j]; j = (j + 1) & (t->nslot - 1))
			if (strcmp(t->r[t->slot[j] - 1]->name, name) == 0)
				return t->r[t->slot[j] - 1];
	}
	if (!create)
		return NULL;
	if (t->n == t->cap && grow(t) < 0)
		return NULL;
	if (!(r = calloc(1, sizeof *r)))
		return NULL;
	if (!(r->name = strdup(name))) {
		free(r);
		return NULL;
	}
	j = hash_name(name) & (t->nslot - 1);
	while (t->slot[j])
		j = (j + 1) & (t->nslot - 1);
	t->slot[j] = t->n + 1;
	t->r[t->n++] = r;
	return r;
}

int rl_compat_count(void)
{
	struct table *t = thread_table();
	return t ? t->n : 0;
}
