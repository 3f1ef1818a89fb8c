/*
 * The subcommands of the rlprof command, one file each (after perf's
 * builtin-*.c): `int cmd_<name>(int argc, char **argv)` gets the arguments
 * after the command name with argv[0] = the command name, prints to the
 * user and returns the process exit status.
 *
 * Exit statuses of every command: 0 ok, 1 failure, 2 usage error (check
 * and compare: 3 not enough evidence to decide);
 * `rlprof run` returns the profiled program's own status (128+N when it
 * died of signal N, 127 program not found, 126 not executable, 3 when
 * -b sim would count a build with AVX-512 code: nothing run).
 */
#ifndef RL_COMMANDS_H
#define RL_COMMANDS_H

#define RL_EXIT_OK 0
#define RL_EXIT_FAILURE 1
#define RL_EXIT_USAGE 2
#define RL_EXIT_SIM_AVX512 3
#define RL_EXIT_UNSURE 3 /* check, compare: not enough evidence */
#define RL_EXIT_NOEXEC 126
#define RL_EXIT_NOTFOUND 127

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);   /* cmd_report.c (report) */
int cmd_inspect(int argc, char **argv);
int cmd_counters(int argc, char **argv);
int cmd_probe(int argc, char **argv);    /* cmd_probe.c (probes) */
int cmd_diff(int argc, char **argv);     /* cmd_diff.c */
int cmd_check(int argc, char **argv);    /* cmd_check.c (CI gate) */
int cmd_compare(int argc, char **argv);  /* cmd_compare.c (the gate, one
					    command) */

/* "0.1" from rlprof.h */
const char *rl_version_string(void);

/* Resolves a program name like execvp: a name with a '/' as is, else the
 * first executable regular file of that name in $PATH. Returns 0 and the
 * path in buf, or RL_EXIT_NOTFOUND / RL_EXIT_NOEXEC with a one-line
 * message (for "rlprof: ...") in msg. */
int rl_resolve_program(const char *name, char *buf, size_t len, char *msg,
		       size_t msglen);

#endif
