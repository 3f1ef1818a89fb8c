/* The loops found in a program's code (inspect/loops.c): on a program of
 * known loop structure (tests/programs/loops/loops.c) built at -O0 and
 * -O2 with -g, the number of loops, their nesting, functions and source
 * lines (each loop statement carries a marker comment naming it); without
 * -g, names by function and address; rlprof inspect --loops as text and
 * JSON, and its failures. */
#include <jansson.h>

#include "tests/lib/run.h"

#include "inspect/loops.h"
#include "common/rl_error.h"

#define LOOPS_SRC RL_SOURCE_DIR "/tests/programs/loops/loops.c"

static void need_decoder(void)
{
	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev: no x86 "
			     "decoder to read code with");
}

/* The line of the marker "loop:NAME " in loops.c. */
static int marker_line(const char *name)
{
	char *src = e2e_slurp(LOOPS_SRC), want[64];
	int line = 1;

	cr_assert_not_null(src, "cannot read %s", LOOPS_SRC);
	snprintf(want, sizeof want, "/* loop:%s */", name);
	for (const char *p = src; *p; p++) {
		if (strncmp(p, want, strlen(want)) == 0) {
			free(src);
			return line;
		}
		line += *p == '\n';
	}
	free(src);
	cr_assert_fail("no marker %s in %s", want, LOOPS_SRC);
	return 0;
}

/* The loop of l named by marker m, or -1. */
static int find_loop(const struct rl_loops *l, const char *m)
{
	int line = marker_line(m), found = -1;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].line == line) {
			cr_expect_eq(found, -1, "two loops at line %d (%s)",
				     line, m);
			found = (int)i;
		}
	return found;
}

static const struct {
	const char *marker, *func, *parent;
	int depth;
} want[] = {
	{"nest3.i", "nest3", NULL, 0},
	{"nest3.j", "nest3", "nest3.i", 1},
	{"nest3.k", "nest3", "nest3.j", 2},
	{"siblings.first", "siblings", NULL, 0},
	{"siblings.second", "siblings", NULL, 0},
	{"dowhile", "dowhile", NULL, 0},
	{"main.init", "main", NULL, 0},
	{"main.init.j", "main", "main.init", 1},
};
#define N_WANT (sizeof want / sizeof *want)

static void expect_structure(const char *prog)
{
	struct rl_loops l;
	char err[512];

	need_decoder();
	e2e_need(prog);
	cr_assert_eq(rl_loops_find(prog, &l, err, sizeof err), 0, "%s", err);
	cr_expect(l.have_lines, "%s: no line table found", prog);
	cr_expect(l.have_symbols);
	cr_expect_eq(l.n, N_WANT, "%s: %zu loops, not %zu", prog, l.n,
		     (size_t)N_WANT);
	for (size_t k = 0; k < N_WANT; k++) {
		int i = find_loop(&l, want[k].marker);
		cr_expect_geq(i, 0, "%s: no loop at the line of %s", prog,
			      want[k].marker);
		if (i < 0)
			continue;
		cr_expect_str_eq(l.v[i].func, want[k].func, "%s: %s",
				 prog, want[k].marker);
		cr_expect_eq(l.v[i].depth, want[k].depth, "%s: %s depth %d",
			     prog, want[k].marker, l.v[i].depth);
		cr_expect_not_null(strstr(l.v[i].file, "loops.c"));
		if (want[k].parent)
			cr_expect_eq(l.v[i].parent,
				     find_loop(&l, want[k].parent),
				     "%s: the parent of %s", prog,
				     want[k].marker);
		else
			cr_expect_eq(l.v[i].parent, -1, "%s: %s nested",
				     prog, want[k].marker);
		/* preorder: a parent comes first */
		cr_expect_lt(l.v[i].parent, i);
	}
	/* the innermost loop owns the code of its body: a span names it */
	int k = find_loop(&l, "nest3.k");
	size_t spans = 0;
	for (size_t s = 0; s < l.n_span; s++) {
		cr_expect_lt(l.span[s].lo, l.span[s].hi);
		if (s)
			cr_expect_leq(l.span[s - 1].hi, l.span[s].lo);
		spans += k >= 0 && l.span[s].loop == (unsigned)k + 1;
	}
	cr_expect_geq(spans, 1, "%s: no code charged to nest3.k", prog);
	rl_loops_release(&l);
}

Test(loops, nest_and_lines_at_O0)
{
	expect_structure(E2E_PROG("loops-O0"));
}

Test(loops, nest_and_lines_at_O2)
{
	expect_structure(E2E_PROG("loops-O2"));
}

/* without -g: the same loops, named function+offset */
Test(loops, without_g_named_by_function_and_address)
{
	struct rl_loops l;
	char err[512], label[256];
	size_t nest3 = 0;

	need_decoder();
	e2e_need(E2E_PROG("loops-nog"));
	cr_assert_eq(rl_loops_find(E2E_PROG("loops-nog"), &l, err,
				   sizeof err), 0, "%s", err);
	cr_expect_not(l.have_lines);
	cr_expect_eq(l.n, N_WANT);
	for (size_t i = 0; i < l.n; i++) {
		cr_expect_null(l.v[i].file);
		cr_expect_eq(l.v[i].line, 0);
		rl_loop_label(&l, i, label, sizeof label);
		cr_expect(strncmp(label, l.v[i].func, strlen(l.v[i].func)) == 0 &&
			  strstr(label, "+0x"), "%s", label);
		if (strcmp(l.v[i].func, "nest3") == 0)
			cr_expect_eq(l.v[i].depth, (int)nest3++);
	}
	cr_expect_eq(nest3, 3);
	rl_loops_release(&l);
}

Test(loops, inspect_lists_them_as_text_and_json, .timeout = 30)
{
	const char *text[] = {E2E_RLPROF, "inspect", "--loops",
			      E2E_PROG("loops-O2"), NULL};
	const char *nog[] = {E2E_RLPROF, "inspect", "--loops",
			     E2E_PROG("loops-nog"), NULL};
	const char *json[] = {E2E_RLPROF, "inspect", "--loops", "--json",
			      E2E_PROG("loops-O2"), NULL};
	struct e2e_result r;
	char line[64];
	json_error_t je;
	json_t *root, *loops;

	need_decoder();
	e2e_need(E2E_RLPROF);
	e2e_need(text[3]);
	r = e2e_run(text);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, ": 8 loops in 4 of "), "%s", r.out);
	snprintf(line, sizeof line, "\n      loops.c:%d ",
		 marker_line("nest3.k"));
	cr_expect(strstr(r.out, line), "no '%s' three deep in:\n%s", line,
		  r.out);
	e2e_free(&r);
	r = e2e_run(nog);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "build with -g for source lines"), "%s",
		  r.out);
	cr_expect(strstr(r.out, "  nest3+0x"), "%s", r.out);
	e2e_free(&r);
	r = e2e_run(json);
	cr_assert_eq(r.status, 0, "%s", r.err);
	root = json_loads(r.out, 0, &je);
	cr_assert_not_null(root, "%s: %s", je.text, r.out);
	cr_expect(json_is_true(json_object_get(root, "lines")));
	loops = json_object_get(root, "loops");
	cr_assert_eq(json_array_size(loops), N_WANT, "%s", r.out);
	int found = 0;
	for (size_t i = 0; i < json_array_size(loops); i++) {
		json_t *o = json_array_get(loops, i);
		if (json_integer_value(json_object_get(o, "line")) !=
		    marker_line("nest3.k"))
			continue;
		found = 1;
		cr_expect_eq(json_integer_value(json_object_get(o, "depth")), 2);
		cr_expect_str_eq(json_string_value(json_object_get(o,
					"function")), "nest3");
		json_t *p = json_object_get(o, "parent");
		cr_assert(json_is_integer(p));
		json_t *po = json_array_get(loops, (size_t)json_integer_value(p) - 1);
		cr_expect_eq(json_integer_value(json_object_get(po, "line")),
			     marker_line("nest3.j"));
	}
	cr_expect(found, "%s", r.out);
	json_decref(root);
	e2e_free(&r);
}

Test(loops, inspect_loops_failures, .timeout = 30)
{
	const char *notelf[] = {E2E_RLPROF, "inspect", "--loops", LOOPS_SRC,
				NULL};
	struct e2e_result r;

	need_decoder();
	r = e2e_run(notelf);
	cr_expect_eq(r.status, 1);
	cr_expect(strncmp(r.err, "rlprof: ", 8) == 0 && strstr(r.err, "loops.c"),
		  "%s", r.err);
	e2e_free(&r);
}
