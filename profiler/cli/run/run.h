/*
 * The steps of `rlprof run`; cmd_run.c orchestrates them in this order:
 *   check_program (cmd_run.c)   fills target            reads opt
 *   choose_backend (cmd_run.c)  fills backend           reads opt
 *   rl_run_check_count_with     fills count             reads target, opt,
 *                                                       backend, native
 *   rl_run_check_avx512         (may stop the run)      reads opt, target,
 *                                                       count, backend
 *   rl_run_model_cached         fills model (the cached
 *                               one, never a probe)     reads mpi
 *   rl_run_prepare_dir          fills place             reads opt, native
 *   rl_run_sim_geometry         fills sim               reads opt, backend,
 *                                                       model
 *   rl_run_prepare_launch       fills setup (calls rl_run_compat: compat;
 *                               rl_run_loops_prepare)   reads the run
 *   rl_mpi_launch               fills setup (launcher)  reads opt, target,
 *                                                       place, backend,
 *                                                       native
 *   rl_mpi_after_prepare        (rank.json, mpi.json)   reads mpi, opt,
 *                                                       place, backend
 *   rl_run_selftest             fills selftest          reads opt, backend,
 *                                                       setup
 *   rl_run_roof_check           fills roof_check, pair  reads opt, mpi,
 *                                                       model
 *   rl_run_native, rl_run_spawn_wait, rl_run_repeat     fill native, outcome
 *                               (they swap setup's launches and call the
 *                               --loops hooks: the whole run)
 *   rl_run_recover              reads place, native, outcome
 *   rl_run_recheck_dir          reads place, opt
 *   rl_run_write_record         reads every part
 *   rl_mpi_reports              fills place.out_dir     reads mpi, opt
 *                               (rank 0: the job's)
 *   rl_run_model                fills model (else a
 *                               quick probe now)        reads opt, mpi
 *   rl_run_report               (table, report files)   reads model, opt,
 *                                                       target, outcome,
 *                                                       place, setup,
 *                                                       backend, roof_check
 * rl_mpi_setup (first of all) fills mpi and adapts opt (run_mpi.h); the
 * --loops hooks (run_loops.h) take the whole run. Only run_model.c
 * writes the model.
 *
 * One struct rl_run holds the parts of one run; cmd_run() owns it and
 * releases what it allocated (elf info, launches, model, loops) at the end.
 * A step that reads a part takes it const; the part it fills, not const.
 */
#ifndef RL_RUN_H
#define RL_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cli/backend_choice.h"
#include "inspect/elf_imports.h"
#include "inspect/inspect_elf.h"
#include "counters/launch.h"
#include "cli/run/run_mpi.h"
#include "results/run_results.h"
#include "results/roof_check.h"
#include "formats/selftest.h"

struct rl_machine;

#define RL_MAX_BACKENDS 16
#define RL_RUN_MAX_REPEAT 100 /* --repeat N at most */
/* Without --repeat, a program whose first timing run took under
 * RL_RUN_SHORT_S is timed RL_RUN_DEFAULT_REPEAT times (issue 38: the
 * roofs paired with the runs, every timed figure with its interval; at
 * most 4 x 0.5 s more) */
#define RL_RUN_DEFAULT_REPEAT 5
#define RL_RUN_SHORT_S 0.5

struct rl_run_options {
	const char *out_dir;     /* -o, default "rlprof-out" */
	const char *backend;     /* -b, default "auto" */
	const char *events;      /* --events, NULL when absent */
	const char *sim_caches;  /* --sim-caches */
	const char *sim_bounds;  /* --sim-bounds: "cause", "region" or "raw" */
	const char *sim_timing;  /* --sim-timing: "native" (default) or "sim" */
	const char *count_with;  /* --count-with PROGRAM: counted instead of
				    the timed PROGRAM (sim, native timing) */
	const char *timed_isa;   /* --timed-isa: scalar, sse2, sse, avx2,
				    avx512 (the timed build's ceiling) */
	const char *compat;      /* --compat: auto (default), likwid, papi,
				    none */
	const char *sim_avx512;  /* --sim-avx512: "stop" (default: NULL) or
				    "run" (run_avx512.c) */
	bool quiet, no_probe, plot, per_thread;
	bool loops;              /* --loops: counts per loop (run_loops.h) */
	bool loop_calls;         /* --loop-calls: and each loop's total with
				    the functions it calls (implies loops) */
	bool mpi_rank_only;      /* --mpi-rank-only (run_mpi.h) */
	unsigned repeat;         /* --repeat N: timing runs, default 1, or
				    RL_RUN_DEFAULT_REPEAT for a short
				    program (cmd_run.c) */
	bool repeat_given;       /* --repeat was given */
	int expect_status;       /* --expect-status N: the program's status
				    when it succeeds (default 0) */
	bool verbose;            /* --verbose: the table's long lines whole */
	bool no_selftest;        /* --no-selftest: no known-answer check */
	const char *mpi_calls;   /* --mpi-calls: "out" (default: MPI calls
				    not counted where the backend can pause)
				    or "in" */
	char **argv;             /* PROGRAM ARGS..., NULL-terminated */
	int argc;
};

/* The program (cmd_run.c's check_program): its resolved path, its name for
 * messages and what its ELF file declares. */
struct rl_run_target {
	char program[PATH_MAX];  /* resolved path */
	const char *name;        /* basename of the program, for messages */
	struct rl_elf_info elf;
};

/* Where the run writes (rl_run_prepare_dir). */
struct rl_run_place {
	char out_dir[PATH_MAX];  /* absolute */
	char run_id[RL_RUN_ID_LEN + 1]; /* RLPROF_RUN_ID: this run's files */
	int dir_fd;              /* out_dir, locked (flock) while rlprof runs;
				    -1 before */
	char raw_dir[PATH_MAX];  /* absolute, out_dir/raw */
	char native_dir[PATH_MAX]; /* absolute, out_dir/raw-native (native
				      timing) */
	char lib_dir[PATH_MAX];  /* rlprof's ../lib */
	char libexec_dir[PATH_MAX];
};

/* The counter backend (cmd_run.c's choose_backend). */
struct rl_run_backend {
	struct rl_backend_probe probes[RL_MAX_BACKENDS];
	size_t n_probes;
	int chosen;              /* index into probes */
	char reason[2048];       /* why the chosen backend */
};

/* The chosen backend's name ("sim", "time", "perf"...). */
static inline const char *rl_run_backend_name(const struct rl_run_backend *b)
{
	return b->probes[b->chosen].backend->name;
}

/* The launches (rl_run_prepare_launch, rl_mpi_launch). */
struct rl_run_setup {
	char options[2048];      /* RLPROF_BACKEND_OPTIONS */
	bool whole_program, preloaded;
	char no_preload_why[PATH_MAX + 128];/* when whole_program && !preloaded */
	struct rl_launch launch;
	struct rl_launch native_launch; /* the native timing run's */
};

/* How the program ended (rl_run_spawn_wait; the native timing run leaves
 * it as it was unless a user stopped that run). */
struct rl_run_outcome {
	bool started;
	int spawn_errno;         /* posix_spawn's error when !started */
	pid_t pid;
	int wait_status;
	int exit_status;         /* what rlprof run returns */
	uint64_t start_ns, end_ns;   /* CLOCK_REALTIME */
	uint64_t elapsed_ns;         /* CLOCK_MONOTONIC */
};

/* -b sim with --sim-timing native: the program first runs natively under
 * the time backend, its results into place.native_dir (rl_run_native). */
struct rl_run_native {
	bool timing;             /* there is a timing run (cmd_run.c) */
	bool phase;              /* the spawn is the timing run */
	bool done;               /* the timing run was attempted */
	int exit_status;         /* its exit status (128+N on signal N) */
	int signal;              /* 0, or the signal that ended it */
};

/* --count-with: the build that is counted (the timed one is
 * target.program); timed_isa names the timed build's compute ceiling (""
 * when unknown) and timed_isa_source says where that came from
 * (rl_run_check_count_with). */
struct rl_run_count {
	char program[PATH_MAX];
	struct rl_elf_info elf;
	char timed_isa[16];
	char timed_isa_source[2 * PATH_MAX + 512];
	int timed_fma; /* read from its code: 1 it has FMAs at its widest
			  width, 0 none there, -1 unknown */
};

/* --compat (run_compat.c): the region APIs the program imports and the
 * shims preloaded for them. */
struct rl_run_compat {
	struct rl_elf_imports imports;
	bool imports_read;
	bool likwid, papihl;
	bool mpi_send; /* librlprof-mpi preloaded: results sent to rank 0 at
			  MPI_Finalize (profiler/mpi/) */
};

/* -b sim without --sim-caches: the geometry derived from the machine
 * model, and where each level's size came from (run_sim_geometry.c). */
struct rl_run_sim {
	char caches[128];
	char origin[512];
	bool claims;             /* taken from the claims: no usable model */
};

/* The machine model, obtained once (run_model.c, the only step that
 * fills it): machine is NULL until a usable one was read or probed, why
 * then says why. */
struct rl_run_model {
	struct rl_machine *machine;
	bool tried, probed;
	char why[1280];
};

struct rl_run {
	struct rl_run_options opt;
	struct rl_run_target target;
	struct rl_run_place place;
	struct rl_run_backend backend;
	struct rl_run_setup setup;
	struct rl_run_count count;
	struct rl_run_compat compat;
	struct rl_mpi_run mpi;       /* the role in an MPI job (run_mpi.h) */
	struct rl_run_sim sim;
	struct rl_run_native native;
	struct rl_run_outcome outcome;
	struct rl_run_model model;
	/* the DRAM triad before and after the timing run (run_roof_check.c) */
	struct rl_roof_check roof_check;
	struct rl_run_pair *pair; /* its samples' arrays, NULL none */
	struct rl_run_loops *loops; /* --loops (run_loops.c), NULL without */
	bool no_files;           /* DIR unusable after the run: table only */
	bool no_record;          /* DIR/run.json could not be written */
	/* the known-answer check of a hardware-counted run
	 * (run_selftest.c), zero when it does not apply */
	struct rl_selftest selftest;
};

/* run_selftest.c: before a hardware-counted program (perf, papi, likwid
 * counting flops), the known-answer check through its backend and events
 * into run->selftest; the stderr line says what it found. */
bool rl_run_selftest_applies(const struct rl_run_backend *backend);
void rl_run_selftest(struct rl_selftest *st,
		     const struct rl_run_options *opt,
		     const struct rl_run_backend *backend,
		     const struct rl_run_setup *setup);

/* run_prepare.c */
/* DIR made, locked and emptied of an earlier run's results; raw/ and (for
 * a native timing run) raw-native/ made. */
int rl_run_prepare_dir(struct rl_run_place *place,
		       const struct rl_run_options *opt,
		       const struct rl_run_native *native, char *err,
		       size_t errlen);
int rl_run_prepare_launch(struct rl_run *run, char *err, size_t errlen);
/* After the program: DIR made again if it was removed, and writable?
 * 0, or -1 with the message in err. */
int rl_run_recheck_dir(const struct rl_run_place *place,
		       const struct rl_run_options *opt, char *err,
		       size_t errlen);

/* run_spawn.c: starts setup.launch and waits; fills outcome. */
void rl_run_spawn_wait(struct rl_run *run);

/* The launch of a native timing run of the program under the time
 * backend, its results into raw_dir (run_prepare.c). */
int rl_run_prepare_timing_launch(struct rl_run *run, struct rl_launch *l,
				 const char *raw_dir, char *err, size_t errlen);

/* run_repeat.c: --repeat N: after the profiling run, N-1 more timing runs
 * (native, backend time) into DIR/repeat/K/raw, K = 2..N; the outcome
 * fields stay the profiling run's. A run that fails is warned and left
 * out. Without --repeat, removes an earlier run's DIR/repeat. */
void rl_run_repeat(struct rl_run *run);

/* run_native.c: the timing run (setup.native_launch, place.native_dir)
 * when native.timing; fills native and leaves outcome as before it. Warns when the program failed natively. Returns 1 when a
 * user stopped it (SIGINT, SIGQUIT, SIGTERM, SIGHUP): its outcome and its
 * results (moved into place.raw_dir) are then the run's, native.timing is
 * cleared, and the counting run must not start; else 0. */
int rl_run_native(struct rl_run *run);

/* run_count_with.c: --count-with and --timed-isa checked against the
 * backend, the counted build found and its regions compared with the timed
 * build's (differences warned), the timed build's ISA found (option, else
 * its GNU property note). Returns 0, or an exit status (message said). */
int rl_run_check_count_with(struct rl_run_count *count,
			    const struct rl_run_target *target,
			    const struct rl_run_options *opt,
			    const struct rl_run_backend *choice,
			    const struct rl_run_native *native);

/* run_avx512.c: with -b sim, the build the simulator would run (PROGRAM
 * or --count-with's) and its own libraries read for AVX-512 code before
 * anything runs; where there is some, the functions, the rebuild and the
 * --count-with line said. Returns 0 to go on (none, or --sim-avx512
 * run: a warning), else RL_EXIT_SIM_AVX512. */
int rl_run_check_avx512(const struct rl_run_options *opt,
			const struct rl_run_target *target,
			const struct rl_run_count *count,
			const struct rl_run_backend *backend);

/* run_compat.c: reads the program's imports once; with --compat auto
 * (or likwid/papi) adds the shims for LIKWID's marker API and PAPI's
 * high-level API to l's LD_PRELOAD and sets compat->likwid/papihl. */
int rl_run_compat(struct rl_run_compat *compat,
		  const struct rl_run_target *target,
		  const struct rl_run_options *opt,
		  const struct rl_run_place *place,
		  const struct rl_mpi_run *mpi, struct rl_launch *l, char *err,
		  size_t errlen);
/* The program marks regions some way (records, imports, a shim). */
bool rl_run_has_regions(const struct rl_run_compat *compat,
			const struct rl_run_target *target);

/* run_sim_geometry.c: for -b sim without --sim-caches, the geometry
 * into sim->caches and sim->origin: from the machine model (the cached
 * one: rl_run_model_cached ran before, never a probe) when one is usable, else from what
 * the machine claims (sysfs, CPUID: machine_claims.h), the reason said. 0, or RL_ENOENT with the message
 * only when neither knows even an L1 (the run then fails: --sim-caches
 * is required). */
int rl_run_sim_geometry(struct rl_run_sim *sim,
			const struct rl_run_model *model,
			const struct rl_run_options *opt,
			const struct rl_run_backend *backend, char *err,
			size_t errlen);

/* run_model.c: the machine model, obtained on the first call and kept
 * (the cached one, else a quick probe unless --no-probe, under a lock;
 * under MPI with the node's CPUs: see the file).
 * NULL when none is usable: model->why says why. */
const struct rl_machine *rl_run_model(struct rl_run_model *model,
				      const struct rl_run_options *opt,
				      const struct rl_mpi_run *mpi);
/* The cached model only (never probes): NULL when none is cached (a later
 * rl_run_model may still probe) or it is unusable; model->why says why. */
const struct rl_machine *rl_run_model_cached(struct rl_run_model *model,
					     const struct rl_mpi_run *mpi);
/* A cached model probed under load (load average at least one per CPU)
 * measured again (--quick, under the lock, cached) when the machine is
 * quieter now (under half one per CPU, and half the probe's): its roofs
 * read low, and every later run would be placed against them. Not with
 * --no-probe, nor under MPI. Said on stderr. */
#define RL_MODEL_LOADED_PER_CPU 1.0
#define RL_MODEL_QUIET_PER_CPU 0.5
void rl_run_model_refresh(struct rl_run_model *model,
			  const struct rl_run_options *opt,
			  const struct rl_mpi_run *mpi);
void rl_run_model_release(struct rl_run_model *model);
/* run_roof_check.c: one point of the paired DRAM samples (issue 38):
 * the triad and a read on all threads and on 1, at most
 * RL_PAIR_BUDGET_S / points and 0.12 s, kept in c->samples;
 * after_run 0 (before the first timing run) and 1 (after it) also give
 * the check c->before_gbs and after_gbs against the DRAM roof of
 * model->machine (the cached model, read before the program), and the
 * core's clock. When it cannot be taken, c->why_not
 * says why, and where its memory or threads could not be had (a limit,
 * a model's absurd cache) one progress line says so. Never waits on a
 * worker that did not start. */
struct rl_run_pair; /* the samples' arrays, kept from point to point */
void rl_run_roof_check(struct rl_roof_check *c, struct rl_run_pair **pair,
		       const struct rl_run_model *model,
		       const struct rl_run_options *opt,
		       const struct rl_mpi_run *mpi, unsigned after_run,
		       unsigned points);
/* Frees *pair (NULL after). */
void rl_run_pair_release(struct rl_run_pair **pair);
/* The sample points a run of `runs` timing runs takes: before the first
 * and after at most RL_PAIR_POINTS - 1 of them (cmd_run.c, run_repeat.c) */
unsigned rl_run_pair_points(unsigned runs);
/* Whether the sample point after timing run k of runs is taken. */
bool rl_run_pair_after(unsigned k, unsigned runs);
/* The model file's path as rl_run_model sees it (under MPI: the node's,
 * whatever this rank's binding). 0 or a negative code. */
int rl_run_model_path(const struct rl_mpi_run *mpi, char *buf, size_t len);

/* run_recover.c: after the program, each live file of a process that
 * died without writing its results (SIGKILL, OOM killer, _exit()) becomes
 * its results file, with warnings; live files are removed. */
void rl_run_recover(const struct rl_run_place *place,
		    const struct rl_run_native *native,
		    const struct rl_run_outcome *outcome);

/* run_record.c: DIR/run.json, from every part of the run. */
int rl_run_write_record(const struct rl_run *run, char *err, size_t errlen);

/* run_report.c: loads results (or synthesises them), places them against
 * the machine model (model->machine, that rl_run_model obtained; stored
 * into DIR), prints the table and writes the report files. no_files: DIR
 * is unusable (the table only); no_record: run.json could not be written.
 * Returns 0, or -1 when the results could not be read, no report could be
 * built or a report file could not be written (already said on stderr). */
int rl_run_report(const struct rl_run_model *model,
		  const struct rl_run_options *opt,
		  const struct rl_run_target *target,
		  const struct rl_run_outcome *outcome,
		  const struct rl_run_place *place,
		  const struct rl_run_setup *setup,
		  const struct rl_run_backend *backend,
		  const struct rl_roof_check *roof_check, bool no_files,
		  bool no_record);

/* run_say.c: a progress line ("rlprof: ...", not with --quiet) and a
 * warning ("rlprof: warning: ..."), both on stderr. */
void rl_run_say(const struct rl_run_options *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rl_run_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
