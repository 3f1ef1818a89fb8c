/* rlprof inspect's text and JSON (render_inspect.h). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "common/json_text.h"
#include "common/term_text.h"
#include "render/render_evex.h"
#include "render/render_inspect.h"

static const char *linkage(const struct rl_elf_info *info)
{
	if (info->kind == RL_FILE_SCRIPT)
		return "run by its interpreter";
	if (info->kind == RL_FILE_SHARED)
		return "loaded by the programs that link it";
	return info->dynamic ? "dynamically linked" : "statically linked";
}

static void print_code(const struct rl_inspect_view *v)
{
	const struct rl_code_isa *c = &v->code;

	if (v->code_read < 0) {
		fputs("floating-point code: not read: ", stdout);
		rl_term_put(stdout, v->code_err);
		fputc('\n', stdout);
	} else if (!c->widest_bits) {
		printf("floating-point code: none in the program's own code "
		       "(its shared libraries are not read)\n");
	} else {
		printf("floating-point code: widest %u-bit (%s), %s FMA; %lu "
		       "scalar, %lu 128-bit, %lu 256-bit, %lu 512-bit "
		       "instructions (shared libraries not read)\n",
		       c->widest_bits, rl_code_isa_ceiling(c->widest_bits),
		       c->widest_fma ? "with" : "without", c->n[0], c->n[1],
		       c->n[2], c->n[3]);
	}
}

static void print_avx512(const struct rl_inspect_view *v)
{
	const struct rl_evex_scan *s = v->avx512;

	if (!s)
		return;
	printf("AVX-512 code: %lu instructions, which the simulator (rlprof "
	       "run -b sim) cannot execute: it stops before running this "
	       "build:\n", s->total);
	rl_evex_note_functions(stdout, "  ", s, v->prog);
	rl_evex_note_rebuild(stdout, "", v->prog, NULL);
}

/* No regions declared: what rlprof run does with it instead. */
static void print_no_regions(const struct rl_inspect_view *v)
{
	const struct rl_elf_imports *im = &v->imports;
	const struct rl_elf_info *info = v->info;

	if (im->likwid_marker || im->papi_hl)
		printf("no regions declared, but it calls %s: rlprof run "
		       "profiles its regions by their own names "
		       "(--compat)\n",
		       im->likwid_marker ? "LIKWID's marker API"
					 : "PAPI's high-level API");
	else if (im->likwid_marker_inside || im->papi_hl_inside)
		printf("no regions declared, and it holds %s itself "
		       "(%s): rlprof run cannot intercept its regions "
		       "and profiles it as one region '<program>'\n",
		       im->likwid_marker_inside ? "LIKWID's marker API"
						: "PAPI's high-level API",
		       info->dynamic ? "linked from its archive"
				     : "statically linked");
	else if (im->rl_regions)
		printf("no regions declared, but it calls "
		       "rl_region_begin (Fortran, or no macros): its "
		       "regions are named at run time\n");
	else if (info->kind == RL_FILE_SHARED)
		printf("no regions declared\n");
	else
		printf("no regions declared: rlprof run profiles it as "
		       "one region '<program>'\n");
}

void rl_render_inspect_text(const struct rl_inspect_view *v)
{
	const struct rl_elf_info *info = v->info;

	rl_term_put(stdout, v->prog);
	printf(": %s, %s%s\n", rl_file_kind_name(info->kind), linkage(info),
	       info->links_rlprof ? ", links librlprof" : "");
	print_code(v);
	print_avx512(v);
	if (info->n_sites == 0) {
		print_no_regions(v);
		return;
	}
	printf("%zu region%s declared:\n", info->n_sites,
	       info->n_sites == 1 ? "" : "s");
	for (size_t i = 0; i < info->n_sites; i++) {
		const struct rl_region_site *s = &info->sites[i];
		char shown[2048];
		size_t cols;

		fputs("  ", stdout);
		if (s->name) {
			cols = rl_term_cut(shown, sizeof shown, s->name, 400);
			fputs(shown, stdout);
		} else {
			cols = rl_term_cut(shown, sizeof shown, s->expr, 380);
			printf("<runtime: %s>", shown);
			cols += 11;
		}
		for (; cols < 33; cols++)
			fputc(' ', stdout);
		rl_term_put(stdout, s->file);
		printf(":%u\n", s->line);
	}
	if (info->n_malformed)
		printf("(%zu malformed record%s skipped)\n", info->n_malformed,
		       info->n_malformed == 1 ? "" : "s");
}

/* {widest_bits, ceiling, instructions: [scalar, 128, 256, 512 counts],
 * fma: [the same, FMAs only]}, or {error}; NULL out of memory */
static json_t *code_json(const struct rl_inspect_view *v)
{
	const struct rl_code_isa *c = &v->code;
	json_t *o = json_object(), *n, *f;
	const char *ceiling;

	if (!o)
		return NULL;
	if (v->code_read < 0) {
		if (rl_json_set(o, "error", rl_json_text(v->code_err)) < 0)
			goto nomem;
		return o;
	}
	ceiling = rl_code_isa_ceiling(c->widest_bits);
	/* the arrays belong to o once set: freed with it */
	if (rl_json_set(o, "widest_bits", json_integer(c->widest_bits)) < 0 ||
	    rl_json_set(o, "ceiling", ceiling ? json_string(ceiling) : json_null()) <
		    0 ||
	    rl_json_set(o, "instructions", n = json_array()) < 0 ||
	    rl_json_set(o, "fma", f = json_array()) < 0)
		goto nomem;
	for (int w = 0; w < 4; w++)
		if (json_array_append_new(n, json_integer((json_int_t)c->n[w])) ||
		    json_array_append_new(f,
					  json_integer((json_int_t)c->n_fma[w])))
			goto nomem;
	return o;
nomem:
	json_decref(o);
	return NULL;
}

int rl_render_inspect_json(const struct rl_inspect_view *v)
{
	const struct rl_elf_info *info = v->info;
	json_t *root = json_object(), *regions = json_array();
	int rc;

	if (!root || !regions)
		goto nomem;
	if (rl_json_set(root, "program", rl_json_text(v->prog)) < 0)
		goto nomem;
	json_object_set_new(root, "kind", json_string(rl_file_kind_name(info->kind)));
	json_object_set_new(root, "dynamic", json_boolean(info->dynamic));
	json_object_set_new(root, "links_librlprof",
			    json_boolean(info->links_rlprof));
	json_object_set_new(root, "interpreter",
			    rl_json_text(info->interpreter));
	if (rl_json_set(root, "fp_code", code_json(v)) < 0)
		goto nomem;
	/* null: none, or not read */
	if (rl_json_set(root, "avx512", v->avx512 ? rl_evex_note_json(v->avx512)
						  : json_null()) < 0)
		goto nomem;
	for (size_t i = 0; i < info->n_sites; i++) {
		const struct rl_region_site *s = &info->sites[i];
		json_t *r = json_object();
		if (!r)
			goto nomem;
		json_array_append_new(regions, r);
		if (rl_json_set(r, "name", rl_json_text(s->name)) < 0 ||
		    rl_json_set(r, "runtime", json_boolean(s->name == NULL)) < 0 ||
		    rl_json_set(r, "expression", rl_json_text(s->expr)) < 0 ||
		    rl_json_set(r, "file", rl_json_text(s->file)) < 0 ||
		    rl_json_set(r, "line", json_integer(s->line)) < 0)
			goto nomem;
	}
	json_object_set_new(root, "regions", regions);
	regions = NULL;
	json_object_set_new(root, "malformed_records",
			    json_integer((json_int_t)info->n_malformed));
	rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					  JSON_ENSURE_ASCII);
	fputc('\n', stdout);
	json_decref(root);
	return rc == 0 ? 0 : -1;
nomem:
	json_decref(regions);
	json_decref(root);
	return -1;
}
