/* Field getters and checks shared by the JSON readers (results_json.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/results_json.h"
#include "results/results_stream.h"
#include "common/rl_error.h"
#include "common/term_text.h"
#include "common/file_read.h"

int rl_json_missing(struct rl_json_ctx *c, const char *where, const char *field)
{
	return rl_fail(c->err, c->errlen, RL_EFORMAT,
		       "cannot read '%s': %s%smissing field '%s': %s", c->path,
		       where ? where : "", where ? ": " : "", field,
		       RL_JSON_RERUN);
}

int rl_json_bad(struct rl_json_ctx *c, const char *where, const char *field,
		const char *want)
{
	return rl_fail(c->err, c->errlen, RL_EFORMAT,
		       "cannot read '%s': %s%sfield '%s' is not %s: %s",
		       c->path, where ? where : "", where ? ": " : "", field,
		       want, RL_JSON_RERUN);
}

char *rl_json_strdup(const char *s)
{
	return strdup(s ? s : "");
}

/* A string field; *out stays NULL when absent and not required. */
int rl_json_str(struct rl_json_ctx *c, const json_t *o, const char *where,
		const char *key, int required, char **out)
{
	const json_t *v = json_object_get(o, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return required ? rl_json_missing(c, where, key) : 0;
	if (!json_is_string(v))
		return rl_json_bad(c, where, key, "a string");
	*out = rl_json_strdup(json_string_value(v));
	return *out ? 0
		    : rl_fail(c->err, c->errlen, RL_ENOMEM, "out of memory");
}

int rl_json_u64(struct rl_json_ctx *c, const json_t *o, const char *where,
		const char *key, int required, uint64_t *out)
{
	const json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return required ? rl_json_missing(c, where, key) : 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_real(v) && json_real_value(v) >= 0 &&
	    json_real_value(v) < 1.8446744073709552e19) {
		*out = (uint64_t)json_real_value(v);
		return 0;
	}
	return rl_json_bad(c, where, key, "a non-negative number");
}

int rl_json_long(struct rl_json_ctx *c, const json_t *o, const char *where,
		 const char *key, int required, long *out)
{
	const json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return required ? rl_json_missing(c, where, key) : 0;
	if (!json_is_integer(v))
		return rl_json_bad(c, where, key, "an integer");
	*out = (long)json_integer_value(v);
	return 0;
}

/* A non-negative double (a count or a sum of counts); null or absent ->
 * NAN (unless required). */
int rl_json_dbl(struct rl_json_ctx *c, const json_t *o, const char *where,
		const char *key, int required, double *out)
{
	const json_t *v = json_object_get(o, key);
	*out = NAN;
	if (!v || json_is_null(v))
		return required ? rl_json_missing(c, where, key) : 0;
	if (!json_is_number(v) || json_number_value(v) < 0)
		return rl_json_bad(c, where, key, "a non-negative number");
	*out = json_number_value(v);
	return 0;
}

json_t *rl_json_load(const char *path, char *err, size_t errlen, int *rc)
{
	return rl_json_load_keep(path, err, errlen, rc, NULL);
}

json_t *rl_json_load_keep(const char *path, char *err, size_t errlen, int *rc,
			  struct rl_results_text *keep)
{
	char shown[512], near[160];
	json_error_t je;
	json_t *root;
	char *text;
	size_t len;

	if (keep)
		memset(keep, 0, sizeof *keep);
	/* a FIFO, a device, a directory or a file too big to be rlprof's is
	 * refused before anything is read (file_read.h) */
	if ((*rc = rl_file_read_all(path, 0, RL_READ_CAP, &text, &len, err,
				    errlen)))
		return NULL;
	rl_term_cut(shown, sizeof shown, path, 400);
	if (len == 0) {
		free(text);
		*rc = rl_fail(err, errlen, RL_EFORMAT,
			      "cannot read '%s': the file is empty (the "
			      "process was killed while writing it?): "
			      "re-run rlprof run",
			      shown);
		return NULL;
	}
	/* read whole, then parsed from memory: jansson reads a stream a
	 * character at a time (a third slower on a 10 MB file). A key given
	 * twice (the second silently won: "threads":[] appended to a file
	 * emptied it) is an error. keep: the text is kept, and its threads'
	 * regions left out of the tree (results_stream.h) */
	if (keep) {
		keep->text = text;
		keep->len = len;
		if ((*rc = rl_results_text_thin(keep))) {
			rl_fail(err, errlen, *rc, "cannot read '%s': out of "
				"memory", shown);
			return NULL;
		}
	}
	if (keep && keep->thin)
		root = json_loadb(keep->thin, keep->thin_len,
				  JSON_REJECT_DUPLICATES, &je);
	else
		root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (keep) { /* the thin copy's work is done */
		free(keep->thin);
		keep->thin = NULL;
	} else {
		free(text);
	}
	if (root) {
		*rc = 0;
		return root;
	}
	/* jansson's text quotes the file ("near '...'"): shown escaped */
	rl_term_cut(near, sizeof near, je.text, 80);
	*rc = rl_fail(err, errlen, RL_EFORMAT,
		      "cannot parse '%s': line %d column %d: %s: %s", shown,
		      je.line, je.column, near, RL_JSON_RERUN);
	return NULL;
}

/* Check "format" and "version"; what is the kind of file for messages. */
int rl_json_check_header(struct rl_json_ctx *c, const json_t *root,
			 const char *format, int version, const char *what,
			 int *got)
{
	const json_t *f, *v;
	char shown[160];

	if (!json_is_object(root))
		return rl_fail(c->err, c->errlen, RL_EFORMAT,
			       "cannot read '%s': not a JSON object: %s",
			       c->path, RL_JSON_RERUN);
	f = json_object_get(root, "format");
	if (!json_is_string(f) || strcmp(json_string_value(f), format) != 0) {
		/* the file's text, shown escaped: one line, no escapes */
		rl_term_cut(shown, sizeof shown,
			    json_is_string(f) ? json_string_value(f) : "none",
			    40);
		return rl_fail(c->err, c->errlen, RL_EFORMAT,
			       "'%s' is not an rlprof %s file (format '%s', "
			       "expected '%s')",
			       c->path, what, shown, format);
	}
	v = json_object_get(root, "version");
	if (!v)
		return rl_json_missing(c, NULL, "version");
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return rl_json_bad(c, NULL, "version", "a positive integer");
	if (json_integer_value(v) > version)
		return rl_fail(c->err, c->errlen, RL_EVERSION,
			       "'%s' was written by a newer rlprof (%s version "
			       "%lld, this one reads %d): upgrade rlprof",
			       c->path, what, (long long)json_integer_value(v),
			       version);
	*got = (int)json_integer_value(v);
	return 0;
}
