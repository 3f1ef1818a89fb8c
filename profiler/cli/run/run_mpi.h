/*
 * rlprof run and MPI (run_mpi.c): which role this rlprof plays in an MPI
 * job, and what each role does differently.
 *
 *  - RL_MPI_RANK: `mpirun -np N rlprof run -o DIR ./app` (rlprof under each
 *    rank, found from Open MPI's, PMIx's or PMI's environment). Rank r
 *    profiles its process into DIR/rank-<r>/ (its own raw/, run.json and
 *    rank.json: nothing shared is written); ranks other than 0 print no
 *    progress and no table. Rank 0 then waits for the others' run.json
 *    (same job id) and writes the one merged report into DIR.
 *  - RL_MPI_RANK_ONLY: the same under `rlprof run -- mpirun ...` (hidden
 *    option --mpi-rank-only, set by the launcher role): no rank merges.
 *  - RL_MPI_LAUNCHER: `rlprof run -o DIR -- mpirun [opts] ./app args`.
 *    The launch becomes `mpirun [opts] rlprof run --mpi-rank-only -o DIR
 *    -b B ... -- ./app args`, so every backend works per rank; with -b sim
 *    and native timing the job runs twice (a native job into DIR/native,
 *    then the simulated one). After mpirun, this rlprof merges. With
 *    --loops each rank finds and counts its loops; a rank of the native
 *    job keeps its samples per loop in DIR/native/rank-<r>/raw/
 *    loop-samples.json, which the simulated job's rank r pairs with its
 *    counts (run_loops.c), so each rank's loops.json has both.
 *
 * Reading the rank directories back is results_ranks.c's.
 */
#ifndef RL_RUN_MPI_H
#define RL_RUN_MPI_H

#include <limits.h>
#include <stdbool.h>

enum rl_mpi_mode {
	RL_MPI_NONE = 0,
	RL_MPI_RANK,
	RL_MPI_RANK_ONLY,
	RL_MPI_LAUNCHER,
};

struct rl_mpi_run {
	int mode;                  /* enum rl_mpi_mode */
	long rank, size;           /* -1 unknown */
	char source[40];           /* which variable gave the rank */
	char job[128];             /* job id shared by the ranks, "" unknown */
	char host[256];
	char job_dir[PATH_MAX];    /* the user's -o DIR, as given */
	char rank_dir[PATH_MAX];   /* DIR/rank-<r>: this rank's -o */
	long np;                   /* launcher: -np N, -1 not given */
	int app_index;             /* launcher: argv index of the program */
	char self[PATH_MAX];       /* launcher: this rlprof's path */
};

struct rl_run_options;
struct rl_run_target;
struct rl_run_place;
struct rl_run_backend;
struct rl_run_setup;
struct rl_run_native;

/* Before anything else: finds the role (rank environment, the hidden
 * option, or a launcher as PROGRAM) and adapts the options (rank
 * directory, quiet ranks). Returns 0, or an exit status > 0 after saying
 * why on stderr. */
int rl_mpi_setup(struct rl_mpi_run *m, struct rl_run_options *opt);

/* After rl_run_prepare_dir(): the rank's rank.json, or the launcher's
 * cleaning of DIR/rank-* and DIR/native of an earlier run. */
void rl_mpi_after_prepare(const struct rl_mpi_run *m,
			  const struct rl_run_options *opt,
			  const struct rl_run_place *place,
			  const struct rl_run_backend *backend);

/* After rl_run_prepare_launch(): the launcher role's launches into setup
 * (and m->self, the rlprof they run). 0 or -1 with the message in err. */
int rl_mpi_launch(struct rl_mpi_run *m, struct rl_run_setup *setup,
		  const struct rl_run_options *opt,
		  const struct rl_run_target *target,
		  const struct rl_run_place *place,
		  const struct rl_run_backend *backend,
		  const struct rl_run_native *native, char *err, size_t errlen);

/* Whether this rlprof writes the report (not a rank other than 0, not a
 * rank under rlprof around the launcher). Waits for the other ranks when
 * it is rank 0 and points place->out_dir at the job directory. */
bool rl_mpi_reports(const struct rl_mpi_run *m,
		    const struct rl_run_options *opt,
		    struct rl_run_place *place);

/* The "mpi" object of run.json (a jansson json_t *), or NULL outside MPI. */
void *rl_mpi_record(const struct rl_mpi_run *m);

/* Is `name` (a path or a basename) an MPI launcher rlprof knows? */
bool rl_mpi_is_launcher(const char *name);

/* The index in argv[0..argc) of the program an Open MPI mpirun command
 * line starts (argv[0] is the launcher), or -1. *np receives -np/-n/-c N
 * (or -1). */
int rl_mpi_find_program(char *const *argv, int argc, long *np);

#endif
