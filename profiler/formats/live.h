/*
 * The live results file, DIR/raw/.rlprof-<pid>-<16 random hex>.live
 * (created new with O_EXCL|O_NOFOLLOW: no link planted at a guessed name
 * is followed): the runtime's
 * per-thread region records kept in a file mapped with MAP_SHARED, so
 * they outlive the process however it ends (SIGKILL, the out-of-memory
 * killer, _exit()). The runtime updates the records with plain stores at
 * each region begin and end; at a normal exit or a caught signal it
 * writes rlprof-<pid>.json as before and removes the live file. When the
 * process died without that, `rlprof run` turns the live file into the
 * JSON results (profiler/results/results_live.c, profiler/cli/run/run_recover.c).
 *
 * Layout (native byte order; the reader checks the version, the counter
 * count and the setup size, so a file from another build is refused):
 *   header (header_size bytes, struct rl_live_header)
 *   blocks, one after another: struct rl_live_block, then records up to
 *   `used` bytes, each a struct rl_rec of `size` bytes (64-aligned):
 *     rl_rec, n_prov x rl_counter_value, rl_rec_tail, name, NUL.
 * A block belongs to one thread. Its header is written, under the
 * runtime's lock, before the block is used; `used` grows (release store)
 * after each record is complete, so a reader never sees half a record.
 * A block whose magic is not RL_LIVE_BLOCK_MAGIC ends the list.
 */
#ifndef RL_RT_LIVE_H
#define RL_RT_LIVE_H

#include <stdint.h>

#include "formats/counter_ids.h"

#define RL_LIVE_MAGIC "RLPLIVE"  /* 8 bytes with its NUL */
#define RL_LIVE_VERSION 5 /* 2: run_id; 3: rl_rec_tail.depth; 4:
				   mpi_ticks, mpi_calls; 5: clock_reads */
#define RL_LIVE_BLOCK_MAGIC 0x314b4c42u /* "BLK1" */
#define RL_LIVE_PREFIX ".rlprof-"
#define RL_LIVE_SUFFIX ".live"

struct rl_live_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;    /* blocks start here */
	uint32_t counter_count;  /* RL_COUNTER_COUNT of the writer */
	uint32_t setup_size;     /* sizeof(struct rl_backend_setup) */
	uint32_t n_prov;         /* counters per record: the set bits of
				    setup.provided, in counter order */
	uint32_t rec_align;
	int64_t pid, ppid;
	uint64_t start_ns;       /* CLOCK_REALTIME at start */
	uint64_t tick_mult;      /* ns = ticks * tick_mult >> 32 */
	char backend[64];
	char program[1024];
	struct rl_backend_setup setup;
	char run_id[40];         /* RLPROF_RUN_ID, NUL-terminated ("" none) */
	uint32_t mpi_calls;      /* enum rl_mpi_calls (formats/results.h),
				    set when librlprof-mpi is loaded */
	uint32_t reserved;
};

struct rl_live_block {
	uint32_t magic;          /* RL_LIVE_BLOCK_MAGIC */
	uint32_t thread_index;
	uint64_t tid;
	uint64_t size;           /* bytes of the block, this header included */
	uint64_t used;           /* bytes of complete records, from the block
				    start (RL_LIVE_BLOCK_HEAD when none) */
	uint64_t reserved[4];
};
#define RL_LIVE_BLOCK_HEAD 64

/* A region's figures in one thread: plain integers, updated with plain
 * stores at each begin and end. Followed by n_prov counter sums (struct
 * rl_counter_value: value, enabled_ns, running_ns), then struct
 * rl_rec_tail, then the name and its NUL; the whole record is
 * RL_REC_ALIGN-aligned so its hot first line is one cache line. */
#define RL_REC_ALIGN 64
struct rl_rec {
	uint64_t calls;
	uint64_t ticks;    /* clock ticks inside the region */
	uint64_t open;     /* begins not (yet) ended */
	uint32_t size;     /* bytes of the whole record */
	uint32_t name_len;
	struct rl_counter_value c[];
};
struct rl_rec_tail {
	double expected_flops, expected_bytes; /* RL_REGION_EXPECT sums */
	uint64_t expect_calls;
	uint64_t depth;    /* most activations open at once on the thread
			      (recursion); 0 or 1: never entered while open */
	uint64_t mpi_ticks; /* clock ticks inside MPI calls made while the
			      region was open (outermost activations) */
	uint64_t clock_reads; /* the program's clock reads while it was open
				 (outermost activations, rt_clock_reads.c) */
};

static inline struct rl_rec_tail *rl_rec_tail_n(struct rl_rec *r,
						size_t n_prov)
{
	return (struct rl_rec_tail *)(void *)&r->c[n_prov];
}

static inline char *rl_rec_name_n(struct rl_rec *r, size_t n_prov)
{
	return (char *)(rl_rec_tail_n(r, n_prov) + 1);
}

/* Bytes of a record with n_prov counters for a name of len bytes. */
static inline size_t rl_rec_size_n(size_t len, size_t n_prov)
{
	size_t n = sizeof(struct rl_rec) +
		   n_prov * sizeof(struct rl_counter_value) +
		   sizeof(struct rl_rec_tail) + len + 1;
	return (n + RL_REC_ALIGN - 1) & ~(size_t)(RL_REC_ALIGN - 1);
}

#endif
