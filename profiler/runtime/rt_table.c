/*
 * The per-thread table of region records (rt_internal.h): found by name
 * (hash), made in the thread's live-file block, grown with the lock held;
 * a record's figures for the flush (rl_rt_region_stats). The region
 * calls' steady state never comes here (rt_region.c: a site seen before
 * finds its record directly).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/rt_internal.h"
#include "runtime/rt_scope.h"

static uint32_t hash_name(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Grow with the lock held and the old block freed after the new one is
 * published, so a flush never reads freed memory. Records never move. */
static int grow_regions(struct rl_thread *t)
{
	size_t cap = t->cap_regions ? 2 * t->cap_regions : 8;
	struct rl_region *r = calloc(cap, sizeof *r);
	size_t hcap = 2 * cap;
	uint64_t *h = calloc(hcap, sizeof *h);
	if (!r || !h) {
		free(r);
		free(h);
		return -1;
	}
	if (t->n_regions)
		memcpy(r, t->regions, t->n_regions * sizeof *r);
	for (size_t k = 0; k < t->hash_cap; k++) {
		uint64_t e = t->hash[k];
		size_t j;
		if (!e)
			continue;
		j = (uint32_t)(e >> 32) & (hcap - 1);
		while (h[j])
			j = (j + 1) & (hcap - 1);
		h[j] = e;
	}
	pthread_mutex_lock(&rl_rt.lock);
	struct rl_region *old = t->regions;
	uint64_t *oldh = t->hash;
	t->regions = r;
	t->hash = h;
	t->hash_cap = hcap;
	t->cap_regions = cap;
	pthread_mutex_unlock(&rl_rt.lock);
	free(old);
	free(oldh);
	return 0;
}

/* A zeroed record for a new region of t, in its live-file block. */
static struct rl_rec *rec_new(struct rl_thread *t, const char *name,
			      size_t len)
{
	size_t size = rl_rec_size_n(len, rl_rt.n_prov);
	struct rl_rec *r = rl_rt_live_rec(t, size);
	if (!r)
		return NULL;
	r->size = (uint32_t)size;
	r->name_len = (uint32_t)len;
	memcpy(rl_rec_name(r), name, len);
	rl_rt_live_publish(t, r);
	return r;
}

int rl_rt_region_index(struct rl_thread *t, const char *name, size_t len)
{
	uint32_t hv = hash_name(name, len);
	if (t->hash_cap) {
		size_t j = hv & (t->hash_cap - 1);
		for (uint64_t e; (e = t->hash[j]);
		     j = (j + 1) & (t->hash_cap - 1)) {
			const char *n;
			if ((uint32_t)(e >> 32) != hv)
				continue;
			n = t->regions[(uint32_t)e - 1].name;
			if (strncmp(n, name, len) == 0 && n[len] == '\0')
				return (int)((uint32_t)e - 1);
		}
	}
	if (t->n_regions + 1 > t->cap_regions && grow_regions(t) < 0)
		return -1;
	struct rl_rec *rec = rec_new(t, name, len);
	if (!rec)
		return -1;
	size_t i = t->n_regions;
	t->regions[i].rec = rec;
	t->regions[i].name = rl_rec_name(rec);
	size_t j = hv & (t->hash_cap - 1);
	while (t->hash[j])
		j = (j + 1) & (t->hash_cap - 1);
	t->hash[j] = (uint64_t)hv << 32 | ((uint32_t)i + 1);
	pthread_mutex_lock(&rl_rt.lock);
	t->n_regions = i + 1;
	pthread_mutex_unlock(&rl_rt.lock);
	return (int)i;
}

void rl_rt_region_stats(const struct rl_thread *t, size_t k,
			struct rl_region_stats *out)
{
	struct rl_rec *r = t->regions[k].rec;
	const struct rl_rec_tail *x = rl_rec_tail(r);
	struct rl_counter_total *room = out->counters; /* the caller's */
	memset(out, 0, sizeof *out);
	out->counters = room;
	out->name = rl_rec_name(r);
	out->calls = r->calls;
	out->time_ns = rl_rt_ticks_to_ns(r->ticks);
	for (size_t i = 0; room && i < rl_rt.n_prov; i++) {
		struct rl_counter_total *c = &out->counters[rl_rt.prov[i]];
		c->value = r->c[i].value;
		c->enabled_ns = r->c[i].enabled_ns;
		c->running_ns = r->c[i].running_ns;
	}
	out->expected_flops = x->expected_flops;
	out->expected_bytes = x->expected_bytes;
	out->expect_calls = x->expect_calls;
	out->depth = x->depth > 1 ? x->depth : 0;
	out->open_at_exit = r->open;
	out->mpi_known = rl_rt_mpi_calls() != RL_MPI_CALLS_NONE;
	out->mpi_ns = rl_rt_ticks_to_ns(x->mpi_ticks);
	out->clock_known = true;
	out->clock_reads = x->clock_reads;
	rl_scope_stats(r, out);
}

void rl_rt_thread_free_tables(struct rl_thread *t)
{
	/* records stay where they are (the live file, for the process's
	 * life); the thread's next ones go to a new block */
	t->blk = NULL;
	memset(t->sites, 0, sizeof t->sites);
	free(t->regions);
	free(t->hash);
	free(t->frames);
	t->regions = NULL;
	t->hash = NULL;
	t->frames = NULL;
	t->n_regions = t->cap_regions = t->hash_cap = 0;
	t->depth = t->cap_frames = 0;
}
