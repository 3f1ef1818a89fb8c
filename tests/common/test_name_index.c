/* name_index.c: rl_name_index_add puts a new name and finds an old one in
 * one probe, and every name stays found across the index's growth (the
 * slots keep each key's hash). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/name_index.h"
#include "common/rl_error.h"

Test(name_index, add_puts_a_new_name_and_finds_an_old_one)
{
	struct rl_name_index ix = {0};
	size_t have = 99;

	cr_assert_eq(rl_name_index_add(&ix, "triad", 3, &have), 0);
	cr_assert_eq(have, 99, "nothing said of a new name");
	cr_assert_eq(rl_name_index_add(&ix, "triad", 7, &have), 1);
	cr_assert_eq(have, 3, "the first value, kept");
	cr_assert(rl_name_index_get(&ix, "triad", &have));
	cr_assert_eq(have, 3);
	cr_assert_eq(ix.n, 1);
	rl_name_index_release(&ix);
}

Test(name_index, every_name_is_found_after_growing)
{
	enum { N = 50000 };
	struct rl_name_index ix = {0};
	char(*names)[16] = malloc(N * sizeof *names);
	size_t v;

	cr_assert_not_null(names);
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "region%06zu", i);
		cr_assert_eq(rl_name_index_add(&ix, names[i], i, &v), 0);
	}
	cr_assert_eq(ix.n, N);
	for (size_t i = 0; i < N; i += 7) {
		char key[16];
		snprintf(key, sizeof key, "region%06zu", i);
		cr_assert(rl_name_index_get(&ix, key, &v), "%s", key);
		cr_assert_eq(v, i);
		cr_assert_eq(rl_name_index_add(&ix, key, 0, &v), 1);
		cr_assert_eq(v, i);
	}
	cr_assert(!rl_name_index_get(&ix, "region", &v));
	rl_name_index_release(&ix);
	free(names);
}
