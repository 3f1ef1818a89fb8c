/* SPDX-License-Identifier: MIT */
/*
 * The live results file (profiler/formats/live.h) read back: the file a
 * process killed by SIGKILL leaves (made here by the real librlprof, with
 * RLPROF_OUT and no rlprof run), then the same file cut at every length
 * and damaged: the reader returns the regions or one error, never crashes.
 */
#include <dirent.h>
#include <signal.h>

#include "model/results_live.h"
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
