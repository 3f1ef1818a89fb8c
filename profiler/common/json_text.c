/* JSON strings from untrusted text, and setting keys that must not go
 * missing (json_text.h). */
#include <stdlib.h>

#include "common/json_text.h"
#include "common/term_text.h"

json_t *rl_json_text(const char *s)
{
	char *fixed;
	json_t *j;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	fixed = rl_utf8_fix(s);
	j = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return j;
}

int rl_json_set(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}
