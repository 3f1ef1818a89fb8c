/*
 * The known-answer check (formats/selftest.h) as JSON: run.json's
 * "selftest", the report's, and the per-machine cache file's.
 */
#ifndef RL_SELFTEST_JSON_H
#define RL_SELFTEST_JSON_H

#include <jansson.h>

#include "formats/selftest.h"

/* The object: ran, cached, seconds, items (counter, counted, expected,
 * factor (null: expected 0), ok), why (null when ""). */
json_t *rl_selftest_json(const struct rl_selftest *st);

/* Back from that object: 0, or -1 when it does not read as one (an item
 * with an unknown counter is left out; ok is recomputed from the factor,
 * so an edited file cannot pass a wrong count). */
int rl_selftest_from_json(const json_t *o, struct rl_selftest *st);

#endif
