/*
 * A hash index from names to positions (open addressing, FNV-1a), for
 * grouping results by region name: 10^5 names stay linear, where a search
 * per name was quadratic.
 *
 * Ownership: the index does not copy keys; each key must stay alive and
 * unchanged while the index is used. rl_name_index_release() frees the
 * table and leaves a zeroed index; a zeroed index is empty and valid.
 */
#ifndef RL_NAME_INDEX_H
#define RL_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct rl_name_slot {
	const char *key;   /* NULL: empty */
	size_t value;
	uint64_t hash;     /* key's: a probe compares it before the text,
			      and growing reads no key again (at 10^6 names
			      each text read is a cache miss) */
};

struct rl_name_index {
	struct rl_name_slot *slots;
	size_t cap;        /* a power of two, or 0 */
	size_t n;
};

/* Adds key -> value, or replaces the value of an equal key. Returns 0 or
 * RL_ENOMEM. */
int rl_name_index_put(struct rl_name_index *ix, const char *key,
		      size_t value);
/* key -> value when key is not in the index yet (0), else 1 with its
 * value in *have, the index unchanged: a get and a put in one probe.
 * RL_ENOMEM when it cannot grow. */
int rl_name_index_add(struct rl_name_index *ix, const char *key,
		      size_t value, size_t *have);
/* Room for n keys at once (no growing, rehashing and its tables on the
 * way there: 10^6 names). 0 or RL_ENOMEM. */
int rl_name_index_reserve(struct rl_name_index *ix, size_t n);
/* 1 and *value when key is in the index, else 0. */
int rl_name_index_get(const struct rl_name_index *ix, const char *key,
		      size_t *value);
void rl_name_index_release(struct rl_name_index *ix);

#endif
