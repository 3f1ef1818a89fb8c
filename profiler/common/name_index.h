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

struct rl_name_slot {
	const char *key;   /* NULL: empty */
	size_t value;
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
/* 1 and *value when key is in the index, else 0. */
int rl_name_index_get(const struct rl_name_index *ix, const char *key,
		      size_t *value);
void rl_name_index_release(struct rl_name_index *ix);

#endif
