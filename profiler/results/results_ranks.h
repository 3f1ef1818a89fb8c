/*
 * The ranks of an MPI run (results_ranks.c): DIR/rank-<r>/ written by
 * `rlprof run` under each rank (run_mpi.h), merged into one struct
 * rl_run_results whose processes carry their rank, with the ranks that
 * left no results named.
 *
 * Layout read: DIR/rank-<r>/{rank.json, run.json, raw/, raw-native/},
 * DIR/native/rank-<r>/ (the native timing job of `rlprof run -b sim --
 * mpirun ...`), DIR/mpi.json (rlprof around the launcher: -np).
 */
#ifndef RL_RESULTS_RANKS_H
#define RL_RESULTS_RANKS_H

/* Ranks missing between those whose folders show one, listed one by one
 * up to this many; more is not one job's output and is refused. */
#define RL_MPI_MAX_MISSING 4096

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "results/run_results.h"

struct rl_rank_info {
	long rank;
	char *host;        /* NULL when unknown */
	bool present;      /* its results were loaded */
	int exit_status;   /* of its program, -1 unknown */
	int signal;        /* that killed its program, 0 none */
	char *why;         /* missing: one line saying why; else NULL */
};

struct rl_mpi_results {
	long size;                  /* ranks in the job */
	struct rl_rank_info *ranks; /* size entries, index = rank */
	long *proc_rank;            /* rank of each process of the run
				       results (n_procs entries) */
	size_t n_missing;
};

/* When DIR holds rank-<r> directories, loads every rank into out (which
 * holds no processes yet) and sets out->mpi; the command, backend and
 * exit status come from rank 0 (or the first rank present) unless
 * DIR/run.json exists. Returns 0 (also when DIR has no ranks: out->mpi
 * stays NULL), RL_ENOMEM, or an error with a message. */
int rl_results_load_ranks(const char *dir, struct rl_run_results *out,
			  char *err, size_t errlen);

void rl_mpi_results_free(struct rl_mpi_results *m);

/* A JSON file a rank may have written (rank.json, run.json, sent.json),
 * parsed, or NULL: what is not a regular file (a FIFO never blocks) or
 * cannot be parsed is as if absent. Shared by the reader and by rank 0
 * of `rlprof run` waiting for the others (run_mpi.c). */
json_t *rl_rank_file_load(const char *path);

#endif
