/*
 * Writing a whole file so that no reader ever sees a part of it: the bytes
 * go to a temporary file beside it (".NAME.tmp-PID"), which is renamed over
 * NAME only once everything is written and closed. On failure the temporary
 * file is removed, NAME is left as it was, and err says the system's own
 * reason (ENOSPC: "No space left on device"). What is not a regular file
 * (/dev/stdout, a FIFO) is written straight, never replaced; a symbolic
 * link stays one (the file it names is replaced).
 */
#ifndef RL_FILE_WRITE_H
#define RL_FILE_WRITE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* data[0..len) into path, created with mode 0666 & ~umask. Returns 0, or
 * RL_EIO (a full disk among others), RL_EPERM, RL_ENOENT, RL_EINVAL with
 * the message in err: "cannot write 'PATH': STRERROR". */
int rl_file_write(const char *path, const void *data, size_t len, char *err,
		  size_t errlen);

/* The same, returning 0 or -errno, for a caller that words the message. */
int rl_file_write_errno(const char *path, const void *data, size_t len);
/* The same as a stream, for what is too big to hold in memory:
 * rl_file_open() gives o->f, on the temporary file (or on path itself when
 * it is not a regular file); rl_file_commit() closes it and renames it over
 * path, or removes it when a write failed; rl_file_discard() closes and
 * removes it (path untouched). Each returns 0 or -errno. */
struct rl_file_out {
	FILE *f;
	char tmp[PATH_MAX + 64]; /* "" when written straight */
	char path[PATH_MAX];
};
int rl_file_open(const char *path, struct rl_file_out *o);
int rl_file_commit(struct rl_file_out *o);
void rl_file_discard(struct rl_file_out *o);

/* The RL_E* code of an errno value. */
int rl_file_errno_code(int e);

#endif
