/*
 * rlprof-kernels - runs the reference kernels as annotated regions, so
 * that `rlprof run rlprof-kernels` places each of them on the roofline.
 *
 * Every repetition of a kernel is one region entry named after the
 * kernel, followed by RL_REGION_EXPECT with its exact flops and its bytes
 * in STREAM convention. Inputs are set and pages first-touched outside
 * the regions; results are checked against analytic values afterwards
 * (exit 1 when one is wrong). Exit codes: 0 ok, 1 a check failed or no
 * memory, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernels/kernels.h"
#include "machine/machine_file.h"
#include "common/rl_error.h"
#include "runtime/rlprof.h"
#include "kernels/sizing.h"

#define PROG "rlprof-kernels"
#define MAX_THREADS 1024

struct options {
	size_t n;        /* 0: from the machine model (sizing.h) */
	int repeat;
	size_t matmul_n;
	int threads;
	const char *kernels;
	int list;
	int sizes;
};

/* The options, with their help text beside them. */
static const struct opt_row {
	const char *name;
	int has_arg;
	int key;
	const char *arg;
	const char *help;
} opt_rows[] = {
	{"size", 1, 's', "N",
	 "elements per array (K, M, G suffixes: x 1024^1..3);\n"
	 "default: 4 x the last cache level's capacity for\n"
	 "all threads (machine model), rounded up to Mi\n"
	 "elements; 16M doubles (128 MiB) without a model"},
	{"repeat", 1, 'r', "R", "repetitions per kernel (default 5)"},
	{"kernels", 1, 'k', "LIST",
	 "comma-separated kernels or groups: stream, f32,\n"
	 "stencil, horner, matmul, threads, all (default all)"},
	{"matmul-n", 1, 'm', "N", "matrix order of the matmuls (default 512)"},
	{"threads", 1, 't', "N",
	 "threads of triad_mt (default: online CPUs)"},
	{"list", 0, 'l', NULL,
	 "print the kernel table as CSV and exit"},
	{"sizes", 0, 'z', NULL,
	 "print the array size chosen and why, and exit"},
	{"help", 0, 'h', NULL, "print this help and exit"},
};
#define N_OPTS (sizeof opt_rows / sizeof opt_rows[0])

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " [options]\n\n"
		   "Runs reference kernels with known flops and bytes as "
		   "rlprof regions\n(one region entry per repetition) and "
		   "checks their results.\n\noptions:\n");
	for (size_t i = 0; i < N_OPTS; i++) {
		char left[64];
		const char *h = opt_rows[i].help;
		snprintf(left, sizeof left, "--%s%s%s", opt_rows[i].name,
			 opt_rows[i].arg ? " " : "",
			 opt_rows[i].arg ? opt_rows[i].arg : "");
		fprintf(f, "  %-18s ", left);
		for (; *h; h++) {
			fputc(*h, f);
			if (*h == '\n')
				fprintf(f, "  %-18s ", "");
		}
		fputc('\n', f);
	}
	fprintf(f,
		"\nUnder the simulated PMU (10-60x slower) run the -sim build "
		"(no AVX-512,\nno FMA), as the demo does:\n"
		"  rlprof run -b sim " PROG "-sim --repeat 2 --matmul-n 256\n"
		"\nKernels run in table order (see --list), each once however often\n"
		"the list names it.\n"
		"\nexit status: 0 ok, 1 a result check failed or the arrays do "
		"not fit\nin memory, 2 usage\n");
}

static int usage_error(const char *fmt, const char *what)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\n" PROG ": try '" PROG " --help'\n");
	return 2;
}

/* A positive count with an optional K/M/G (binary) suffix. */
static int parse_count(const char *s, int suffixes, unsigned long long max,
		       unsigned long long *out)
{
	char *end = NULL;
	unsigned long long v, mul = 1;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (suffixes && *end) {
		switch (*end) {
		case 'k': case 'K': mul = 1ULL << 10; break;
		case 'm': case 'M': mul = 1ULL << 20; break;
		case 'g': case 'G': mul = 1ULL << 30; break;
		default: return -1;
		}
		end++;
	}
	if (*end || v == 0 || v > max / mul)
		return -1;
	*out = v * mul;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	struct option longopts[N_OPTS + 1];
	unsigned long long v;
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	*o = (struct options){.n = 0,
			      .repeat = 5,
			      .matmul_n = 512,
			      .threads = nproc > 0 ? (int)(nproc < MAX_THREADS
							     ? nproc
							     : MAX_THREADS)
						   : 1,
			      .kernels = "all"};
	for (size_t i = 0; i < N_OPTS; i++)
		longopts[i] = (struct option){opt_rows[i].name,
					      opt_rows[i].has_arg
						      ? required_argument
						      : no_argument,
					      NULL, opt_rows[i].key};
	longopts[N_OPTS] = (struct option){0, 0, 0, 0};
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_count(optarg, 1, SIZE_MAX / 8, &v) || v < 16)
				return usage_error(
					"invalid size '%s' (need 16 or more "
					"elements, optional suffix K, M or G)",
					optarg);
			o->n = (size_t)v;
			break;
		case 'r':
			if (parse_count(optarg, 0, 1000000, &v))
				return usage_error(
					"invalid repeat count '%s' (need 1 to "
					"1000000)",
					optarg);
			o->repeat = (int)v;
			break;
		case 'm':
			if (parse_count(optarg, 1, 65536, &v))
				return usage_error(
					"invalid matrix order '%s' (need 1 to "
					"65536)",
					optarg);
			o->matmul_n = (size_t)v;
			break;
		case 't':
			if (parse_count(optarg, 0, MAX_THREADS, &v))
				return usage_error(
					"invalid thread count '%s' (need 1 to "
					"1024)",
					optarg);
			o->threads = (int)v;
			break;
		case 'k':
			o->kernels = optarg;
			break;
		case 'l':
			o->list = 1;
			break;
		case 'z':
			o->sizes = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			return usage_error("option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

static void print_list(void)
{
	printf("kernel,precision,flops_per_elem,bytes_per_elem,"
	       "bytes_wa_per_elem,exact\n");
	for (size_t i = 0; i < rl_kernel_count(); i++) {
		const struct rl_kernel *k = rl_kernel_at(i);
		printf("%s,%s,%.17g,%.17g,%.17g,%d\n", k->name, k->precision,
		       k->flops_per_elem, k->bytes_per_elem,
		       k->bytes_wa_per_elem, k->exact);
	}
}

/* Marks in sel[] the kernels the comma list names; 2 on an unknown name. */
static int select_kernels(const char *list, char *sel)
{
	char buf[1024];
	char *save = NULL;
	int any = 0;
	if (strlen(list) >= sizeof buf)
		return usage_error("kernel list '%.40s...' is too long", list);
	snprintf(buf, sizeof buf, "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		int hit = 0;
		for (size_t i = 0; i < rl_kernel_count(); i++)
			if (rl_kernel_selected_by(rl_kernel_at(i), t))
				sel[i] = hit = 1;
		if (!hit)
			return usage_error(
				"unknown kernel or group '%s' (see --list; "
				"groups: stream, f32, stencil, horner, "
				"matmul, threads, all)",
				t);
		any = 1;
	}
	if (!any)
		return usage_error("empty kernel list '%s'", list);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void region_begin_hook(const char *name, void *arg)
{
	(void)name; /* unused with -DRLPROF_DISABLE (tests' kernels-plain) */
	(void)arg;
	RL_REGION_BEGIN(name);
}

static void region_end_hook(const char *name, void *arg)
{
	(void)name;
	(void)arg;
	RL_REGION_END(name);
}

/* Runs one kernel: init, repeat x (region, expect), check, summary.
 * Returns 0, or 1 when the check failed. */
static int run_kernel(const struct rl_kernel *k, struct rl_kernel_data *d,
		      int repeat)
{
	double flops = rl_kernel_flops(k, d);
	double bytes = rl_kernel_bytes(k, d, 0);
	double best = 1e300;
	char err[256] = "";
	int rc;

	k->init(d);
	for (int r = 0; r < repeat; r++) {
		double t0 = now_s(), dt;
		RL_REGION_BEGIN(k->name);
		k->run(d);
		RL_REGION_END(k->name);
		dt = now_s() - t0;
		RL_REGION_EXPECT(k->name, flops, bytes);
		if (dt < best)
			best = dt;
	}
	rc = k->check(d, repeat, err, sizeof err);
	printf("%-13s %s %12.0f elem  best %9.3f ms  %8.2f GFLOP/s  "
	       "%7.2f GB/s (%g B/elem, %g with write-allocate)  check: %s\n",
	       k->name, k->precision, rl_kernel_elems(k, d), best * 1e3,
	       best > 0 ? flops / best * 1e-9 : 0.0,
	       best > 0 ? bytes / best * 1e-9 : 0.0, k->bytes_per_elem,
	       k->bytes_wa_per_elem, rc ? "FAILED" : "ok");
	fflush(stdout);
	if (rc) {
		fprintf(stderr, PROG ": wrong result: %s\n", err);
		return 1;
	}
	return 0;
}

static uint64_t mem_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

/* o->n from the machine model unless --size gave it; why says how. */
static void choose_size(struct options *o, char *why, size_t len)
{
	struct rl_machine *m;
	char err[512] = "";
	int rc;

	if (o->n) {
		snprintf(why, len, "%zu doubles (%zu MiB per array), from --size",
			 o->n, o->n * sizeof(double) >> 20);
		return;
	}
	m = calloc(1, sizeof *m);
	rc = m ? rl_machine_load_cached(m, NULL, 0, err, sizeof err) : RL_ENOMEM;
	o->n = rl_kernels_stream_size(rc == 0 ? m : NULL,
				      rc == RL_ENOENT ? NULL : err, mem_bytes(),
				      why, len);
	free(m);
}

/* Refuses sizes that would not fit in memory: first touch would end in
 * the OOM killer rather than in a message. */
static int too_big(size_t n, size_t matmul_n)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double need = 3.0 * (double)n * sizeof(double) +
		      3.0 * (double)matmul_n * (double)matmul_n * sizeof(double);
	double have = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
	if (have == 0 || need <= 0.8 * have)
		return 0;
	fprintf(stderr,
		PROG ": the arrays need %.0f MiB but this machine has %.0f MiB "
		     "of memory: use a smaller --size or --matmul-n\n",
		need / 1048576, have / 1048576);
	return 1;
}

int main(int argc, char **argv)
{
	struct options o;
	struct rl_kernel_data *d;
	char err[256];
	char *sel;
	int rc, failed = 0, need_matmul = 0;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	if (o.list) {
		print_list();
		return 0;
	}
	char why[1024];
	choose_size(&o, why, sizeof why);
	if (o.sizes) {
		printf("%zu\n%s\n", o.n, why);
		return 0;
	}
	sel = calloc(rl_kernel_count(), 1);
	if (!sel) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	rc = select_kernels(o.kernels, sel);
	if (rc) {
		free(sel);
		return rc;
	}
	for (size_t i = 0; i < rl_kernel_count(); i++)
		if (sel[i] && rl_kernel_at(i)->shape == RL_KSHAPE_MATMUL)
			need_matmul = 1;
	if (too_big(o.n, need_matmul ? o.matmul_n : 0)) {
		free(sel);
		return 1;
	}
	d = rl_kernel_data_alloc(o.n, need_matmul ? o.matmul_n : 0, o.threads,
				 err, sizeof err);
	if (!d) {
		fprintf(stderr, PROG ": %s (try a smaller --size)\n", err);
		free(sel);
		return 1;
	}
	d->thread_begin = region_begin_hook;
	d->thread_end = region_end_hook;
	printf("rlprof-kernels: %zu elements per array (%zu MiB), stencil "
	       "%zu x %zu, matmul %zu, %d threads, %d repetitions\n"
	       "rlprof-kernels: array size: %s\n",
	       d->n, d->n * sizeof(double) >> 20, d->nx, d->ny, o.matmul_n,
	       o.threads, o.repeat, why);
	for (size_t i = 0; i < rl_kernel_count(); i++)
		if (sel[i])
			failed |= run_kernel(rl_kernel_at(i), d, o.repeat);
	rl_kernel_data_free(d);
	free(sel);
	return failed ? 1 : 0;
}
