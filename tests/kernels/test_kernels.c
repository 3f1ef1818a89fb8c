/* kernels/: the reference kernels compute the right numbers, their table
 * is consistent, and rlprof-kernels lists it and rejects bad options. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernels/kernels.h"
#include "common/rl_error.h"

#define KBIN RL_BUILD_DIR "/bin/rlprof-kernels"
#define KBIN_SIM RL_BUILD_DIR "/bin/rlprof-kernels-sim"

/* Small sizes with remainders: n is not a multiple of 8 or 32, the
 * matrix order not a multiple of the 64 tile. */
#define SMALL_N 1003
#define SMALL_MATMUL 130

static struct rl_kernel_data *small_data(int threads)
{
	char err[256] = "";
	struct rl_kernel_data *d =
		rl_kernel_data_alloc(SMALL_N, SMALL_MATMUL, threads, err,
				     sizeof err);
	cr_assert_not_null(d, "alloc failed: %s", err);
	return d;
}

static const struct rl_kernel *must_find(const char *name)
{
	const struct rl_kernel *k = rl_kernel_find(name);
	cr_assert_not_null(k, "no kernel '%s' in the table", name);
	return k;
}

Test(kernels, every_kernel_passes_its_check_on_a_small_size)
{
	struct rl_kernel_data *d = small_data(3);
	for (size_t i = 0; i < rl_kernel_count(); i++) {
		const struct rl_kernel *k = rl_kernel_at(i);
		char err[256] = "";
		k->init(d);
		k->run(d);
		k->run(d);
		int rc = k->check(d, 2, err, sizeof err);
		cr_expect_eq(rc, 0, "%s: check failed: %s", k->name, err);
	}
	rl_kernel_data_free(d);
}

Test(kernels, checks_fail_on_a_wrong_result)
{
	struct rl_kernel_data *d = small_data(1);
	char err[256] = "";
	const struct rl_kernel *k = must_find("triad");
	k->init(d);
	k->run(d);
	((double *)d->a)[17] += 1.0;
	cr_assert_eq(k->check(d, 1, err, sizeof err), RL_EINVAL);
	cr_assert(strstr(err, "triad: a[17]") != NULL, "message: %s", err);

	k = must_find("dot");
	k->init(d);
	k->run(d);
	d->result += 1.0;
	cr_assert_eq(k->check(d, 1, err, sizeof err), RL_EINVAL);

	k = must_find("matmul_tiled");
	k->init(d);
	k->run(d);
	cr_assert_eq(k->check(d, 2, err, sizeof err), RL_EINVAL,
		     "one product checked as two");
	cr_assert(strstr(err, "matmul_tiled: C[0][0]") != NULL, "message: %s",
		  err);
	rl_kernel_data_free(d);
}

Test(kernels, known_elements)
{
	struct rl_kernel_data *d = small_data(1);
	const double *a = d->a, *b = d->b;
	const struct rl_kernel *k = must_find("triad");
	k->init(d);
	k->run(d);
	/* b = 1,2,3,4,...; c = +1 x8, -1 x8; s = 3 */
	cr_assert_eq(a[0], 1.0 + 3.0);
	cr_assert_eq(a[9], 2.0 - 3.0);
	cr_assert_eq(a[SMALL_N - 1], 3.0 - 3.0); /* 1002: u=3, 1002>>3 odd */

	k = must_find("daxpy");
	k->init(d);
	for (int r = 0; r < 3; r++)
		k->run(d);
	cr_assert_eq(a[2], 1.0 + 3 * 3.0 * 3.0); /* sign + R s u */

	k = must_find("horner2");
	k->init(d);
	k->run(d);
	/* x[0] = 0.5, c = 0.5: 0.5 + 0.25 + 0.125 */
	cr_assert_float_eq(b[0], 0.875, 1e-15);
	/* x[1] = -0.5: 0.5 - 0.25 + 0.125 */
	cr_assert_float_eq(b[1], 0.375, 1e-15);

	k = must_find("dot");
	k->init(d);
	k->run(d);
	/* 62 full periods of 16 sum to 0; 992..1002: +(1+2+3+4)*2, then
	 * -(1+2+3) */
	cr_assert_eq(d->result, 20.0 - 6.0);

	k = must_find("stencil5");
	k->init(d);
	k->run(d);
	/* in(i,j) = i%3 + j%5; at (1,1): centre, north, south, west, east */
	double want = 0.5 * ((1 + 1) + (1 + 0) + (1 + 2) + (0 + 1) + (2 + 1));
	cr_assert_eq(b[1 * d->nx + 1], want);
	rl_kernel_data_free(d);
}

Test(kernels, table_is_consistent)
{
	size_t n = rl_kernel_count();
	cr_assert_gt(n, 20);
	for (size_t i = 0; i < n; i++) {
		const struct rl_kernel *k = rl_kernel_at(i);
		cr_assert_not_null(k->name);
		cr_assert(k->init && k->run && k->check, "%s", k->name);
		cr_expect(strcmp(k->precision, "f64") == 0 ||
				  strcmp(k->precision, "f32") == 0,
			  "%s: precision %s", k->name, k->precision);
		cr_expect(rl_kernel_is_group(k->group), "%s: group %s",
			  k->name, k->group);
		cr_expect_gt(k->bytes_per_elem, 0, "%s", k->name);
		cr_expect_geq(k->bytes_wa_per_elem, k->bytes_per_elem, "%s",
			      k->name);
		cr_expect_geq(k->flops_per_elem, 0, "%s", k->name);
		cr_expect_eq(rl_kernel_ai(k, 0),
			     k->flops_per_elem / k->bytes_per_elem, "%s",
			     k->name);
		cr_expect_eq(rl_kernel_ai(k, 1),
			     k->flops_per_elem / k->bytes_wa_per_elem, "%s",
			     k->name);
		cr_expect_eq(rl_kernel_find(k->name), k,
			     "%s: name not unique", k->name);
		for (size_t j = 0; j < i; j++)
			cr_expect_str_neq(rl_kernel_at(j)->name, k->name);
		cr_expect(rl_kernel_selected_by(k, "all"));
		cr_expect(rl_kernel_selected_by(k, k->name));
		if (strncmp(k->name, "horner", 6) == 0) {
			int degree = atoi(k->name + 6);
			cr_expect_eq(k->flops_per_elem, 2.0 * degree, "%s",
				     k->name);
			cr_expect_eq(k->bytes_per_elem, 16);
			cr_expect_eq(k->bytes_wa_per_elem, 24);
		}
	}
	cr_assert_null(rl_kernel_at(n));
	cr_assert_null(rl_kernel_find("nope"));
	cr_assert(!rl_kernel_is_group("nope"));
}

Test(kernels, table_values_follow_the_conventions)
{
	const struct rl_kernel *t = must_find("triad");
	cr_assert_eq(t->flops_per_elem, 2);
	cr_assert_eq(t->bytes_per_elem, 24);
	cr_assert_eq(t->bytes_wa_per_elem, 32);
	cr_assert_eq(t->exact, 1);
	t = must_find("triad_f32");
	cr_assert_str_eq(t->precision, "f32");
	cr_assert_eq(t->bytes_per_elem, 12);
	cr_assert_eq(must_find("fill")->flops_per_elem, 0);
	cr_assert_eq(must_find("fill")->bytes_wa_per_elem, 16);
	cr_assert_eq(must_find("stencil5")->flops_per_elem, 5);
	cr_assert_eq(must_find("stencil5")->exact, 0);
	cr_assert_eq(must_find("matmul_naive")->exact, 0);
	cr_assert_eq(rl_kernel_ai(must_find("matmul_tiled"), 0), 64.0 / 8);
	for (int d = 1; d <= 128; d *= 2) {
		char name[16];
		snprintf(name, sizeof name, "horner%d", d);
		cr_assert_eq(rl_kernel_ai(must_find(name), 0), d / 8.0);
	}
}

Test(kernels, flops_and_bytes_per_call)
{
	struct rl_kernel_data *d = small_data(1);
	double n = SMALL_N, m = SMALL_MATMUL;
	cr_assert_eq(rl_kernel_flops(must_find("triad"), d), 2 * n);
	cr_assert_eq(rl_kernel_bytes(must_find("triad"), d, 0), 24 * n);
	cr_assert_eq(rl_kernel_bytes(must_find("triad"), d, 1), 32 * n);
	/* 8 partial sums combined by 7 adds */
	cr_assert_eq(rl_kernel_flops(must_find("dot"), d), 2 * n + 7);
	cr_assert_eq(rl_kernel_flops(must_find("sum"), d), n + 7);
	cr_assert_eq(rl_kernel_flops(must_find("dot_f32"), d), 2 * n + 7);
	cr_assert_eq(rl_kernel_flops(must_find("matmul_naive"), d),
		     2 * m * m * m);
	cr_assert_eq(rl_kernel_flops(must_find("matmul_tiled"), d),
		     2 * m * m * m);
	cr_assert_geq(d->nx, 3);
	cr_assert_leq(d->nx * d->ny, SMALL_N);
	cr_assert_eq(rl_kernel_flops(must_find("stencil5"), d),
		     5.0 * (d->nx - 2) * (d->ny - 2));
	rl_kernel_data_free(d);
}

Test(kernels, groups_select_their_kernels)
{
	cr_assert(rl_kernel_selected_by(must_find("horner64"), "horner"));
	cr_assert(!rl_kernel_selected_by(must_find("horner64"), "stream"));
	cr_assert(rl_kernel_selected_by(must_find("matmul_tiled"), "matmul"));
	cr_assert(rl_kernel_selected_by(must_find("dot"), "stream"));
	cr_assert(rl_kernel_selected_by(must_find("dot_f32"), "f32"));
	cr_assert(rl_kernel_selected_by(must_find("triad_mt"), "threads"));
}

Test(kernels, alloc_rejects_tiny_sizes)
{
	char err[256] = "";
	cr_assert_null(rl_kernel_data_alloc(3, 0, 1, err, sizeof err));
	cr_assert(strstr(err, "invalid kernel sizes") != NULL, "%s", err);
	cr_assert_null(rl_kernel_data_alloc(100, 0, 0, err, sizeof err));
}

static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;
static int hook_begins, hook_ends, hook_on_main, hook_bad_name;
static pthread_t main_thread;

static void on_begin(const char *name, void *arg)
{
	pthread_mutex_lock(&hook_mu);
	hook_begins += *(int *)arg;
	hook_on_main += pthread_equal(pthread_self(), main_thread) != 0;
	hook_bad_name += strcmp(name, "triad_mt") != 0;
	pthread_mutex_unlock(&hook_mu);
}

static void on_end(const char *name, void *arg)
{
	(void)name;
	pthread_mutex_lock(&hook_mu);
	hook_ends += *(int *)arg;
	pthread_mutex_unlock(&hook_mu);
}

Test(kernels, threaded_triad_calls_the_hooks_on_each_worker)
{
	struct rl_kernel_data *d = small_data(4);
	int one = 1;
	char err[256] = "";
	const struct rl_kernel *k = must_find("triad_mt");
	main_thread = pthread_self();
	d->thread_begin = on_begin;
	d->thread_end = on_end;
	d->hook_arg = &one;
	k->init(d);
	k->run(d);
	cr_assert_eq(k->check(d, 1, err, sizeof err), 0, "%s", err);
	/* the caller does the first share inside its own region */
	cr_assert_eq(hook_begins, 3);
	cr_assert_eq(hook_ends, 3);
	cr_assert_eq(hook_on_main, 0);
	cr_assert_eq(hook_bad_name, 0);
	rl_kernel_data_free(d);
}

/* Runs cmd through the shell with stderr folded into stdout; returns the
 * exit status (or -1) and the output. */
static int run_cmd(const char *cmd, char *out, size_t outlen)
{
	char full[1024];
	size_t used = 0, got;
	FILE *p;
	snprintf(full, sizeof full, "env -u RLPROF_OUT %s 2>&1", cmd);
	p = popen(full, "r");
	cr_assert_not_null(p, "cannot run %s", cmd);
	while (used + 1 < outlen &&
	       (got = fread(out + used, 1, outlen - 1 - used, p)) > 0)
		used += got;
	out[used] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void require_binary(const char *path)
{
	cr_assert_eq(access(path, X_OK), 0,
		     "'%s' is missing: build it with make all", path);
}

Test(kernels, list_prints_the_table_as_csv)
{
	static char out[16384];
	char line[256];
	require_binary(KBIN);
	cr_assert_eq(run_cmd(KBIN " --list", out, sizeof out), 0, "%s", out);
	const char *header = "kernel,precision,flops_per_elem,bytes_per_elem,"
			     "bytes_wa_per_elem,exact\n";
	cr_assert(strncmp(out, header, strlen(header)) == 0, "got: %.200s",
		  out);
	const char *p = out + strlen(header);
	for (size_t i = 0; i < rl_kernel_count(); i++) {
		const struct rl_kernel *k = rl_kernel_at(i);
		snprintf(line, sizeof line, "%s,%s,%.17g,%.17g,%.17g,%d\n",
			 k->name, k->precision, k->flops_per_elem,
			 k->bytes_per_elem, k->bytes_wa_per_elem, k->exact);
		cr_assert(strncmp(p, line, strlen(line)) == 0,
			  "row %zu: want %s got %.80s", i, line, p);
		p += strlen(line);
	}
	cr_assert_str_eq(p, "");
	cr_assert(strstr(out, "\ntriad,f64,2,24,32,1\n") != NULL);
	cr_assert(strstr(out, "\nhorner128,f64,256,16,24,1\n") != NULL);
}

Test(kernels, bad_options_exit_2_with_a_message)
{
	static const char *const bad[] = {
		"--size abc",	    "--size 0",		"--size 12X",
		"--size -5",	    "--size 8",		"--repeat 0",
		"--repeat 1.5",	    "--threads 0",	"--matmul-n 99999999",
		"--kernels nope",   "--kernels ,",	"--bogus",
		"--size",	    "extra-argument",
	};
	static char out[4096];
	require_binary(KBIN);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char cmd[256];
		snprintf(cmd, sizeof cmd, KBIN " %s", bad[i]);
		int rc = run_cmd(cmd, out, sizeof out);
		cr_expect_eq(rc, 2, "'%s' exited %d: %s", bad[i], rc, out);
		cr_expect(strncmp(out, "rlprof-kernels: ", 16) == 0,
			  "'%s' said: %s", bad[i], out);
	}
	cr_assert_eq(run_cmd(KBIN " --help", out, sizeof out), 0);
	cr_assert(strstr(out, "rlprof-kernels-sim --repeat 2 --matmul-n 256") != NULL,
		  "help lacks the demo's command: %s", out);
	cr_assert(strstr(out, "4 x the last cache level's capacity") != NULL,
		  "help lacks the default size: %s", out);
}

Test(kernels, sizes_beyond_memory_fail_with_a_message)
{
	static char out[4096];
	require_binary(KBIN);
	/* 3 x 8 TiB */
	cr_assert_eq(run_cmd(KBIN " --size 1024G", out, sizeof out), 1, "%s",
		     out);
	cr_assert(strstr(out, "use a smaller --size") != NULL, "%s", out);
}

static void expect_all_ok(const char *bin, const char *args)
{
	static char out[16384];
	char cmd[512];
	int lines = 0;
	snprintf(cmd, sizeof cmd, "%s %s", bin, args);
	int rc = run_cmd(cmd, out, sizeof out);
	cr_assert_eq(rc, 0, "%s exited %d: %s", cmd, rc, out);
	for (const char *p = out; (p = strstr(p, "check: ok")); p++)
		lines++;
	cr_assert_eq(lines, (int)rl_kernel_count(), "%s", out);
	cr_assert_null(strstr(out, "FAILED"));
}

Test(kernels, program_runs_the_kernels_the_list_names_once_in_order)
{
	static char out[8192];
	require_binary(KBIN);
	cr_assert_eq(run_cmd(KBIN " --size 1K --repeat 1 --kernels "
				  "horner,triad,horner8",
			     out, sizeof out),
		     0, "%s", out);
	int lines = 0;
	for (const char *p = out; (p = strstr(p, "check: ok")); p++)
		lines++;
	cr_assert_eq(lines, 9, "%s", out);
	const char *t = strstr(out, "\ntriad "), *h = strstr(out, "\nhorner1 ");
	cr_assert(t && h && t < h, "triad first (table order): %s", out);
	cr_assert_null(strstr(out, "\ndot "));
}

Test(kernels, program_runs_every_kernel_and_checks_it)
{
	require_binary(KBIN);
	expect_all_ok(KBIN, "--size 64K --repeat 2 --matmul-n 70 --threads 3");
}

static int built_with_asan(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 1;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return 1;
#else
	return 0;
#endif
#else
	return 0;
#endif
}

Test(kernels, sim_build_has_no_avx512_and_runs_under_valgrind, .timeout = 300)
{
	static char out[16384];
	require_binary(KBIN_SIM);
	if (run_cmd("objdump --version", out, sizeof out) != 0)
		cr_skip_test("objdump (binutils) is not installed");
	cr_assert_eq(run_cmd("objdump -d " KBIN_SIM " | grep -c zmm", out,
			     sizeof out),
		     1, /* grep -c exits 1 when nothing matched */
		     "zmm instructions in the sim build: %s", out);
	cr_assert_str_eq(out, "0\n");
	if (run_cmd("valgrind --version", out, sizeof out) != 0)
		cr_skip_test("valgrind is not installed");
	if (built_with_asan())
		cr_skip_test("this build is ASan-instrumented (SANITIZE=1); "
			     "ASan programs cannot run under valgrind");
	/* Valgrind 3.19 cannot read DWARF 5 (clang 14's default): the sim
	 * build uses -gdwarf-4, but librlprof.so is built with the global
	 * flags. That is a property of the build, not of the kernels. */
	int rc = run_cmd("valgrind --tool=none -q " KBIN_SIM " --list", out,
			 sizeof out);
	if (rc != 0 && strstr(out, "unhandled dwarf2 abbrev form") &&
	    !strstr(out, "rlprof-kernels-sim\""))
		cr_skip_test("valgrind cannot read the DWARF 5 debug info of a "
			     "library the sim build loads (build with "
			     "-gdwarf-4): %.300s",
			     out);
	cr_assert_eq(rc, 0, "valgrind --list exited %d: %s", rc, out);
	expect_all_ok("valgrind --tool=none -q " KBIN_SIM,
		      "--size 4K --repeat 1 --matmul-n 40 --threads 2");
}
