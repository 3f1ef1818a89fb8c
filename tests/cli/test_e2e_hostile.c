/* rlprof against hostile or careless input: a run.json in the way, a full
 * disk, crafted region records, a FIFO, a damaged ELF file, a script whose
 * interpreter is missing. */
#include <dirent.h>
#include <errno.h>
#include <sys/mount.h>

#include "tests/lib/run.h"

static int exists(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* A directory where run.json should go: the results are still the
 * program's (not one synthesised '<program>'), and the status says 1. */
Test(e2e_hostile, run_json_in_the_way_keeps_the_results, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_regions"), NULL};
	char path[600];
	struct e2e_result r;

	e2e_need(prog[0]);
	snprintf(path, sizeof path, "%s/out", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/out/run.json", dir);
	cr_assert_eq(mkdir(path, 0755), 0);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "run.json': Is a directory") != NULL,
		  "stderr: %s", r.err);
	cr_expect(strstr(r.out, "alpha") != NULL, "stdout: %s", r.out);
	cr_expect(strstr(r.out, "<program>") == NULL, "stdout: %s", r.out);
	cr_expect(strstr(r.err, "wrote no results file") == NULL, "stderr: %s",
		  r.err);
	e2e_expect_csv_row(dir, "out/report.csv", "alpha");
	e2e_cleanup(&r, dir);
}

/* A 64 KiB tmpfs nearly full. With 8 KiB free the live file's header
 * took the room the results file needed and the regions were lost
 * entirely; now a live file holding no record makes way for the results
 * file. With 12 KiB free the live file keeps the records in a one-page
 * block, the process says so, and rlprof run writes the recovered results
 * into the room the live file held. Either way the report has every
 * region, not '<program>'. */
Test(e2e_hostile, nearly_full_disk_keeps_the_regions, .timeout = 60)
{
	static const struct {
		int free_kib;
		const char *said;
	} cases[] = {{8, "cannot keep region records in the live file"},
		     {12, "the 4 calls of its 4 regions (per thread) are kept "
			  "in its live file"}};
	const char *prog[] = {E2E_PROG("e2e_regions"), NULL};

	e2e_need(prog[0]);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char *dir = e2e_tmpdir();
		char out[600], ballast[600], raw[700];
		struct e2e_result r;
		FILE *f;

		if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
			int e = errno;
			e2e_rmtree(dir);
			cr_skip_test("cannot mount a small tmpfs here (%s): "
				     "needs root", strerror(e));
		}
		snprintf(ballast, sizeof ballast, "%s/ballast", dir);
		f = fopen(ballast, "w");
		cr_assert_not_null(f);
		for (int i = 0; i < (64 - cases[k].free_kib) * 1024; i++)
			fputc('x', f);
		cr_assert_eq(fclose(f), 0, "ballast: %s", strerror(errno));
		snprintf(out, sizeof out, "%s/out", dir);
		r = e2e_profile("time", out, prog);
		cr_expect(strstr(r.err, cases[k].said) != NULL,
			  "%d KiB free: stderr: %s", cases[k].free_kib, r.err);
		cr_expect(strstr(r.err, "lost:") == NULL, "%d KiB free: %s",
			  cases[k].free_kib, r.err);
		cr_expect(strstr(r.out, "alpha") != NULL && strstr(r.out, "dyn-1"),
			  "%d KiB free: stdout: %s", cases[k].free_kib, r.out);
		cr_expect(strstr(r.out, "<program>") == NULL, "stdout: %s", r.out);
		snprintf(raw, sizeof raw, "%s/raw", out);
		cr_expect_eq(e2e_count_entries(raw, "rlprof-", 0), 1,
			     "%d KiB free: no results file", cases[k].free_kib);
		cr_expect_eq(e2e_count_entries(raw, ".live", 1), 0,
			     "%d KiB free: a live file left", cases[k].free_kib);
		e2e_free(&r);
		umount(dir);
		e2e_rmtree(dir);
		free(dir);
	}
}

/* A 64 KiB tmpfs filled but for one page: the results file fits, nothing
 * else does. No partial file is left, the message names ENOSPC, the
 * status is 1; once there is room again `rlprof report` reads the run. */
Test(e2e_hostile, full_disk_leaves_no_partial_file, .timeout = 60)
{
	char *dir = e2e_tmpdir();
	const char *prog[] = {E2E_PROG("e2e_regions"), NULL};
	char out[600], ballast[600];
	struct e2e_result r;
	FILE *f;

	e2e_need(prog[0]);
	if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
		int e = errno;
		e2e_rmtree(dir);
		cr_skip_test("cannot mount a small tmpfs here (%s): needs root",
			     strerror(e));
	}
	snprintf(ballast, sizeof ballast, "%s/ballast", dir);
	f = fopen(ballast, "w");
	cr_assert_not_null(f);
	for (int i = 0; i < 60 * 1024; i++)
		fputc('x', f);
	cr_assert_eq(fclose(f), 0, "ballast: %s", strerror(errno));
	snprintf(out, sizeof out, "%s/out", dir);
	r = e2e_profile("time", out, prog);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "No space left on device") != NULL,
		  "stderr: %s", r.err);
	cr_expect(strstr(r.err, "input/output error") == NULL, "stderr: %s",
		  r.err);
	cr_expect(strstr(r.out, "alpha") != NULL, "stdout: %s", r.out);
	cr_expect(strstr(r.out, "<program>") == NULL, "stdout: %s", r.out);
	cr_expect_eq(e2e_count_entries(out, ".tmp-", 1), 0,
		     "a temporary file is left");
	/* each file is whole or absent: none fits in what is left */
	cr_expect(!exists(out, "run.json"), "a partial run.json is left");
	cr_expect(!exists(out, "report.json"), "a partial report.json");
	cr_expect(!exists(out, "report.html"), "a partial report.html");
	e2e_free(&r);

	unlink(ballast);
	{
		const char *argv[] = {E2E_RLPROF, "report", "--no-probe", "-f",
				      "csv", out, NULL};
		r = e2e_run(argv);
		cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status,
			     r.err);
		cr_expect_not_null(e2e_csv_row(r.out, "alpha"), "csv: %s",
				   r.out);
		e2e_free(&r);
	}
	umount(dir);
	e2e_rmtree(dir);
	free(dir);
}

/* `#!/nonexistent`: one message (127), not also "stopped on signal 0". */
Test(e2e_hostile, script_without_its_interpreter_is_one_message,
     .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char script[600];
	const char *prog[] = {script, NULL};
	struct e2e_result r;

	snprintf(script, sizeof script, "%s/noint.sh", dir);
	e2e_put_file(script, "#!/nonexistent/interpreter\necho hi\n", 0755);
	r = e2e_profile_in("time", dir, prog);
	cr_expect_eq(r.status, 127, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "interpreter") != NULL, "stderr: %s", r.err);
	cr_expect(strstr(r.err, "stopped on signal") == NULL, "stderr: %s",
		  r.err);
	e2e_cleanup(&r, dir);
}

/* `rlprof inspect FIFO` once waited forever for a writer. */
Test(e2e_hostile, inspect_refuses_a_fifo, .timeout = 20)
{
	char *dir = e2e_tmpdir();
	char fifo[600];
	const char *argv[] = {E2E_RLPROF, "inspect", fifo, NULL};
	struct e2e_result r;

	e2e_need(E2E_RLPROF);
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	cr_assert_eq(mkfifo(fifo, 0644), 0);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 1, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strstr(r.err, "not a regular file (a FIFO)") != NULL,
		  "stderr: %s", r.err);
	e2e_cleanup(&r, dir);
}

/* e2e_plain with a "rlprof_regions" section added (objcopy), whose
 * record carries ESC, OSC, a raw C1 byte and U+202E in its file name and
 * its name. Path of the copy into buf; skips without objcopy. */
static void craft_binary(const char *dir, char *buf, size_t len)
{
	static const char rec[] =
		"RLR1\0evil\x1b]0;pwned\x07\xc2\x9b.c\0"
		"7\0\"a\\x9b\xe2\x80\xae"
		"b\"\0";
	char sec[600], arg[700];
	const char *argv[] = {"/usr/bin/objcopy", "--add-section", arg,
			      E2E_PROG("e2e_plain"), buf, NULL};
	struct e2e_result r;
	FILE *f;

	if (access(argv[0], X_OK) != 0)
		cr_skip_test("no objcopy (binutils) to craft a binary");
	e2e_need(E2E_PROG("e2e_plain"));
	snprintf(sec, sizeof sec, "%s/section", dir);
	snprintf(arg, sizeof arg, "rlprof_regions=%s", sec);
	snprintf(buf, len, "%s/crafted", dir);
	f = fopen(sec, "w");
	cr_assert_not_null(f);
	fwrite(rec, 1, sizeof rec - 1, f);
	fclose(f);
	r = e2e_run(argv);
	cr_assert_eq(r.status, 0, "objcopy: %s", r.err);
	e2e_free(&r);
}

Test(e2e_hostile, inspect_escapes_what_the_binary_says, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char bin[600];
	const char *argv[] = {E2E_RLPROF, "inspect", bin, NULL};
	struct e2e_result r;

	craft_binary(dir, bin, sizeof bin);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(strchr(r.out, '\x1b') == NULL, "raw ESC: %s", r.out);
	cr_expect(strchr(r.out, '\x07') == NULL, "raw BEL: %s", r.out);
	cr_expect(strstr(r.out, "\x9b") == NULL, "raw C1: %s", r.out);
	cr_expect(strstr(r.out, "\xe2\x80\xae") == NULL, "raw U+202E: %s",
		  r.out);
	cr_expect(strstr(r.out, "evil\\x1b]0;pwned\\x07\\u009b.c:7") != NULL,
		  "stdout: %s", r.out);
	cr_expect(strstr(r.out, "a\\x9b\\u202eb") != NULL, "stdout: %s", r.out);
	e2e_cleanup(&r, dir);
}

Test(e2e_hostile, inspect_json_keeps_every_name, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char bin[600];
	const char *argv[] = {E2E_RLPROF, "inspect", "--json", bin, NULL};
	struct e2e_result r;
	int names = 0;

	craft_binary(dir, bin, sizeof bin);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	for (const char *p = r.out; (p = strstr(p, "\"name\": ")); p++)
		names++;
	cr_expect_eq(names, 1, "1 region, 1 name: %s", r.out);
	cr_expect(strstr(r.out, "\"name\": \"a\\uFFFD\\u202Eb\"") != NULL,
		  "stdout: %s", r.out);
	for (const char *p = r.out; *p; p++)
		cr_expect((unsigned char)*p < 0x80, "not ASCII: %s", r.out);
	e2e_cleanup(&r, dir);
}

/* A section table beyond the end of the file: readelf reports errors,
 * and so does rlprof (it once said "no regions declared", exit 0). */
Test(e2e_hostile, inspect_says_a_damaged_elf_is_damaged, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char bin[600];
	const char *argv[] = {E2E_RLPROF, "inspect", bin, NULL};
	struct e2e_result r;
	unsigned char *img;
	size_t n;
	FILE *f;

	e2e_need(E2E_PROG("e2e_regions"));
	img = (unsigned char *)e2e_slurp(E2E_PROG("e2e_regions"));
	cr_assert_not_null(img);
	f = fopen(E2E_PROG("e2e_regions"), "r");
	fseek(f, 0, SEEK_END);
	n = (size_t)ftell(f);
	fclose(f);
	/* e_shoff (ELF64, offset 0x28) past the end */
	for (int i = 0; i < 8; i++)
		img[0x28 + i] = (unsigned char)((n + 4096) >> (8 * i));
	snprintf(bin, sizeof bin, "%s/damaged", dir);
	f = fopen(bin, "w");
	cr_assert_not_null(f);
	fwrite(img, 1, n, f);
	fclose(f);
	free(img);
	r = e2e_run(argv);
	cr_expect_eq(r.status, 1, "status %d, stdout: %s", r.status, r.out);
	cr_expect(strstr(r.err, "the file is damaged") != NULL, "stderr: %s",
		  r.err);
	cr_expect(strstr(r.out, "no regions declared") == NULL, "stdout: %s",
		  r.out);
	e2e_cleanup(&r, dir);
}

/* -o through a temporary file and a rename must not replace what is not
 * a regular file (-o /dev/stdout, a FIFO) nor turn a symbolic link into a
 * file. */
Test(e2e_hostile, report_output_keeps_links_and_special_files, .timeout = 30)
{
	char *dir = e2e_tmpdir();
	char link[600], target[600];
	const char *argv[] = {E2E_RLPROF, "report", "--no-probe", "-f", "csv",
			      "-o", link, RL_SOURCE_DIR "/tests/data/results/run1",
			      NULL};
	struct e2e_result r;
	struct stat st;
	char *csv;

	e2e_need(E2E_RLPROF);
	snprintf(link, sizeof link, "%s/link.csv", dir);
	snprintf(target, sizeof target, "%s/target.csv", dir);
	cr_assert_eq(symlink(target, link), 0);
	for (int k = 0; k < 2; k++) { /* the target missing, then there */
		r = e2e_run(argv);
		cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status,
			     r.err);
		e2e_free(&r);
		cr_expect(lstat(link, &st) == 0 && S_ISLNK(st.st_mode),
			  "the link was replaced");
	}
	csv = e2e_file(dir, "target.csv");
	cr_expect_not_null(e2e_csv_row(csv, "stream"), "%s", csv);
	free(csv);

	snprintf(link, sizeof link, "%s/fifo", dir);
	cr_assert_eq(mkfifo(link, 0644), 0);
	if (fork() == 0) { /* the reader */
		char buf[4096];
		int fd = open(link, O_RDONLY);
		while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
			;
		_exit(0);
	}
	r = e2e_run(argv);
	cr_expect_eq(r.status, 0, "status %d, stderr: %s", r.status, r.err);
	cr_expect(stat(link, &st) == 0 && S_ISFIFO(st.st_mode),
		  "the FIFO was replaced");
	wait(NULL);
	e2e_cleanup(&r, dir);
}
