/* rlprof inspect: the regions compiled into a program (ELF records);
 * what it reads is said by render/render_inspect.c. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/inspect_loops.h"
#include "common/term_text.h"
#include "inspect/elf_code_isa.h"
#include "inspect/elf_evex.h"
#include "inspect/elf_imports.h"
#include "inspect/inspect_elf.h"
#include "render/render_inspect.h"

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

/* AVX-512 code in the program and the libraries it brings
 * (elf_evex.h), which rlprof run -b sim stops on: NULL when none or not
 * read (s freed). */
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

/* What inspect says of prog beside its records, read into v (v->avx512
 * the caller's to free); the imports only where the text needs them (no
 * regions declared). */
static void read_view(const char *prog, const struct rl_elf_info *info,
		      int as_json, struct rl_inspect_view *v)
{
	memset(v, 0, sizeof *v);
	v->prog = prog;
	v->info = info;
	v->code_read = read_code(prog, info, &v->code, v->code_err,
				 sizeof v->code_err);
	v->avx512 = read_avx512(prog, info);
	if (!as_json && info->n_sites == 0) {
		char err[256];

		if (info->kind == RL_FILE_SCRIPT ||
		    rl_elf_imports(prog, &v->imports, err, sizeof err) < 0)
			memset(&v->imports, 0, sizeof v->imports);
	}
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
	{
		struct rl_inspect_view view;

		read_view(path, &info, as_json, &view);
		if (as_json)
			rc = rl_render_inspect_json(&view);
		else
			rl_render_inspect_text(&view);
		free(view.avx512);
	}
	rl_elf_info_release(&info);
	if (rc < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "rlprof: cannot write to stdout\n");
		return RL_EXIT_FAILURE;
	}
	return RL_EXIT_OK;
}
