/* SPDX-License-Identifier: MIT */
/*
 * The live results file (profiler/formats/live.h) read back: the file a
 * process killed by SIGKILL leaves (made here by the real librlprof, with
 * RLPROF_OUT and no rlprof run), then the same file cut at every length
 * and damaged: the reader returns the regions or one error, never crashes.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "formats/live.h"
#include "results/run_results.h"
#include "results/results_live.h"
#include "runtime/results_write.h"
#include "common/rl_error.h"
#include "tests/lib/run.h"

static char *killed_live_file(char *dir)
{
	char out[600];
	snprintf(out, sizeof out, "RLPROF_OUT=%s", dir);
	const char *env[] = {out, "RLPROF_BACKEND=time", NULL};
	const char *argv[] = {E2E_PROG("rt_killed"), "kill", NULL};
	e2e_need(argv[0]);
	struct e2e_result r = e2e_run_in(NULL, argv, env);
	cr_assert_eq(r.status, 128 + SIGKILL, "status %d: %s", r.status, r.err);
	e2e_free(&r);
	DIR *d = opendir(dir);
	cr_assert_not_null(d);
	struct dirent *de;
	char *path = NULL;
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".live")) {
			path = malloc(strlen(dir) + strlen(de->d_name) + 2);
			sprintf(path, "%s/%s", dir, de->d_name);
		} else {
			cr_assert_eq(de->d_name[0], '.', "unexpected '%s'",
				     de->d_name);
		}
	closedir(d);
	cr_assert_not_null(path, "no live file in '%s'", dir);
	return path;
}

static const struct rl_region_stats *find(const struct rl_process_results *p,
					  const char *name)
{
	for (size_t t = 0; t < p->n_threads; t++)
		for (size_t i = 0; i < p->threads[t].n_regions; i++)
			if (strcmp(p->threads[t].regions[i].name, name) == 0)
				return &p->threads[t].regions[i];
	return NULL;
}

Test(results_live, killed_process_leaves_its_completed_regions)
{
	char *dir = e2e_tmpdir(), err[512];
	char *path = killed_live_file(dir);
	struct rl_process_results p;
	cr_assert_eq(rl_results_live_load(path, &p, err, sizeof err), 0, "%s",
		     err);
	cr_assert_str_eq(p.backend, "time");
	cr_assert_not(p.complete);
	cr_assert_eq(p.n_threads, 1);
	const struct rl_region_stats *done = find(&p, "done");
	const struct rl_region_stats *working = find(&p, "working");
	cr_assert_not_null(done);
	cr_assert_not_null(working);
	cr_assert_eq(done->calls, 3);
	cr_assert_eq(done->open_at_exit, 0);
	cr_assert_gt(done->time_ns, 0);
	cr_assert_eq(working->calls, 0);
	cr_assert_eq(working->open_at_exit, 1);
	cr_assert_eq(rl_results_total_calls(&p), 3);
	rl_results_release(&p);
	free(path);
	e2e_rmtree(dir);
	free(dir);
}

Test(results_live, cut_or_damaged_files_give_regions_or_one_error)
{
	char *dir = e2e_tmpdir(), err[512];
	char *path = killed_live_file(dir);
	char *text = NULL;
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = malloc((size_t)len);
	cr_assert_eq(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	char cut[700];
	snprintf(cut, sizeof cut, "%s/cut", dir);
	/* every length up to the first records, then coarser */
	for (long n = 0; n <= len; n += n < 20000 ? 61 : 4093) {
		f = fopen(cut, "wb");
		fwrite(text, 1, (size_t)n, f);
		fclose(f);
		struct rl_process_results p;
		int rc = rl_results_live_load(cut, &p, err, sizeof err);
		if (rc == 0) {
			cr_assert_leq(rl_results_total_calls(&p), 3);
			rl_results_release(&p);
		} else {
			cr_assert(strstr(err, cut) != NULL, "%ld: %s", n, err);
		}
	}
	/* bytes flipped all over: still regions or one error */
	for (long k = 0; k < 200; k++) {
		char *copy = malloc((size_t)len);
		memcpy(copy, text, (size_t)len);
		for (int j = 0; j < 8; j++)
			copy[(k * 7919 + j * 104729) % len] ^= (char)(0x55 + j);
		f = fopen(cut, "wb");
		fwrite(copy, 1, (size_t)len, f);
		fclose(f);
		free(copy);
		struct rl_process_results p;
		if (rl_results_live_load(cut, &p, err, sizeof err) == 0)
			rl_results_release(&p);
	}
	/* another build's file: refused with what to do */
	((uint32_t *)(void *)text)[2] = 99; /* version */
	f = fopen(cut, "wb");
	fwrite(text, 1, (size_t)len, f);
	fclose(f);
	struct rl_process_results p;
	cr_assert_eq(rl_results_live_load(cut, &p, err, sizeof err),
		     RL_EVERSION);
	cr_assert(strstr(err, "another version of librlprof"), "%s", err);
	free(text);
	free(path);
	e2e_rmtree(dir);
	free(dir);
}

/* The file of a killed process read into memory, its first block and the
 * first two records of it ("done", then "working"). */
struct live_copy {
	char *text;
	long len;
	struct rl_live_block *block;
	struct rl_rec *rec[2];
};

static void live_copy(const char *path, struct live_copy *c)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	c->len = ftell(f);
	fseek(f, 0, SEEK_SET);
	c->text = malloc((size_t)c->len);
	cr_assert_eq(fread(c->text, 1, (size_t)c->len, f), (size_t)c->len);
	fclose(f);
	const struct rl_live_header *h = (const void *)c->text;
	c->block = (void *)(c->text + h->header_size);
	cr_assert_eq(c->block->magic, RL_LIVE_BLOCK_MAGIC);
	c->rec[0] = (void *)((char *)c->block + RL_LIVE_BLOCK_HEAD);
	c->rec[1] = (void *)((char *)c->rec[0] + c->rec[0]->size);
	cr_assert_str_eq(rl_rec_name_n(c->rec[0], h->n_prov), "done");
	cr_assert_str_eq(rl_rec_name_n(c->rec[1], h->n_prov), "working");
}

/* The copy written to DIR/cut, loaded as recovery does, written as
 * results and read back (what recovery writes, its reader must take):
 * the regions loaded, the warnings' text in *warn. */
static size_t recover(const struct live_copy *c, const char *dir,
		      char *warn, size_t wlen)
{
	char cut[700], json[700], err[512];
	struct rl_process_results p, back;
	size_t n = 0;

	snprintf(cut, sizeof cut, "%s/cut", dir);
	snprintf(json, sizeof json, "%s/back.json", dir);
	FILE *f = fopen(cut, "wb");
	fwrite(c->text, 1, (size_t)c->len, f);
	fclose(f);
	cr_assert_eq(rl_results_live_load(cut, &p, err, sizeof err), 0, "%s",
		     err);
	warn[0] = '\0';
	for (size_t i = 0; i < p.n_warnings; i++)
		snprintf(warn + strlen(warn), wlen - strlen(warn), "%s: %s\n",
			 p.warnings[i].kind, p.warnings[i].message);
	for (size_t t = 0; t < p.n_threads; t++)
		n += p.threads[t].n_regions;
	int fd = open(json, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	cr_assert_eq(rl_results_write_fd(fd, &p), 0);
	close(fd);
	cr_assert_eq(rl_results_load(json, &back, err, sizeof err), 0,
		     "recovered results refused: %s", err);
	rl_results_release(&back);
	rl_results_release(&p);
	return n;
}

/* make fuzz's live target found these: recovery wrote what its reader
 * refused, and the process was lost */
Test(results_live, a_name_twice_or_a_tid_past_2_63_is_damage)
{
	char *dir = e2e_tmpdir(), warn[4096];
	char *path = killed_live_file(dir);
	struct live_copy c;
	const struct rl_live_header *h;

	live_copy(path, &c);
	h = (const void *)c.text;
	cr_assert_eq(recover(&c, dir, warn, sizeof warn), 2, "%s", warn);
	/* the second record renamed "done": one is left, one warning */
	cr_assert_eq(rl_rec_size_n(4, h->n_prov), c.rec[1]->size);
	strcpy(rl_rec_name_n(c.rec[1], h->n_prov), "done");
	c.rec[1]->name_len = 4;
	cr_expect_eq(recover(&c, dir, warn, sizeof warn), 1, "%s", warn);
	cr_expect(strstr(warn, "live-damaged: 1 region record of the live "
			       "file") && strstr(warn, "repeat a name"),
		  "%s", warn);
	/* a thread id past 2^63: its records are left out */
	c.block->tid = UINT64_MAX;
	cr_expect_eq(recover(&c, dir, warn, sizeof warn), 0, "%s", warn);
	cr_expect(strstr(warn, "live-damaged: 2 region records"), "%s", warn);
	free(c.text);
	free(path);
	e2e_rmtree(dir);
	free(dir);
}
