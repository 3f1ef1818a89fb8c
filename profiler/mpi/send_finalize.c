/*
 * librlprof-mpi: MPI ranks without a shared output directory send their
 * results to rank 0 at MPI_Finalize (a PMPI wrapper; librlprof itself
 * stays MPI-free). `rlprof run` under each rank preloads it into an MPI
 * program (run_compat.c); a program may also link it (-lrlprof-mpi).
 *
 * At MPI_Finalize every rank ends its measurement (rl_results_now.h) and
 * packs its rank directory's rank.json and raw/rlprof-*.json; rank 0
 * gathers them and writes each other rank's files into DIR/rank-<q>/ of
 * its own job directory, with sent.json, unless that rank's rank.json is
 * already there with the same bytes (a shared directory: the rank wrote
 * it itself). Then the real PMPI_Finalize. Outside rlprof run (no
 * RLPROF_OUT) it only calls PMPI_Finalize.
 *
 * Record of one file in a rank's buffer: the path relative to the rank
 * directory (NUL-terminated), its size as 8 bytes (native order: every
 * rank of a job runs the same build), its bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/rl_results_now.h"

#define PUBLIC __attribute__((visibility("default")))

struct buf {
	char *p;
	size_t n, cap;
};

static int put(struct buf *b, const void *x, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;
		while (cap < b->n + n)
			cap *= 2;
		if (!(p = realloc(b->p, cap)))
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, x, n);
	b->n += n;
	return 0;
}

/* Appends the record of rank_dir/rel (rel as the record's name). */
static int pack_file(struct buf *b, const char *rank_dir, const char *rel)
{
	char path[PATH_MAX + 256], chunk[65536];
	uint64_t size;
	size_t at, k;
	struct stat st;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof path, "%s/%s", rank_dir, rel);
	if (!(f = fopen(path, "rb")))
		return errno == ENOENT ? 0 : -1;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return 0;
	}
	size = (uint64_t)st.st_size;
	if (put(b, rel, strlen(rel) + 1) || put(b, &size, sizeof size)) {
		fclose(f);
		return -1;
	}
	at = b->n;
	while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (put(b, chunk, k)) {
			rc = -1;
			break;
		}
	fclose(f);
	/* a file that changed size while read: fix the record's size */
	size = (uint64_t)(b->n - at);
	memcpy(b->p + at - sizeof size, &size, sizeof size);
	return rc;
}

/* rank.json and raw/rlprof-*.json of rank_dir. */
static int pack_rank(struct buf *b, const char *rank_dir)
{
	char raw[PATH_MAX + 8], rel[300];
	struct dirent *de;
	DIR *d;
	int rc = pack_file(b, rank_dir, "rank.json");

	snprintf(raw, sizeof raw, "%s/raw", rank_dir);
	if (rc || !(d = opendir(raw)))
		return rc;
	while (!rc && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (strncmp(de->d_name, "rlprof-", 7) != 0 || n < 5 ||
		    strcmp(de->d_name + n - 5, ".json") != 0)
			continue;
		snprintf(rel, sizeof rel, "raw/%s", de->d_name);
		rc = pack_file(b, rank_dir, rel);
	}
	closedir(d);
	return rc;
}

/* path's bytes equal x[0..n)? */
static int same_file(const char *path, const char *x, size_t n)
{
	char *y = malloc(n + 1);
	FILE *f = fopen(path, "rb");
	size_t k = 0;
	int same = 0;

	if (y && f) {
		k = fread(y, 1, n + 1, f);
		same = k == n && memcmp(x, y, n) == 0;
	}
	if (f)
		fclose(f);
	free(y);
	return same;
}

static void write_file(const char *dir, const char *rel, const char *x,
		       size_t n)
{
	char path[PATH_MAX + 300], tmp[PATH_MAX + 320];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (!(f = fopen(tmp, "wb")) || fwrite(x, 1, n, f) != n) {
		fprintf(stderr, "rlprof-mpi: cannot write '%s': %s\n", tmp,
			strerror(errno));
		if (f)
			fclose(f);
		unlink(tmp);
		return;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "rlprof-mpi: cannot write '%s': %s\n", path,
			strerror(errno));
		unlink(tmp);
	}
}

/* Rank q's records (x, n) into job_dir/rank-<q>/, unless it is there. */
static void unpack_rank(const char *job_dir, int q, const char *x, size_t n)
{
	char dir[PATH_MAX + 32], sub[PATH_MAX + 40], path[PATH_MAX + 64];
	const char *end = x + n;
	int first = 1;

	snprintf(dir, sizeof dir, "%s/rank-%d", job_dir, q);
	snprintf(sub, sizeof sub, "%s/raw", dir);
	while (x < end) {
		const char *rel = x;
		size_t len = strnlen(rel, (size_t)(end - x));
		uint64_t size;

		if (len == (size_t)(end - x) ||
		    (size_t)(end - x) - len - 1 < sizeof size)
			return; /* truncated: nothing more to trust */
		memcpy(&size, x + len + 1, sizeof size);
		x += len + 1 + sizeof size;
		if (size > (uint64_t)(end - x) || strstr(rel, "..") ||
		    rel[0] == '/')
			return;
		if (first) {
			first = 0;
			snprintf(path, sizeof path, "%s/rank.json", dir);
			/* the rank's own rank.json already there: the
			 * directory is shared, the rank wrote everything */
			if (strcmp(rel, "rank.json") == 0 &&
			    same_file(path, x, (size_t)size))
				return;
			mkdir(dir, 0755);
			mkdir(sub, 0755);
		}
		write_file(dir, rel, x, (size_t)size);
		x += size;
	}
	if (!first) {
		char note[160];
		int k = snprintf(note, sizeof note,
				 "{\"format\": \"rlprof-sent\", \"version\": 1, "
				 "\"rank\": %d, \"when\": \"MPI_Finalize\"}\n",
				 q);
		write_file(dir, "sent.json", note, (size_t)k);
	}
}

/* Does every rank agree (rank 0 says)? */
static int all_ok(int rank, int ok)
{
	PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!ok && rank == 0)
		fprintf(stderr, "rlprof-mpi: the ranks' results were not sent "
			"to rank 0 (out of memory, or over 2 GiB in all): each "
			"rank's stay in its own directory\n");
	return ok;
}

/* Gathers every rank's buffer at rank 0, which unpacks them. */
static void send_results(const char *raw_dir)
{
	char rank_dir[PATH_MAX], job_dir[PATH_MAX], *slash;
	int rank, size;
	long long n, total = 0, *lens = NULL;
	int *counts = NULL, *displs = NULL;
	char *all = NULL;
	struct buf b = {0};

	if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
	    PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS || size < 2)
		return;
	snprintf(rank_dir, sizeof rank_dir, "%s", raw_dir);
	if ((slash = strrchr(rank_dir, '/')))
		*slash = '\0';
	snprintf(job_dir, sizeof job_dir, "%s", rank_dir);
	if ((slash = strrchr(job_dir, '/')))
		*slash = '\0';
	if (pack_rank(&b, rank_dir) != 0 || b.n > INT_MAX)
		b.n = 0; /* nothing rather than part */
	n = (long long)b.n;
	if (rank == 0) {
		lens = calloc((size_t)size, sizeof *lens);
		counts = calloc((size_t)size, sizeof *counts);
		displs = calloc((size_t)size, sizeof *displs);
	}
	if (!all_ok(rank, rank != 0 || (lens && counts && displs)))
		goto out;
	PMPI_Gather(&n, 1, MPI_LONG_LONG, lens, 1, MPI_LONG_LONG, 0,
		    MPI_COMM_WORLD);
	for (int q = 0; rank == 0 && q < size && total <= INT_MAX; q++) {
		counts[q] = (int)lens[q];
		displs[q] = (int)total;
		total += lens[q];
	}
	if (rank == 0 && total <= INT_MAX)
		all = malloc(total ? (size_t)total : 1);
	if (!all_ok(rank, rank != 0 || all))
		goto out;
	PMPI_Gatherv(b.p, (int)b.n, MPI_BYTE, all, counts, displs, MPI_BYTE, 0,
		     MPI_COMM_WORLD);
	for (int q = 1; rank == 0 && q < size; q++)
		unpack_rank(job_dir, q, all + displs[q], (size_t)counts[q]);
out:
	free(all);
	free(lens);
	free(counts);
	free(displs);
	free(b.p);
}

PUBLIC int MPI_Finalize(void)
{
	const char *raw_dir = rl_results_dir();
	int init = 0, done = 0;

	if (raw_dir && *raw_dir &&
	    PMPI_Initialized(&init) == MPI_SUCCESS && init &&
	    PMPI_Finalized(&done) == MPI_SUCCESS && !done) {
		rl_results_write_now("at MPI_Finalize");
		send_results(raw_dir);
	}
	return PMPI_Finalize();
}
