/* DIR/report.json read back for rlprof diff and rlprof check. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/report.h"
#include "analysis/report_file.h"
#include "common/rl_error.h"
#include "common/file_read.h"
#include "common/term_text.h"

/* A number field, NAN when null or absent; -1 when of another type. */
static int num(const json_t *o, const char *key, double *out)
{
	const json_t *v = json_object_get(o, key);

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* A string field, NULL when null or absent; -1 when of another type or
 * out of memory. */
static int str(const json_t *o, const char *key, char **out)
{
	const json_t *v = json_object_get(o, key);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return -1;
	*out = strdup(json_string_value(v));
	return *out ? 0 : -1;
}

static int bad(struct rl_report_file *f, char *err, size_t errlen,
	       const char *what)
{
	int rc = rl_fail(err, errlen, RL_EFORMAT,
			 "cannot read '%s': %s: is it the report.json of "
			 "rlprof run? (rlprof report DIR -f json -o "
			 "DIR/report.json writes it again)",
			 f->path, what);
	rl_report_file_release(f);
	return rc;
}

static int read_region(const json_t *o, struct rl_report_region *r)
{
	char *region = NULL;

	if (!json_is_object(o) || str(o, "region", &region) || !region) {
		free(region);
		return -1;
	}
	r->region = region;
	if (num(o, "calls", &r->calls) || num(o, "time_s", &r->time_s) ||
	    num(o, "gflops", &r->gflops) || num(o, "ai", &r->ai) ||
	    num(o, "roof_pct", &r->roof_pct) ||
	    num(o, "gflops_expected", &r->gflops_expected) ||
	    str(o, "bound_roof", &r->bound_roof) ||
	    str(o, "bound", &r->bound) || str(o, "basis", &r->basis) ||
	    str(o, "diagnosis", &r->diagnosis))
		return -1;
	r->runs = 0;
	r->time_min_s = r->time_median_s = r->spread_pct = NAN;
	const json_t *rep = json_object_get(o, "repeat");
	if (rep && json_is_object(rep) &&
	    (num(rep, "runs", &r->runs) || num(rep, "time_min_s", &r->time_min_s) ||
	     num(rep, "time_median_s", &r->time_median_s) ||
	     num(rep, "spread_pct", &r->spread_pct)))
		return -1;
	if (isnan(r->runs))
		r->runs = 0;
	return 0;
}

int rl_report_file_load(const char *path, struct rl_report_file *out,
			char *err, size_t errlen)
{
	struct stat st;
	json_error_t je;
	json_t *root, *v, *regions;
	size_t n, i;
	int len;

	memset(out, 0, sizeof *out);
	if (stat(path, &st) != 0)
		return rl_fail(err, errlen, RL_ENOENT,
			       "cannot read '%s': %s: give the output "
			       "directory of rlprof run",
			       path, strerror(errno));
	len = S_ISDIR(st.st_mode)
		      ? snprintf(NULL, 0, "%s/report.json", path)
		      : snprintf(NULL, 0, "%s", path);
	if (!(out->path = malloc((size_t)len + 1)))
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	snprintf(out->path, (size_t)len + 1,
		 S_ISDIR(st.st_mode) ? "%s/report.json" : "%s", path);
	if (stat(out->path, &st) != 0) {
		int rc = rl_fail(err, errlen, RL_ENOENT,
				 "no report in '%s' (%s): run 'rlprof report "
				 "%s -f json -o %s' to write it from the saved "
				 "results",
				 path, strerror(errno), path, out->path);
		rl_report_file_release(out);
		return rc;
	}
	{
		/* a FIFO given as a report or baseline never blocks */
		char *text;
		size_t tlen;
		int rc = rl_file_read_all(out->path, 0, RL_READ_CAP, &text,
					  &tlen, err, errlen);
		if (rc) {
			rl_report_file_release(out);
			return rc;
		}
		root = json_loadb(text, tlen, 0, &je);
		free(text);
	}
	if (!root) {
		char what[300], near[120];
		rl_term_cut(near, sizeof near, je.text, 80);
		snprintf(what, sizeof what, "line %d: %s", je.line, near);
		return bad(out, err, errlen, what);
	}
	v = json_object_get(root, "format");
	if (!json_is_object(root) || !json_is_string(v) ||
	    strcmp(json_string_value(v), "rlprof-report") != 0) {
		json_decref(root);
		return bad(out, err, errlen, "its 'format' is not "
					     "'rlprof-report'");
	}
	v = json_object_get(root, "version");
	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		json_decref(root);
		return bad(out, err, errlen, "no valid 'version'");
	}
	out->version = (int)json_integer_value(v);
	if (out->version > RL_REPORT_VERSION) {
		int rc = rl_fail(err, errlen, RL_EVERSION,
				 "cannot read '%s': report version %d is newer "
				 "than this rlprof's (%d): use a newer rlprof",
				 out->path, out->version, RL_REPORT_VERSION);
		json_decref(root);
		rl_report_file_release(out);
		return rc;
	}
	v = json_object_get(root, "machine");
	out->has_machine = json_is_object(v);
	regions = json_object_get(root, "regions");
	if (str(root, "backend", &out->backend) || !json_is_array(regions)) {
		json_decref(root);
		return bad(out, err, errlen, "no 'regions' array");
	}
	n = json_array_size(regions);
	out->regions = calloc(n ? n : 1, sizeof *out->regions);
	if (!out->regions) {
		json_decref(root);
		rl_report_file_release(out);
		return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		out->n_regions = i + 1;
		if (read_region(json_array_get(regions, i),
				&out->regions[i])) {
			char what[64];
			json_decref(root);
			snprintf(what, sizeof what,
				 "region %zu has a field of the wrong type",
				 i + 1);
			return bad(out, err, errlen, what);
		}
	}
	json_decref(root);
	for (i = 0; i < n; i++) {
		size_t at;
		if (!rl_name_index_get(&out->by_name, out->regions[i].region,
				       &at) &&
		    rl_name_index_put(&out->by_name, out->regions[i].region,
				      i)) {
			rl_report_file_release(out);
			return rl_fail(err, errlen, RL_ENOMEM, "out of memory");
		}
	}
	return 0;
}

void rl_report_file_release(struct rl_report_file *f)
{
	for (size_t i = 0; i < f->n_regions; i++) {
		struct rl_report_region *r = &f->regions[i];
		free(r->region);
		free(r->bound_roof);
		free(r->bound);
		free(r->basis);
		free(r->diagnosis);
	}
	rl_name_index_release(&f->by_name);
	free(f->regions);
	free(f->backend);
	free(f->path);
	memset(f, 0, sizeof *f);
}

const struct rl_report_region *
rl_report_file_find(const struct rl_report_file *f, const char *name)
{
	size_t at;

	if (f->by_name.cap)
		return rl_name_index_get(&f->by_name, name, &at)
			       ? &f->regions[at] : NULL;
	for (size_t i = 0; i < f->n_regions; i++) /* built by hand (tests) */
		if (strcmp(f->regions[i].region, name) == 0)
			return &f->regions[i];
	return NULL;
}
