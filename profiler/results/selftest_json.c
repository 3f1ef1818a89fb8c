/* The known-answer check as JSON (see selftest_json.h). */
#include "results/selftest_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

json_t *rl_selftest_json(const struct rl_selftest *st)
{
	json_t *o = json_object(), *items = json_array();

	json_object_set_new(o, "ran", json_boolean(st->ran));
	json_object_set_new(o, "cached", json_boolean(st->cached));
	json_object_set_new(o, "seconds", json_real(st->seconds));
	for (size_t i = 0; i < st->n; i++) {
		const struct rl_selftest_item *it = &st->items[i];
		json_t *e = json_object();
		json_object_set_new(e, "counter",
				    json_string(rl_counter_name(it->counter)));
		json_object_set_new(e, "counted", json_real(it->counted));
		json_object_set_new(e, "expected", json_real(it->expected));
		json_object_set_new(e, "factor", isfinite(it->factor)
							 ? json_real(it->factor)
							 : json_null());
		json_object_set_new(e, "ok", json_boolean(it->ok));
		json_array_append_new(items, e);
	}
	json_object_set_new(o, "items", items);
	json_object_set_new(o, "why", st->why[0] ? json_string(st->why)
						 : json_null());
	return o;
}

int rl_selftest_from_json(const json_t *o, struct rl_selftest *st)
{
	const json_t *items = json_object_get(o, "items"), *e;
	const char *why;
	size_t i;

	memset(st, 0, sizeof *st);
	if (!json_is_object(o) || !json_is_array(items))
		return -1;
	st->ran = json_is_true(json_object_get(o, "ran"));
	st->cached = json_is_true(json_object_get(o, "cached"));
	st->seconds = json_number_value(json_object_get(o, "seconds"));
	if ((why = json_string_value(json_object_get(o, "why"))))
		snprintf(st->why, sizeof st->why, "%s", why);
	json_array_foreach(items, i, e) {
		struct rl_selftest_item *it = &st->items[st->n];
		int c = rl_counter_from_name(
			json_string_value(json_object_get(e, "counter")));
		if (c < 0 || st->n >= RL_COUNTER_COUNT ||
		    !json_is_number(json_object_get(e, "counted")) ||
		    !json_is_number(json_object_get(e, "expected")))
			continue;
		it->counter = c;
		it->counted = json_number_value(json_object_get(e, "counted"));
		it->expected = json_number_value(json_object_get(e, "expected"));
		it->factor = it->expected > 0 ? it->counted / it->expected
			     : it->counted > 0 ? INFINITY
					       : 1;
		it->ok = rl_selftest_within(c, it->factor);
		st->n++;
	}
	return 0;
}
