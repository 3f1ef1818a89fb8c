/* Loops that share a "file:line (function)" label are distinct loops
 * (issue 39): two nested loops on one line, a loop inlined twice, a
 * loop of an STL vector and of inlined accessors (C++, demangled), an
 * OpenMP-outlined loop named by its statement, and the floating-point
 * chains each loop's code carries (a reduction, an element-wise loop).
 * The programs are tests/programs/loops/shared_lines.c, stl_loops.cpp
 * and omp_loops.c; each loop statement carries a marker comment. */
#include <jansson.h>

#include "tests/lib/run.h"

#include "common/demangle.h"
#include "inspect/loops.h"

#define SRC_DIR RL_SOURCE_DIR "/tests/programs/loops/"

static void need_decoder(void)
{
	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev: no x86 "
			     "decoder to read code with");
}

/* The line of the marker "kind:name" in file. */
static int marker(const char *file, const char *kind, const char *name)
{
	char path[512], want[64], *src;
	int line = 1;

	snprintf(path, sizeof path, SRC_DIR "%s", file);
	src = e2e_slurp(path);
	cr_assert_not_null(src, "cannot read %s", path);
	snprintf(want, sizeof want, "%s:%s", kind, name);
	for (const char *p = src; *p; p++) {
		if (strncmp(p, want, strlen(want)) == 0 &&
		    strchr(" \n", p[strlen(want)])) {
			free(src);
			return line;
		}
		line += *p == '\n';
	}
	free(src);
	cr_assert_fail("no marker %s in %s", want, path);
	return 0;
}

static void find(const char *prog, struct rl_loops *l)
{
	char err[512];

	need_decoder();
	e2e_need(prog);
	cr_assert_eq(rl_loops_find(prog, l, err, sizeof err), 0, "%s", err);
	cr_assert(l->have_lines);
}

/* The loops at line, at most max, into at; returns how many. */
static size_t at_line(const struct rl_loops *l, int line, size_t *at,
		      size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].line == line && n < max)
			at[n++] = i;
	return n;
}

Test(loop_names, two_loops_on_one_line_are_two_names)
{
	struct rl_loops l;
	char a[512], b[512];
	size_t at[4];

	find(E2E_PROG("loops-shared"), &l);
	cr_assert_eq(at_line(&l, marker("shared_lines.c", "loop", "oneline"),
			     at, 4), 2);
	rl_loop_name(&l, at[0], a, sizeof a);
	rl_loop_name(&l, at[1], b, sizeof b);
	cr_expect_str_neq(a, b);
	cr_expect_eq(l.v[at[1]].parent, (int)at[0], "the inner loop nests");
	cr_expect_eq(l.v[at[0]].nth, 1);
	cr_expect_eq(l.v[at[1]].nth, 2);
	cr_expect(strstr(a, " #1 (nest_one_line)"), "%s", a);
	cr_expect(strstr(b, " #2 (nest_one_line)"), "%s", b);
	rl_loops_release(&l);
}

Test(loop_names, a_loop_inlined_twice_is_named_by_each_call_site)
{
	struct rl_loops l;
	char name[512], want[128];
	size_t at[4];
	const char *calls[] = {"first", "second"};

	find(E2E_PROG("loops-shared"), &l);
	cr_assert_eq(at_line(&l, marker("shared_lines.c", "loop", "sum"), at,
			     4), 2);
	for (int k = 0; k < 2; k++) {
		const struct rl_loop *p = &l.v[at[k]];
		int call = marker("shared_lines.c", "call", calls[k]);
		rl_loop_name(&l, at[k], name, sizeof name);
		snprintf(want, sizeof want,
			 "(sum, inlined at shared_lines.c:%d)", call);
		cr_expect(strstr(name, want), "'%s' lacks '%s'", name, want);
		cr_expect_eq(p->nth, 0, "unique by its call site: no number");
		cr_expect_str_eq(p->func, "twice");
		cr_expect_str_eq(p->scope, "sum");
		cr_assert_eq(p->n_inl, 1);
		cr_expect_str_eq(p->inl[0].func, "sum");
		cr_expect_eq(p->inl[0].call_line, call);
	}
	rl_loops_release(&l);
}

Test(loop_names, chains_found_in_reductions_not_in_elementwise_loops)
{
	struct rl_loops l;
	size_t at[4];

	find(E2E_PROG("loops-shared"), &l);
	cr_assert_eq(at_line(&l, marker("shared_lines.c", "loop", "axpy"), at,
			     4), 1);
	cr_expect(l.v[at[0]].chains.known);
	cr_expect_eq(l.v[at[0]].chains.add + l.v[at[0]].chains.mul +
			     l.v[at[0]].chains.madd, 0,
		     "c[i] = c[i] + 0.5 a[i] carries no value");
	cr_assert_eq(at_line(&l, marker("shared_lines.c", "loop", "dot"), at,
			     4), 1);
	cr_expect_eq(l.v[at[0]].chains.add, 1, "s += a[i] * b[i]: one add "
		     "chain (the multiply is fresh each time)");
	cr_expect_eq(l.v[at[0]].chains.mul + l.v[at[0]].chains.madd, 0);
	cr_assert_eq(at_line(&l, marker("shared_lines.c", "loop", "sum"), at,
			     4), 2);
	cr_expect_eq(l.v[at[0]].chains.add, 1);
	/* the init loop stores constants: none */
	cr_assert_eq(at_line(&l, marker("shared_lines.c", "loop", "init"), at,
			     4), 1);
	cr_expect_eq(l.v[at[0]].chains.add + l.v[at[0]].chains.mul +
			     l.v[at[0]].chains.madd, 0);
	rl_loops_release(&l);
}

Test(loop_names, cxx_loops_demangled_and_in_the_programs_source)
{
	static const struct {
		const char *marker, *name;
	} want[] = {
		{"stl.total", "hydro::total<double>"},
		{"stl.scale", "hydro::scale"},
		{"stl.range", "hydro::range_sum"},
		{"stl.iter", "hydro::add_into"},
		{"stl.init", "main"},
	};
	struct rl_loops l;
	char name[512], expect[256];
	size_t at[4];
	int library = 0;

	if (access(E2E_PROG("loops-stl"), X_OK) != 0)
		cr_skip_test("g++ is not installed: loops-stl not built");
	find(E2E_PROG("loops-stl"), &l);
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		int line = marker("stl_loops.cpp", "loop", want[k].marker);
		cr_assert_eq(at_line(&l, line, at, 4), 1, "%s", want[k].marker);
		rl_loop_name(&l, at[0], name, sizeof name);
		snprintf(expect, sizeof expect, "stl_loops.cpp:%d (%s)", line,
			 want[k].name);
		cr_expect_str_eq(name, expect);
	}
	cr_assert_eq(at_line(&l, marker("stl_loops.cpp", "loop", "stl.total"),
			     at, 4), 1);
	cr_expect_str_eq(l.v[at[0]].func,
			 "double hydro::total<double>(hydro::Field<double>&)");
	/* no loop is named by a header it runs through: std::fill's loop
	 * (the vector's constructor) is placed at the program's line */
	for (size_t i = 0; i < l.n; i++) {
		cr_expect(strncmp(l.v[i].file, "/usr/", 5) != 0, "%s:%d",
			  l.v[i].file, l.v[i].line);
		cr_expect(strstr(l.v[i].file, "stl_field.h") == NULL);
		if (l.v[i].library) {
			library++;
			rl_loop_name(&l, i, name, sizeof name);
			cr_expect(strstr(name, "(a loop of std::"), "%s", name);
			cr_expect_gt(l.v[i].n_inl, 1);
		}
	}
	cr_expect_geq(library, 1, "std::fill's loop not found");
	rl_loops_release(&l);
}

/* GCC's outlined body carries the body's lines: the loop is named by
 * its for statement, the line of the calls that share it out */
Test(loop_names, openmp_loop_named_by_its_statement)
{
	struct rl_loops l;
	size_t at[4];

	if (access(E2E_PROG("loops-omp"), X_OK) != 0)
		cr_skip_test("the compiler has no OpenMP: loops-omp not built");
	find(E2E_PROG("loops-omp"), &l);
	cr_assert_eq(at_line(&l, marker("omp_loops.c", "loop", "omp.triad"),
			     at, 4), 1, "no loop at the triad's for statement");
	cr_expect_str_eq(l.v[at[0]].func, "main._omp_fn.0");
	rl_loops_release(&l);
}

/* LULESH's shape: an OpenMP loop through a class's inlined accessors.
 * GCC nests the outlined body's DWARF inside the function it came from,
 * where libdw's dwarf_getscopes does not look, so the loop was in no
 * function and named by its first instruction's accessor
 * (omp_accessor.h:14); and the calls that share the loop out carry the
 * directive's line, not the for statement's. */
Test(loop_names, openmp_loop_through_accessors_named_by_its_for_line)
{
	struct rl_loops l;
	size_t at[4];

	if (access(E2E_PROG("loops-omp-accessor"), X_OK) != 0)
		cr_skip_test("g++ with OpenMP is missing: loops-omp-accessor "
			     "not built");
	find(E2E_PROG("loops-omp-accessor"), &l);
	cr_assert_eq(at_line(&l, marker("omp_accessor.cpp", "loop",
					"acc.gather"),
			     at, 4),
		     1, "no loop at the gather's for statement");
	cr_expect(strstr(l.v[at[0]].func, "gather") != NULL, "%s",
		  l.v[at[0]].func);
	for (size_t i = 0; i < l.n; i++)
		cr_expect(strstr(l.v[i].file, "omp_accessor.h") == NULL,
			  "a loop named by a header's accessor: %s:%d",
			  l.v[i].file, l.v[i].line);
	rl_loops_release(&l);
}

Test(loop_names, demangled_short_names)
{
	static const char *const cases[][2] = {
		{"double ns::f<double>(A&) const", "ns::f<double>"},
		{"ns::scale(std::vector<double, std::allocator<double> >&, "
		 "double)", "ns::scale"},
		{"(anonymous namespace)::g(int)", "(anonymous namespace)::g"},
		{"A::operator()(int) const", "A::operator()"},
		{"bool operator< <int>(X<int> const&)", "operator< <int>"},
		{"main", "main"},
		{"main._omp_fn.0", "main._omp_fn.0"},
	};
	char buf[256], *d;

	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		rl_demangle_short(cases[k][0], buf, sizeof buf);
		cr_expect_str_eq(buf, cases[k][1], "'%s'", cases[k][0]);
	}
	d = rl_demangle("_ZN5hydro5totalIdEET_RNS_5FieldIS1_EE");
	cr_assert_not_null(d);
	cr_expect_str_eq(d, "double hydro::total<double>(hydro::Field<double>&)");
	free(d);
	cr_expect_null(rl_demangle("main"));
	d = rl_demangle("__kern_MOD_total"); /* gfortran's module procedure */
	cr_assert_not_null(d);
	cr_expect_str_eq(d, "kern::total");
	free(d);
	cr_expect_null(rl_demangle("__libc_start_main"));
	cr_expect_null(rl_demangle("_Znot a name"));
}

/* inspect takes one PROGRAM and nothing of its own: its options may
 * follow it (issue 39) */
Test(loop_names, inspect_options_after_the_program, .timeout = 30)
{
	const char *argv[] = {E2E_RLPROF, "inspect", E2E_PROG("loops-shared"),
			      "--loops", NULL};
	struct e2e_result r;

	need_decoder();
	e2e_need(E2E_RLPROF);
	e2e_need(argv[2]);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "(nest_one_line)"), "%s", r.out);
	e2e_free(&r);
}
