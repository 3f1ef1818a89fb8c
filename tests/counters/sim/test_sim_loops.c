/* Counts per loop under the simulator (rlprof run -b sim --loops,
 * counters/sim/rs_loops.c): on tests/programs/loops/loops.c (-O0, -O2)
 * each loop's flops are its formula's exactly, nested loops sum into
 * their parents, and the loops with what ran outside them add up to the
 * program's totals, every counter; on the project's kernels built
 * without annotation (kernels-plain, -O3 -march=x86-64-v3 -g), each
 * kernel's loop nest counts its formula's flops exactly. */
#include <jansson.h>
#include <math.h>

#include "tests/lib/run.h"

#include "kernels/kernels.h"
#include "inspect/loops.h"

#define LOOPS_SRC RL_SOURCE_DIR "/tests/programs/loops/loops.c"
#define SPIN_SRC RL_SOURCE_DIR "/tests/programs/loops/spin.c"

static void need_sim(void)
{
#ifdef RL_TEST_SANITIZED
	cr_skip_test("the loop programs are built with the sanitizers, which "
		     "Valgrind cannot run");
#endif
	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev");
	if (access(RL_BUILD_DIR "/libexec/rlprof/rlprofsim-amd64-linux",
		   X_OK) != 0 || system("valgrind --version >/dev/null 2>&1") != 0)
		cr_skip_test("the simulator is not built or valgrind is missing");
}

static int marker_line(const char *name)
{
	char *src = e2e_slurp(strncmp(name, "spin.", 5) == 0 ? SPIN_SRC
							    : LOOPS_SRC);
	char want[64];
	int line = 1;

	cr_assert_not_null(src);
	snprintf(want, sizeof want, "/* loop:%s */", name);
	for (const char *p = src; *p; p++) {
		if (strncmp(p, want, strlen(want)) == 0) {
			free(src);
			return line;
		}
		line += *p == '\n';
	}
	free(src);
	cr_assert_fail("no marker %s", want);
	return 0;
}

/* Runs rlprof run -b sim --loops on argv; returns DIR/loops.json (and
 * the directory in *dir). */
static json_t *run_loops(const char *const *prog, char **dir)
{
	const char *argv[32] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
				"sim", "--sim-caches", "48K:12,1M:8,32M:16",
				"--loops", "-o"};
	char out[512], *path;
	size_t n = 10;
	struct e2e_result r;
	json_error_t je;
	json_t *j;

	*dir = e2e_tmpdir();
	snprintf(out, sizeof out, "%s/out", *dir);
	argv[n++] = out;
	for (size_t i = 0; prog[i] && n < 31; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	e2e_need(E2E_RLPROF);
	e2e_need(prog[0]);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
	cr_expect(strstr(r.out, "loops (counts simulated"), "%s", r.out);
	e2e_free(&r);
	path = e2e_file(out, "loops.json");
	j = json_loads(path, 0, &je);
	cr_assert_not_null(j, "loops.json: %s", je.text);
	free(path);
	return j;
}

static json_int_t count(json_t *o, const char *part, const char *key)
{
	json_t *v = json_object_get(json_object_get(o, part), key);
	cr_assert(json_is_integer(v), "no %s.%s", part, key);
	return json_integer_value(v);
}

static json_t *loop_at(json_t *root, const char *marker)
{
	json_t *loops = json_object_get(root, "loops"), *o, *found = NULL;
	size_t i;
	int line = marker_line(marker);
	json_array_foreach(loops, i, o)
		if (json_integer_value(json_object_get(o, "line")) == line) {
			cr_expect_null(found, "two loops at %s", marker);
			found = o;
		}
	cr_assert_not_null(found, "no loop at the line of %s", marker);
	return found;
}

/* The top-level loops (inclusive) and what ran outside loops add up to
 * the total, counter by counter. */
static void expect_sums(json_t *root)
{
	json_t *total = json_object_get(root, "total"), *v;
	json_t *loops = json_object_get(root, "loops"), *o;
	const char *key;
	size_t i;

	cr_assert(json_is_object(total));
	json_object_foreach(total, key, v) {
		json_int_t sum;
		if (!json_is_integer(v))
			continue;
		sum = count(root, "outside_loops", key);
		json_array_foreach(loops, i, o)
			if (json_is_null(json_object_get(o, "parent")))
				sum += count(o, "inclusive", key);
		cr_expect_eq(sum, json_integer_value(v),
			     "%s: loops and outside add up to %lld, not %lld",
			     key, (long long)sum,
			     (long long)json_integer_value(v));
	}
}

static void expect_loop_flops(const char *build)
{
	const char *prog[] = {NULL, "24", NULL};
	char path[512], *dir, *report;
	json_t *root, *rep;
	json_error_t je;
	const json_int_t n = 24;

	need_sim();
	snprintf(path, sizeof path, "%s", E2E_PROG("loops-"));
	strncat(path, build, sizeof path - strlen(path) - 1);
	prog[0] = path;
	root = run_loops(prog, &dir);
	cr_expect_eq(count(loop_at(root, "nest3.k"), "self", "flops"),
		     2 * n * n * n);
	cr_expect_eq(count(loop_at(root, "nest3.j"), "self", "flops"), 0);
	cr_expect_eq(count(loop_at(root, "nest3.j"), "inclusive", "flops"),
		     2 * n * n * n);
	cr_expect_eq(count(loop_at(root, "nest3.i"), "inclusive", "flops"),
		     2 * n * n * n);
	cr_expect_eq(count(loop_at(root, "nest3.k"), "self", "fma_flops"), 0);
	cr_expect_eq(count(loop_at(root, "siblings.first"), "self", "flops"), n);
	cr_expect_eq(count(loop_at(root, "siblings.second"), "self", "flops"),
		     2 * n);
	cr_expect_eq(count(loop_at(root, "dowhile"), "self", "flops"), n);
	cr_expect_eq(count(loop_at(root, "main.init"), "inclusive", "flops"), 0);
	/* nest3.k reads a and b: 16 bytes per multiply-add at least */
	cr_expect_geq(count(loop_at(root, "nest3.k"), "self", "l1_read_bytes"),
		      16 * n * n * n);
	/* noloop's multiply ran outside loops */
	cr_expect_eq(count(root, "outside_loops", "flops"), 1);
	expect_sums(root);
	/* the loops' total is the program's region's */
	snprintf(path, sizeof path, "%s/out", dir);
	report = e2e_file(path, "report.json");
	rep = json_loads(report, 0, &je);
	cr_assert_not_null(rep, "%s", je.text);
	cr_expect_eq((json_int_t)json_real_value(json_object_get(
			     json_array_get(json_object_get(rep, "regions"), 0),
			     "flops")),
		     count(root, "total", "flops"));
	json_decref(rep);
	free(report);
	json_decref(root);
	e2e_rmtree(dir);
}

Test(sim_loops, each_loop_its_flops_at_O0, .timeout = 300)
{
	expect_loop_flops("O0");
}

Test(sim_loops, each_loop_its_flops_at_O2, .timeout = 300)
{
	expect_loop_flops("O2");
}

/* The kernels' own functions (static, noinline; gcc may add a suffix
 * such as .constprop.0) */
static const struct {
	const char *kernel, *func;
} kfunc[] = {
	{"triad", "triad_f64"}, {"scale", "scale_f64"}, {"add", "add_f64"},
	{"daxpy", "daxpy_f64"}, {"dot", "dot_f64"}, {"sum", "sum_f64"},
	{"triad_f32", "triad_f32"}, {"dot_f32", "dot_f32"},
	{"stencil5", "stencil5_f64"}, {"horner4", "horner_4"},
	{"horner32", "horner_32"}, {"matmul_naive", "matmul_ikj"},
	{"matmul_tiled", "matmul_tiled"},
};

static int same_func(const char *have, const char *want)
{
	size_t n = strlen(want);
	return strncmp(have, want, n) == 0 && (have[n] == '\0' || have[n] == '.');
}

Test(sim_loops, kernels_without_annotation_count_their_formula,
     .timeout = 600)
{
	const char *prog[] = {E2E_PROG("kernels-plain"), "--size", "4096",
			      "--matmul-n", "32", "--repeat", "2",
			      "--threads", "1", "--kernels",
			      "triad,scale,add,daxpy,dot,sum,triad_f32,dot_f32,"
			      "stencil5,horner4,horner32,matmul_naive,"
			      "matmul_tiled",
			      NULL};
	struct rl_kernel_data *d;
	json_t *root, *loops, *o;
	char *dir;
	size_t i;

	need_sim();
	root = run_loops(prog, &dir);
	d = rl_kernel_data_alloc(4096, 32, 1, NULL, 0);
	cr_assert_not_null(d);
	loops = json_object_get(root, "loops");
	for (size_t k = 0; k < sizeof kfunc / sizeof *kfunc; k++) {
		const struct rl_kernel *kr = rl_kernel_find(kfunc[k].kernel);
		json_int_t got = 0, want;
		size_t n_loops = 0;
		cr_assert_not_null(kr, "%s", kfunc[k].kernel);
		want = (json_int_t)(kr->flops_per_elem *
				    rl_kernel_elems(kr, d)) * 2;
		json_array_foreach(loops, i, o) {
			const char *f = json_string_value(
				json_object_get(o, "function"));
			if (!f || !same_func(f, kfunc[k].func) ||
			    !json_is_null(json_object_get(o, "parent")))
				continue;
			n_loops++;
			got += count(o, "inclusive", "flops");
		}
		cr_expect_geq(n_loops, 1, "%s: no loop in %s", kfunc[k].kernel,
			      kfunc[k].func);
		cr_expect_eq(got, want, "%s: its loops count %lld flops, the "
			     "formula %lld", kfunc[k].kernel, (long long)got,
			     (long long)want);
	}
	expect_sums(root);
	rl_kernel_data_free(d);
	json_decref(root);
	e2e_rmtree(dir);
}

/* Time per loop: the native run sampled (software CPU clock); nearly all
 * of spin's samples are in its inner loop, inside its outer one, and the
 * loops' times and the other samples add up to the samples taken. */
Test(sim_loops, time_per_loop_by_sampling, .timeout = 120)
{
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "--loops", "-o", NULL,
			      E2E_PROG("loops-spin"), "300", NULL};
	char out[512], *text, *dir;
	struct e2e_result r;
	json_error_t je;
	json_t *root, *smp, *loops, *o, *inner = NULL, *outer = NULL;
	size_t i;
	int il, ol;

	if (!rl_loops_available())
		cr_skip_test("rlprof was built without libzydis-dev");
	e2e_need(argv[9]);
	dir = e2e_tmpdir();
	snprintf(out, sizeof out, "%s/out", dir);
	argv[8] = out;
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	text = e2e_file(out, "loops.json");
	root = json_loads(text, 0, &je);
	cr_assert_not_null(root, "%s", je.text);
	smp = json_object_get(root, "sampling");
	if (!smp) {
		const char *why = json_string_value(
			json_object_get(root, "sampling_missing"));
		if (why && strstr(why, "perf_event_open"))
			cr_skip_test("no sampling here: %s", why);
		cr_assert_fail("no sampling: %s", why ? why : "(no reason)");
	}
	cr_expect(strstr(r.out, "time sampled natively"), "%s", r.out);
	json_int_t total = json_integer_value(json_object_get(smp, "samples"));
	cr_expect_geq(total, 50, "%lld samples", (long long)total);
	il = marker_line("spin.inner");
	ol = marker_line("spin.outer");
	loops = json_object_get(root, "loops");
	json_array_foreach(loops, i, o) {
		json_int_t line = json_integer_value(json_object_get(o, "line"));
		if (line == il)
			inner = o;
		else if (line == ol)
			outer = o;
	}
	cr_assert_not_null(inner, "%s", text);
	cr_assert_not_null(outer, "%s", text);
	json_int_t ni = json_integer_value(json_object_get(inner, "samples"));
	json_int_t no = json_integer_value(json_object_get(outer, "samples"));
	cr_expect_geq(ni * 10, total * 9, "inner loop: %lld of %lld samples: %s",
		      (long long)ni, (long long)total, text);
	cr_expect_geq(no, ni, "the outer loop holds the inner one's samples");
	/* loops (top level) + outside loops + other code = every sample */
	json_int_t sum = json_integer_value(json_object_get(smp,
					"samples_outside_loops")) +
			 json_integer_value(json_object_get(smp,
					"samples_other_code"));
	json_array_foreach(loops, i, o)
		if (json_is_null(json_object_get(o, "parent")))
			sum += json_integer_value(json_object_get(o, "samples"));
	cr_expect_eq(sum, total);
	/* time = samples x period, its error sqrt(samples) x period */
	double period = json_real_value(json_object_get(smp, "period_s"));
	cr_expect_float_eq(json_real_value(json_object_get(inner, "time_s")),
			   (double)ni * period, 1e-9);
	cr_expect_float_eq(json_real_value(json_object_get(inner,
							   "time_error_s")),
			   sqrt((double)ni) * period, 1e-9);
	json_decref(root);
	free(text);
	e2e_free(&r);
	e2e_rmtree(dir);
}
