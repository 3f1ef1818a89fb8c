/*
 * The counter backend interface: one const struct of function pointers per
 * backend, in a file of its own, registered by one line in registry.c
 * (after PAPI's papi_vector and SQLite's sqlite3_vfs). The struct only grows
 * at the end; abi says which fields a backend fills.
 *
 * Two sides use a backend:
 *  - the rlprof command: probe() to say whether it works here and why not,
 *    prepare_launch() to wrap the program (e.g. under Valgrind);
 *  - the runtime inside the profiled process (librlprof): init() once,
 *    then per thread thread_open() lazily at the thread's first region,
 *    read() at every region begin and end, thread_close() at thread exit,
 *    fini() at process exit.
 *
 * read() returns cumulative values since thread_open(); the runtime takes
 * differences between begin and end, so nesting is inclusive for free.
 *
 * Ownership: the runtime allocates thread_state_size zeroed bytes per
 * thread and frees them after thread_close(). A backend keeps no pointer to
 * caller buffers. Every function returns 0 or a negative RL_E* code and, on
 * failure, a one-line message in err.
 */
#ifndef RL_BACKEND_H
#define RL_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "formats/counter_ids.h"
#include "common/rl_error.h"

#define RL_BACKEND_ABI 1


/* What a backend can do on this machine, best last; `auto` takes the
 * best working backend, earlier in registry order on a tie. */
enum rl_capability {
	RL_CAP_NONE = 0,        /* does not work here */
	RL_CAP_TIME = 1,        /* wall clock only */
	RL_CAP_SOFTWARE = 2,    /* kernel software events, no flops/bytes */
	RL_CAP_FLOPS = 3,       /* flops counted, bytes not */
	RL_CAP_FLOPS_BYTES = 4, /* flops and DRAM bytes counted */
};


/* The program rlprof run is about to start; prepare_launch() may change it
 * with the helpers below (in counters/launch.c). */
struct rl_launch {
	char **argv;              /* NULL-terminated, owned by the launch */
	size_t argc, argv_cap;
	char **env;               /* extra NAME=VALUE entries, owned */
	size_t envc, env_cap;
	const char *libexec_dir;  /* where rlprof's helpers live (absolute) */
	const char *options;      /* backend options from the command line */
	const char *raw_dir;      /* DIR/raw: where results and logs go */
};
int rl_launch_prepend(struct rl_launch *l, const char *const *args, size_t n);
int rl_launch_setenv(struct rl_launch *l, const char *name, const char *value);

struct rl_backend {
	unsigned abi;            /* RL_BACKEND_ABI when written */
	const char *name;        /* "perf", "papi", "likwid", "sim", "time" */
	const char *summary;     /* one line for `rlprof counters` */
	size_t thread_state_size;

	/* Does it work here? Returns an enum rl_capability (>= 0) and, below
	 * RL_CAP_FLOPS_BYTES, why not (one line in why). Cheap, no side
	 * effects; runs in the rlprof command. */
	int (*probe)(char *why, size_t whylen);

	/* In the profiled process, once, before any thread_open(). options is
	 * the RLPROF_BACKEND_OPTIONS string ("" when none). */
	int (*init)(const char *options, struct rl_backend_setup *setup,
		    char *err, size_t errlen);
	int (*thread_open)(void *state, char *err, size_t errlen);
	/* Fill values[c] for every provided counter c; others untouched. Must
	 * be cheap and must not allocate: it runs at every region bound. */
	int (*read)(void *state, struct rl_counter_value *values);
	void (*thread_close)(void *state);
	void (*fini)(void);

	/* In rlprof run, before the program starts; NULL for most backends. */
	int (*prepare_launch)(struct rl_launch *launch, char *err,
			      size_t errlen);

	/* In rlprof run, after the program ended abnormally (wait_status as
	 * from waitpid): write one line saying what happened and what to do
	 * (e.g. the simulator met an AVX-512 instruction) and return 1, or
	 * return 0 when there is nothing to add. NULL allowed. */
	int (*explain_exit)(const char *raw_dir, int wait_status, char *msg,
			    size_t msglen);

	/* In the profiled process: like read(), but cumulative over every
	 * thread of the process, exited ones included (for regions of process
	 * scope, profiler/runtime/rt_scope.c). NULL: the backend counts the
	 * calling thread only. */
	int (*read_process)(struct rl_counter_value *values);

	/* In the profiled process: the calling thread stops counting
	 * (pause 1) and counts again (pause 0); what it did in between is in
	 * none of its counts nor the process's, as if never counted (the
	 * work of MPI calls, under librlprof-mpi's PMPI wrappers). Nests.
	 * NULL: the backend cannot (MPI calls stay in the counts). */
	void (*pause)(int pause);

	/* In the profiled process: the calling thread enters region name
	 * (NULL: leaves its innermost one), for a backend that counts per
	 * loop and region (the simulator). scoped: the call is of process
	 * scope (runtime/rt_scope.h: the main thread's, outside a parallel
	 * region), so the threads with no region of their own open run in
	 * it too, as the region's counts hold their work. NULL: not told. */
	void (*region)(const char *name, int scoped);
};

/* The registry (registry.c): backends in `auto` preference order. */
size_t rl_backend_count(void);
const struct rl_backend *rl_backend_at(size_t i);
const struct rl_backend *rl_backend_find(const char *name); /* NULL if none */
const char *rl_capability_name(int cap);

#endif
