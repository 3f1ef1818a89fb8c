/*
 * The hot loops of `rlprof run --loops`, DIR/loops.json: every loop of
 * the counted program with its counts (self and inclusive, simulated),
 * its place in the source and in the nest, and its sampled time. Written
 * by cli/run/run_loops.c, read by results/results_loops.c for the report;
 * schema formats/loops.schema.json, described in docs/formats.md
 * ("Hot loops"). A file without "format" is an earlier rlprof's (read as
 * version 0).
 */
#ifndef RL_FORMATS_LOOPS_H
#define RL_FORMATS_LOOPS_H

#define RL_LOOPS_FORMAT "rlprof-loops"
#define RL_LOOPS_VERSION 1

#endif
