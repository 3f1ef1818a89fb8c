/* rlprof inspect: the regions compiled into a program (ELF records). */
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "inspect_elf.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: rlprof inspect [--json] PROGRAM\n"
		"\n"
		"Lists the regions a program declares with RL_REGION_BEGIN: the name\n"
		"(a name computed at run time is shown as <runtime: EXPR>) and where.\n"
		"They are read from the ELF section 'rlprof_regions'; the program is\n"
		"not run. PROGRAM is looked up in PATH like a shell does.\n"
		"\n"
		"  --json      one JSON document on stdout\n"
		"  -h, --help  this text\n");
}

static const char *linkage(const struct rl_elf_info *info)
{
	if (info->kind == RL_FILE_SCRIPT)
		return "run by its interpreter";
	return info->dynamic ? "dynamically linked" : "statically linked";
}

/* The name with control characters shown as C escapes (one line). */
static void visible(char *buf, size_t len, const char *name)
{
	size_t k = 0;

	for (const unsigned char *p = (const unsigned char *)name;
	     *p && k + 5 < len; p++) {
		static const char esc[] = "\a\b\t\n\v\f\r";
		const char *e = *p ? strchr(esc, *p) : NULL;
		if (e) {
			buf[k++] = '\\';
			buf[k++] = "abtnvfr"[e - esc];
		} else if (*p < 32 || *p == 127) {
			k += (size_t)snprintf(buf + k, len - k, "\\x%02x", *p);
		} else {
			buf[k++] = (char)*p;
		}
	}
	buf[k] = '\0';
}

static void print_text(const char *prog, const struct rl_elf_info *info)
{
	printf("%s: %s, %s%s\n", prog, rl_file_kind_name(info->kind),
	       linkage(info),
	       info->links_rlprof ? ", links librlprof" : "");
	if (info->n_sites == 0) {
		printf("no regions declared: rlprof run profiles it as one region "
		       "'<program>'\n");
		return;
	}
	printf("%zu region%s declared:\n", info->n_sites,
	       info->n_sites == 1 ? "" : "s");
	for (size_t i = 0; i < info->n_sites; i++) {
		const struct rl_region_site *s = &info->sites[i];
		char shown[1024];
		if (s->name)
			visible(shown, sizeof shown, s->name);
		else
			snprintf(shown, sizeof shown, "<runtime: %s>", s->expr);
		printf("  %-32s %s:%u\n", shown, s->file, s->line);
	}
	if (info->n_malformed)
		printf("(%zu malformed record%s skipped)\n", info->n_malformed,
		       info->n_malformed == 1 ? "" : "s");
}

static int print_json(const char *prog, const struct rl_elf_info *info)
{
	json_t *root = json_object(), *regions = json_array();
	int rc;

	if (!root || !regions)
		goto nomem;
	json_object_set_new(root, "program", json_string(prog));
	json_object_set_new(root, "kind", json_string(rl_file_kind_name(info->kind)));
	json_object_set_new(root, "dynamic", json_boolean(info->dynamic));
	json_object_set_new(root, "links_librlprof",
			    json_boolean(info->links_rlprof));
	json_object_set_new(root, "interpreter",
			    info->interpreter ? json_string(info->interpreter)
					      : json_null());
	for (size_t i = 0; i < info->n_sites; i++) {
		const struct rl_region_site *s = &info->sites[i];
		json_t *r = json_object();
		if (!r)
			goto nomem;
		json_object_set_new(r, "name", s->name ? json_string(s->name)
						       : json_null());
		json_object_set_new(r, "runtime", json_boolean(s->name == NULL));
		json_object_set_new(r, "expression", json_string(s->expr));
		json_object_set_new(r, "file", json_string(s->file));
		json_object_set_new(r, "line", json_integer(s->line));
		json_array_append_new(regions, r);
	}
	json_object_set_new(root, "regions", regions);
	regions = NULL;
	json_object_set_new(root, "malformed_records",
			    json_integer((json_int_t)info->n_malformed));
	rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
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
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct rl_elf_info info;
	char path[PATH_MAX], msg[1024], err[1024];
	int as_json = 0, c, rc;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': as_json = 1; break;
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
