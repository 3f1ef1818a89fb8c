/* results_read.c: loading results files and run directories. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/run_results.h"
#include "common/rl_error.h"
#include "runtime/results_write.h"

#define DATA RL_SOURCE_DIR "/tests/data/results/"
#define BIT(c) (UINT64_C(1) << (c))

Test(results, reads_a_good_file)
{
	struct rl_process_results r;
	char err[512] = "";
	int rc = rl_results_load(DATA "good.json", &r, err, sizeof err);

	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_eq(r.version, 1);
	cr_assert_eq(r.pid, 100);
	cr_assert_eq(r.ppid, 1);
	cr_assert_str_eq(r.program, "./app");
	cr_assert_str_eq(r.backend, "perf");
	cr_assert_str_eq(r.backend_note, "events resolved by libpfm4");
	cr_assert(r.complete);
	cr_assert_eq(r.signal, 0);
	cr_assert_eq(r.provided,
		     BIT(RL_C_FLOPS_F64_256) | BIT(RL_C_FLOPS_F32_256) |
			     BIT(RL_C_DRAM_READ_BYTES) |
			     BIT(RL_C_DRAM_WRITE_BYTES));
	cr_assert_eq(r.scope[RL_C_DRAM_READ_BYTES], RL_SCOPE_THREAD);
	cr_assert_str_eq(r.method[RL_C_DRAM_WRITE_BYTES],
			 "perf offcore dram x64, per-thread");
	cr_assert_null(r.method[RL_C_FLOPS_ANY]);
	cr_assert_eq(r.n_threads, 2);
	cr_assert_eq(r.threads[1].tid, 101);
	cr_assert_eq(r.threads[1].index, 1);
	cr_assert_eq(r.threads[0].n_regions, 2);
	cr_assert_str_eq(r.threads[0].regions[1].name, "init, setup");
	cr_assert_eq(r.threads[0].regions[0].calls, 10);
	cr_assert_eq(r.threads[0].regions[0].time_ns, 1000000000u);
	cr_assert_eq(r.threads[0].regions[0].expect_calls, 10);
	cr_assert_float_eq(r.threads[0].regions[0].expected_bytes, 24e9, 1);
	cr_assert_eq(r.threads[1].regions[0]
			     .counters[RL_C_DRAM_READ_BYTES]
			     .value,
		     UINT64_C(16000000000));
	cr_assert_eq(r.threads[1].regions[0]
			     .counters[RL_C_FLOPS_F64_256]
			     .running_ns,
		     1500000000u);
	cr_assert_eq(r.n_warnings, 1);
	cr_assert_str_eq(r.warnings[0].kind, "open-at-exit");
	cr_assert_str_eq(r.warnings[0].region, "solve");
	cr_assert_eq(r.warnings[0].tid, 101);
	rl_results_release(&r);
	cr_assert_null(r.threads);
	cr_assert_eq(r.n_threads, 0);
}

Test(results, optional_fields_take_neutral_defaults)
{
	struct rl_process_results r;
	char err[512] = "";

	cr_assert_eq(rl_results_load(DATA "time_only.json", &r, err,
				     sizeof err),
		     0, "%s", err);
	cr_assert_eq(r.provided, 0);
	cr_assert(r.complete);
	cr_assert_str_eq(r.backend_note, "");
	cr_assert_eq(r.threads[0].regions[1].expect_calls, 0);
	cr_assert(isnan(r.threads[0].regions[1].expected_flops));
	/* no "mpi_calls", no "mpi_ns": no PMPI wrapper, not measured */
	cr_assert_eq(r.mpi_calls, RL_MPI_CALLS_NONE);
	cr_assert_not(r.threads[0].regions[1].mpi_known);
	rl_results_release(&r);
}

Test(results, corrupt_file_names_file_line_and_column)
{
	struct rl_process_results r;
	char err[512] = "";
	int rc = rl_results_load(DATA "corrupt.json", &r, err, sizeof err);

	cr_assert_eq(rc, RL_EFORMAT);
	cr_assert(strstr(err, "cannot parse '" DATA "corrupt.json': line "),
		  "%s", err);
	cr_assert(strstr(err, " column "), "%s", err);
	cr_assert(strstr(err, "the file is corrupt; re-run rlprof run"), "%s",
		  err);
	cr_assert_null(strchr(err, '\n'));
	cr_assert_null(r.program);
}

Test(results, newer_version_asks_for_an_upgrade)
{
	struct rl_process_results r;
	char err[512] = "";

	cr_assert_eq(rl_results_load(DATA "newer.json", &r, err, sizeof err),
		     RL_EVERSION);
	cr_assert_str_eq(err, "'" DATA "newer.json' was written by a newer "
			      "rlprof (results version 3, this one reads 2): "
			      "upgrade rlprof");
}

Test(results, wrong_format_is_rejected)
{
	struct rl_process_results r;
	char err[512] = "";

	cr_assert_eq(rl_results_load(DATA "wrong_format.json", &r, err,
				     sizeof err),
		     RL_EFORMAT);
	cr_assert_str_eq(err, "'" DATA "wrong_format.json' is not an rlprof "
			      "results file (format 'rlprof-machine', "
			      "expected 'rlprof-results')");
}

Test(results, missing_field_is_named)
{
	struct rl_process_results r;
	char err[512] = "";

	cr_assert_eq(rl_results_load(DATA "missing_field.json", &r, err,
				     sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "threads[0].regions[1]: missing field 'calls'"),
		  "%s", err);
}

Test(results, missing_file_says_so)
{
	struct rl_process_results r;
	char err[512] = "";

	cr_assert_eq(rl_results_load(DATA "nope.json", &r, err, sizeof err),
		     RL_ENOENT);
	cr_assert(strstr(err, "cannot open '" DATA "nope.json'"), "%s", err);
}

Test(results, load_dir_sorts_by_pid_and_reads_run_json)
{
	struct rl_run_results run;
	char err[512] = "";

	cr_assert_eq(rl_results_load_dir(DATA "run1", &run, err, sizeof err),
		     0, "%s", err);
	cr_assert_eq(run.n_procs, 2);
	cr_assert_eq(run.procs[0].pid, 200);
	cr_assert_eq(run.procs[1].pid, 300);
	cr_assert_eq(run.procs[1].ppid, 200);
	cr_assert_str_eq(run.procs[1].threads[0].regions[0].name, "child");
	cr_assert_str_eq(run.backend_requested, "auto");
	cr_assert_str_eq(run.backend_reason,
			 "no hardware PMU; sim not installed");
	cr_assert_str_eq(run.command, "./kern --size '1 M' 'it'\\''s'");
	cr_assert_eq(run.exit_status, 3);
	rl_run_results_release(&run);
	cr_assert_eq(run.n_procs, 0);
}

Test(results, load_dir_without_run_json_is_fine)
{
	char dir[] = "/tmp/rlprof-test-XXXXXX", path[256];
	struct rl_run_results run;
	char err[512] = "";
	FILE *in, *out;
	int ch;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/raw", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/raw/rlprof-7.json", dir);
	in = fopen(DATA "time_only.json", "r");
	out = fopen(path, "w");
	cr_assert(in && out);
	while ((ch = fgetc(in)) != EOF)
		fputc(ch, out);
	fclose(in);
	fclose(out);
	cr_assert_eq(rl_results_load_dir(dir, &run, err, sizeof err), 0, "%s",
		     err);
	cr_assert_eq(run.n_procs, 1);
	cr_assert_null(run.command);
	cr_assert_null(run.backend_requested);
	cr_assert_eq(run.exit_status, -1);
	rl_run_results_release(&run);
	unlink(path);
	snprintf(path, sizeof path, "%s/raw", dir);
	rmdir(path);
	rmdir(dir);
}

Test(results, load_dir_with_no_results_explains)
{
	char dir[] = "/tmp/rlprof-test-XXXXXX", raw[256], want[512];
	struct rl_run_results run;
	char err[512] = "";

	cr_assert_not_null(mkdtemp(dir));
	snprintf(raw, sizeof raw, "%s/raw", dir);
	cr_assert_eq(mkdir(raw, 0700), 0);
	cr_assert_eq(rl_results_load_dir(dir, &run, err, sizeof err),
		     RL_ENOENT);
	snprintf(want, sizeof want,
		 "no results in '%s': was the program run with rlprof run?",
		 raw);
	cr_assert_str_eq(err, want);
	rmdir(raw);
	rmdir(dir);
}

Test(results, load_dir_reports_a_corrupt_member)
{
	char dir[] = "/tmp/rlprof-test-XXXXXX", path[256];
	struct rl_run_results run;
	char err[512] = "";
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/raw", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/raw/rlprof-9.json", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("{\"format\":\"rlprof-results\",", f);
	fclose(f);
	cr_assert_eq(rl_results_load_dir(dir, &run, err, sizeof err),
		     RL_EFORMAT);
	cr_assert(strstr(err, "cannot parse '"), "%s", err);
	cr_assert(strstr(err, "rlprof-9.json': line 1 column"), "%s", err);
	cr_assert_eq(run.n_procs, 0);
	unlink(path);
	snprintf(path, sizeof path, "%s/raw", dir);
	rmdir(path);
	rmdir(dir);
}

/* The runtime's writer and this reader agree on every field. */
Test(results, round_trip_with_the_runtime_writer)
{
	struct rl_region_stats regs[2];
	struct rl_counter_total counts[2][RL_COUNTER_COUNT] = {0};
	struct rl_thread_results thr;
	struct rl_warning warn = {(char *)"end-mismatch", NULL, 42,
				  (char *)"end of 'a\"b' does not match <x>"};
	struct rl_process_results w, r;
	char path[] = "/tmp/rlprof-rt-XXXXXX", err[512] = "";
	int fd;

	memset(&w, 0, sizeof w);
	memset(regs, 0, sizeof regs);
	regs[0].counters = counts[0];
	regs[1].counters = counts[1];
	regs[0].name = (char *)"k\xc3\xa9rnel \"q\", 1";
	regs[0].calls = 3;
	regs[0].time_ns = UINT64_C(123456789012);
	regs[0].expected_flops = 6e9;
	regs[0].expected_bytes = 1.5;
	regs[0].expect_calls = 3;
	regs[0].counters[RL_C_FLOPS_F64_512].value = UINT64_C(1) << 40;
	regs[0].counters[RL_C_FLOPS_F64_512].scaled = 1.25e12;
	regs[0].counters[RL_C_FLOPS_F64_512].enabled_ns = 1000;
	regs[0].counters[RL_C_FLOPS_F64_512].running_ns = 800;
	regs[0].counters[RL_C_DRAM_BYTES].value = 64;
	regs[0].counters[RL_C_DRAM_BYTES].scaled = 64;
	regs[1].name = (char *)"idle";
	regs[1].calls = 1;
	regs[1].expected_flops = NAN;
	regs[1].expected_bytes = NAN;
	regs[1].open_at_exit = 1;
	regs[1].counters[RL_C_FLOPS_F64_512].scaled = NAN;
	regs[0].mpi_known = true; /* 0 is a measured time */
	regs[0].mpi_ns = 0;
	regs[1].mpi_known = true;
	regs[1].mpi_ns = UINT64_C(98765432109);
	w.mpi_calls = RL_MPI_CALLS_IN;
	thr.tid = 42;
	thr.index = 0;
	thr.regions = regs;
	thr.n_regions = 2;
	w.version = 1;
	w.pid = 42;
	w.ppid = 41;
	w.program = (char *)"/bin/app";
	w.backend = (char *)"perf";
	w.backend_note = (char *)"";
	w.provided = BIT(RL_C_FLOPS_F64_512) | BIT(RL_C_DRAM_BYTES) |
		     BIT(RL_C_EXTRA0);
	w.scope[RL_C_DRAM_BYTES] = RL_SCOPE_SYSTEM;
	w.method[RL_C_FLOPS_F64_512] = (char *)"perf FP_ARITH x8";
	w.method[RL_C_DRAM_BYTES] = (char *)"uncore_imc cas_count x64";
	w.method[RL_C_EXTRA0] = (char *)"raw r01c7";
	w.extra_name[0] = (char *)"my_event";
	w.start_ns = 1;
	w.end_ns = 2;
	w.complete = false;
	w.signal = 11;
	w.threads = &thr;
	w.n_threads = 1;
	w.warnings = &warn;
	w.n_warnings = 1;

	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(rl_results_write_fd(fd, &w), 0);
	close(fd);
	cr_assert_eq(rl_results_load(path, &r, err, sizeof err), 0, "%s", err);
	unlink(path);

	cr_assert_eq(r.pid, 42);
	cr_assert_eq(r.ppid, 41);
	cr_assert_str_eq(r.program, "/bin/app");
	cr_assert_str_eq(r.backend, "perf");
	cr_assert_eq(r.provided, w.provided);
	cr_assert_eq(r.scope[RL_C_DRAM_BYTES], RL_SCOPE_SYSTEM);
	cr_assert_str_eq(r.method[RL_C_FLOPS_F64_512], "perf FP_ARITH x8");
	cr_assert_str_eq(r.extra_name[0], "my_event");
	cr_assert_not(r.complete);
	cr_assert_eq(r.signal, 11);
	cr_assert_eq(r.n_threads, 1);
	cr_assert_eq(r.threads[0].n_regions, 2);
	cr_assert_str_eq(r.threads[0].regions[0].name, regs[0].name);
	cr_assert_eq(r.threads[0].regions[0].time_ns, regs[0].time_ns);
	cr_assert_eq(r.threads[0].regions[0].counters[RL_C_FLOPS_F64_512].value,
		     UINT64_C(1) << 40);
	/* not written (version 2): scaled from the sums, 2^40 * 1000/800 */
	cr_assert_float_eq(
		r.threads[0].regions[0].counters[RL_C_FLOPS_F64_512].scaled,
		1374389534720.0, 1e-3);
	cr_assert_eq(
		r.threads[0].regions[0].counters[RL_C_FLOPS_F64_512].running_ns,
		800);
	cr_assert_float_eq(r.threads[0].regions[0].expected_bytes, 1.5, 1e-12);
	cr_assert_eq(r.threads[0].regions[0].expect_calls, 3);
	cr_assert_eq(r.threads[0].regions[1].open_at_exit, 1);
	cr_assert_eq(r.threads[0].regions[1].expect_calls, 0);
	cr_assert_eq(r.mpi_calls, RL_MPI_CALLS_IN);
	cr_assert(r.threads[0].regions[0].mpi_known);
	cr_assert_eq(r.threads[0].regions[0].mpi_ns, 0);
	cr_assert(r.threads[0].regions[1].mpi_known);
	cr_assert_eq(r.threads[0].regions[1].mpi_ns, UINT64_C(98765432109));
	cr_assert(isnan(r.threads[0]
				.regions[1]
				.counters[RL_C_FLOPS_F64_512]
				.scaled));
	cr_assert_eq(r.n_warnings, 1);
	cr_assert_str_eq(r.warnings[0].message, warn.message);
	cr_assert_null(r.warnings[0].region);
	cr_assert_eq(r.warnings[0].tid, 42);
	rl_results_release(&r);
}

/* A provided counter a region does not list, or lists with "scaled":
 * null, is unknown (NAN); without "scaled" at all it is the raw value. */
Test(results, missing_or_null_counter_values_are_unknown)
{
	char path[] = "/tmp/rlprof-rp-XXXXXX", err[512] = "";
	struct rl_process_results r;
	const struct rl_region_stats *s;
	int fd = mkstemp(path);
	FILE *f;

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs("{\"format\":\"rlprof-results\",\"version\":1,\"pid\":1,"
	      "\"program\":\"p\",\"backend\":\"perf\",\"counters\":["
	      "{\"name\":\"flops_any\",\"scope\":\"thread\"},"
	      "{\"name\":\"dram_bytes\",\"scope\":\"system\"},"
	      "{\"name\":\"cycles\"}],"
	      "\"threads\":[{\"tid\":1,\"regions\":[{\"name\":\"a\","
	      "\"calls\":1,\"time_ns\":5,\"counters\":{"
	      "\"flops_any\":{\"value\":7},"
	      "\"dram_bytes\":{\"value\":3,\"scaled\":null}}}]}]}",
	      f);
	fclose(f);
	cr_assert_eq(rl_results_load(path, &r, err, sizeof err), 0, "%s", err);
	unlink(path);
	s = &r.threads[0].regions[0];
	cr_assert_float_eq(s->counters[RL_C_FLOPS_ANY].scaled, 7, 1e-12);
	cr_assert(isnan(s->counters[RL_C_DRAM_BYTES].scaled));
	cr_assert(isnan(s->counters[RL_C_CYCLES].scaled));
	cr_assert_eq(r.scope[RL_C_DRAM_BYTES], RL_SCOPE_SYSTEM);
	cr_assert_eq(r.scope[RL_C_CYCLES], RL_SCOPE_THREAD);
	cr_assert_str_eq(r.method[RL_C_CYCLES], "");
	rl_results_release(&r);
}

Test(results, unknown_counter_is_named)
{
	char path[] = "/tmp/rlprof-rp-XXXXXX", err[512] = "";
	struct rl_process_results r;
	int fd = mkstemp(path);
	FILE *f;

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs("{\"format\":\"rlprof-results\",\"version\":1,\"pid\":1,"
	      "\"program\":\"p\",\"backend\":\"perf\",\"counters\":["
	      "{\"name\":\"flops_f128\"}],\"threads\":[]}",
	      f);
	fclose(f);
	cr_assert_eq(rl_results_load(path, &r, err, sizeof err), RL_EFORMAT);
	unlink(path);
	cr_assert(strstr(err, "counters[0]: unknown counter 'flops_f128'"),
		  "%s", err);
}

/* "mpi_calls" is "out" or "in"; anything else is named, never guessed */
Test(results, mpi_calls_other_than_out_or_in_is_refused)
{
	char path[] = "/tmp/rlprof-mpi-XXXXXX", err[512] = "";
	struct rl_process_results r;
	FILE *f;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs("{\"format\": \"rlprof-results\", \"version\": 2, \"pid\": 7, "
	      "\"program\": \"a\", \"backend\": \"time\", "
	      "\"mpi_calls\": \"maybe\", \"counters\": [], "
	      "\"threads\": [], \"warnings\": []}\n", f);
	fclose(f);
	cr_assert_lt(rl_results_load(path, &r, err, sizeof err), 0);
	unlink(path);
	cr_assert(strstr(err, "mpi_calls"), "%s", err);
}
