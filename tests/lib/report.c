/* The tests' report builder: see report.h. */
#include "tests/lib/report.h"

#include <math.h>
#include <unistd.h>

#include "results/run_results.h"
#include "tests/lib/machine.h"
#include "tests/lib/run.h"

void rl_test_one_init(struct rl_test_one *o, long pid, uint64_t provided,
		      const char *name, double time_s)
{
	memset(o, 0, sizeof *o);
	o->reg.counters = o->counts;
	o->reg.name = (char *)name;
	o->reg.calls = 1;
	o->reg.time_ns = (uint64_t)(time_s * 1e9);
	o->reg.expected_flops = o->reg.expected_bytes = NAN;
	o->thr.tid = (uint64_t)pid;
	o->thr.regions = &o->reg;
	o->thr.n_regions = 1;
	o->proc.version = 1;
	o->proc.pid = pid;
	o->proc.program = (char *)"./t";
	o->proc.backend = (char *)"perf";
	o->proc.backend_note = (char *)"";
	o->proc.provided = provided;
	o->proc.complete = true;
	o->proc.threads = &o->thr;
	o->proc.n_threads = 1;
	for (int c = 0; c < RL_COUNTER_COUNT; c++)
		if (provided & (UINT64_C(1) << c))
			o->proc.method[c] = (char *)"test";
}

void rl_test_one_set(struct rl_test_one *o, int c, double v)
{
	o->reg.counters[c].value = (uint64_t)v;
	o->reg.counters[c].scaled = v;
	o->reg.counters[c].enabled_ns = 1000;
	o->reg.counters[c].running_ns = 1000;
}

void rl_test_one_triad_mix(struct rl_test_one *o)
{
	for (int c = RL_C_FLOPS_F64_SCALAR; c <= RL_C_FLOPS_F32_512; c++)
		rl_test_one_set(o, c, 0);
	rl_test_one_set(o, RL_C_FLOPS_F64_256, 1e9);
	rl_test_one_set(o, RL_C_FLOPS_FMA, 1e9);
	rl_test_one_set(o, RL_C_DRAM_READ_BYTES, 24e9);
	rl_test_one_set(o, RL_C_DRAM_WRITE_BYTES, 8e9);
}

char *rl_test_report_text(const char *format, const char *file,
			  struct rl_run_results run, const struct rl_machine *m,
			  struct rl_render_options opt)
{
	const struct rl_renderer *rd = rl_renderer_find(format);
	struct rl_process_results p;
	struct rl_report rep;
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_not_null(rd, "no renderer '%s'", format);
	cr_assert_eq(rl_results_load(file, &p, err, sizeof err), 0, "%s", err);
	run.procs = &p;
	run.n_procs = 1;
	cr_assert_eq(rl_report_build(&run, m, &rep, err, sizeof err), 0, "%s",
		     err);
	f = open_memstream(&text, &len);
	cr_assert_not_null(f);
	cr_assert_eq(rd->render(f, &rep, &opt, err, sizeof err), 0, "%s", err);
	fclose(f);
	rl_report_release(&rep);
	rl_results_release(&p);
	return text;
}

struct rl_region_row rl_test_report_row(const char *name, const char *prec,
					double ai, double gflops, double ai_e,
					double gflops_e)
{
	struct rl_region_row r = {0};
	r.region = strdup(name);
	r.n_threads = 2; /* the roofs the fixture machine has most of */
	r.calls = 10;
	r.time_s = 0.5;
	r.precision = prec;
	r.flops = r.flops_f32 = r.flops_f64 = NAN;
	r.dram_read_bytes = r.dram_write_bytes = r.dram_bytes = NAN;
	for (int l = 0; l < RL_LEVELS; l++)
		r.level_bytes[l] = r.level_ai[l] = NAN;
	r.ai = ai;
	r.gflops = gflops;
	r.flops = rl_known(gflops) ? gflops * 1e9 * r.time_s : NAN;
	r.dram_bytes = rl_known(ai) && ai > 0 ? r.flops / ai : NAN;
	r.gbs = rl_known(r.dram_bytes) ? r.dram_bytes / r.time_s / 1e9 : NAN;
	r.ai_expected = ai_e;
	r.gflops_expected = gflops_e;
	r.flops_expected = rl_known(gflops_e) ? gflops_e * 1e9 * r.time_s : NAN;
	r.bytes_expected = rl_known(ai_e) ? r.flops_expected / ai_e : NAN;
	r.roof_gflops = r.roof_pct = r.scaled_ratio = NAN;
	r.basis = rl_known(ai) ? RL_BASIS_COUNTED
		  : rl_known(ai_e) ? RL_BASIS_DECLARED : RL_BASIS_NONE;
	r.method = strdup("flops: sim (simulated); dram_bytes: sim cache model");
	r.diagnosis = strdup("");
	return r;
}

void rl_test_report_charts(struct rl_report *r, const struct rl_machine *m)
{
	memset(r, 0, sizeof *r);
	r->version = 1;
	r->machine = m;
	r->backend = strdup("sim");
	r->command = strdup("./kernels --all");
	r->rows = calloc(8, sizeof *r->rows);
	r->rows[0] = rl_test_report_row("triad", "f64", 0.0625, 2.2, 2.0 / 24, 2.2);
	r->rows[0].n_threads = 2;
	r->rows[0].bound = RL_BOUND_MEMORY;
	r->rows[0].bound_roof = "DRAM";
	r->rows[0].roof_gflops = 2.5;
	r->rows[0].roof_pct = 88;
	r->rows[1] = rl_test_report_row("horner64", "f64", 8, 60, 8, 60);
	r->rows[1].bound = RL_BOUND_COMPUTE;
	r->rows[1].bound_roof = "avx512-fma f64";
	r->rows[1].roof_pct = 30;
	r->rows[2] = rl_test_report_row(EVIL_NAME, "f64", 0.5, 5, NAN, NAN);
	r->rows[3] = rl_test_report_row("dot f32", "f32", 0.25, 8, NAN, NAN);
	r->rows[4] = rl_test_report_row("declared only", NULL, NAN, NAN, 0.125, 3);
	r->rows[5] = rl_test_report_row("idle", NULL, NAN, NAN, NAN, NAN);
	r->n_summed = 6;
	r->rows[6] = rl_test_report_row("triad", "f64", 0.0625, 1.1, NAN, NAN);
	r->rows[6].tid = 101;
	r->rows[6].pid = 100;
	r->rows[7] = rl_test_report_row("triad", "f64", 0.0625, 1.1, NAN, NAN);
	r->rows[7].tid = 102;
	r->rows[7].pid = 100;
	r->n_rows = 8;
	r->rows[0].thread_first = 6;
	r->rows[0].thread_count = 2;
	r->warnings = calloc(1, sizeof *r->warnings);
	r->warnings[0].kind = strdup("open-at-exit");
	r->warnings[0].region = strdup("triad");
	r->warnings[0].message = strdup("region 'triad' was open at exit");
	r->n_warnings = 1;
	r->row_warnings = calloc(1, sizeof *r->row_warnings);
	r->rows[0].warn_count = 1; /* warnings[0], triad's */
	rl_report_choose_chart(r);
}


char *rl_test_report_render(const struct rl_renderer *rend,
			    const struct rl_report *r, const char *suffix)
{
	char *path = NULL;
	cr_assert(asprintf(&path, "/tmp/rlprof-charts-%d-XXXXXX%s", (int)getpid(),
			   suffix) > 0);
	int fd = mkstemps(path, (int)strlen(suffix));
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	cr_assert(f);
	char err[256] = "";
	struct rl_render_options opt = {0};
	/* a test may change the rows or the machine after building the
	 * report: the chart's roofs are chosen again, as rl_report_build
	 * chose them */
	rl_report_choose_chart((struct rl_report *)r);
	int rc = rend->render(f, r, &opt, err, sizeof err);
	cr_assert_eq(rc, 0, "render failed: %s", err);
	cr_assert_eq(fclose(f), 0);
	/* RLPROF_KEEP_CHARTS=DIR keeps a copy to look at */
	const char *keep = getenv("RLPROF_KEEP_CHARTS");
	if (keep && *keep) {
		char cmd[1024];
		snprintf(cmd, sizeof cmd, "cp '%s' '%s/%s%s'", path, keep,
			 rend->format, suffix);
		cr_assert_eq(system(cmd), 0);
	}
	return path;
}

char *rl_test_render_text(const char *format, const struct rl_report *rep)
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rl_render_options opt = {0};

	cr_assert_not_null(f);
	cr_assert_eq(rl_renderer_find(format)->render(f, rep, &opt, err,
						      sizeof err),
		     0, "%s: %s", format, err);
	fclose(f);
	return text;
}

int rl_test_results_from_text(const char *text, struct rl_process_results *r,
			      char *err, size_t errlen)
{
	char path[] = "/tmp/rlprof-rt-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f;

	cr_assert_geq(fd, 0);
	cr_assert_not_null(f = fdopen(fd, "w"));
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	rc = rl_results_load(path, r, err, errlen);
	unlink(path);
	return rc;
}

char *rl_test_slurp(const char *path)
{
	char *s = e2e_slurp(path);

	cr_assert(s, "cannot open %s", path);
	return s;
}

struct rl_machine rl_test_charts_machine;
struct rl_report rl_test_charts_report;

void rl_test_charts_init(void)
{
	rl_test_machine_charts(&rl_test_charts_machine);
	rl_test_report_charts(&rl_test_charts_report, &rl_test_charts_machine);
}

void rl_test_charts_fini(void)
{
	rl_report_release(&rl_test_charts_report);
}

json_t *rl_test_json_report(const char *dir)
{
	char path[4096];
	json_error_t je;
	json_t *j;

	snprintf(path, sizeof path, "%s/report.json", dir);
	j = json_load_file(path, 0, &je);
	cr_assert_not_null(j, "'%s': %s", path, je.text);
	return j;
}

json_t *rl_test_json_row(json_t *rows, const char *name, long rank)
{
	json_t *e;
	size_t i;

	json_array_foreach(rows, i, e) {
		const char *r = json_string_value(json_object_get(e, "region"));
		if (r && strcmp(r, name) == 0 &&
		    (rank < 0 || json_integer_value(json_object_get(e, "rank")) ==
					 rank))
			return e;
	}
	return NULL;
}

json_t *rl_test_json_need_row(json_t *rows, const char *name, long rank)
{
	json_t *e = rl_test_json_row(rows, name, rank);

	cr_assert_not_null(e, "no row of region '%s'%s in report.json", name,
			   rank >= 0 ? " (that rank)" : "");
	return e;
}

json_t *rl_test_json_region(json_t *rep, const char *name)
{
	return rl_test_json_row(json_object_get(rep, "regions"), name, -1);
}

json_t *rl_test_json_need_region(json_t *rep, const char *name)
{
	return rl_test_json_need_row(json_object_get(rep, "regions"), name, -1);
}

json_t *rl_test_json_mpi_region(json_t *rep, const char *name)
{
	return rl_test_json_row(json_object_get(json_object_get(rep, "mpi"),
						"regions"),
				name, -1);
}

double rl_test_json_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double rl_test_json_need_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	cr_assert(json_is_number(v), "'%s' is not a number", key);
	return json_number_value(v);
}

double rl_test_svg_attr(const char *el, const char *name)
{
	char key[64];
	const char *end = strchr(el, '>'), *p;

	snprintf(key, sizeof key, " %s=\"", name);
	p = strstr(el, key);
	if (!p || (end && p > end))
		return NAN;
	return strtod(p + strlen(key), NULL);
}
