/*
 * Native timing for simulated counts: rl_results_load_dir() merging
 * DIR/raw-native into DIR/raw (fixture directories written here), the
 * analysis of rows whose time is native, and `rlprof run -b sim` end to
 * end (twice: --sim-timing native and sim).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/render.h"
#include "analysis/report.h"
#include "results/run_results.h"
#include "common/rl_error.h"
#include "tests/lib/machine.h"
#include "tests/lib/sim.h"
#include "cli/machine_obtain.h"

#define BIT(c) (UINT64_C(1) << (c))

/* ---- fixture directories ---- */

struct fx_region {
	const char *name;
	unsigned calls;
	unsigned long long time_ns;
};

struct fx_thread {
	unsigned long long tid;
	unsigned index;
	struct fx_region reg[4]; /* name NULL ends */
};

/* Writes DIR/SUB/rlprof-PID.json: a simulated process (sim != 0: flops
 * and DRAM bytes with scope "simulated") or a time-only one. */
static void fx_write(const char *dir, const char *sub, long pid,
		     unsigned long long start_ns, int sim, int complete,
		     const struct fx_thread *th, size_t n_th)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, sub);
	mkdir(path, 0777);
	snprintf(path, sizeof path, "%s/%s/rlprof-%ld.json", dir, sub, pid);
	f = fopen(path, "w");
	cr_assert_not_null(f, "cannot write %s", path);
	fprintf(f, "{\"format\":\"rlprof-results\",\"version\":1,\"pid\":%ld,"
		"\"program\":\"./app\",\"backend\":\"%s\",\"start_ns\":%llu,"
		"\"end_ns\":%llu,\"complete\":%s,\"signal\":%d,\"counters\":[",
		pid, sim ? "sim" : "time", start_ns, start_ns + 1000000000ull,
		complete ? "true" : "false", complete ? 0 : 11);
	if (sim)
		fputs("{\"name\":\"flops_f64_256\",\"unit\":\"flop\",\"scope\":"
		      "\"simulated\",\"method\":\"simulated by rlprofsim\"},"
		      "{\"name\":\"dram_read_bytes\",\"unit\":\"B\",\"scope\":"
		      "\"simulated\",\"method\":\"simulated cache\"},"
		      "{\"name\":\"dram_write_bytes\",\"unit\":\"B\",\"scope\":"
		      "\"simulated\",\"method\":\"simulated cache\"}",
		      f);
	fputs("],\"threads\":[", f);
	for (size_t t = 0; t < n_th; t++) {
		fprintf(f, "%s{\"tid\":%llu,\"index\":%u,\"regions\":[",
			t ? "," : "", th[t].tid, th[t].index);
		for (size_t i = 0; i < 4 && th[t].reg[i].name; i++) {
			const struct fx_region *r = &th[t].reg[i];
			fprintf(f, "%s{\"name\":\"%s\",\"calls\":%u,\"time_ns\":%llu",
				i ? "," : "", r->name, r->calls, r->time_ns);
			if (sim) /* 1e9 flops, 1e9 + 1e9 bytes: AI 0.5 */
				fputs(",\"counters\":{"
				      "\"flops_f64_256\":{\"value\":1000000000,"
				      "\"scaled\":1e9,\"enabled_ns\":1,\"running_ns\":1},"
				      "\"dram_read_bytes\":{\"value\":1000000000,"
				      "\"scaled\":1e9,\"enabled_ns\":1,\"running_ns\":1},"
				      "\"dram_write_bytes\":{\"value\":1000000000,"
				      "\"scaled\":1e9,\"enabled_ns\":1,\"running_ns\":1}}",
				      f);
			else
				fputs(",\"counters\":{}", f);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	fclose(f);
}

/* DIR/SUB/rlprof-PID.json's first region made one of process scope (2
 * threads ran): its calls' wall time and the CPU time of every thread. */
static void fx_scope(const char *dir, const char *sub, long pid,
		     unsigned long long time_ns, unsigned long long cpu_ns)
{
	char path[512], scope[256], *text, *at;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s/rlprof-%ld.json", dir, sub, pid);
	text = e2e_slurp(path);
	cr_assert_not_null(text);
	at = strstr(text, ",\"counters\":{");
	cr_assert_not_null(at);
	snprintf(scope, sizeof scope,
		 ",\"scope\":{\"calls\":1,\"time_ns\":%llu,\"cpu_ns\":%llu,"
		 "\"threads\":2,\"cpus\":2}", time_ns, cpu_ns);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "%.*s%s%s", (int)(at - text), text, scope, at);
	fclose(f);
	free(text);
}

static void fx_run_json(const char *dir, const char *extra)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/run.json", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "{\"format\":\"rlprof-run\",\"version\":1,"
		"\"program\":\"/bin/app\",\"backend\":\"sim\",\"exit_status\":0%s}\n",
		extra);
	fclose(f);
}

static void load(const char *dir, struct rl_run_results *res)
{
	char err[512] = "";
	int rc = rl_results_load_dir(dir, res, err, sizeof err);
	cr_assert_eq(rc, 0, "load: %d %s", rc, err);
}

static const struct rl_region_stats *region(const struct rl_run_results *res,
					    long pid, unsigned index,
					    const char *name)
{
	for (size_t p = 0; p < res->n_procs; p++) {
		const struct rl_process_results *pr = &res->procs[p];
		if (pr->pid != pid)
			continue;
		for (size_t t = 0; t < pr->n_threads; t++) {
			if (pr->threads[t].index != index)
				continue;
			for (size_t i = 0; i < pr->threads[t].n_regions; i++)
				if (strcmp(pr->threads[t].regions[i].name,
					   name) == 0)
					return &pr->threads[t].regions[i];
		}
	}
	cr_assert_fail("no region '%s' in pid %ld thread %u", name, pid, index);
	return NULL;
}

/* The first warning (of any process) containing text, or NULL. */
static const struct rl_warning *warning(const struct rl_run_results *res,
					const char *text)
{
	for (size_t p = 0; p < res->n_procs; p++)
		for (size_t i = 0; i < res->procs[p].n_warnings; i++)
			if (strstr(res->procs[p].warnings[i].message, text))
				return &res->procs[p].warnings[i];
	return NULL;
}

static size_t n_warnings(const struct rl_run_results *res)
{
	size_t n = 0;
	for (size_t p = 0; p < res->n_procs; p++)
		n += res->procs[p].n_warnings;
	return n;
}

static const struct fx_thread sim_one[] = {
	{100, 0, {{"triad", 10, 50000000000ull}, {"init", 1, 9000000000ull}}},
	{101, 1, {{"triad", 10, 60000000000ull}}},
};

Test(native_merge, matching_regions_take_the_native_time)
{
	char *dir = e2e_tmpdir();
	const struct fx_thread nat[] = {
		{200, 0, {{"init", 1, 300000000ull}, {"triad", 10, 1000000000ull}}},
		{201, 1, {{"triad", 10, 1200000000ull}}},
	};
	struct rl_run_results res;

	fx_write(dir, "raw", 100, 5000, 1, 1, sim_one, 2);
	fx_write(dir, "raw-native", 200, 1000, 0, 1, nat, 2);
	load(dir, &res);
	cr_assert_eq(res.sim_timing_native, 1);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_ns, 1000000000ull);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_native, 1);
	cr_assert_eq(region(&res, 100, 0, "init")->time_ns, 300000000ull);
	cr_assert_eq(region(&res, 100, 1, "triad")->time_ns, 1200000000ull);
	/* the counts stay the simulator's */
	cr_assert_eq(region(&res, 100, 0, "triad")->counters[RL_C_FLOPS_F64_256]
			     .value, 1000000000ull);
	cr_assert_eq(n_warnings(&res), 0);
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

/* Issue 40: a process-scope region's CPU time under -b sim was
 * Valgrind's (1.77 s beside the program's 0.167 s in report.html): the
 * native run's is taken with its time. */
Test(native_merge, a_scope_regions_cpu_time_is_the_native_runs)
{
	char *dir = e2e_tmpdir();
	const struct fx_thread sim[] = {
		{100, 0, {{"main", 1, 9000000000ull}}},
	};
	const struct fx_thread nat[] = {
		{200, 0, {{"main", 1, 100000000ull}}},
	};
	const struct rl_region_stats *m;
	struct rl_run_results res;

	fx_write(dir, "raw", 100, 5000, 1, 1, sim, 1);
	fx_write(dir, "raw-native", 200, 1000, 0, 1, nat, 1);
	fx_scope(dir, "raw", 100, 9000000000ull, 17700000000ull);
	fx_scope(dir, "raw-native", 200, 100000000ull, 167000000ull);
	load(dir, &res);
	m = region(&res, 100, 0, "main");
	cr_expect_eq(m->time_native, 1);
	cr_expect_eq(m->scope_cpu_ns, 167000000ull);
	cr_expect_eq(m->scope_time_ns, 100000000ull);
	cr_expect_eq(m->scope_cpu_unknown_ns, 0);
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

Test(native_merge, different_calls_keep_the_simulated_time_with_a_warning)
{
	char *dir = e2e_tmpdir();
	const struct fx_thread nat[] = {
		{200, 0, {{"triad", 3, 1000000000ull}, {"init", 1, 300000000ull}}},
	};
	struct rl_run_results res;
	const struct rl_warning *w;

	fx_write(dir, "raw", 100, 5000, 1, 1, sim_one, 2);
	fx_write(dir, "raw-native", 200, 1000, 0, 1, nat, 1);
	load(dir, &res);
	cr_assert_eq(res.sim_timing_native, 1); /* init merged */
	cr_assert_eq(region(&res, 100, 0, "triad")->time_ns, 50000000000ull);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_native, 0);
	cr_assert_eq(region(&res, 100, 0, "init")->time_native, 1);
	w = warning(&res, "region 'triad' (thread 0): native run had 3 calls, "
			  "simulated run 10: time from the simulator");
	cr_assert_not_null(w);
	cr_assert_str_eq(w->kind, "native-timing");
	cr_assert_str_eq(w->region, "triad");
	/* thread 1 has no native counterpart */
	cr_assert_eq(region(&res, 100, 1, "triad")->time_ns, 60000000000ull);
	cr_assert_not_null(warning(&res, "thread 1 of process 100: not in the "
					 "native timing run"));
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

Test(native_merge, no_native_dir_no_merge)
{
	char *dir = e2e_tmpdir();
	struct rl_run_results res;

	fx_write(dir, "raw", 100, 5000, 1, 1, sim_one, 2);
	load(dir, &res);
	cr_assert_eq(res.sim_timing_native, 0);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_ns, 50000000000ull);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_native, 0);
	cr_assert_eq(n_warnings(&res), 0);
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

Test(native_merge, processes_matched_by_start_order)
{
	char *dir = e2e_tmpdir();
	/* simulated: pid 300 started first, pid 100 second (pid order is
	 * the other way); native: pid 500 first, pid 400 second */
	const struct fx_thread first[] = {{300, 0, {{"parent", 1, 70000000000ull}}}};
	const struct fx_thread second[] = {{100, 0, {{"child", 2, 80000000000ull}}}};
	const struct fx_thread nfirst[] = {{500, 0, {{"parent", 1, 7000ull}}}};
	const struct fx_thread nsecond[] = {{400, 0, {{"child", 2, 8000ull}}}};
	struct rl_run_results res;

	fx_write(dir, "raw", 300, 1000, 1, 1, first, 1);
	fx_write(dir, "raw", 100, 2000, 1, 1, second, 1);
	fx_write(dir, "raw-native", 500, 10, 0, 1, nfirst, 1);
	fx_write(dir, "raw-native", 400, 20, 0, 1, nsecond, 1);
	load(dir, &res);
	cr_assert_eq(region(&res, 300, 0, "parent")->time_ns, 7000ull);
	cr_assert_eq(region(&res, 100, 0, "child")->time_ns, 8000ull);
	cr_assert_eq(n_warnings(&res), 0);
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

Test(native_merge, a_missing_process_and_a_crashed_native_one_are_said)
{
	char *dir = e2e_tmpdir();
	const struct fx_thread a[] = {{1, 0, {{"a", 1, 5000ull}}}};
	const struct fx_thread b[] = {{2, 0, {{"b", 1, 6000ull}}}};
	const struct fx_thread na[] = {{9, 0, {{"a", 1, 50ull}}}};
	struct rl_run_results res;

	fx_write(dir, "raw", 1, 1000, 1, 1, a, 1);
	fx_write(dir, "raw", 2, 2000, 1, 1, b, 1);
	fx_write(dir, "raw-native", 9, 10, 0, 0, na, 1); /* died, signal 11 */
	load(dir, &res);
	cr_assert_eq(region(&res, 1, 0, "a")->time_ns, 5000ull);
	cr_assert_eq(region(&res, 2, 0, "b")->time_ns, 6000ull);
	cr_assert_eq(res.sim_timing_native, 0);
	cr_assert_not_null(warning(&res, "the native timing run stopped on "
					 "signal 11"));
	cr_assert_not_null(warning(&res, "process 2 ('./app'): no counterpart "
					 "in the native timing run"));
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

/* The native run of sim_one's program, its run.json saying the status
 * it exited with (and extra): loaded into res. */
static void native_with_status(const char *dir, const char *extra,
			       struct rl_run_results *res)
{
	const struct fx_thread nat[] = {
		{200, 0, {{"triad", 10, 1000000000ull}, {"init", 1, 300000000ull}}},
		{201, 1, {{"triad", 10, 1200000000ull}}},
	};
	char json[256];

	fx_write(dir, "raw", 100, 5000, 1, 1, sim_one, 2);
	fx_write(dir, "raw-native", 200, 1000, 0, 1, nat, 2);
	snprintf(json, sizeof json,
		 ",\"sim_timing\":\"native\",\"native_exit_status\":3%s", extra);
	fx_run_json(dir, json);
	load(dir, res);
}

Test(native_merge, a_failed_native_run_in_run_json_is_not_merged)
{
	char *dir = e2e_tmpdir();
	struct rl_run_results res;

	native_with_status(dir, "", &res);
	cr_assert_eq(res.sim_timing_native, 0);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_ns, 50000000000ull);
	cr_assert_not_null(warning(&res, "the native timing run of '/bin/app' "
					 "exited with status 3: times are the "
					 "simulator's"));
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

/* --expect-status 3 (issue 39): a program whose success is status 3
 * keeps its native times */
Test(native_merge, an_expected_status_is_merged)
{
	char *dir = e2e_tmpdir();
	struct rl_run_results res;

	native_with_status(dir, ",\"expected_status\":3", &res);
	cr_assert_eq(res.sim_timing_native, 1);
	cr_assert_eq(region(&res, 100, 0, "triad")->time_ns, 1000000000ull);
	cr_assert_null(warning(&res, "the native timing run of '/bin/app' "
				     "exited with status 3: times are the "
				     "simulator's"));
	rl_run_results_release(&res);
	e2e_rmtree(dir);
	free(dir);
}

/* ---- analysis ---- */

/* 2 cores; DRAM 20 GB/s with 1 and 2 threads; f64 peak 50 per thread. */
static struct rl_machine *machine(void)
{
	struct rl_machine *m = rl_test_machine_new(2, "Test CPU");

	rl_test_machine_add_bw(m, "DRAM", 1, 20, 20);
	rl_test_machine_add_bw(m, "DRAM", 2, 20, 20);
	for (unsigned t = 1; t <= 2; t++)
		rl_test_machine_add_compute(m, "avx2-fma", "peak", "f64", t,
					    50.0 * t);
	return m;
}

static const struct rl_region_row *row_of(const struct rl_report *rep,
					  const char *name)
{
	for (size_t i = 0; i < rep->n_summed; i++)
		if (strcmp(rep->rows[i].region, name) == 0)
			return &rep->rows[i];
	cr_assert_fail("no row '%s'", name);
	return NULL;
}

/* Loads a fixture dir with or without raw-native and builds the report. */
static void report_of(int with_native, struct rl_run_results *res,
		      struct rl_report *rep, struct rl_machine *m)
{
	char *dir = e2e_tmpdir(), err[256] = "";
	const struct fx_thread sim[] = {{100, 0, {{"triad", 10, 50000000000ull}}}};
	const struct fx_thread nat[] = {{200, 0, {{"triad", 10, 1000000000ull}}}};

	fx_write(dir, "raw", 100, 5000, 1, 1, sim, 1);
	if (with_native)
		fx_write(dir, "raw-native", 200, 1000, 0, 1, nat, 1);
	load(dir, res);
	cr_assert_eq(rl_report_build(res, m, rep, err, sizeof err), 0, "%s", err);
	e2e_rmtree(dir);
	free(dir);
}

Test(native_analysis, native_time_gives_percent_of_roof)
{
	struct rl_machine *m = machine();
	struct rl_run_results res;
	struct rl_report rep;
	const struct rl_region_row *r;

	report_of(1, &res, &rep, m);
	r = row_of(&rep, "triad");
	cr_assert(r->simulated);
	cr_assert(r->time_native);
	/* 1e9 flops, 2e9 bytes in 1 s: 1 GFLOP/s, 2 GB/s; AI 0.5 against
	 * DRAM 20 GB/s: roof 10 GFLOP/s, 10 % */
	cr_assert_float_eq(r->gflops, 1.0, 1e-9);
	cr_assert_float_eq(r->gbs, 2.0, 1e-9);
	cr_assert(rl_known(r->roof_pct));
	cr_assert_float_eq(r->roof_pct, 10.0, 1e-6);
	cr_assert_eq(strncmp(r->method, "time: native run (backend time); flops: "
				       "simulated by rlprofsim",
			     strlen("time: native run (backend time); flops: "
				    "simulated by rlprofsim")),
		     0, "method: %s", r->method);
	cr_assert_null(strstr(r->diagnosis, "not meaningful"), "%s",
		       r->diagnosis);
	rl_report_release(&rep);
	rl_run_results_release(&res);
	free(m);
}

Test(native_analysis, simulator_time_gives_no_percent_of_roof)
{
	struct rl_machine *m = machine();
	struct rl_run_results res;
	struct rl_report rep;
	const struct rl_region_row *r;

	report_of(0, &res, &rep, m);
	r = row_of(&rep, "triad");
	cr_assert(r->simulated);
	cr_assert_not(r->time_native);
	cr_assert_eq(r->bound, RL_BOUND_MEMORY);
	cr_assert_not(rl_known(r->roof_pct));
	cr_assert_null(strstr(r->method, "native"), "%s", r->method);
	cr_assert_not_null(strstr(r->diagnosis, "not meaningful"));
	rl_report_release(&rep);
	rl_run_results_release(&res);
	free(m);
}

/* The table's legend and the chart's note follow the row's time. */
static char *render(const char *name, const struct rl_report *rep)
{
	const struct rl_renderer *r = rl_renderer_find(name);
	struct rl_render_options opt = {0};
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(r);
	cr_assert_not_null(f);
	cr_assert_eq(r->render(f, rep, &opt, err, sizeof err), 0, "%s", err);
	fclose(f);
	return buf;
}

Test(native_analysis, table_and_chart_say_where_the_time_comes_from)
{
	struct rl_machine *m = machine();
	struct rl_run_results res;
	struct rl_report rep;
	char *table, *svg;

	report_of(1, &res, &rep, m);
	table = render("table", &rep);
	svg = render("svg", &rep);
	cr_assert_not_null(strstr(table, "times from a native run"), "%s", table);
	cr_assert_null(strstr(table, "time ran under Valgrind"), "%s", table);
	cr_assert_not_null(strstr(svg, "times from a native run"));
	cr_assert_null(strstr(svg, "10-60"));
	free(table);
	free(svg);
	rl_report_release(&rep);
	rl_run_results_release(&res);
	report_of(0, &res, &rep, m);
	table = render("table", &rep);
	cr_assert_not_null(strstr(table, "time ran under Valgrind"), "%s", table);
	free(table);
	rl_report_release(&rep);
	rl_run_results_release(&res);
	free(m);
}

/* ---- end to end ---- */

/* The roof_pct cell of region name's summed row in DIR/report.csv. */
static char *csv_cell(const char *dir, const char *name, const char *column)
{
	char *csv = e2e_file(dir, "report.csv");
	const char *row = e2e_csv_row(csv, name), *h = csv;
	int col = 0, i = 0;
	size_t clen = strlen(column);
	char *cell;

	cr_assert_not_null(row, "no row '%s' in report.csv:\n%s", name, csv);
	/* the column's index in the header line */
	while (!(strncmp(h, column, clen) == 0 &&
		 (h[clen] == ',' || h[clen] == '\n'))) {
		h = strpbrk(h, ",\n");
		cr_assert(h && *h == ',', "no column '%s'", column);
		h++;
		col++;
	}
	for (; i < col; i++)
		row = strchr(row, ',') + 1;
	cell = strndup(row, strcspn(row, ",\n"));
	free(csv);
	return cell;
}

static void need_model(void)
{
	struct rl_machine m;
	int probed = 0;
	char err[256];

	if (rl_machine_obtain(&m, 0, &probed, err, sizeof err) != 0)
		cr_skip_test("no cached machine model (%s): run 'rlprof probe' "
			     "once, the e2e roof_pct check needs roofs", err);
}

Test(native_e2e, sim_run_times_natively_and_gives_percent_of_roof,
     .timeout = 120)
{
	const char *opts[] = {NULL};
	const char *prog[] = {E2E_PROG("sim_flops"), NULL};
	struct sim_run r;
	struct stat st;
	char path[600], *run_json, *pct;

	sim_need();
	need_model();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 0, "stderr: %s", r.res.err);
	snprintf(path, sizeof path, "%s/raw-native", r.dir);
	cr_assert_eq(stat(path, &st), 0, "no '%s'", path);
	cr_assert(S_ISDIR(st.st_mode));
	run_json = e2e_file(r.dir, "run.json");
	cr_assert_not_null(strstr(run_json, "\"sim_timing\": \"native\""), "%s",
			   run_json);
	cr_assert_not_null(strstr(run_json, "\"native_exit_status\": 0"));
	free(run_json);
	pct = csv_cell(r.dir, "flops_f64_256 fma", "roof_pct");
	cr_assert(pct[0] != '\0', "roof_pct empty under native timing");
	cr_assert(atof(pct) > 0, "roof_pct '%s'", pct);
	free(pct);
	sim_run_free(&r);
}

Test(native_e2e, sim_timing_sim_runs_once_without_percent_of_roof,
     .timeout = 120)
{
	const char *opts[] = {"--sim-timing", "sim", NULL};
	const char *prog[] = {E2E_PROG("sim_flops"), NULL};
	struct sim_run r;
	char path[600], *run_json, *pct;

	sim_need();
	need_model();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 0, "stderr: %s", r.res.err);
	snprintf(path, sizeof path, "%s/raw-native", r.dir);
	cr_assert_neq(access(path, F_OK), 0, "'%s' exists", path);
	run_json = e2e_file(r.dir, "run.json");
	cr_assert_not_null(strstr(run_json, "\"sim_timing\": \"sim\""));
	free(run_json);
	pct = csv_cell(r.dir, "flops_f64_256 fma", "roof_pct");
	cr_assert_str_eq(pct, "");
	free(pct);
	sim_run_free(&r);
}

Test(native_e2e, progress_lines_and_bad_mode, .timeout = 120)
{
	const char *bad[] = {E2E_RLPROF, "run", "--sim-timing", "fast", "--",
			     "/bin/true", NULL};
	struct e2e_result b;

	e2e_need(E2E_RLPROF);
	b = e2e_run(bad);
	cr_assert_eq(b.status, 2);
	cr_assert_not_null(strstr(b.err, "option '--sim-timing' takes 'native' "
					 "or 'sim', not 'fast'"), "%s", b.err);
	e2e_free(&b);

	sim_need();
	char *dir = e2e_tmpdir();
	const char *argv[] = {E2E_RLPROF, "run", "--no-probe", "-b", "sim",
			      "--sim-caches", SIM_TEST_CACHES, "-o", dir,
			      E2E_PROG("sim_flops"), NULL};
	struct e2e_result r = e2e_run(argv);
	const char *t = strstr(r.err, "rlprof: timing run (native, backend time)...");
	const char *c = strstr(r.err, "rlprof: counting run (simulator)...");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(t && c && t < c, "%s", r.err);
	e2e_free(&r);
	e2e_rmtree(dir);
	free(dir);
}

Test(native_e2e, a_native_crash_falls_back_to_the_simulator_time,
     .timeout = 120)
{
	const char *prog[] = {E2E_PROG("sim_crash"), NULL};
	struct sim_run r;
	char *run_json, *html;

	sim_need();
	sim_run(&r, NULL, prog);
	/* the simulated run's status, as before; the native crash is said */
	cr_assert_eq(r.res.status, 139, "exit %d: %s", r.res.status, r.res.err);
	cr_assert_not_null(strstr(r.res.err, "warning: the native timing run of "
					     "'sim_crash' was killed by signal 11"),
			   "%s", r.res.err);
	run_json = e2e_file(r.dir, "run.json");
	cr_assert_not_null(strstr(run_json, "\"native_exit_status\": 139"), "%s",
			   run_json);
	cr_assert_not_null(strstr(run_json, "\"native_signal\": 11"));
	free(run_json);
	html = e2e_file(r.dir, "report.html");
	cr_assert_not_null(strstr(html, "times are the simulator"));
	free(html);
	sim_load(&r);
	cr_assert_eq(sim_row_get(&r, "done", -1)->calls, 1);
	sim_run_free(&r);
}

/* Work that follows the clock (tests/programs/sim_clock.c): 'until_clock'
 * repeats its sweep until 50 ms pass, so both runs make its 4 calls but
 * the simulator's run does a fraction of the work the native run timed.
 * The report says so for that region and withholds its rates; 'fixed',
 * the same work in both runs and long enough to be judged, keeps its
 * rates and no such warning. */
Test(native_e2e, work_that_follows_the_clock_withholds_the_rates,
     .timeout = 240)
{
	const char *opts[] = {NULL};
	const char *prog[] = {E2E_PROG("sim_clock"), NULL};
	struct sim_run r;
	char *json, *cell;

	sim_need();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 0, "stderr: %s", r.res.err);
	cr_assert_not_null(strstr(r.res.err, "region 'until_clock' (thread 0): "
					     "the same 4 calls in both runs but "
					     "not the same work"),
			   "stderr: %s", r.res.err);
	cr_assert_null(strstr(r.res.err, "region 'fixed' (thread 0): the same"),
		       "stderr: %s", r.res.err);
	cell = csv_cell(r.dir, "until_clock", "gflops");
	cr_expect_str_eq(cell, "", "until_clock's GFLOP/s '%s' not withheld",
			 cell);
	free(cell);
	cell = csv_cell(r.dir, "until_clock", "roof_pct");
	cr_expect_str_eq(cell, "");
	free(cell);
	cell = csv_cell(r.dir, "until_clock", "diagnosis");
	cr_expect_not_null(strstr(cell, "rates withheld"), "%s", cell);
	free(cell);
	/* the ordinary region: the native time (>= 50 ms, judged) and its
	 * rates */
	cell = csv_cell(r.dir, "fixed", "time_s");
	cr_expect_geq(atof(cell), 0.050, "fixed took %s s natively: too short "
			 "to be judged", cell);
	free(cell);
	cell = csv_cell(r.dir, "fixed", "gflops");
	cr_expect(atof(cell) > 0, "fixed's GFLOP/s '%s'", cell);
	free(cell);
	json = e2e_file(r.dir, "report.json");
	cr_expect_not_null(strstr(json, "not the same work"));
	free(json);
	sim_run_free(&r);
}

/* Work that follows the clock in units too long for the times to show it
 * (tests/programs/sim_clock_coarse.c, as LIKWID's jacobi-2D-5pt at
 * 1000^2): the region's clock reads differ between the runs, 16 a call
 * natively against 2 or 3 simulated, and the report says so with the
 * reads; 'timed_fixed', which reads the clock 5 times a call around fixed
 * work, reads the same in both and keeps its rates. The results files
 * carry the reads. */
Test(native_e2e, clock_reads_tell_work_that_follows_the_clock,
     .timeout = 240)
{
	const char *opts[] = {NULL};
	const char *prog[] = {E2E_PROG("sim_clock_coarse"), NULL};
	struct sim_run r;
	char *cell;

	sim_need();
	sim_run(&r, opts, prog);
	cr_assert_eq(r.res.status, 0, "stderr: %s", r.res.err);
	cr_assert_not_null(strstr(r.res.err, "region 'until_clock' (thread 0): "
					     "the same 2 calls in both runs but "
					     "not the same work: it read the "
					     "clock "),
			   "stderr: %s", r.res.err);
	cr_expect_not_null(strstr(r.res.err, " under the simulator (work that "
					     "follows the clock"),
			   "stderr: %s", r.res.err);
	cr_expect_null(strstr(r.res.err, "region 'timed_fixed' (thread 0): "
					 "the same"),
		       "stderr: %s", r.res.err);
	cell = csv_cell(r.dir, "until_clock", "gflops");
	cr_expect_str_eq(cell, "", "until_clock's GFLOP/s '%s' not withheld",
			 cell);
	free(cell);
	cell = csv_cell(r.dir, "timed_fixed", "gflops");
	cr_expect(atof(cell) > 0, "timed_fixed's GFLOP/s '%s'", cell);
	free(cell);
	sim_load(&r);
	cr_expect_eq(sim_row_get(&r, "timed_fixed", -1)->calls, 2);
	sim_run_free(&r);
}

/* the run itself: the option, recorded, and refused out of range */
Test(native_e2e, expect_status_keeps_the_native_times, .timeout = 120)
{
	const char *bad[] = {E2E_RLPROF, "run", "--expect-status", "256",
			     "true", NULL};
	char *dir = e2e_tmpdir(), out[512], *text;
	const char *argv[] = {E2E_RLPROF, "run", "-q", "-b", "sim",
			      "--expect-status", "1", "-o", out,
			      E2E_PROG("e2e_exit"), "1", NULL};
	struct e2e_result r;

	r = e2e_run(bad);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "'--expect-status' takes an exit status from "
				"0 to 255, not '256'"), "%s", r.err);
	e2e_free(&r);
	sim_need(); /* also skips a sanitized build: Valgrind cannot run it */
	need_model();
	e2e_need(E2E_PROG("e2e_exit"));
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 1, "the program's own status: %s", r.err);
	cr_expect(strstr(r.err, "times will be the simulator's") == NULL, "%s",
		  r.err);
	text = e2e_file(out, "report.json");
	cr_expect(strstr(text, "\"time_native\":true"), "%s", text);
	free(text);
	text = e2e_file(out, "run.json");
	cr_expect(strstr(text, "\"expected_status\": 1"), "%s", text);
	free(text);
	e2e_cleanup(&r, dir);
}
