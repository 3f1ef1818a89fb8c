/*
 * Building JSON output with jansson from untrusted text (a program's
 * strings, a file's names): the command's side, not the runtime's.
 */
#ifndef RL_JSON_TEXT_H
#define RL_JSON_TEXT_H

#include <jansson.h>

/* A JSON string of s: bytes that are not UTF-8 become U+FFFD (jansson
 * refuses such a string, and the key would go missing); null for NULL;
 * NULL when out of memory. */
json_t *rl_json_text(const char *s);

/* Sets key to v (taking it), failing (not dropping the key) when v is
 * NULL: 0 or -1. */
int rl_json_set(json_t *o, const char *key, json_t *v);

#endif
