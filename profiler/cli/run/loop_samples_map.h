/*
 * Where the sampled program's code lies (loop_samples.c): the kernel's
 * PERF_RECORD_MMAP of the program's executable segment, written into the
 * samples' ring at its exec (the sampling event has attr.mmap), gives its
 * load bias however short the program ran; /proc/PID/maps, read while it
 * runs, is gone once a program of a few ms has ended.
 */
#ifndef RL_LOOP_SAMPLES_MAP_H
#define RL_LOOP_SAMPLES_MAP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RL_LOOP_MAP_SEGS 4
struct rl_loop_map {
	char real[PATH_MAX];  /* the program's real path, as the kernel names
				 it; "" unknown */
	int position_independent;
	size_t n_seg;         /* its executable PT_LOAD segments: */
	uint64_t seg_off[RL_LOOP_MAP_SEGS];   /* file offset, page-aligned */
	uint64_t seg_vaddr[RL_LOOP_MAP_SEGS]; /* address in the file, likewise */
};

/* m from the program's file; 0, or -1 when it cannot be read (then no
 * record matches). */
int rl_loop_map_prepare(const char *program, struct rl_loop_map *m);

/* A PERF_RECORD_MMAP's body (after its header, size bytes: pid, tid,
 * addr, len, pgoff, filename): 1 with *bias when it maps an executable
 * segment of m's program in process pid, else 0. */
int rl_loop_map_record(const struct rl_loop_map *m, pid_t pid,
		       const unsigned char *body, size_t size, uint64_t *bias);

/* The first such record in the ring buffer of a sampling event (ring:
 * its mapping, the metadata page first; data_len: its data's bytes),
 * the records left in place (a ring read first may hold samples taken
 * before the record of another CPU's ring): 1 with *bias, else 0. */
int rl_loop_map_scan(const struct rl_loop_map *m, pid_t pid, void *ring,
		     size_t data_len, uint64_t *bias);

#endif
