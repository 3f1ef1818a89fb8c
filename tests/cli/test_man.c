/* The manual pages (docs/man/rlprof.1, rlprof.3, mdoc): every option that
 * `rlprof COMMAND --help` prints is in that command's part of rlprof(1),
 * the pages render without a warning, and after install-tree (what make
 * install runs) `man rlprof` and `man 3 rlprof` find them with
 * MANPATH=PREFIX/share/man. */
#include <ctype.h>

#include "tests/lib/run.h"

#define MAN1 RL_SOURCE_DIR "/docs/man/rlprof.1"
#define MAN3 RL_SOURCE_DIR "/docs/man/rlprof.3"

static void need_groff(void)
{
	if (access("/usr/bin/groff", X_OK) != 0)
		cr_skip_test("groff is not installed: run scripts/install-deps");
}

/* The page rendered as plain text (no overstrike, no hyphen glyphs). */
static char *render(const char *page, char **warnings)
{
	char script[1024];
	const char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct e2e_result r;
	char *text;

	snprintf(script, sizeof script,
		 "groff -mandoc -Tascii -ww -P-cbou '%s'", page);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "groff failed on %s: %s", page, r.err);
	text = r.out;
	if (warnings)
		*warnings = r.err;
	else
		free(r.err);
	return text;
}

/* The part of rlprof(1) about cmd: from its "   rlprof CMD" subsection
 * header to the next subsection or section. malloc'd. */
static char *section_of(const char *text, const char *cmd)
{
	char head[64];
	const char *s, *e;

	snprintf(head, sizeof head, "\n   rlprof %s", cmd);
	s = strstr(text, head);
	cr_assert_not_null(s, "rlprof(1) has no subsection for '%s'", cmd);
	s++;
	for (e = strchr(s, '\n'); e && e[1]; e = strchr(e + 1, '\n'))
		if (strncmp(e + 1, "   rlprof ", 10) == 0 ||
		    (e[1] != ' ' && e[1] != '\n'))
			break;
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

/* Every "--long" option, and every "-x," short one, of help text. */
static size_t options_of(const char *help, char opts[][40], size_t max)
{
	size_t n = 0;

	for (const char *p = help; *p && n < max; p++) {
		size_t k;
		if (p != help && !isspace((unsigned char)p[-1]) && p[-1] != '[' &&
		    p[-1] != '|')
			continue;
		if (p[0] == '-' && p[1] == '-' && isalpha((unsigned char)p[2])) {
			k = 2;
			while (isalnum((unsigned char)p[k]) || p[k] == '-')
				k++;
		} else if (p[0] == '-' && isalpha((unsigned char)p[1]) &&
			   p[2] == ',') {
			k = 2;
		} else {
			continue;
		}
		snprintf(opts[n++], 40, "%.*s", (int)k, p);
	}
	return n;
}

static void check_command(const char *text, const char *cmd)
{
	const char *argv[] = {E2E_RLPROF, cmd, "--help", NULL};
	char opts[128][40];
	struct e2e_result r;
	char *sec;
	size_t n;

	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "rlprof %s --help: %s", cmd, r.err);
	n = options_of(r.out, opts, 128);
	cr_expect_gt(n, 0, "no option found in: %s", r.out);
	sec = section_of(text, cmd);
	for (size_t i = 0; i < n; i++) {
		char want[48];
		/* an option as the page writes it: followed by a space,
		 * comma, '=' or the end of a line */
		const char *p = sec;
		int found = 0;
		snprintf(want, sizeof want, "%.39s", opts[i]);
		while (!found && (p = strstr(p, want))) {
			char c = p[strlen(want)];
			found = c == ' ' || c == ',' || c == '\n' || c == '=' ||
				c == ']' || c == ')' || c == '\0';
			p++;
		}
		if (strcmp(opts[i], "-h") == 0 || strcmp(opts[i], "--help") == 0)
			found = found || strstr(text, "-h, --help") != NULL;
		cr_expect(found, "'rlprof %s --help' has %s, not in the man page "
				 "part of 'rlprof %s' (docs/man/rlprof.1)",
			  cmd, opts[i], cmd);
	}
	free(sec);
	e2e_free(&r);
}

Test(man, every_help_option_is_in_rlprof_1, .timeout = 60)
{
	static const char *const cmds[] = {"run",   "report", "inspect",
					   "counters", "probe", "diff",
					   "check", "compare"};
	const char *argv[] = {E2E_RLPROF, "--help", NULL};
	struct e2e_result r;
	char *text, *warn;

	e2e_need(E2E_RLPROF);
	need_groff();
	text = render(MAN1, &warn);
	cr_expect_str_empty(warn, "rlprof.1 warns: %s", warn);
	free(warn);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		check_command(text, cmds[i]);
	/* every command the top-level help lists has its subsection */
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0);
	for (const char *p = strstr(r.out, "commands:\n"); p && (p = strchr(p, '\n'));) {
		char name[32], head[64];
		p++;
		if (sscanf(p, "  %31[a-z] ", name) != 1 || p[0] != ' ' || p[2] == ' ')
			break;
		snprintf(head, sizeof head, "\n   rlprof %s", name);
		cr_expect_not_null(strstr(text, head),
				   "command '%s' has no part in rlprof(1)", name);
	}
	cr_expect_not_null(strstr(text, "--version"));
	e2e_free(&r);
	free(text);
}

Test(man, rlprof_3_covers_api_guard_and_fortran, .timeout = 60)
{
	static const char *const words[] = {
		"RL_REGION_BEGIN", "RL_REGION_END",   "RL_REGION_EXPECT",
		"rl_region_begin", "rl_region_end",   "rl_region_expect",
		"RL_REGION_SCOPE", "rl::region",      "use rlprof",
		"rlprof-fortran",  "RLPROF_DISABLE",  "RLPROF_OUT"};
	char *text, *warn;

	need_groff();
	text = render(MAN3, &warn);
	cr_expect_str_empty(warn, "rlprof.3 warns: %s", warn);
	free(warn);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		cr_expect_not_null(strstr(text, words[i]), "rlprof(3) lacks %s",
				   words[i]);
	free(text);
}

Test(man, installed_pages_found_by_man_with_manpath, .timeout = 120)
{
	char *dir = e2e_tmpdir();
	char prefix[512], script[2048];
	const char *install[] = {RL_SOURCE_DIR "/scripts/install-tree",
				 RL_BUILD_DIR, prefix, NULL};
	const char *show[] = {"/bin/sh", "-c", script, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	if (access("/usr/bin/man", X_OK) != 0)
		cr_skip_test("man is not installed: run scripts/install-deps");
	snprintf(prefix, sizeof prefix, "%s/prefix", dir);
	r = e2e_run(install);
	cr_assert_eq(r.status, 0, "install-tree failed: %s", r.err);
	e2e_free(&r);

	snprintf(script, sizeof script,
		 "MANPATH='%s/share/man' MANWIDTH=100 man rlprof | col -b", prefix);
	r = e2e_run(show);
	cr_expect_eq(r.status, 0, "man rlprof: %s", r.err);
	cr_expect_not_null(strstr(r.out, "RLPROF(1)"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "rlprof check"), "%s", r.out);
	e2e_free(&r);
	snprintf(script, sizeof script,
		 "MANPATH='%s/share/man' MANWIDTH=100 man 3 rlprof | col -b", prefix);
	r = e2e_run(show);
	cr_expect_eq(r.status, 0, "man 3 rlprof: %s", r.err);
	cr_expect_not_null(strstr(r.out, "RLPROF(3)"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "RL_REGION_SCOPE"), "%s", r.out);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

/* The text of section `name` of a rendered page (from its header line to
 * the next unindented line). malloc'd. */
static char *page_section(const char *text, const char *name)
{
	char head[64];
	const char *s, *e;

	snprintf(head, sizeof head, "\n%s\n", name);
	s = strstr(text, head);
	cr_assert_not_null(s, "the page has no section %s", name);
	s += strlen(head);
	for (e = s; *e; e = strchr(e, '\n') ? strchr(e, '\n') + 1 : e + strlen(e))
		if (*e != ' ' && *e != '\n')
			break;
	return strndup(s, (size_t)(e - s));
}

Test(man, every_help_variable_is_in_environment, .timeout = 60)
{
	const char *argv[] = {E2E_RLPROF, "--help", NULL};
	struct e2e_result r;
	char *text, *env;
	const char *p;
	size_t n = 0;

	e2e_need(E2E_RLPROF);
	need_groff();
	text = render(MAN1, NULL);
	env = page_section(text, "ENVIRONMENT");
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0);
	p = strstr(r.out, "\nenvironment");
	cr_assert_not_null(p, "rlprof --help lists no environment: %s", r.out);
	for (p = strchr(p + 1, '\n'); p && p[1] == ' '; p = strchr(p + 1, '\n')) {
		char name[64], tag[80];
		if (sscanf(p + 1, " %63[A-Z_]", name) != 1)
			break;
		/* a tag of the list: the name alone on its line */
		snprintf(tag, sizeof tag, "     %s\n", name);
		cr_expect_not_null(strstr(env, tag),
				   "'rlprof --help' names %s, not in ENVIRONMENT "
				   "of rlprof(1): %s", name, env);
		n++;
	}
	cr_expect_geq(n, 4, "%s", r.out);
	for (const char *v = "RLPROF_SCOPE\0RLPROF_MPI_WAIT\0RLPROF_MACHINE\0NO_COLOR\0";
	     *v; v += strlen(v) + 1)
		cr_expect_not_null(strstr(env, v), "ENVIRONMENT lacks %s", v);
	e2e_free(&r);
	free(env);
	free(text);
}

Test(man, parallel_programs_section, .timeout = 60)
{
	static const char *const words[] = {
		"mpirun -np 2 rlprof run -o dir ./app",
		"rlprof run -o dir -- mpirun -np 2 ./app",
		"RLPROF_MPI_WAIT", "process scope", "RLPROF_SCOPE=thread",
		"OpenMP", "MPI_Finalize"};
	char *text, *sec, *text3, *env3;

	need_groff();
	text = render(MAN1, NULL);
	sec = page_section(text, "PARALLEL PROGRAMS");
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		cr_expect_not_null(strstr(sec, words[i]),
				   "PARALLEL PROGRAMS of rlprof(1) lacks '%s': %s",
				   words[i], sec);
	text3 = render(MAN3, NULL);
	env3 = page_section(text3, "ENVIRONMENT");
	for (const char *v = "RLPROF_OUT\0RLPROF_BACKEND\0RLPROF_WHOLE_PROGRAM\0"
			     "RLPROF_SCOPE\0RLPROF_CLOCK\0RLPROF_MACHINE\0";
	     *v; v += strlen(v) + 1)
		cr_expect_not_null(strstr(env3, v), "rlprof(3) ENVIRONMENT lacks %s", v);
	cr_expect_not_null(strstr(text3, "\nTHREADS AND PROCESSES\n"));
	free(env3);
	free(text3);
	free(sec);
	free(text);
}

/* One meaning per short option across commands (issue 26): every "-x,
 * --long" pair of every command's --help names the same long option for
 * the same letter. probe's -f, -q, -t and -r meant --force, --quick,
 * --threads and --replay while report, diff, run and check use them for
 * --format, --quiet, --threshold and --max-regression. */
Test(man, each_short_option_means_one_thing, .timeout = 60)
{
	static const char *const cmds[] = {"run",      "report", "inspect",
					   "counters", "probe",  "diff",
					   "check",    "compare"};
	char longs[128][40], owner[128][16];

	e2e_need(E2E_RLPROF);
	memset(longs, 0, sizeof longs);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		const char *argv[] = {E2E_RLPROF, cmds[i], "--help", NULL};
		struct e2e_result r = e2e_run(argv);
		size_t pairs = 0;

		cr_assert_eq(r.status, 0, "rlprof %s --help: %s", cmds[i], r.err);
		for (const char *p = r.out; (p = strstr(p, "\n  -")); p++) {
			unsigned char c = (unsigned char)p[4];
			char lng[40];
			if (!isalpha(c) || strncmp(p + 5, ", --", 4) != 0 ||
			    sscanf(p + 9, "%39[a-z-]", lng) != 1)
				continue;
			pairs++;
			if (!longs[c][0]) {
				snprintf(longs[c], sizeof longs[c], "%s", lng);
				snprintf(owner[c], sizeof owner[c], "%s", cmds[i]);
			}
			cr_expect_str_eq(lng, longs[c],
					 "-%c is %s in 'rlprof %s' but %s in "
					 "'rlprof %s'", c, lng, cmds[i],
					 longs[c], owner[c]);
		}
		if (strcmp(cmds[i], "counters") && strcmp(cmds[i], "inspect"))
			cr_expect_gt(pairs, 1, "no '-x, --long' pair in: %s", r.out);
		e2e_free(&r);
	}
	cr_expect_str_eq(longs['f'], "format");
	cr_expect_str_eq(longs['q'], "quiet");
}

/* probe's old short forms are refused with the long form to write, never
 * taken in their other meaning */
Test(man, probe_refuses_its_old_short_options, .timeout = 60)
{
	static const struct {
		const char *opt, *want;
	} cases[] = {{"-f", "write --force"}, {"-q", "write --quick"},
		     {"-t", "write --threads N"}, {"-r", "write --replay FILE"},
		     {"-jq", "write --quick"}};

	e2e_need(E2E_RLPROF);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *argv[] = {E2E_RLPROF, "probe", cases[i].opt, NULL};
		struct e2e_result r = e2e_run(argv);
		cr_expect_eq(r.status, 2, "probe %s: %d %s", cases[i].opt,
			     r.status, r.err);
		cr_expect_not_null(strstr(r.err, cases[i].want), "probe %s: %s",
				   cases[i].opt, r.err);
		cr_expect_not_null(strstr(r.err, "a short option means one "
						 "thing in every command"),
				   "%s", r.err);
		e2e_free(&r);
	}
}
