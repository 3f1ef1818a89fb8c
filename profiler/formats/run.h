/*
 * The run description, DIR/run.json: what `rlprof run` ran and how (the
 * command, the backend and why, the exit status, the roof check around
 * the run). Written by cli/run/run_record.c, read back by
 * results/results_dir.c for the report; every member is optional to the
 * reader. The schema is in docs/formats.md, "Run description".
 */
#ifndef RL_FORMATS_RUN_H
#define RL_FORMATS_RUN_H

#define RL_RUN_FORMAT "rlprof-run"
#define RL_RUN_VERSION 1

#endif
