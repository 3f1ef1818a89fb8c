/*
 * Internal to reading rlprof's JSON files (results_read.c, results_dir.c):
 * typed field getters that name a missing or mistyped field, parsing with
 * file/line/column messages, and the format/version check.
 */
#ifndef RL_RESULTS_JSON_H
#define RL_RESULTS_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define RL_JSON_RERUN "the file is corrupt; re-run rlprof run"

struct rl_json_ctx {
	const char *path; /* for messages */
	char *err;
	size_t errlen;
	const struct rl_results_text *text; /* a results file's regions to
					       read from its text, or NULL */
};

/* RL_EFORMAT with "cannot read 'PATH': WHERE: missing field 'FIELD'..." */
int rl_json_missing(struct rl_json_ctx *c, const char *where,
		    const char *field);
/* RL_EFORMAT with "...: field 'FIELD' is not WANT: ..." */
int rl_json_bad(struct rl_json_ctx *c, const char *where, const char *field,
		const char *want);
char *rl_json_strdup(const char *s); /* NULL -> "" */

/* Typed fields of object o (where names it in messages, may be NULL).
 * Absent or null and not required: 0, *out untouched (a string: NULL, a
 * double: NAN). Numbers (u64, dbl) must not be negative. */
int rl_json_str(struct rl_json_ctx *c, const json_t *o, const char *where,
		const char *key, int required, char **out);
int rl_json_u64(struct rl_json_ctx *c, const json_t *o, const char *where,
		const char *key, int required, uint64_t *out);
int rl_json_long(struct rl_json_ctx *c, const json_t *o, const char *where,
		 const char *key, int required, long *out);
int rl_json_dbl(struct rl_json_ctx *c, const json_t *o, const char *where,
		const char *key, int required, double *out);

/* Parses a file; NULL with *rc and a one-line message on failure. */
json_t *rl_json_load(const char *path, char *err, size_t errlen, int *rc);
/* The same, keeping the text in *keep (results_stream.h: a results file's
 * regions are left out of the tree, to be read one at a time); the caller
 * frees *keep with rl_results_text_free, also on failure. */
struct rl_results_text;
json_t *rl_json_load_keep(const char *path, char *err, size_t errlen, int *rc,
			  struct rl_results_text *keep);
/* "format" must be format, "version" at most version (what: "results",
 * "run" for messages); *got receives the version. */
int rl_json_check_header(struct rl_json_ctx *c, const json_t *root,
			 const char *format, int version, const char *what,
			 int *got);

#endif
