/*
 * The fuzz targets of `make fuzz` (libFuzzer, tests/fuzz/main_*.c) and of
 * the corpus replay of `make test` (tests/fuzz/test_fuzz_replay.c): one entry
 * per reader, each taking any bytes, never failing, never printing.
 *
 *   results  DIR/raw/rlprof-<pid>.json, DIR/run.json and a second results
 *            file (the input split at form feeds, '\f'), read with
 *            rl_results_load_dir(), then the report built with and
 *            without a machine model and rendered in every format
 *   machine  a machine-model file (rl_machine_load()), then a report of a
 *            fixed run placed against it and rendered
 *   elf      a program file (rl_elf_inspect(), rl_elf_imports(),
 *            rl_elf_isa_level()), the same bytes as a 'rlprof_regions'
 *            section image and as a C name expression
 *   live     a live file of a killed process (.rlprof-<pid>-<hex>.live):
 *            loaded as rlprof run recovers it, written as results and
 *            read back (what recovery writes, the reader must accept)
 *   ranks    a rank-folder tree (the input split at form feeds into
 *            mpi.json, then rank.json and a results file per rank: 0, 1
 *            and one the first byte names), read and rendered
 *   loops    DIR/loops.json (rlprof run --loops) beside a fixed results
 *            file of pid 7, thread 7: read with rl_results_load_dir(),
 *            the report built and rendered with and without a model
 *   report   a saved report.json as rlprof diff and check read it (one
 *            region at a time), diffed against itself and rendered
 *
 * A finding is what ASan or UBSan reports, or a crash.
 */
#ifndef RL_FUZZ_TARGETS_H
#define RL_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

int rl_fuzz_results(const uint8_t *data, size_t size);
int rl_fuzz_machine(const uint8_t *data, size_t size);
int rl_fuzz_elf(const uint8_t *data, size_t size);
int rl_fuzz_live(const uint8_t *data, size_t size);
int rl_fuzz_ranks(const uint8_t *data, size_t size);
int rl_fuzz_report(const uint8_t *data, size_t size);
int rl_fuzz_loops(const uint8_t *data, size_t size);

#endif
