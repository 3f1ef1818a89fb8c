/*
 * Runtime warnings (misuse, backend failures, signals) and a small string
 * builder for their messages. A repeated warning (same kind, region and
 * thread) is stored once, its message ending in "(N times)".
 */
#include "runtime/rt_internal.h"

#include <stdlib.h>
#include <string.h>

static char rl_sig_pool[32768]; /* strings of warnings made in a signal */
static size_t rl_sig_pool_used;

void rl_sb_str(struct rl_sb *b, const char *s)
{
	while (*s && b->len + 1 < b->cap)
		b->p[b->len++] = *s++;
	if (b->cap)
		b->p[b->len] = '\0';
}

void rl_sb_u64(struct rl_sb *b, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof tmp - 1;
	tmp[i] = '\0';
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rl_sb_str(b, tmp + i);
}

/* 'name' with control characters shown as '?', so the message stays on
 * one line (the name itself is kept intact in the region field). */
void rl_sb_name(struct rl_sb *b, const char *name)
{
	rl_sb_str(b, "'");
	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		char c[2] = {(char)(*s < 0x20 || *s == 0x7f ? '?' : *s), 0};
		rl_sb_str(b, c);
	}
	rl_sb_str(b, "'");
}

static char *pool_alloc(size_t n)
{
	if (rl_sig_pool_used + n > sizeof rl_sig_pool)
		return NULL;
	char *p = rl_sig_pool + rl_sig_pool_used;
	rl_sig_pool_used += n;
	return p;
}

static bool in_pool(const char *p)
{
	return p >= rl_sig_pool && p < rl_sig_pool + sizeof rl_sig_pool;
}

static char *copy_str(const char *s, size_t extra, bool in_signal,
		      size_t *size)
{
	size_t n = strlen(s) + 1 + extra;
	char *p = in_signal ? pool_alloc(n) : malloc(n);
	if (p)
		memcpy(p, s, strlen(s) + 1);
	*size = n;
	return p;
}

static bool same(const struct rl_warning *w, const char *kind,
		 const char *region, uint64_t tid)
{
	if (w->tid != tid || strcmp(w->kind, kind) != 0)
		return false;
	if (!w->region || !region)
		return w->region == region;
	return strcmp(w->region, region) == 0;
}

/* Keep RL_WARN_RESERVE free slots for a signal flush. */
int rl_rt_warn_reserve(void)
{
	if (rl_rt.n_warnings + RL_WARN_RESERVE < rl_rt.cap_warnings)
		return 0;
	size_t cap = rl_rt.cap_warnings ? 2 * rl_rt.cap_warnings
					: 2 * RL_WARN_RESERVE;
	struct rl_warning *w = malloc(cap * sizeof *w);
	struct rl_warn_extra *x = malloc(cap * sizeof *x);
	if (!w || !x) {
		free(w);
		free(x);
		return -1;
	}
	if (rl_rt.n_warnings) {
		memcpy(w, rl_rt.warnings, rl_rt.n_warnings * sizeof *w);
		memcpy(x, rl_rt.warn_extra, rl_rt.n_warnings * sizeof *x);
	}
	struct rl_warning *ow = rl_rt.warnings;
	struct rl_warn_extra *ox = rl_rt.warn_extra;
	rl_rt.warnings = w;
	rl_rt.warn_extra = x;
	rl_rt.cap_warnings = cap;
	free(ow);
	free(ox);
	return 0;
}

void rl_rt_warn(const char *kind, const char *region, uint64_t tid,
		bool in_signal, const char *msg)
{
	bool locked = in_signal ? pthread_mutex_trylock(&rl_rt.lock) == 0
				: pthread_mutex_lock(&rl_rt.lock) == 0;
	for (size_t i = 0; i < rl_rt.n_warnings; i++) {
		struct rl_warning *w = &rl_rt.warnings[i];
		struct rl_warn_extra *x = &rl_rt.warn_extra[i];
		if (!same(w, kind, region, tid))
			continue;
		x->count++;
		struct rl_sb b = {w->message, x->size, x->base_len};
		rl_sb_str(&b, " (");
		rl_sb_u64(&b, x->count);
		rl_sb_str(&b, " times)");
		goto out;
	}
	if (!in_signal && rl_rt_warn_reserve() < 0)
		goto out;
	if (rl_rt.n_warnings >= rl_rt.cap_warnings)
		goto out; /* signal flush with the reserve used up */
	struct rl_warning w = {.kind = (char *)kind, .tid = tid};
	struct rl_warn_extra x = {.count = 1, .base_len = strlen(msg)};
	size_t ignored;
	w.message = copy_str(msg, 32, in_signal, &x.size);
	w.region = region ? copy_str(region, 0, in_signal, &ignored) : NULL;
	if (!w.message || (region && !w.region)) {
		if (!in_signal) {
			free(w.message);
			free(w.region);
		}
		goto out;
	}
	rl_rt.warnings[rl_rt.n_warnings] = w;
	rl_rt.warn_extra[rl_rt.n_warnings] = x;
	rl_rt.n_warnings++;
out:
	if (locked)
		pthread_mutex_unlock(&rl_rt.lock);
}

void rl_rt_warn_free_all(void)
{
	for (size_t i = 0; i < rl_rt.n_warnings; i++) {
		if (!in_pool(rl_rt.warnings[i].message))
			free(rl_rt.warnings[i].message);
		if (!in_pool(rl_rt.warnings[i].region))
			free(rl_rt.warnings[i].region);
	}
	rl_rt.n_warnings = 0;
}
