/* Region records in ELF files (inspect_elf.c) and `rlprof inspect`. */
#include "tests/lib/run.h"

#include "inspect/inspect_elf.h"
#include "common/rl_error.h"

#define REGIONS_SRC RL_SOURCE_DIR "/tests/programs/e2e_regions.c"

/* The line of the source with marker "e2e-site: NAME". */
static unsigned site_line(const char *marker)
{
	char *src = e2e_slurp(REGIONS_SRC), *p, *hit;
	unsigned line = 1;

	cr_assert_not_null(src, "cannot read %s", REGIONS_SRC);
	hit = strstr(src, marker);
	cr_assert_not_null(hit, "marker '%s' not in the source", marker);
	for (p = src; p < hit; p++)
		line += *p == '\n';
	free(src);
	return line;
}

Test(inspect, literal_values)
{
	char *v;

	v = rl_c_literal_value("\"triad\"");
	cr_expect_str_eq(v, "triad");
	free(v);
	v = rl_c_literal_value("\"a\" \"b\"");
	cr_expect_str_eq(v, "ab");
	free(v);
	v = rl_c_literal_value("\"t\\x41\\101\\n\\\"q\\\\\"");
	cr_expect_str_eq(v, "tAA\n\"q\\");
	free(v);
	v = rl_c_literal_value("u8\"x\"");
	cr_expect_str_eq(v, "x");
	free(v);
	cr_expect_null(rl_c_literal_value("buf"));
	cr_expect_null(rl_c_literal_value("names[i]"));
	cr_expect_null(rl_c_literal_value("\"x\" + 1"));
	cr_expect_null(rl_c_literal_value("\"unterminated"));
	cr_expect_null(rl_c_literal_value(""));
}

/* C keeps the low byte of a long \x escape; the sum once overflowed an
 * int past 7 hex digits (UBSan: signed integer overflow). */
Test(inspect, long_hex_escape_keeps_the_low_byte)
{
	char *v = rl_c_literal_value("\"<\\x123456789abcdef41>\"");

	cr_assert_not_null(v);
	cr_expect_str_eq(v, "<A>");
	free(v);
}

Test(inspect, parse_padding_duplicates_and_garbage)
{
	/* two records, 0-padding between, a duplicate, then garbage */
	static const char data[] =
		"RLR1\0a.c\0" "12\0\"one\"\0\0\0\0"
		"RLR1\0b.c\0" "7\0name_of(x)\0"
		"RLR1\0a.c\0" "12\0\"one\"\0"
		"XXXX\0"
		"RLR1\0c.c\0" "notanumber\0\"z\"\0";
	struct rl_elf_info info;

	memset(&info, 0, sizeof info);
	cr_assert_eq(rl_elf_parse_sites(data, sizeof data, &info), 0);
	cr_assert_eq(info.n_sites, 2, "got %zu sites", info.n_sites);
	cr_expect_str_eq(info.sites[0].file, "a.c");
	cr_expect_eq(info.sites[0].line, 12);
	cr_expect_str_eq(info.sites[0].name, "one");
	cr_expect_str_eq(info.sites[1].expr, "name_of(x)");
	cr_expect_null(info.sites[1].name);
	cr_expect_eq(info.n_malformed, 2, "malformed %zu", info.n_malformed);
	rl_elf_info_release(&info);
	cr_expect_eq(info.n_sites, 0);
}

Test(inspect, truncated_record_is_malformed)
{
	static const char data[] = {'R', 'L', 'R', '1', 0, 'a', '.', 'c', 0, '1'};
	struct rl_elf_info info;

	memset(&info, 0, sizeof info);
	cr_assert_eq(rl_elf_parse_sites(data, sizeof data, &info), 0);
	cr_expect_eq(info.n_sites, 0);
	cr_expect_eq(info.n_malformed, 1);
	rl_elf_info_release(&info);
}

Test(inspect, reads_annotated_program)
{
	const char *prog = E2E_PROG("e2e_regions");
	struct rl_elf_info info;
	char err[256];
	unsigned alpha = site_line("e2e-site: alpha");
	bool seen_alpha = false, seen_tab = false, seen_buf = false;

	e2e_need(prog);
	cr_assert_eq(rl_elf_inspect(prog, &info, err, sizeof err), 0, "%s", err);
	cr_expect_eq(info.kind, RL_FILE_PIE);
	cr_expect(info.dynamic);
	cr_expect(info.links_rlprof);
	cr_expect_eq(info.n_sites, 3, "got %zu", info.n_sites);
	for (size_t i = 0; i < info.n_sites; i++) {
		const struct rl_region_site *s = &info.sites[i];
		cr_expect(strstr(s->file, "e2e_regions.c") != NULL, "%s", s->file);
		if (s->name && strcmp(s->name, "alpha") == 0) {
			seen_alpha = true;
			cr_expect_eq(s->line, alpha);
		} else if (s->name && strcmp(s->name, "tab\there") == 0) {
			seen_tab = true;
			cr_expect_eq(s->line, site_line("e2e-site: escaped"));
		} else if (!s->name && strcmp(s->expr, "buf") == 0) {
			seen_buf = true;
			cr_expect_eq(s->line, site_line("e2e-site: runtime"));
		}
	}
	cr_expect(seen_alpha && seen_tab && seen_buf);
	rl_elf_info_release(&info);
}

Test(inspect, reads_static_program)
{
	const char *prog = E2E_PROG("e2e_static");
	struct rl_elf_info info;
	char err[256];

	e2e_need(prog);
	cr_assert_eq(rl_elf_inspect(prog, &info, err, sizeof err), 0, "%s", err);
	cr_expect_eq(info.kind, RL_FILE_EXEC);
	cr_expect(!info.dynamic);
	cr_expect(!info.links_rlprof);
	cr_expect_eq(info.n_sites, 0);
	rl_elf_info_release(&info);
}

Test(inspect, script_and_other_files)
{
	char *dir = e2e_tmpdir();
	char path[512], err[256];
	struct rl_elf_info info;
	FILE *f;

	snprintf(path, sizeof path, "%s/s.sh", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("#! /bin/sh -e\necho hi\n", f);
	fclose(f);
	cr_assert_eq(rl_elf_inspect(path, &info, err, sizeof err), 0, "%s", err);
	cr_expect_eq(info.kind, RL_FILE_SCRIPT);
	cr_expect_str_eq(info.interpreter, "/bin/sh");
	rl_elf_info_release(&info);

	snprintf(path, sizeof path, "%s/t.txt", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("hello\n", f);
	fclose(f);
	cr_assert_eq(rl_elf_inspect(path, &info, err, sizeof err), 0, "%s", err);
	cr_expect_eq(info.kind, RL_FILE_OTHER);
	rl_elf_info_release(&info);

	snprintf(path, sizeof path, "%s/missing", dir);
	cr_expect_eq(rl_elf_inspect(path, &info, err, sizeof err), RL_ENOENT);
	cr_expect(strstr(err, "missing") != NULL, "%s", err);
	e2e_rmtree(dir);
	free(dir);
}

Test(inspect, command_lists_regions_with_file_line, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "inspect", E2E_PROG("e2e_regions"),
			      NULL};
	struct e2e_result r;
	char want[128];

	e2e_need(E2E_RLPROF);
	e2e_need(argv[2]);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "3 regions declared") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "alpha") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "tab\\there") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "<runtime: buf>") != NULL, "%s", r.out);
	snprintf(want, sizeof want, "e2e_regions.c:%u\n",
		 site_line("e2e-site: alpha"));
	cr_expect(strstr(r.out, want) != NULL, "no '%s' in %s", want, r.out);
	snprintf(want, sizeof want, "e2e_regions.c:%u\n",
		 site_line("e2e-site: runtime"));
	cr_expect(strstr(r.out, want) != NULL, "no '%s' in %s", want, r.out);
	e2e_free(&r);
}

Test(inspect, command_json, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "inspect", "--json",
			      E2E_PROG("e2e_regions"), NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(argv[3]);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "\"name\": \"alpha\"") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "\"name\": \"tab\\there\"") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "\"expression\": \"buf\"") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "\"runtime\": true") != NULL, "%s", r.out);
	e2e_free(&r);
}

Test(inspect, command_says_when_none, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "inspect", E2E_PROG("e2e_plain"), NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(argv[2]);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "no regions declared") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "'<program>'") != NULL, "%s", r.out);
	e2e_free(&r);
}

Test(inspect, command_fails_on_non_program, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "inspect", RL_SOURCE_DIR "/LICENSE",
			      NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "not an ELF file") != NULL, "%s", r.err);
	e2e_free(&r);
}

/* A shared library is neither statically linked nor run as a program */
Test(inspect, a_shared_library_is_said_as_one, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "inspect",
			      RL_BUILD_DIR "/lib/librlprof.so.0", NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	e2e_need(argv[2]);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, ": ELF shared object, loaded by the programs "
				"that link it"),
		  "%s", r.out);
	cr_expect_null(strstr(r.out, "statically linked"), "%s", r.out);
	cr_expect(strstr(r.out, "\nno regions declared\n"), "%s", r.out);
	e2e_free(&r);
}
