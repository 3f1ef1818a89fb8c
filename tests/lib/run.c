/* The tests' process runner: see run.h. */
#include "tests/lib/run.h"

#include <ftw.h>
#include <signal.h>

char *e2e_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

char *e2e_tmpdir(void)
{
	char *d = strdup("/tmp/rlprof-e2e-XXXXXX");
	cr_assert_not_null(d);
	cr_assert_not_null(mkdtemp(d), "mkdtemp failed");
	return d;
}

static int e2e_rm_one(const char *p, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(p);
	return 0;
}

/* Removes dir and everything in it, looking at nothing. */
void e2e_rmtree_raw(const char *dir)
{
	if (dir)
		nftw(dir, e2e_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The report.json and loops.json files e2e_validate_reports() found
 * (nftw has no user data pointer). */
#define E2E_MAX_REPORTS 32
static char e2e_reports[2][E2E_MAX_REPORTS][1024];
static int e2e_n_reports[2];
static const char *const e2e_json_names[2] = {"report.json", "loops.json"};
static const char *const e2e_json_schemas[2] = {
	"profiler/render/report.schema.json",
	"profiler/formats/loops.schema.json"};

static int e2e_find_report(const char *p, const struct stat *st, int flag,
			   struct FTW *ftw)
{
	(void)st;
	for (int k = 0; k < 2 && flag == FTW_F; k++)
		if (strcmp(p + ftw->base, e2e_json_names[k]) == 0 &&
		    e2e_n_reports[k] < E2E_MAX_REPORTS)
			snprintf(e2e_reports[k][e2e_n_reports[k]++],
				 sizeof e2e_reports[k][0], "%s", p);
	return 0;
}

/* Every report.json and loops.json under dir is valid against its JSON
 * Schema (profiler/render/report.schema.json,
 * profiler/formats/loops.schema.json), checked with Debian's
 * python3-jsonschema (scripts/validate-report); a test fails on an invalid
 * one. Without python3-jsonschema nothing is checked here (test_schema.c
 * skips and says why). */
void e2e_validate_reports(const char *dir)
{
	const char *argv[E2E_MAX_REPORTS + 3];
	char schema[1024];
	struct e2e_result r;
	int n;

	e2e_n_reports[0] = e2e_n_reports[1] = 0;
	if (!dir || nftw(dir, e2e_find_report, 16, FTW_PHYS) != 0 ||
	    access("/usr/bin/python3", X_OK) != 0)
		return;
	for (int k = 0; k < 2; k++) {
		if (e2e_n_reports[k] == 0)
			continue;
		snprintf(schema, sizeof schema, RL_SOURCE_DIR "/%s",
			 e2e_json_schemas[k]);
		n = 0;
		argv[n++] = RL_SOURCE_DIR "/scripts/validate-report";
		argv[n++] = schema;
		for (int i = 0; i < e2e_n_reports[k]; i++)
			argv[n++] = e2e_reports[k][i];
		argv[n] = NULL;
		r = e2e_run(argv);
		if (r.status == 1)
			cr_expect_fail("a %s this test produced is not valid "
				       "against %s:\n%s",
				       e2e_json_names[k], e2e_json_schemas[k],
				       r.out);
		free(r.out);
		free(r.err);
	}
}

/* Removes dir, after checking the reports in it against the schema. */
void e2e_rmtree(const char *dir)
{
	e2e_validate_reports(dir);
	e2e_rmtree_raw(dir);
}

/* Runs argv (argv[0] a path) in dir (NULL: here) with the extra
 * environment entries env (NAME=VALUE, NULL-terminated, may be NULL). */
struct e2e_result e2e_run_in(const char *dir, const char *const *argv,
			     const char *const *env)
{
	struct e2e_result r = {-1, NULL, NULL};
	char *cap = e2e_tmpdir();
	char out_path[256], err_path[256];
	pid_t pid;
	int st;

	snprintf(out_path, sizeof out_path, "%s/stdout", cap);
	snprintf(err_path, sizeof err_path, "%s/stderr", cap);
	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0, "fork failed");
	if (pid == 0) {
		int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(250);
		if (dir && chdir(dir) != 0)
			_exit(251);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(argv[0], (char *const *)argv);
		_exit(252);
	}
	while (waitpid(pid, &st, 0) < 0)
		;
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.out = e2e_slurp(out_path);
	r.err = e2e_slurp(err_path);
	if (!r.out)
		r.out = strdup("");
	if (!r.err)
		r.err = strdup("");
	e2e_rmtree_raw(cap);
	free(cap);
	return r;
}

struct e2e_result e2e_run(const char *const *argv)
{
	return e2e_run_in(NULL, argv, NULL);
}

pid_t e2e_start(const char *const *argv, const char *err_path,
		const int *out_pipe)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out_pipe)
			signal(SIGPIPE, SIG_DFL);
		if (fd < 0 || dup2(fd, 2) < 0 ||
		    dup2(out_pipe ? out_pipe[1] : fd, 1) < 0)
			_exit(250);
		if (out_pipe) {
			close(out_pipe[0]);
			close(out_pipe[1]);
		}
		execv(argv[0], (char *const *)argv);
		_exit(252);
	}
	return pid;
}

pid_t e2e_start_shell(const char *dir, const char *then)
{
	char out[512], started[512], script[1200], errp[600];
	const char *argv[] = {E2E_RLPROF, "run", "-q", "--no-probe", "-b",
			      "time", "-o", out, "/bin/sh", "-c", script, NULL};
	pid_t pid;

	e2e_need(E2E_RLPROF);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(started, sizeof started, "%s/started", dir);
	snprintf(errp, sizeof errp, "%s/stderr", dir);
	snprintf(script, sizeof script, "touch '%s'; %s", started, then);
	pid = e2e_start(argv, errp, NULL);
	e2e_wait_for_file(started);
	return pid;
}

void e2e_wait_for_file(const char *path)
{
	int waited = 0;

	while (access(path, F_OK) != 0 && waited < 600) {
		usleep(100000);
		waited++;
	}
	cr_assert_eq(access(path, F_OK), 0, "the program never started");
}

int e2e_wait(pid_t pid)
{
	int st;

	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return st;
}

void e2e_free(struct e2e_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

/* Skips when rlprof's stderr says a probe found the machine too busy to
 * measure (the rest of the suite runs beside each test): a missing
 * capability, not a failure. */
void e2e_skip_if_too_busy(const char *err)
{
	if (err && strstr(err, "too busy"))
		cr_skip_test("the machine was too busy to measure (no model):"
			     "\n%s", err);
}

/* rlprof run -q --no-probe --repeat 1 -b BACKEND -o OUT PROGRAM ARGS...
 * (prog: the program and its arguments, NULL-terminated; timed once, not
 * the 5 times of a short program by default); -b sim with --sim-caches
 * 48K:12,1M:8,32M:16 (without a machine model it requires one). */
struct e2e_result e2e_profile(const char *backend,
			      const char *out,
			      const char *const *prog)
{
	const char *argv[32] = {E2E_RLPROF, "run", "-q", "--no-probe",
				"--repeat", "1", "-b", backend, "-o", out};
	size_t n = 10;

	if (strcmp(backend, "sim") == 0) {
		argv[n++] = "--sim-caches";
		argv[n++] = "48K:12,1M:8,32M:16";
	}

	for (size_t i = 0; prog[i] && n < 31; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	e2e_need(E2E_RLPROF);
	return e2e_run(argv);
}

/* The same with OUT = dir/out. */
struct e2e_result e2e_profile_in(const char *backend,
				 const char *dir,
				 const char *const *prog)
{
	char out[512];

	snprintf(out, sizeof out, "%s/out", dir);
	return e2e_profile(backend, out, prog);
}

/* Skips when the binary under test was not built. */
void e2e_need(const char *path)
{
	if (access(path, X_OK) != 0)
		cr_skip_test("'%s' is not built: make BUILD=... all tests", path);
}

/* argv[*n...] += v (NULL-terminated), at most cap - 1 in all */
static void append(const char **argv, size_t *n, size_t cap,
		   const char *const *v)
{
	for (size_t i = 0; v && v[i]; i++) {
		cr_assert_lt(*n + 1, cap, "too long a command line");
		argv[(*n)++] = v[i];
	}
	argv[*n] = NULL;
}

static struct e2e_result run_mpi(const char *const *before, const char *mpirun,
				 int np, const char *const *after,
				 const char *const *env)
{
	static const char *const base[] = {
		"ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0",
		"OMPI_MCA_btl_vader_single_copy_mechanism=none",
	};
	const char *argv[96], *envv[40];
	char nps[24];
	size_t n = 0, k = 0;
	const char *const launcher[] = {mpirun, "-np", nps, "--oversubscribe",
					"--allow-run-as-root", NULL};

	snprintf(nps, sizeof nps, "%d", np);
	append(argv, &n, sizeof argv / sizeof *argv, before);
	if (np > 1 || before)
		append(argv, &n, sizeof argv / sizeof *argv, launcher);
	append(argv, &n, sizeof argv / sizeof *argv, after);
	append(envv, &k, sizeof envv / sizeof *envv,
	       (const char *const[]){base[0], base[1], NULL});
	append(envv, &k, sizeof envv / sizeof *envv, env);
	return e2e_run_in(NULL, argv, envv);
}

struct e2e_result e2e_run_mpi(const char *mpirun, int np,
			      const char *const *cmd, const char *const *env)
{
	return run_mpi(NULL, mpirun, np, cmd, env);
}

struct e2e_result e2e_run_mpi_launcher(const char *const *rlprof,
				       const char *mpirun, int np,
				       const char *const *app,
				       const char *const *env)
{
	const char *argv[64];
	size_t n = 0;

	append(argv, &n, sizeof argv / sizeof *argv, rlprof);
	append(argv, &n, sizeof argv / sizeof *argv,
	       (const char *const[]){"--", NULL});
	return run_mpi(argv, mpirun, np, app, env);
}

const char *e2e_need_mpirun(const char *mpi_app)
{
	static char mpirun[1024];
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	mpirun[0] = '\0';
	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL;
	     dir && !mpirun[0]; dir = strtok_r(NULL, ":", &save)) {
		char p[1024];
		snprintf(p, sizeof p, "%s/mpirun", dir);
		if (access(p, X_OK) == 0)
			snprintf(mpirun, sizeof mpirun, "%s", p);
	}
	free(copy);
	if (!mpirun[0])
		cr_skip_test("mpirun is not installed (apt-get install "
			     "openmpi-bin libopenmpi-dev)");
	e2e_need(E2E_RLPROF);
	if (access(mpi_app, X_OK) != 0)
		cr_skip_test("'%s' was not built (mpicc missing when building)",
			     mpi_app);
	return mpirun;
}

/* The text of file dir/name, failing the test when absent. */
char *e2e_file(const char *dir, const char *name)
{
	char path[1024];
	char *s;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	s = e2e_slurp(path);
	cr_assert_not_null(s, "'%s' was not written", path);
	return s;
}

/* Ends a test that ran r in the temporary directory dir: frees both and
 * removes the directory. */
void e2e_cleanup(struct e2e_result *r, char *dir)
{
	e2e_free(r);
	e2e_rmtree(dir);
	free(dir);
}

/* How many entries of dir have a name starting with part (anywhere:
 * containing it). */
int e2e_count_entries(const char *dir, const char *part,
		      int anywhere)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (anywhere ? strstr(de->d_name, part) != NULL
			     : strncmp(de->d_name, part, strlen(part)) == 0)
			n++;
	closedir(d);
	return n;
}

/* Writes text into path and gives it mode (a script, a data file). */
void e2e_put_file(const char *path, const char *text,
		  mode_t mode)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "cannot write '%s'", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0, "cannot write '%s'", path);
	cr_assert_eq(chmod(path, mode), 0, "cannot chmod '%s'", path);
}

/* The CSV line of region name on a summed row ("name,,..."), or NULL. */
const char *e2e_csv_row(const char *csv, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = csv; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == ',')
			return p;
	return NULL;
}

/* Expects dir/name (a report.csv) to have a summed row for region. */
void e2e_expect_csv_row(const char *dir, const char *name,
			const char *region)
{
	char *csv = e2e_file(dir, name);

	cr_expect_not_null(e2e_csv_row(csv, region), "no row '%s' in %s/%s: %s",
			   region, dir, name, csv);
	free(csv);
}
