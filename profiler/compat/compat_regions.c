/* Per-thread region table of the compatibility shims (compat_regions.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat_regions.h"

struct table {
	struct rl_compat_region *r;
	int n, cap;
};

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int key_ok;

static void free_table(void *p)
{
	struct table *t = p;

	for (int i = 0; t && i < t->n; i++)
		free(t->r[i].name);
	if (t)
		free(t->r);
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

double rl_compat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct rl_compat_region *rl_compat_find(const char *name, int create)
{
	struct table *t = thread_table();
	struct rl_compat_region *r;

	if (!t || !name)
		return NULL;
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->r[i].name, name) == 0)
			return &t->r[i];
	if (!create)
		return NULL;
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 16;
		struct rl_compat_region *g = realloc(t->r, (size_t)cap * sizeof *g);
		if (!g)
			return NULL;
		t->r = g;
		t->cap = cap;
	}
	r = &t->r[t->n];
	memset(r, 0, sizeof *r);
	if (!(r->name = strdup(name)))
		return NULL;
	t->n++;
	return r;
}

int rl_compat_count(void)
{
	struct table *t = thread_table();
	return t ? t->n : 0;
}
