/* machine.c: the machine model's JSON round trip, rejection of corrupt
 * and newer files (messages asserted), the cache path and the lookups. */
#include <criterion/criterion.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/machine_file.h"
#include "tests/lib/machine.h"
#include "cli/machine_obtain.h"
#include "common/rl_error.h"
#include "analysis/roof_choice.h"

static char dir[] = "/tmp/rlprof-test-machine-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static char *read_text(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s", path);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void sample(struct rl_machine *m)
{
	rl_test_machine_init(m, 2, "Test CPU \"quoted\"");
	m->version = RL_MACHINE_VERSION;
	snprintf(m->isa, sizeof m->isa, "avx2 fma sse2");
	m->mem_bytes = 24ull << 30;
	m->clock_ghz = 3.5;
	m->nominal_ghz = 2.1;
	snprintf(m->caches, sizeof m->caches, "sysfs: L1 48 KiB");
	snprintf(m->probed_at, sizeof m->probed_at, "2026-01-02T03:04:05Z");
	m->quick = 1;
	m->probe_seconds = 1.5;
	struct rl_bw_roof *b = rl_test_machine_add_bw(m, "DRAM", 2, 58.1, 77.5);
	b->nt_gbs = 0; /* not measured: null in the file */
	b->spread_pct = 3.25;
	b->working_set_bytes = 402653184;
	snprintf(b->method, sizeof b->method, "triad 24 B/elem best of 20");
	rl_test_machine_add_bw(m, "L1", 1, 390, 520);
	struct rl_compute_roof *c =
		rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", 2, 214.0);
	c->theoretical_gflops = 224.0;
	c->chains = 16;
	c->latency_cycles = 4.0;
	snprintf(c->method, sizeof c->method, "16 chains");
	c->load_clock_ghz = 3.39;
	c->theoretical_load_gflops = 216.96;
	rl_test_machine_add_compute(m, "scalar", "scalar", "f64", 1, 14.0);
	/* no load clock: null in the file */
}

/* sample() with every field of version 2 set */
static void sample2(struct rl_machine *m)
{
	sample(m);
	m->loadavg1 = 1.75;
	m->bw[0].read_gbs = 61.5;
	m->bw[0].write_gbs = 70.25;
	m->bw[0].write_nt_gbs = 40.5;
	m->bw[0].update_gbs = 33.25;
	m->compute[0].width_bits = 256;
	m->compute[0].fma = 1;
	m->compute[1].width_bits = 64;
	m->compute[1].fma = 0;
	snprintf(m->compute[1].doubt, sizeof m->compute[1].doubt,
		 "measured while this core was shared");
	struct rl_cache_level *l =
		rl_test_machine_add_level(m, "L1", 48 * 1024, 48 * 1024);
	l->ways = 12;
	l->line_bytes = 64;
	l->shared_cpus = 1;
	snprintf(l->source, sizeof l->source, "sysfs");
	l->effective_all_bytes = 96 * 1024;
	l = rl_test_machine_add_level(m, "L3", 480ull << 20, 68ull << 20);
	l->ways = 16;
	l->line_bytes = 64;
	l->shared_cpus = 2;
	snprintf(l->source, sizeof l->source, "sysfs");
	l->effective_all_bytes = 0; /* not seen: null in the file */
}

Test(machine, json_round_trip_of_version_2_fields)
{
	static struct rl_machine m, back;
	char path[256], err[512];
	sample2(&m);
	snprintf(path, sizeof path, "%s/m2.json", dir);
	cr_assert_eq(rl_machine_save(path, &m, err, sizeof err), 0, "%s", err);
	const char *text = read_text(path);
	cr_expect(strstr(text, "\"effective_all_bytes\": null"), "%s", text);
	cr_expect(strstr(text, "\"write_nt_gbs\": 40.5"), "%s", text);
	cr_expect(strstr(text, "\"fma\": true"), "%s", text);
	cr_expect(strstr(text, "\"fma\": false"), "%s", text);
	cr_expect(strstr(text, "\"loadavg1\": 1.75"), "%s", text);
	cr_assert_eq(rl_machine_load(path, &back, err, sizeof err), 0, "%s",
		     err);
	cr_expect_float_eq(back.loadavg1, 1.75, 1e-9);
	cr_expect_float_eq(back.bw[0].read_gbs, 61.5, 1e-9);
	cr_expect_float_eq(back.bw[0].write_gbs, 70.25, 1e-9);
	cr_expect_float_eq(back.bw[0].write_nt_gbs, 40.5, 1e-9);
	cr_expect_float_eq(back.bw[0].update_gbs, 33.25, 1e-9);
	cr_expect_eq(back.bw[1].read_gbs, 0);
	cr_expect_eq(back.compute[0].width_bits, 256);
	cr_expect_eq(back.compute[0].fma, 1);
	cr_expect_eq(back.compute[1].width_bits, 64);
	cr_expect_eq(back.compute[1].fma, 0);
	cr_expect_str_eq(back.compute[0].doubt, "");
	cr_expect_str_eq(back.compute[1].doubt,
			 "measured while this core was shared");
	cr_expect(strstr(text, "\"doubt\": null"), "%s", text);
	cr_assert_eq(back.n_levels, 2);
	for (size_t i = 0; i < 2; i++) {
		cr_expect_str_eq(back.levels[i].level, m.levels[i].level);
		cr_expect_eq(back.levels[i].claimed_bytes,
			     m.levels[i].claimed_bytes);
		cr_expect_eq(back.levels[i].ways, m.levels[i].ways);
		cr_expect_eq(back.levels[i].line_bytes, m.levels[i].line_bytes);
		cr_expect_eq(back.levels[i].shared_cpus,
			     m.levels[i].shared_cpus);
		cr_expect_str_eq(back.levels[i].source, m.levels[i].source);
		cr_expect_eq(back.levels[i].effective_bytes,
			     m.levels[i].effective_bytes);
		cr_expect_eq(back.levels[i].effective_all_bytes,
			     m.levels[i].effective_all_bytes);
	}
	/* unknown load average: null, read back as -1 */
	m.loadavg1 = -1;
	cr_assert_eq(rl_machine_save(path, &m, err, sizeof err), 0, "%s", err);
	cr_expect(strstr(read_text(path), "\"loadavg1\": null"));
	cr_assert_eq(rl_machine_load(path, &back, err, sizeof err), 0, "%s",
		     err);
	cr_expect_eq(back.loadavg1, -1);
}

/* A file from before version 2 still loads (rlprof report on old
 * results), its new fields empty; as the cached model it is outdated:
 * rl_machine_obtain without probing says so instead of handing out a
 * model whose read/fill roofs and cache levels are all zero. */
Test(machine, version_1_loads_but_is_not_used_as_the_cache)
{
	static struct rl_machine m;
	char path[3000], err[1024], want[4200];
	const char *v1 =
		"{\"format\": \"rlprof-machine\", \"version\": 1, "
		"\"cores\": 2, \"bandwidth\": [{\"level\": \"DRAM\", "
		"\"threads\": 1, \"stream_gbs\": 20}], \"compute\": "
		"[{\"name\": \"avx2-fma\", \"kind\": \"peak\", "
		"\"precision\": \"f64\", \"threads\": 1, \"gflops\": 50}]}";
	snprintf(path, sizeof path, "%s/v1.json", dir);
	write_text(path, v1);
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), 0, "%s", err);
	cr_expect_eq(m.version, 1);
	cr_expect_eq(m.n_levels, 0);
	cr_expect_eq(m.bw[0].read_gbs, 0);
	cr_expect_eq(m.compute[0].width_bits, 0);
	cr_expect_eq(m.loadavg1, -1);

	setenv("XDG_CACHE_HOME", dir, 1);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0, "%s", err);
	char sub[300];
	snprintf(sub, sizeof sub, "%s/rlprof", dir);
	mkdir(sub, 0755);
	write_text(path, v1);
	int probed = 1;
	cr_assert_eq(rl_machine_obtain(&m, 0, &probed, err, sizeof err),
		     RL_ENOENT);
	cr_expect_eq(probed, 0);
	snprintf(want, sizeof want,
		 "the machine model in '%s' is from an older rlprof (no "
		 "cache levels, read and fill roofs): run 'rlprof probe "
		 "--force'",
		 path);
	cr_expect_str_eq(err, want);
	cr_expect_eq(m.n_bw, 0, "an outdated model is not handed out");
}

TestSuite(machine, .init = setup, .fini = teardown);

Test(machine, json_round_trip)
{
	struct rl_machine m, back;
	char path[256], err[512];
	sample(&m);
	snprintf(path, sizeof path, "%s/sub/dir/m.json", dir);
	cr_assert_eq(rl_machine_save(path, &m, err, sizeof err), 0, "%s", err);
	cr_assert_eq(rl_machine_load(path, &back, err, sizeof err), 0, "%s",
		     err);
	cr_expect_eq(back.version, 2);
	cr_expect_str_eq(back.cpu_model, "Test CPU \"quoted\"");
	cr_expect_str_eq(back.isa, "avx2 fma sse2");
	cr_expect_eq(back.cores, 2);
	cr_expect_eq(back.mem_bytes, 24ull << 30);
	cr_expect_float_eq(back.clock_ghz, 3.5, 1e-9);
	cr_expect_float_eq(back.nominal_ghz, 2.1, 1e-9);
	cr_expect_str_eq(back.caches, "sysfs: L1 48 KiB");
	cr_expect_str_eq(back.probed_at, "2026-01-02T03:04:05Z");
	cr_expect_eq(back.quick, 1);
	cr_assert_eq(back.n_bw, 2);
	cr_expect_str_eq(back.bw[0].level, "DRAM");
	cr_expect_eq(back.bw[0].threads, 2);
	cr_expect_float_eq(back.bw[0].stream_gbs, 58.1, 1e-9);
	cr_expect_float_eq(back.bw[0].moved_gbs, 77.5, 1e-9);
	cr_expect_eq(back.bw[0].nt_gbs, 0);
	cr_expect_float_eq(back.bw[0].spread_pct, 3.25, 1e-9);
	cr_expect_eq(back.bw[0].working_set_bytes, 402653184);
	cr_expect_str_eq(back.bw[0].method, "triad 24 B/elem best of 20");
	cr_assert_eq(back.n_compute, 2);
	cr_expect_str_eq(back.compute[0].name, "avx2-fma");
	cr_expect_str_eq(back.compute[0].kind, "peak");
	cr_expect_str_eq(back.compute[0].precision, "f64");
	cr_expect_eq(back.compute[0].threads, 2);
	cr_expect_float_eq(back.compute[0].gflops, 214.0, 1e-9);
	cr_expect_float_eq(back.compute[0].theoretical_gflops, 224.0, 1e-9);
	cr_expect_eq(back.compute[0].chains, 16);
	cr_expect_float_eq(back.compute[0].latency_cycles, 4.0, 1e-9);
	cr_expect_float_eq(back.compute[0].load_clock_ghz, 3.39, 1e-9);
	cr_expect_float_eq(back.compute[0].theoretical_load_gflops, 216.96,
			   1e-9);
	cr_expect_eq(back.compute[1].load_clock_ghz, 0);
	cr_expect_eq(back.compute[1].theoretical_load_gflops, 0);

	const char *text = read_text(path);
	cr_expect_not_null(strstr(text, "\"format\": \"rlprof-machine\""));
	cr_expect_not_null(strstr(text, "\"version\": 2"));
	cr_expect_not_null(strstr(text, "\"nt_gbs\": null"), "%s", text);
	cr_expect_not_null(strstr(text, "\"load_clock_ghz\": 3.39"), "%s",
			   text);
	cr_expect_not_null(strstr(text, "\"theoretical_load_gflops\": null"),
			   "%s", text);
}

/* A file written before the load-clock fields reads, with them unknown. */
Test(machine, file_without_load_clock_reads)
{
	struct rl_machine m;
	char path[256], err[512];
	snprintf(path, sizeof path, "%s/old.json", dir);
	write_text(path,
		   "{\"format\": \"rlprof-machine\", \"version\": 1, "
		   "\"cpu_model\": \"Old\", \"cores\": 2, \"clock_ghz\": 3.59, "
		   "\"bandwidth\": [], \"compute\": [{\"name\": \"avx512-fma\", "
		   "\"kind\": \"peak\", \"precision\": \"f64\", \"threads\": 2, "
		   "\"gflops\": 207.6, \"theoretical_gflops\": 229.9, "
		   "\"chains\": 9, \"latency_cycles\": 4.2, "
		   "\"method\": \"9 chains fma on 2 cores best of 8\"}]}");
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), 0, "%s", err);
	cr_assert_eq(m.n_compute, 1);
	cr_expect_float_eq(m.compute[0].gflops, 207.6, 1e-9);
	cr_expect_float_eq(m.compute[0].theoretical_gflops, 229.9, 1e-9);
	cr_expect_eq(m.compute[0].load_clock_ghz, 0);
	cr_expect_eq(m.compute[0].theoretical_load_gflops, 0);
}

Test(machine, corrupt_file_rejected)
{
	struct rl_machine m;
	char path[256], err[512], want[512];
	snprintf(path, sizeof path, "%s/bad.json", dir);
	write_text(path, "{\"format\": \"rlprof-machine\", \"version\": 1,");
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), RL_EFORMAT);
	snprintf(want, sizeof want, "cannot parse '%s': ", path);
	cr_expect_eq(strncmp(err, want, strlen(want)), 0, "%s", err);
	const char *tail = ": delete it or run 'rlprof probe --force'";
	cr_expect(strlen(err) > strlen(tail) &&
			  !strcmp(err + strlen(err) - strlen(tail), tail),
		  "%s", err);
	cr_expect_eq(m.n_bw, 0);
}

Test(machine, other_json_rejected)
{
	struct rl_machine m;
	char path[256], err[512], want[512];
	snprintf(path, sizeof path, "%s/other.json", dir);
	write_text(path, "{\"version\": 1, \"bandwidth\": [], \"compute\": []}");
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), RL_EFORMAT);
	snprintf(want, sizeof want,
		 "cannot parse '%s': not an rlprof machine model (no "
		 "\"format\": \"rlprof-machine\"): delete it or run 'rlprof "
		 "probe --force'",
		 path);
	cr_expect_str_eq(err, want);
}

Test(machine, newer_version_rejected)
{
	struct rl_machine m;
	char path[256], err[512], want[512];
	snprintf(path, sizeof path, "%s/new.json", dir);
	write_text(path, "{\"format\": \"rlprof-machine\", \"version\": 3, "
			 "\"bandwidth\": [], \"compute\": [], \"new\": {}}");
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), RL_EVERSION);
	snprintf(want, sizeof want,
		 "'%s' was written by a newer rlprof (machine version 3, this "
		 "one reads 2)",
		 path);
	cr_expect_str_eq(err, want);
}

Test(machine, missing_file)
{
	struct rl_machine m;
	char path[256], err[512], want[512];
	snprintf(path, sizeof path, "%s/none.json", dir);
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), RL_ENOENT);
	snprintf(want, sizeof want,
		 "cannot open '%s': No such file or directory", path);
	cr_expect_str_eq(err, want);
}

Test(machine, cache_path_xdg_and_home)
{
	char path[4096], err[256], want[512];
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0, "%s", err);
	cr_expect_eq(strncmp(path, "/x/cache/rlprof/machine-", 24), 0, "%s",
		     path);
	cr_expect_str_eq(path + strlen(path) - 8, "GiB.json");
	cpu_set_t set;
	cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
	long cpus = CPU_COUNT(&set);
	snprintf(want, sizeof want, "-%ldcpu-", cpus);
	cr_expect_not_null(strstr(path, want), "%s lacks %s", path, want);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/h", 1);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0);
	cr_expect_eq(strncmp(path, "/h/.cache/rlprof/machine-", 25), 0, "%s",
		     path);
}

Test(machine, obtain_keeps_a_corrupt_cache)
{
	struct rl_machine m;
	char path[4096], err[512];
	int probed = -1;
	setenv("XDG_CACHE_HOME", dir, 1);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0);
	char sub[300];
	snprintf(sub, sizeof sub, "%s/rlprof", dir);
	mkdir(sub, 0755);
	write_text(path, "garbage");
	cr_expect_eq(rl_machine_obtain(&m, 1, &probed, err, sizeof err),
		     RL_EFORMAT);
	cr_expect_eq(probed, 0);
	cr_expect_not_null(strstr(err, "rlprof probe --force"), "%s", err);
	cr_expect_str_eq(read_text(path), "garbage");
}

Test(machine, obtain_loads_the_cache_and_never_probes_unasked)
{
	struct rl_machine m, out;
	char path[4096], err[512];
	int probed = -1;
	setenv("XDG_CACHE_HOME", dir, 1);
	cr_assert_eq(rl_machine_cache_path(path, sizeof path, err, sizeof err),
		     0);
	cr_expect_eq(rl_machine_obtain(&out, 0, &probed, err, sizeof err),
		     RL_ENOENT);
	cr_expect_not_null(strstr(err, "run 'rlprof probe'"), "%s", err);
	cr_expect_eq(probed, 0);
	sample(&m);
	cr_assert_eq(rl_machine_save(path, &m, err, sizeof err), 0, "%s", err);
	cr_assert_eq(rl_machine_obtain(&out, 1, &probed, err, sizeof err), 0,
		     "%s", err);
	cr_expect_eq(probed, 0);
	cr_expect_str_eq(out.cpu_model, m.cpu_model);
}

/* A bandwidth roof whose moved figure is triad's 32/24 of stream. */
static void add_bw(struct rl_machine *m, const char *level, unsigned t,
		   double gbs)
{
	rl_test_machine_add_bw(m, level, t, gbs, gbs * 4 / 3);
}

Test(machine, lookups)
{
	static struct rl_machine m;
	memset(&m, 0, sizeof m);
	add_bw(&m, "DRAM", 1, 30);
	add_bw(&m, "DRAM", 4, 50);
	add_bw(&m, "L1", 1, 400);
	cr_expect_float_eq(rl_roof_bw_nearest(&m, "DRAM", 1)->stream_gbs, 30, 0);
	cr_expect_float_eq(rl_roof_bw_nearest(&m, "DRAM", 4)->stream_gbs, 50, 0);
	cr_expect_float_eq(rl_roof_bw_nearest(&m, "DRAM", 3)->stream_gbs, 50, 0);
	cr_expect_float_eq(rl_roof_bw_nearest(&m, "DRAM", 2)->stream_gbs, 30, 0);
	cr_expect_float_eq(rl_roof_bw_nearest(&m, "L1", 8)->stream_gbs, 400, 0);
	cr_expect_null(rl_roof_bw_nearest(&m, "L3", 1));

	rl_test_machine_add_compute(&m, "avx2-fma", "peak", "f64", 1, 55);
	rl_test_machine_add_compute(&m, "avx512-fma", "peak", "f64", 1, 108);
	rl_test_machine_add_compute(&m, "avx512-fma", "single-chain",
				    "f64", 1, 13);
	rl_test_machine_add_compute(&m, "avx512-fma", "add-only",
				    "f64", 1, 300); /* not a peak */
	rl_test_machine_add_compute(&m, "avx512-fma", "peak", "f64", 2, 214);
	rl_test_machine_add_compute(&m, "avx512-fma", "peak", "f32", 1, 217);
	const struct rl_compute_roof *p = rl_roof_peak_nearest(&m, "f64", 1);
	cr_assert_not_null(p);
	cr_expect_str_eq(p->name, "avx512-fma");
	cr_expect_float_eq(p->gflops, 108, 0);
	cr_expect_float_eq(rl_roof_peak_nearest(&m, "f64", 2)->gflops, 214, 0);
	cr_expect_float_eq(rl_roof_peak_nearest(&m, "f32", 2)->gflops, 217, 0);
	cr_expect_null(rl_roof_peak_nearest(&m, "f16", 1));
}

Test(machine, ridge_is_peak_over_bandwidth)
{
	cr_expect_float_eq(rl_ridge(1792, 76.8), 1792 / 76.8, 1e-12);
	cr_expect_float_eq(rl_ridge(214, 58.1), 214 / 58.1, 1e-12);
	cr_expect(isnan(rl_ridge(100, 0)));
	cr_expect(isnan(rl_ridge(NAN, 10)));
}

/* A damaged model reads without undefined conversions (a negative or
 * huge count reads as 0 = unknown), and a long name is cut at a character
 * boundary so that it stays valid UTF-8 for the JSON and SVG writers. */
Test(machine, damaged_numbers_and_long_names_read_safely)
{
	struct rl_machine m;
	char path[256], err[512], text[2048];
	int n = snprintf(text, sizeof text,
			 "{\"format\": \"rlprof-machine\", \"version\": 1, "
			 "\"cpu_model\": \"");
	for (int i = 0; i < 100; i++) /* 200 bytes of "é" */
		n += snprintf(text + n, sizeof text - (size_t)n, "\\u00e9");
	snprintf(text + n, sizeof text - (size_t)n,
		 "\", \"cores\": -5, \"mem_bytes\": 1e300, \"clock_ghz\": -3, "
		 "\"bandwidth\": [{\"level\": \"DRAM\", \"threads\": 1e300, "
		 "\"stream_gbs\": 20, \"working_set_bytes\": -1}], "
		 "\"compute\": [{\"name\": \"k\", \"kind\": \"peak\", "
		 "\"precision\": \"f64\", \"threads\": 4294967296, "
		 "\"chains\": -1, \"gflops\": -7}]}");
	snprintf(path, sizeof path, "%s/damaged.json", dir);
	write_text(path, text);
	cr_assert_eq(rl_machine_load(path, &m, err, sizeof err), 0, "%s", err);
	cr_expect_eq(m.cores, 0);
	cr_expect_eq(m.mem_bytes, 0);
	cr_expect_eq(m.clock_ghz, 0);
	cr_expect_eq(m.bw[0].threads, 0);
	cr_expect_eq(m.bw[0].working_set_bytes, 0);
	cr_expect_eq(m.compute[0].threads, 0);
	cr_expect_eq(m.compute[0].chains, 0);
	cr_expect_eq(m.compute[0].gflops, 0);
	/* 127 bytes fit: 63 whole "é", not half of the 64th */
	cr_expect_eq(strlen(m.cpu_model), 126);
	cr_expect_eq((unsigned char)m.cpu_model[125], 0xa9);
}
