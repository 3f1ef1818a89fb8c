/* The sim backend tests' helpers: see sim.h. */
#include "tests/lib/sim.h"

void sim_need(void)
{
#ifdef RL_TEST_SANITIZED
	cr_skip_test("programs built with AddressSanitizer cannot run under "
		     "Valgrind: the sim tests need a build without SANITIZE=1");
#endif
	e2e_need(E2E_RLPROF);
	if (system("command -v valgrind >/dev/null 2>&1") != 0)
		cr_skip_test("valgrind is not installed (apt-get install "
			     "valgrind): the sim backend cannot run");
	if (access(SIM_TOOL, X_OK) != 0)
		cr_skip_test("the simulator '%s' was not built (valgrind's "
			     "tool archives missing?)", SIM_TOOL);
}

struct sim_row *sim_row_get(struct sim_run *r, const char *name,
			    long long tid)
{
	for (int i = 0; i < r->n; i++)
		if (r->row[i].tid == tid && strcmp(r->row[i].name, name) == 0)
			return &r->row[i];
	cr_assert_lt(r->n, SIM_MAX_ROWS, "too many regions");
	struct sim_row *w = &r->row[r->n++];
	memset(w, 0, sizeof *w);
	snprintf(w->name, sizeof w->name, "%s", name);
	w->tid = tid;
	return w;
}

static void sim_add(struct sim_row *w, json_t *reg)
{
	json_t *cs = json_object_get(reg, "counters");
	const char *key;
	json_t *v;
	w->calls += (uint64_t)json_integer_value(json_object_get(reg, "calls"));
	w->expected_flops += json_number_value(json_object_get(reg, "expected_flops"));
	w->expected_bytes += json_number_value(json_object_get(reg, "expected_bytes"));
	json_object_foreach(cs, key, v) {
		int c = rl_counter_from_name(key);
		if (c < 0)
			continue;
		w->provided |= 1ull << c;
		w->c[c] += (uint64_t)json_integer_value(json_object_get(v, "value"));
	}
}

void sim_load(struct sim_run *r)
{
	char raw[512];
	struct dirent *e;
	DIR *d;
	snprintf(raw, sizeof raw, "%s/raw", r->dir);
	d = opendir(raw);
	cr_assert_not_null(d, "no raw directory '%s'", raw);
	while ((e = readdir(d))) {
		char path[1024];
		json_error_t jerr;
		if (strncmp(e->d_name, "rlprof-", 7) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", raw, e->d_name);
		json_t *doc = json_load_file(path, 0, &jerr);
		cr_assert_not_null(doc, "%s: %s", path, jerr.text);
		const char *note = json_string_value(json_object_get(doc, "backend_note"));
		snprintf(r->note, sizeof r->note, "%s", note ? note : "");
		size_t i, j;
		json_t *t, *reg;
		json_array_foreach(json_object_get(doc, "threads"), i, t) {
			long long tid = json_integer_value(json_object_get(t, "tid"));
			json_array_foreach(json_object_get(t, "regions"), j, reg) {
				const char *name = json_string_value(json_object_get(reg, "name"));
				if (!name)
					continue;
				sim_add(sim_row_get(r, name, -1), reg);
				sim_add(sim_row_get(r, name, tid), reg);
			}
		}
		json_decref(doc);
	}
	closedir(d);
}

void sim_run(struct sim_run *r, const char *const *opts,
	     const char *const *prog)
{
	const char *argv[48];
	size_t n = 0;
	memset(r, 0, sizeof *r);
	r->dir = e2e_tmpdir();
	argv[n++] = E2E_RLPROF;
	argv[n++] = "run";
	argv[n++] = "-q";
	argv[n++] = "--no-probe";
	argv[n++] = "-b";
	argv[n++] = "sim";
	argv[n++] = "-o";
	argv[n++] = r->dir;
	int caches = 0;
	for (size_t i = 0; opts && opts[i] && n < 30; i++) {
		caches |= strcmp(opts[i], "--sim-caches") == 0;
		argv[n++] = opts[i];
	}
	if (!caches) {
		argv[n++] = "--sim-caches";
		argv[n++] = SIM_TEST_CACHES;
	}
	argv[n++] = "--";
	for (size_t i = 0; prog[i] && n < 47; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	r->res = e2e_run(argv);
}

void sim_run_free(struct sim_run *r)
{
	e2e_free(&r->res);
	e2e_rmtree(r->dir);
	free(r->dir);
	r->dir = NULL;
}

uint64_t sim_dram(const struct sim_row *w)
{
	return w->c[RL_C_DRAM_READ_BYTES] + w->c[RL_C_DRAM_WRITE_BYTES];
}
