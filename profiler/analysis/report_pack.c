/*
 * A large report's rows kept packed (report_pack.h): each row as the
 * 8-byte words in which it differs from the first row of its kind packed,
 * its strings shared through one table of every text the packed rows
 * hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_pack.h"
#include "common/name_index.h"
#include "common/rl_error.h"

#define WORDS (sizeof(struct rl_region_row) / 8)
#define MASKS ((WORDS + 63) / 64)
_Static_assert(sizeof(struct rl_region_row) % 8 == 0,
	       "a row is a whole number of 8-byte words");

size_t rl_report_pack_from = 4096;

struct rl_row_pack {
	struct rl_region_row base[2]; /* the first summed and the first
				      per-thread row packed */
	size_t split;              /* rows below it are summed rows */
	size_t n, cap;             /* rows packed */
	size_t *at;                /* each row's offset into bytes */
	unsigned char *bytes;      /* masks and words, row after row */
	size_t used, room;
	struct rl_name_index texts; /* text -> index into strings */
	const char *last[4];       /* each string field's last text: rows
				      in turn mostly repeat it (no hash) */
	char **strings;            /* owned: the shared texts and the
				      summed rows' names */
	size_t n_strings, cap_strings;
};

size_t rl_report_n_all(const struct rl_report *r)
{
	return r->n_rows + (r->packed ? r->packed->n : 0);
}

const struct rl_region_row *rl_report_row(const struct rl_report *r,
					  size_t i, struct rl_region_row *buf)
{
	const struct rl_row_pack *p = r->packed;
	const unsigned char *at;
	uint64_t mask[MASKS];
	unsigned char *w = (unsigned char *)buf;

	if (!p || i < r->n_rows)
		return &r->rows[i];
	i -= r->n_rows;
	at = p->bytes + p->at[i];
	memcpy(mask, at, sizeof mask);
	at += sizeof mask;
	memcpy(buf, &p->base[i >= p->split], sizeof *buf);
	for (size_t m = 0; m < MASKS; m++)
		for (uint64_t b = mask[m]; b; b &= b - 1) {
			size_t k = m * 64 + (size_t)__builtin_ctzll(b);
			memcpy(w + 8 * k, at, 8);
			at += 8;
		}
	return buf;
}

int rl_row_pack_open(struct rl_report *r, size_t n_sum, size_t n_per,
		     int has_loops)
{
	if (has_loops || n_per == 0 || n_per < rl_report_pack_from)
		return 0;
	if (!(r->packed = calloc(1, sizeof *r->packed)) ||
	    !(r->packed->at = malloc((n_sum + n_per) * sizeof *r->packed->at)))
		return RL_ENOMEM;
	r->packed->cap = n_sum + n_per;
	r->packed->split = n_sum;
	return 0;
}

/* s kept in the table of strings (not looked up by text). */
static int keep(struct rl_row_pack *p, char *s)
{
	if (p->n_strings == p->cap_strings) {
		size_t cap = p->cap_strings ? 2 * p->cap_strings : 256;
		char **g = realloc(p->strings, cap * sizeof *g);
		if (!g)
			return RL_ENOMEM;
		p->strings = g;
		p->cap_strings = cap;
	}
	p->strings[p->n_strings++] = s;
	return 0;
}

/* *s replaced by the table's copy of its text (s's own freed); field:
 * which of the row's strings it is. */
static int intern(struct rl_row_pack *p, char **s, size_t field)
{
	size_t k;

	if (!*s)
		return 0;
	if (p->last[field] && strcmp(*s, p->last[field]) == 0) {
		free(*s);
		*s = (char *)p->last[field];
		return 0;
	}
	if (rl_name_index_get(&p->texts, *s, &k)) {
		free(*s);
		*s = p->strings[k];
		p->last[field] = *s;
		return 0;
	}
	if (rl_name_index_put(&p->texts, *s, p->n_strings) || keep(p, *s))
		return RL_ENOMEM;
	p->last[field] = *s;
	return 0;
}

void rl_row_strings_free(struct rl_region_row *row)
{
	free(row->region);
	free(row->method);
	free(row->diagnosis);
	free(row->check);
	row->region = row->method = row->diagnosis = row->check = NULL;
}

/* The row's words against its kind's base, appended (in one pass, room
 * made for every word first); at[i] points to them. 0 or RL_ENOMEM. */
static int put(struct rl_row_pack *p, size_t i,
	       const struct rl_region_row *row)
{
	const unsigned char *w = (const unsigned char *)row,
			    *b = (const unsigned char *)&p->base[i >= p->split];
	uint64_t mask[MASKS] = {0};
	unsigned char *out;

	if (p->used + sizeof mask + 8 * WORDS > p->room) {
		size_t room = p->room ? 2 * p->room : 1 << 16;
		unsigned char *g;
		while (room < p->used + sizeof mask + 8 * WORDS)
			room *= 2;
		if (!(g = realloc(p->bytes, room)))
			return RL_ENOMEM;
		p->bytes = g;
		p->room = room;
	}
	out = p->bytes + p->used + sizeof mask;
	for (size_t k = 0; k < WORDS; k++) {
		uint64_t x, y;
		memcpy(&x, w + 8 * k, 8);
		memcpy(&y, b + 8 * k, 8);
		if (x != y) {
			mask[k / 64] |= UINT64_C(1) << (k % 64);
			memcpy(out, &x, 8);
			out += 8;
		}
	}
	memcpy(p->bytes + p->used, mask, sizeof mask);
	p->at[i] = p->used;
	p->used = (size_t)(out - p->bytes);
	return 0;
}

int rl_row_pack_add(struct rl_report *r, struct rl_region_row *row,
		    const char *region)
{
	struct rl_row_pack *p = r->packed;
	char **own[] = {&row->method, &row->diagnosis, &row->check,
			&row->region};
	size_t n_own = sizeof own / sizeof *own;

	if (p->n == p->cap) {
		rl_row_strings_free(row);
		return RL_ENOMEM;
	}
	/* a summed row's name is its own; a per-thread row's that of its
	 * summed row (never changed before release) */
	if (!region || (row->region && strcmp(region, row->region) == 0)) {
		if (region) {
			free(row->region);
			row->region = (char *)region;
		} else if (row->region && keep(p, row->region)) {
			rl_row_strings_free(row);
			return RL_ENOMEM;
		}
		n_own--;
	}
	for (size_t k = 0; k < n_own; k++)
		if (intern(p, own[k], k)) {
			/* those interned belong to the table now */
			for (size_t j = k; j < n_own; j++)
				free(*own[j]);
			memset(row, 0, sizeof *row);
			return RL_ENOMEM;
		}
	if (p->n == 0 || p->n == p->split)
		memcpy(&p->base[p->n >= p->split], row, sizeof *row);
	if (put(p, p->n, row)) {
		memset(row, 0, sizeof *row);
		return RL_ENOMEM;
	}
	p->n++;
	memset(row, 0, sizeof *row);
	return 0;
}

int rl_report_row_set(struct rl_report *r, size_t i,
		      struct rl_region_row *row)
{
	struct rl_row_pack *p = r->packed;
	struct rl_region_row was;
	char **own[] = {&row->method, &row->diagnosis, &row->check};
	const struct rl_region_row *o;

	if (!p || i < r->n_rows) {
		if (row != &r->rows[i])
			r->rows[i] = *row;
		return 0;
	}
	o = rl_report_row(r, i, &was);
	{
		char *const before[] = {o->method, o->diagnosis, o->check};
		for (size_t k = 0; k < 3; k++)
			if (*own[k] != before[k] && intern(p, own[k], k)) {
				for (size_t j = k; j < 3; j++)
					if (*own[j] != before[j])
						free(*own[j]);
				return RL_ENOMEM;
			}
	}
	return put(p, i - r->n_rows, row);
}

void rl_report_text_drop(const struct rl_report *r, char *s)
{
	if (!r->packed)
		free(s);
}

void rl_row_pack_free(struct rl_row_pack *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_strings; i++)
		free(p->strings[i]);
	free(p->strings);
	rl_name_index_release(&p->texts);
	free(p->at);
	free(p->bytes);
	free(p);
}
