/* rlprof inspect: the regions compiled into a program (ELF records). */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/evex_note.h"
#include "inspect/elf_code_isa.h"
#include "inspect/elf_imports.h"
#include "inspect/inspect_elf.h"
#include "cli/inspect_loops.h"
#include "common/term_text.h"
#include "common/json_text.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof inspect [-j|--json] [--loops] PROGRAM\n"
		"\n"
		"Lists the regions a program declares with RL_REGION_BEGIN: the name\n"
		"(a name computed at run time is shown as <runtime: EXPR>) and where.\n"
		"They are read from the ELF section 'rlprof_regions'; the program is\n"
		"not run. PROGRAM is looked up in PATH like a shell does. Also says\n"
		"how wide its own floating-point arithmetic is, decoded from its\n"
		"code (widest width, FMA or not, counts per width), and where it\n"
		"and the libraries it brings have AVX-512 code, which the simulator\n"
		"(rlprof run -b sim) cannot execute, with the rebuild to count.\n"
		"\n"
		"  --loops     list the loops of its own code instead: found in\n"
		"              its machine code (back edges of each function's\n"
		"              control flow), nested as a tree, each named by the\n"
		"              source file:line of the branch that closes it\n"
		"              (needs -g; else function+offset)\n"
		"  -j, --json  one JSON document on stdout\n"
		"  -h, --help  this text\n");
}

static const char *linkage(const struct rl_elf_info *info)
{
	if (info->kind == RL_FILE_SCRIPT)
		return "run by its interpreter";
	if (info->kind == RL_FILE_SHARED)
		return "loaded by the programs that link it";
	return info->dynamic ? "dynamically linked" : "statically linked";
}

/* The program's own floating-point arithmetic (elf_code_isa.h): 0, or
 * -1 with why in err (a script, or no decoder built in). */
static int read_code(const char *prog, const struct rl_elf_info *info,
		     struct rl_code_isa *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	if (info->kind == RL_FILE_SCRIPT) {
		snprintf(err, errlen, "a script: its interpreter runs it");
		return -1;
	}
	return rl_elf_code_isa(prog, c, err, errlen) < 0 ? -1 : 0;
}

static void print_code(const char *prog, const struct rl_elf_info *info)
{
	struct rl_code_isa c;
	char err[PATH_MAX + 160];

	if (read_code(prog, info, &c, err, sizeof err) < 0) {
		fputs("floating-point code: not read: ", stdout);
		rl_term_put(stdout, err);
		fputc('\n', stdout);
	} else if (!c.widest_bits) {
		printf("floating-point code: none in the program's own code "
		       "(its shared libraries are not read)\n");
	} else {
		printf("floating-point code: widest %u-bit (%s), %s FMA; %lu "
		       "scalar, %lu 128-bit, %lu 256-bit, %lu 512-bit "
		       "instructions (shared libraries not read)\n",
		       c.widest_bits, rl_code_isa_ceiling(c.widest_bits),
		       c.widest_fma ? "with" : "without", c.n[0], c.n[1], c.n[2],
		       c.n[3]);
	}
}

/* AVX-512 code in the program and the libraries it brings
 * (elf_evex.h), which rlprof run -b sim stops on: said when there is
 * some; NULL when none or not read (s freed). */
static struct rl_evex_scan *read_avx512(const char *prog,
					const struct rl_elf_info *info)
{
	struct rl_evex_scan *s = calloc(1, sizeof *s);
	char err[512];

	if (s && (info->kind == RL_FILE_SCRIPT ||
		  rl_elf_evex_scan(prog, s, err, sizeof err) < 0 || !s->total)) {
		free(s);
		s = NULL;
	}
	return s;
}

static void print_avx512(const char *prog, const struct rl_elf_info *info)
{
	struct rl_evex_scan *s = read_avx512(prog, info);

	if (!s)
		return;
	printf("AVX-512 code: %lu instructions, which the simulator (rlprof "
	       "run -b sim) cannot execute: it stops before running this "
	       "build:\n", s->total);
	rl_evex_note_functions(stdout, "  ", s, prog);
	rl_evex_note_rebuild(stdout, "", prog, NULL);
	free(s);
}

/* The file's text (names, expressions, file names of a binary that may
 * be hostile) is escaped for the terminal: rl_term_put, rl_term_cut. */
static void print_text(const char *prog, const struct rl_elf_info *info)
{
	rl_term_put(stdout, prog);
	printf(": %s, %s%s\n", rl_file_kind_name(info->kind), linkage(info),
	       info->links_rlprof ? ", links librlprof" : "");
	print_code(prog, info);
	print_avx512(prog, info);
	if (info->n_sites == 0) {
		struct rl_elf_imports im;
		char err[256];

		if (info->kind == RL_FILE_SCRIPT ||
		    rl_elf_imports(prog, &im, err, sizeof err) < 0)
			memset(&im, 0, sizeof im);
		if (im.likwid_marker || im.papi_hl)
			printf("no regions declared, but it calls %s: rlprof run "
			       "profiles its regions by their own names "
			       "(--compat)\n",
			       im.likwid_marker ? "LIKWID's marker API"
						: "PAPI's high-level API");
		else if (im.likwid_marker_inside || im.papi_hl_inside)
			printf("no regions declared, and it holds %s itself "
			       "(%s): rlprof run cannot intercept its regions "
			       "and profiles it as one region '<program>'\n",
			       im.likwid_marker_inside ? "LIKWID's marker API"
						       : "PAPI's high-level API",
			       info->dynamic ? "linked from its archive"
					     : "statically linked");
		else if (im.rl_regions)
			printf("no regions declared, but it calls "
			       "rl_region_begin (Fortran, or no macros): its "
			       "regions are named at run time\n");
		else if (info->kind == RL_FILE_SHARED)
			printf("no regions declared\n");
		else
			printf("no regions declared: rlprof run profiles it as "
			       "one region '<program>'\n");
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
static json_t *code_json(const char *prog, const struct rl_elf_info *info)
{
	struct rl_code_isa c;
	char err[PATH_MAX + 160];
	json_t *o = json_object(), *n, *f;
	const char *ceiling;

	if (!o)
		return NULL;
	if (read_code(prog, info, &c, err, sizeof err) < 0) {
		if (rl_json_set(o, "error", rl_json_text(err)) < 0)
			goto nomem;
		return o;
	}
	ceiling = rl_code_isa_ceiling(c.widest_bits);
	/* the arrays belong to o once set: freed with it */
	if (rl_json_set(o, "widest_bits", json_integer(c.widest_bits)) < 0 ||
	    rl_json_set(o, "ceiling", ceiling ? json_string(ceiling) : json_null()) <
		    0 ||
	    rl_json_set(o, "instructions", n = json_array()) < 0 ||
	    rl_json_set(o, "fma", f = json_array()) < 0)
		goto nomem;
	for (int w = 0; w < 4; w++)
		if (json_array_append_new(n, json_integer((json_int_t)c.n[w])) ||
		    json_array_append_new(f,
					  json_integer((json_int_t)c.n_fma[w])))
			goto nomem;
	return o;
nomem:
	json_decref(o);
	return NULL;
}

static int print_json(const char *prog, const struct rl_elf_info *info)
{
	json_t *root = json_object(), *regions = json_array();
	int rc;

	if (!root || !regions)
		goto nomem;
	if (rl_json_set(root, "program", rl_json_text(prog)) < 0)
		goto nomem;
	json_object_set_new(root, "kind", json_string(rl_file_kind_name(info->kind)));
	json_object_set_new(root, "dynamic", json_boolean(info->dynamic));
	json_object_set_new(root, "links_librlprof",
			    json_boolean(info->links_rlprof));
	json_object_set_new(root, "interpreter",
			    rl_json_text(info->interpreter));
	if (rl_json_set(root, "fp_code", code_json(prog, info)) < 0)
		goto nomem;
	{
		/* null: none, or not read */
		struct rl_evex_scan *s = read_avx512(prog, info);
		json_t *a = s ? rl_evex_note_json(s) : json_null();
		free(s);
		if (rl_json_set(root, "avx512", a) < 0)
			goto nomem;
	}
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

int cmd_inspect(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"loops", no_argument, NULL, 'l'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct rl_elf_info info;
	char path[PATH_MAX], msg[1024], err[1024];
	int as_json = 0, loops = 0, c, rc;

	opterr = 0;
	optind = 0;
	/* one PROGRAM and no arguments of its own: options are taken
	 * before or after it ('rlprof inspect app --loops'); after "--"
	 * none */
	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 'j': as_json = 1; break;
		case 'l': loops = 1; break;
		case 'h': usage(stdout); return RL_EXIT_OK;
		default:
			fprintf(stderr,
				"rlprof inspect: unknown option '%s'; see 'rlprof inspect --help'\n",
				argv[optind - 1]);
			return RL_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "rlprof inspect: %s; see 'rlprof inspect --help'\n",
			optind >= argc ? "missing PROGRAM" : "one PROGRAM only");
		return RL_EXIT_USAGE;
	}
	if (rl_resolve_program(argv[optind], path, sizeof path, msg,
			       sizeof msg) != 0) {
		/* inspect needs to read it, not to run it */
		if (access(argv[optind], R_OK) != 0) {
			fprintf(stderr, "rlprof: %s\n", msg);
			return RL_EXIT_FAILURE;
		}
		snprintf(path, sizeof path, "%s", argv[optind]);
	}
	rc = rl_elf_inspect(path, &info, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "rlprof: %s\n", err);
		return RL_EXIT_FAILURE;
	}
	if (info.kind == RL_FILE_OTHER) {
		fprintf(stderr,
			"rlprof: cannot inspect '%s': not an ELF file or a script\n",
			path);
		rl_elf_info_release(&info);
		return RL_EXIT_FAILURE;
	}
	if (info.damage) {
		fputs("rlprof: cannot inspect '", stderr);
		rl_term_put(stderr, path);
		fputs("': the file is damaged: ", stderr);
		rl_term_put(stderr, info.damage);
		fputs("; 'readelf -S' shows the errors; rebuild the program\n",
		      stderr);
		rl_elf_info_release(&info);
		return RL_EXIT_FAILURE;
	}
	if (loops) {
		if (info.kind == RL_FILE_SCRIPT) {
			fputs("rlprof: cannot find the loops of '", stderr);
			rl_term_put(stderr, path);
			fputs("': a script: inspect the program its interpreter "
			      "runs\n", stderr);
			rl_elf_info_release(&info);
			return RL_EXIT_FAILURE;
		}
		rl_elf_info_release(&info);
		return rl_inspect_loops(path, as_json);
	}
	if (as_json)
		rc = print_json(path, &info);
	else
		print_text(path, &info);
	rl_elf_info_release(&info);
	if (rc < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "rlprof: cannot write to stdout\n");
		return RL_EXIT_FAILURE;
	}
	return RL_EXIT_OK;
}
