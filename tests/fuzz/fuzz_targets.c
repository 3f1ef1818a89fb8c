/* The fuzz targets (fuzz_targets.h): the bytes go into files of a private
 * scratch directory, then through the same entry points rlprof uses. */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_targets.h"
#include "inspect/elf_code_isa.h"
#include "inspect/elf_imports.h"
#include "inspect/elf_isa.h"
#include "inspect/inspect_elf.h"
#include "machine/machine_file.h"
#include "render/render.h"
#include "render/render_diff.h"
#include "analysis/compare.h"
#include "analysis/report.h"
#include "analysis/report_file.h"
#include "results/run_results.h"
#include "results/results_live.h"
#include "runtime/results_write.h"

static char scratch[64];
static FILE *sink;

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

static void cleanup(void)
{
	if (scratch[0])
		nftw(scratch, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* The scratch directory (tmpfs when there is one), made once. */
static const char *dir(void)
{
	if (!scratch[0]) {
		snprintf(scratch, sizeof scratch, "%s/rlprof-fuzz-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(scratch))
			abort();
		atexit(cleanup);
		sink = fopen("/dev/null", "w");
		if (!sink)
			abort();
	}
	return scratch;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
}

/* The pid a results file names ('"pid":N'), so that its file name agrees
 * with it and the reader goes on past the copy check; 1 when none. */
static long pid_in(const uint8_t *data, size_t size)
{
	static const char key[] = "\"pid\":";
	size_t k = sizeof key - 1;

	for (size_t i = 0; i + k < size; i++) {
		if (memcmp(data + i, key, k) != 0)
			continue;
		long pid = 0;
		for (size_t j = i + k; j < size && j < i + k + 9 &&
				       data[j] >= '0' && data[j] <= '9';
		     j++)
			pid = pid * 10 + (data[j] - '0');
		return pid;
	}
	return 1;
}

/* A small machine: DRAM and L1 roofs, one peak. */
static void fixed_machine(struct rl_machine *m)
{
	memset(m, 0, sizeof *m);
	m->version = 1;
	m->cores = 2;
	snprintf(m->cpu_model, sizeof m->cpu_model, "fuzz CPU");
	m->n_bw = 2;
	snprintf(m->bw[0].level, sizeof m->bw[0].level, "DRAM");
	m->bw[0].threads = 1;
	m->bw[0].stream_gbs = 24;
	m->bw[0].moved_gbs = 30;
	snprintf(m->bw[1].level, sizeof m->bw[1].level, "L1");
	m->bw[1].threads = 1;
	m->bw[1].stream_gbs = 300;
	m->bw[1].moved_gbs = 400;
	m->n_compute = 1;
	snprintf(m->compute[0].name, sizeof m->compute[0].name, "avx2-fma");
	snprintf(m->compute[0].kind, sizeof m->compute[0].kind, "peak");
	snprintf(m->compute[0].precision, sizeof m->compute[0].precision,
		 "f64");
	m->compute[0].threads = 1;
	m->compute[0].gflops = 50;
	m->loadavg1 = -1;
}

/* Every format, the table also with --plot and --per-thread. */
static void render_all(const struct rl_run_results *res,
		       const struct rl_machine *m)
{
	struct rl_report rep;
	struct rl_render_options opt = {.plot = 1, .color = 1, .per_thread = 1};
	char err[1024];

	if (rl_report_build(res, m, &rep, err, sizeof err) != 0)
		return;
	for (size_t i = 0; i < rl_renderer_count(); i++) {
		const struct rl_renderer *r = rl_renderer_at(i);
		if (r)
			r->render(sink, &rep, &opt, err, sizeof err);
	}
	rl_render_plot(sink, &rep, err, sizeof err);
	rl_report_release(&rep);
}

/* The results directory d read as rlprof report reads it, then rendered
 * without and with a machine model. */
static void load_and_render(const char *d)
{
	struct rl_run_results res;
	struct rl_machine *m;
	char err[1024];

	if (rl_results_load_dir(d, &res, err, sizeof err) != 0)
		return;
	render_all(&res, NULL);
	m = malloc(sizeof *m);
	if (m) {
		fixed_machine(m);
		render_all(&res, m);
		free(m);
	}
	rl_run_results_release(&res);
}

int rl_fuzz_results(const uint8_t *data, size_t size)
{
	const char *d = dir();
	const uint8_t *part[3] = {data, NULL, NULL};
	size_t len[3] = {size, 0, 0}, n = 1;
	char path[256];

	/* raw results \f run.json \f second raw results */
	for (size_t i = 0; i < size && n < 3; i++) {
		if (data[i] != '\f' || data + i < part[n - 1])
			continue;
		len[n - 1] = (size_t)(data + i - part[n - 1]);
		part[n] = data + i + 1;
		len[n] = size - i - 1;
		n++;
	}
	snprintf(path, sizeof path, "%s/raw", d);
	nftw(path, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/run.json", d);
	unlink(path);
	snprintf(path, sizeof path, "%s/raw/rlprof-%ld.json", d,
		 pid_in(part[0], len[0]));
	put(path, part[0], len[0]);
	if (n > 1) {
		snprintf(path, sizeof path, "%s/run.json", d);
		put(path, part[1], len[1]);
	}
	if (n > 2) {
		/* the same pid as the first: it replaces the first */
		snprintf(path, sizeof path, "%s/raw/rlprof-%ld.json", d,
			 pid_in(part[2], len[2]));
		put(path, part[2], len[2]);
	}
	load_and_render(d);
	return 0;
}

/* One process (pid 7), one thread (tid 7), two regions: one
 * memory-bound, one not: DIR/name/raw/rlprof-7.json made, DIR/name into
 * path. */
static void fixed_dir(const char *name, char *path, size_t len)
{
	static const char text[] =
		"{\"format\":\"rlprof-results\",\"version\":1,\"pid\":7,"
		"\"program\":\"p\",\"backend\":\"sim\",\"counters\":["
		"{\"name\":\"flops_any\",\"scope\":\"simulated\"},"
		"{\"name\":\"dram_read_bytes\",\"scope\":\"simulated\"}],"
		"\"threads\":[{\"tid\":7,\"regions\":["
		"{\"name\":\"a\",\"calls\":2,\"time_ns\":1000000,\"counters\":{"
		"\"flops_any\":{\"value\":1000},"
		"\"dram_read_bytes\":{\"value\":8000000}}},"
		"{\"name\":\"b\",\"calls\":1,\"time_ns\":1000,\"counters\":{"
		"\"flops_any\":{\"value\":900000},"
		"\"dram_read_bytes\":{\"value\":64}}}]}]}";
	const char *d = dir();

	snprintf(path, len, "%s/%s", d, name);
	mkdir(path, 0755);
	snprintf(path, len, "%s/%s/raw", d, name);
	mkdir(path, 0755);
	snprintf(path, len, "%s/%s/raw/rlprof-7.json", d, name);
	put(path, (const uint8_t *)text, sizeof text - 1);
	snprintf(path, len, "%s/%s", d, name);
}

static int fixed_results(struct rl_run_results *res)
{
	char path[256], err[1024];

	fixed_dir("fixed", path, sizeof path);
	return rl_results_load_dir(path, res, err, sizeof err);
}

/* DIR/loops.json (rlprof run --loops) beside the fixed results file of
 * pid 7, thread 7 (the "per" records name them), read through the results
 * reader as rlprof report reads a run with loops, then the report built
 * and rendered with and without a machine model. */
int rl_fuzz_loops(const uint8_t *data, size_t size)
{
	char path[256], json[300];

	fixed_dir("loops", path, sizeof path);
	snprintf(json, sizeof json, "%s/loops.json", path);
	put(json, data, size);
	load_and_render(path);
	return 0;
}

int rl_fuzz_machine(const uint8_t *data, size_t size)
{
	static struct rl_run_results res;
	static int have = -1;
	struct rl_machine *m = malloc(sizeof *m);
	char path[256], err[1024];

	if (!m)
		return 0;
	if (have < 0)
		have = fixed_results(&res) == 0;
	snprintf(path, sizeof path, "%s/machine.json", dir());
	put(path, data, size);
	if (rl_machine_load(path, m, err, sizeof err) == 0 && have)
		render_all(&res, m);
	free(m);
	return 0;
}

int rl_fuzz_elf(const uint8_t *data, size_t size)
{
	struct rl_elf_info info;
	struct rl_elf_imports imports;
	enum rl_isa_level isa;
	struct rl_code_isa code;
	char path[256], err[1024], *text, *v;

	snprintf(path, sizeof path, "%s/program", dir());
	put(path, data, size);
	if (rl_elf_inspect(path, &info, err, sizeof err) == 0)
		rl_elf_info_release(&info);
	rl_elf_imports(path, &imports, err, sizeof err);
	rl_elf_isa_level(path, &isa, err, sizeof err);
	rl_elf_code_isa(path, &code, err, sizeof err);
	memset(&info, 0, sizeof info);
	rl_elf_parse_sites((const char *)data, size, &info);
	rl_elf_info_release(&info);
	text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
		v = rl_c_literal_value(text);
		free(v);
		free(text);
	}
	return 0;
}

/* The live file of a killed process, as rlprof run recovers it: loaded
 * (rl_results_live_load), written as results (rl_results_write_fd, what
 * run_recover.c writes) and read back: what recovery writes, the reader
 * must accept (a finding aborts). */
int rl_fuzz_live(const uint8_t *data, size_t size)
{
	const char *d = dir();
	struct rl_process_results p, back;
	char live[256], json[256], err[1024];
	int fd;

	snprintf(live, sizeof live, "%s/.rlprof-1-0.live", d);
	put(live, data, size);
	if (rl_results_live_load(live, &p, err, sizeof err) != 0)
		return 0;
	snprintf(json, sizeof json, "%s/rlprof-%ld.json", d, p.pid);
	fd = open(json, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		abort();
	if (rl_results_write_fd(fd, &p) != 0)
		abort();
	close(fd);
	if (rl_results_load(json, &back, err, sizeof err) != 0) {
		fprintf(stderr, "recovered results refused: %s\n", err);
		abort();
	}
	rl_results_release(&back);
	rl_results_release(&p);
	unlink(json);
	return 0;
}

/* A rank-folder tree: the input split at form feeds into mpi.json, then
 * per rank k (0, 1, and the rank the first byte names, up to 4095) its
 * rank.json and raw/rlprof-<pid>.json; read with rl_results_load_dir and
 * rendered. */
int rl_fuzz_ranks(const uint8_t *data, size_t size)
{
	const char *d = dir();
	const uint8_t *part[7];
	size_t len[7], n = 1;
	struct rl_run_results res;
	char path[300], err[1024];
	long third = size ? 2 + (long)data[0] * 16 : 2;

	part[0] = data;
	len[0] = size;
	for (size_t i = 0; i < size && n < 7; i++) {
		if (data[i] != '\f')
			continue;
		len[n - 1] = (size_t)(data + i - part[n - 1]);
		part[n] = data + i + 1;
		len[n] = size - i - 1;
		n++;
	}
	snprintf(path, sizeof path, "%s/job", d);
	nftw(path, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/job/mpi.json", d);
	put(path, part[0], len[0]);
	for (size_t k = 0; 1 + 2 * k < n; k++) {
		long rank = k < 2 ? (long)k : third;
		snprintf(path, sizeof path, "%s/job/rank-%ld", d, rank);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/job/rank-%ld/raw", d, rank);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/job/rank-%ld/rank.json", d,
			 rank);
		put(path, part[1 + 2 * k], len[1 + 2 * k]);
		if (2 + 2 * k < n) {
			snprintf(path, sizeof path,
				 "%s/job/rank-%ld/raw/rlprof-%ld.json", d, rank,
				 pid_in(part[2 + 2 * k], len[2 + 2 * k]));
			put(path, part[2 + 2 * k], len[2 + 2 * k]);
		}
	}
	snprintf(path, sizeof path, "%s/job", d);
	if (rl_results_load_dir(path, &res, err, sizeof err) != 0)
		return 0;
	render_all(&res, NULL);
	rl_run_results_release(&res);
	return 0;
}

/* A saved report (DIR/report.json) as rlprof diff and rlprof check read
 * it: member by member, its regions one at a time (report_file.c); then
 * diffed against itself and the diff rendered in every format. */
int rl_fuzz_report(const uint8_t *data, size_t size)
{
	static const char *const formats[] = {"table", "json", "csv"};
	struct rl_report_file a;
	struct rl_diff d;
	char path[256], err[1024];

	snprintf(path, sizeof path, "%s/report.json", dir());
	put(path, data, size);
	if (rl_report_file_load(path, &a, err, sizeof err) != 0)
		return 0;
	for (size_t i = 0; i < a.n_regions; i++)
		if (rl_report_file_find(&a, a.regions[i].region) == NULL)
			abort(); /* every region is found by its name */
	if (rl_diff_build(&a, &a, 5.0, &d, err, sizeof err) == 0) {
		for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
			rl_render_diff(sink, &d, formats[i], &a, &a, err,
				       sizeof err);
		rl_diff_release(&d);
	}
	rl_report_file_release(&a);
	return 0;
}
