/*
 * Probe recordings on disk: JSON, format "rlprof-probe-recording",
 * version 1 (probes/recording.h holds the struct; docs/formats.md,
 * "Probe recording", the format with an example). `rlprof probe --levels --json` writes one,
 * `rlprof probe --replay FILE` reads one, probes/machines/ keeps one per
 * machine the project has met.
 *
 *   {"format": "rlprof-probe-recording", "version": 1,
 *    "machine": "amd-zen4-kvm-2vcpu", "cpu_model": "AMD EPYC",
 *    "cpus": 2, "mem_bytes": 25232932864, "isa": "avx512-fma",
 *    "quick": false, "loadavg1": 0.34, "loadavg1_end": null,
 *    "recorded_at": "2026-12-04T02:11:15Z", "source": "...",
 *    "claims": {"source": "sysfs", "caches": [
 *      {"level": 1, "type": "D", "size_bytes": 32768, "ways": 8,
 *       "line_bytes": 64, "shared_cpus": 1}, ...]},
 *    "points": [
 *      {"threads": 1, "op": "triad", "sweep": true, "bytes": 12288,
 *       "best_gbs": 265.4, "trials": [260.1, 265.4, ...]}, ...]}
 *
 * bytes: working set per thread (3 arrays, 24 B per element); GB/s: all
 * threads together, 24 B per element; op: triad, triad_nt, read, fill,
 * fill_nt; sweep: true for the working-set sweep (triad), false for a
 * level measurement; trials may be empty (a recording converted from a
 * printed sweep keeps only each point's best). Unknown keys are ignored;
 * a newer version is refused.
 */
#ifndef RL_PROBE_RECORDING_FILE_H
#define RL_PROBE_RECORDING_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "probes/recording.h"

/* Writes the recording as JSON (indented) to `out`. */
int rl_rec_write(FILE *out, const struct rl_probe_recording *r, char *err,
		 size_t errlen);
/* Reads a recording; RL_ENOENT when the file cannot be opened,
 * RL_EFORMAT when it is not a recording (message names the file and
 * what is wrong), RL_EVERSION when it is from a newer rlprof. */
int rl_rec_load(const char *path, struct rl_probe_recording *r, char *err,
		size_t errlen);

#endif
