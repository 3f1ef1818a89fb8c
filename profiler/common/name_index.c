/* A hash index from names to positions (see name_index.h). */
#include "common/name_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rl_error.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The slot of key (its hash h), or of the empty slot where it would
 * go. */
static struct rl_name_slot *find(struct rl_name_slot *slots, size_t cap,
				 const char *key, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	while (slots[i].key &&
	       (slots[i].hash != h || strcmp(slots[i].key, key) != 0))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* The slots made cap (a power of two, more than ix->cap) and filled
 * again. */
static int resize(struct rl_name_index *ix, size_t cap)
{
	struct rl_name_slot *s = calloc(cap, sizeof *s);

	if (!s)
		return RL_ENOMEM;
	for (size_t i = 0; i < ix->cap; i++)
		if (ix->slots[i].key)
			*find(s, cap, ix->slots[i].key, ix->slots[i].hash) =
				ix->slots[i];
	free(ix->slots);
	ix->slots = s;
	ix->cap = cap;
	return 0;
}

static int grow(struct rl_name_index *ix)
{
	return resize(ix, ix->cap ? 2 * ix->cap : 64);
}

int rl_name_index_reserve(struct rl_name_index *ix, size_t n)
{
	size_t cap = ix->cap ? ix->cap : 64;

	while (cap / 2 < n)
		cap *= 2;
	return cap > ix->cap ? resize(ix, cap) : 0;
}

int rl_name_index_add(struct rl_name_index *ix, const char *key,
		      size_t value, size_t *have)
{
	struct rl_name_slot *slot;
	uint64_t h;
	int rc;

	if (2 * (ix->n + 1) > ix->cap && (rc = grow(ix)))
		return rc;
	h = hash(key);
	slot = find(ix->slots, ix->cap, key, h);
	if (slot->key) {
		*have = slot->value;
		return 1;
	}
	*slot = (struct rl_name_slot){key, value, h};
	ix->n++;
	return 0;
}

int rl_name_index_put(struct rl_name_index *ix, const char *key,
		      size_t value)
{
	size_t have;
	int rc = rl_name_index_add(ix, key, value, &have);

	if (rc == 1) /* an equal key: its value replaced */
		find(ix->slots, ix->cap, key, hash(key))->value = value;
	return rc < 0 ? rc : 0;
}

int rl_name_index_get(const struct rl_name_index *ix, const char *key,
		      size_t *value)
{
	const struct rl_name_slot *slot;

	if (!ix->cap)
		return 0;
	slot = find(ix->slots, ix->cap, key, hash(key));
	if (!slot->key)
		return 0;
	*value = slot->value;
	return 1;
}

void rl_name_index_release(struct rl_name_index *ix)
{
	free(ix->slots);
	memset(ix, 0, sizeof *ix);
}
